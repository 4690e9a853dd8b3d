"""What a LLaMA-style GGUF file's metadata says, checked before anything is built from it.

A file is only bytes someone wrote: every number the model is built from is range-checked here,
and every count is compared with the tensors the file really holds before a single weight is
read, so a file that claims two billion layers in 20 KB is refused at once, in bounded memory.
Each problem is one ModelFileError naming the file, the entry and what was found.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attn_desktop.language import tr


class ModelFileError(ValueError):
    """A model file that cannot be used, with what was found."""


@dataclass(frozen=True)
class LlamaConfig:
    name: str
    layer_count: int
    head_count: int
    kv_head_count: int
    width: int          # d_model
    head_width: int     # the width of one head's q, k and v
    ffn_width: int
    vocab_size: int
    rope_base: float
    rms_epsilon: float
    context_length: int


MAX_RMS_EPSILON = 1.0  # RMSNorm's ε keeps a division away from zero: 1e-5 or 1e-6 in every LLaMA
MAX_NAME_CHARS = 100
TOKENIZER = "tokenizer.ggml."
TOKEN_IDS = ("bos_token_id", "eos_token_id", "unknown_token_id", "padding_token_id")


def llama_config(metadata: dict[str, Any], shown: str) -> LlamaConfig:
    """The hyperparameters of METADATA, each within the range a LLaMA model can be run with."""
    entries = _Entries(metadata, shown)
    width = entries.whole("llama.embedding_length")
    head_count = entries.whole("llama.attention.head_count")
    kv_head_count = entries.whole("llama.attention.head_count_kv", head_count)
    if width % head_count or head_count % kv_head_count:
        raise ModelFileError(tr("{file}: {heads} heads and {kv_heads} key/value heads do not fit width {width}").format(
            file=shown, heads=f"{head_count:,}", kv_heads=f"{kv_head_count:,}", width=f"{width:,}"))
    head_width = width // head_count
    if head_width % 2:
        raise ModelFileError(tr("{file}: heads {width} numbers wide; RoPE turns pairs, so a head's width must be "
                                "even").format(file=shown, width=head_width))
    if entries.whole("llama.rope.dimension_count", head_width) != head_width:
        raise ModelFileError(tr("{file}: RoPE on part of each head is not supported").format(file=shown))
    scaling = metadata.get("llama.rope.scaling.type", "none")
    if scaling not in ("none", None):
        raise ModelFileError(tr("{file}: RoPE scaling {scaling} is not supported").format(
            file=shown, scaling=_described(scaling)))
    tokens = metadata.get(TOKENIZER + "tokens")
    return LlamaConfig(
        name=_name(metadata.get("general.name"), shown),
        layer_count=entries.whole("llama.block_count"),
        head_count=head_count,
        kv_head_count=kv_head_count,
        width=width,
        head_width=head_width,
        ffn_width=entries.whole("llama.feed_forward_length"),
        vocab_size=entries.whole("llama.vocab_size", len(tokens) if isinstance(tokens, list) and tokens else None),
        rope_base=entries.positive("llama.rope.freq_base", 10000.0),
        rms_epsilon=entries.positive("llama.attention.layer_norm_rms_epsilon", upper=MAX_RMS_EPSILON),
        context_length=entries.whole("llama.context_length"),
    )


def check_vocabulary(metadata: dict[str, Any], config: LlamaConfig, shown: str) -> None:
    """The tokenizer's entries: lists of the right kinds and lengths, special ids within the vocabulary."""
    tokens = metadata.get(TOKENIZER + "tokens")
    if not isinstance(tokens, list) or not tokens or not all(isinstance(token, str) for token in tokens):
        raise ModelFileError(tr("{file}: the metadata entry {key} should be a list of texts; it is {value}").format(
            file=shown, key=TOKENIZER + "tokens", value=_described(tokens)))
    if len(tokens) > config.vocab_size:
        raise ModelFileError(tr("{file}: the tokenizer has {count} tokens but the model only {size} "
                                "(llama.vocab_size)").format(file=shown, count=f"{len(tokens):,}",
                                                             size=f"{config.vocab_size:,}"))
    merges = metadata.get(TOKENIZER + "merges")
    if merges is not None and not (isinstance(merges, list) and all(isinstance(merge, str) for merge in merges)):
        raise ModelFileError(tr("{file}: the metadata entry {key} should be a list of texts; it is {value}").format(
            file=shown, key=TOKENIZER + "merges", value=_described(merges)))
    types = metadata.get(TOKENIZER + "token_type")
    if types is not None and not (isinstance(types, list) and all(_is_whole(kind) for kind in types)):
        raise ModelFileError(tr("{file}: the metadata entry {key} should be a list of whole numbers; it is "
                                "{value}").format(file=shown, key=TOKENIZER + "token_type", value=_described(types)))
    if types is not None and len(types) != len(tokens):
        raise ModelFileError(tr("{file}: {key} has {count} entries for {tokens} tokens").format(
            file=shown, key=TOKENIZER + "token_type", count=f"{len(types):,}", tokens=f"{len(tokens):,}"))
    entries = _Entries(metadata, shown)
    for key in TOKEN_IDS:
        if metadata.get(TOKENIZER + key) is not None:
            entries.whole(TOKENIZER + key, lowest=0, highest=len(tokens) - 1)
    for key in ("add_bos_token", "add_eos_token"):
        if not isinstance(metadata.get(TOKENIZER + key, False), bool):
            raise ModelFileError(tr("{file}: the metadata entry {key} should be true or false; it is {value}").format(
                file=shown, key=TOKENIZER + key, value=_described(metadata[TOKENIZER + key])))


LAYER_TENSOR = re.compile(r"blk\.(\d+)\.")


def check_layout(shapes: dict[str, tuple[int, ...]], config: LlamaConfig, shown: str) -> None:
    """The tensors the file holds (name → shape, rows first) against what CONFIG needs, before any is read.

    The layer count is compared with the layers present first, so the list of expected tensors is
    never longer than the file's own list.
    """
    present = {int(match.group(1)) for name in shapes if (match := LAYER_TENSOR.match(name))}
    if config.layer_count > len(present):
        raise ModelFileError(tr("{file}: llama.block_count says {count} layers, but the file holds the weights of "
                                "{present}").format(file=shown, count=f"{config.layer_count:,}",
                                                    present=f"{len(present):,}"))
    for name, shape in expected_shapes(config, has_output="output.weight" in shapes).items():
        if name not in shapes:
            raise ModelFileError(tr("{file}: the tensor {tensor} is missing").format(file=shown, tensor=name))
        if shapes[name] != shape:
            raise ModelFileError(tr("{file}: the tensor {tensor} has shape {shape}, expected {expected}").format(
                file=shown, tensor=name, shape=shapes[name], expected=shape))


def expected_shapes(config: LlamaConfig, has_output: bool) -> dict[str, tuple[int, ...]]:
    c = config
    kv_width = c.kv_head_count * c.head_width
    expected = {"token_embd.weight": (c.vocab_size, c.width), "output_norm.weight": (c.width,)}
    for layer in range(c.layer_count):
        expected |= {
            f"blk.{layer}.attn_norm.weight": (c.width,),
            f"blk.{layer}.attn_q.weight": (c.width, c.width),
            f"blk.{layer}.attn_k.weight": (kv_width, c.width),
            f"blk.{layer}.attn_v.weight": (kv_width, c.width),
            f"blk.{layer}.attn_output.weight": (c.width, c.width),
            f"blk.{layer}.ffn_norm.weight": (c.width,),
            f"blk.{layer}.ffn_gate.weight": (c.ffn_width, c.width),
            f"blk.{layer}.ffn_up.weight": (c.ffn_width, c.width),
            f"blk.{layer}.ffn_down.weight": (c.width, c.ffn_width),
        }
    if has_output:
        expected["output.weight"] = (c.vocab_size, c.width)
    return expected


class _Entries:
    """Reading one metadata entry as a number in a range, or one line saying what it is instead."""

    def __init__(self, metadata: dict[str, Any], shown: str) -> None:
        self.metadata, self.shown = metadata, shown

    def _value(self, key: str, default: float | None) -> Any:
        value = self.metadata.get(key, default)
        if isinstance(value, list) and key.startswith("llama."):  # some converters store per-layer lists
            value = value[0] if value else default
        if value is None:
            raise ModelFileError(tr("{file}: the metadata entry {key} is missing").format(file=self.shown, key=key))
        return value

    def whole(self, key: str, default: int | None = None, lowest: int = 1, highest: int | None = None) -> int:
        value = self._value(key, default)
        if not _is_whole(value):
            raise ModelFileError(tr("{file}: the metadata entry {key} should be a whole number; it is {value}").format(
                file=self.shown, key=key, value=_described(value)))
        if value < lowest or (highest is not None and value > highest):
            problem = (tr("{file}: {key} is {value}; it should be at least {lowest}") if highest is None
                       else tr("{file}: {key} is {value}; it should be from {lowest} to {highest}"))
            raise ModelFileError(problem.format(file=self.shown, key=key, value=f"{value:,}", lowest=f"{lowest:,}",
                                                highest=f"{highest:,}" if highest is not None else ""))
        return int(value)

    def positive(self, key: str, default: float | None = None, upper: float = math.inf) -> float:
        value = self._value(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ModelFileError(tr("{file}: the metadata entry {key} should be a number; it is {value}").format(
                file=self.shown, key=key, value=_described(value)))
        number = float(value)
        if not (0 < number <= upper and math.isfinite(number)):
            problem = (tr("{file}: {key} is {value}; it should be a positive number") if upper == math.inf
                       else tr("{file}: {key} is {value}; it should be a positive number up to {upper}"))
            raise ModelFileError(problem.format(file=self.shown, key=key, value=f"{number:g}", upper=f"{upper:g}"))
        return number


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _described(value: Any) -> str:
    """A value as a line can show it: its kind, and its start when short."""
    if isinstance(value, list):
        return tr("a list of {count}").format(count=f"{len(value):,}") if value else tr("an empty list")
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _name(value: Any, shown: str) -> str:
    """The model's name on one line and of a sensible length; the file's name when it has none."""
    name = " ".join(value.split()) if isinstance(value, str) else ""
    return name[:MAX_NAME_CHARS] or Path(shown).stem
