"""A LLaMA-style language model's forward pass in NumPy, keeping every head's q, k, v and weights.

Each layer: RMSNorm, then grouped-query attention (queries and keys turned by RoPE, the causal
mask, softmax of q·k/√d), added back; RMSNorm, then the SwiGLU MLP, added back. The weights are
dequantized when the file is first loaded (later loads map them from the weights cache: loading.py),
laid out for the matrix products (q, k and v as one matrix, gate and up as one); RoPE's angles are
computed once. Each head's q and k are kept as the model made them too, before RoPE turned them
(a lesson shows a head without its rotation: ModelRun.attention_without_rope). A sentence that starts like an earlier one reuses the earlier one's keys and values
for the shared start (with a causal mask, nothing later changes them), so typing a word at the end
costs only the new tokens.
"""

from __future__ import annotations

import dataclasses
import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from attn_desktop.model.files.values import is_valid_text
from attn_desktop.model.pretrained.gguf_file import LlamaConfig, ModelFileError, Progress
from attn_desktop.model.pretrained.joined_weights import EMBEDDING, FINAL_NORM, LAYER_PARTS, UNEMBEDDING, layer_key
from attn_desktop.model.pretrained.loading import load_weights
from attn_desktop.model.pretrained.memory import give_freed_arrays_back
from attn_desktop.model.pretrained.pack import PACK_MODEL_FILE, PACK_MODEL_NAME
from attn_desktop.model.pretrained.run import NEXT_TOKEN_COUNT, ModelRun, causal_softmax
from attn_desktop.model.pretrained.tokenizer import ModelTokenizer

DEFAULT_SENTENCE = "The cat sat on the mat because it was tired"
MAX_SENTENCE_TOKENS = 256
# 256 tokens are a thousand characters or so: a sentence far longer is refused before a model is loaded.
MAX_SENTENCE_CHARS = 2_000
REMEMBERED_RUNS = 8  # recent sentences kept whole: going back to one is instant

__all__ = ["DEFAULT_SENTENCE", "MAX_SENTENCE_CHARS", "MAX_SENTENCE_TOKENS", "LlamaConfig", "LlamaModel",
           "ModelFileError", "SentenceError", "sentence_problem"]


class SentenceError(ValueError):
    """A sentence the model cannot take (empty, not valid text, too long, or too many tokens)."""


def sentence_problem(sentence: str) -> str | None:
    """Why no model could take SENTENCE, found without one (so before seconds of loading), or None."""
    if not sentence.strip():
        return "the sentence is empty; type a few words"
    if not is_valid_text(sentence):  # a byte that is not UTF-8 arrives from a command line as a lone surrogate
        where = next(index for index, character in enumerate(sentence) if not is_valid_text(character))
        return (f"the sentence is not valid text (at character {where + 1}: a byte that is not UTF-8, "
                "or half a character)")
    if len(sentence) > MAX_SENTENCE_CHARS:
        return (f"the sentence has {len(sentence):,} characters; the limit is {MAX_SENTENCE_CHARS:,} "
                f"(and {MAX_SENTENCE_TOKENS} tokens)")
    return None


@dataclass(frozen=True)
class _Layer:
    attn_norm: np.ndarray
    # Matrices as the file stores them, one row per output (x @ m.T; BLAS reads them transposed in place).
    qkv: np.ndarray       # (width + 2 kv_width, width): q, k and v side by side
    out: np.ndarray       # (width, width)
    ffn_norm: np.ndarray
    gate_up: np.ndarray   # (2 ffn_width, width)
    down: np.ndarray      # (width, ffn_width)




@dataclass(frozen=True)
class _Heads:
    """One layer's q, k and v split into heads, and q and k before RoPE turned them."""

    queries: np.ndarray           # (heads, n, head_width), turned
    keys: np.ndarray              # (kv_heads, n, head_width), turned
    values: np.ndarray            # (kv_heads, n, head_width)
    unturned_queries: np.ndarray  # (heads, n, head_width)
    unturned_keys: np.ndarray     # (kv_heads, n, head_width)


_LayerArrays = tuple[_Heads, np.ndarray]  # one layer's new q, k, v (keys and values from position 0) and weights


@dataclass(frozen=True)
class _Pass:
    """The per-layer arrays of one sentence, kept to reuse for a sentence that starts the same."""

    token_ids: tuple[int, ...]
    queries: np.ndarray   # (layers, heads, n, head_width)
    keys: np.ndarray      # (layers, kv_heads, n, head_width)
    values: np.ndarray    # (layers, kv_heads, n, head_width)
    attention: np.ndarray  # (layers, heads, n, n)
    final: np.ndarray     # (n, width): the last layer's output, before the final norm
    # q and k before RoPE: a quarter more than the arrays above hold beside the float64 attention
    unturned_queries: np.ndarray  # (layers, heads, n, head_width)
    unturned_keys: np.ndarray     # (layers, kv_heads, n, head_width)


class LlamaModel:
    def __init__(self, path: Path, config: LlamaConfig, tokenizer: ModelTokenizer, weights: dict[str, np.ndarray]):
        self.path = path
        self.config = config
        self.name = config.name
        self.tokenizer = tokenizer
        self._embed = weights[EMBEDDING]                       # (vocab, width)
        self._unembed = weights.get(UNEMBEDDING, self._embed)  # (vocab, width): often the same matrix
        self._final_norm = weights[FINAL_NORM]
        self._layers = [_Layer(*(weights[layer_key(index, part)] for part in LAYER_PARTS))
                        for index in range(config.layer_count)]
        self._cos, self._sin = _rope_tables(config, MAX_SENTENCE_TOKENS)
        if not (np.isfinite(self._cos).all() and np.isfinite(self._sin).all()):
            raise ModelFileError(f"{path.name}: llama.rope.freq_base {config.rope_base:g} turns the positions "
                                 "by angles too large to compute")
        self._recent: OrderedDict[tuple[int, ...], _Pass] = OrderedDict()

    @classmethod
    def load(cls, path: str | os.PathLike[str], progress: Progress | None = None) -> LlamaModel:
        """Read, check and dequantize a GGUF file, or map its cached weights (call it off the GUI thread:
        seconds for SmolLM2 the first time, under one later)."""
        give_freed_arrays_back()
        loaded = load_weights(Path(path), progress)
        config = loaded.config
        if Path(path).name == PACK_MODEL_FILE:  # its metadata calls it "Smollm2 135M 8k Lc100K Mix1 Ep2"
            config = dataclasses.replace(config, name=PACK_MODEL_NAME)
        model = cls(Path(path), config, loaded.tokenizer, loaded.weights)
        # Weights too large to compute with are found now, while the model before this one is still in
        # place (the window keeps it); the window asks for this sentence first anyway, so it costs nothing.
        model.run(DEFAULT_SENTENCE)
        if progress is not None:
            progress(1.0, "Ready")
        return model

    @property
    def memory_bytes(self) -> int:
        """What the dequantized weights take (float32)."""
        arrays = [self._embed, self._final_norm, self._cos, self._sin]
        if self._unembed is not self._embed:
            arrays.append(self._unembed)
        for layer in self._layers:
            arrays += [layer.attn_norm, layer.qkv, layer.out, layer.ffn_norm, layer.gate_up, layer.down]
        return sum(int(array.nbytes) for array in arrays)

    # ----- sentences ---------------------------------------------------------------------------
    def token_ids(self, sentence: str) -> list[int]:
        problem = sentence_problem(sentence)
        if problem:
            raise SentenceError(problem)
        ids = self.tokenizer.encode(sentence)
        if len(ids) > MAX_SENTENCE_TOKENS:
            raise SentenceError(f"the sentence has {len(ids):,} tokens; the limit is {MAX_SENTENCE_TOKENS}")
        if not ids:
            raise SentenceError("the sentence makes no tokens")
        return ids

    def tokenize(self, sentence: str) -> list[str]:
        return [self.tokenizer.text_of(token) for token in self.token_ids(sentence)]

    def run(self, sentence: str) -> ModelRun:
        """One sentence through every layer: each head's q, k, v and weights, and the next-token guess."""
        return self._run(self.token_ids(sentence), sentence)

    def run_token_ids(self, ids: list[int]) -> ModelRun:
        """Token ids read as they are (no beginning-of-text token added): a sequence no text would
        tokenize to, such as random tokens repeated. Its sentence is the tokens' text run together."""
        vocab_size = self._embed.shape[0]
        if not 1 <= len(ids) <= MAX_SENTENCE_TOKENS:
            raise SentenceError(f"{len(ids):,} tokens; the model reads 1 to {MAX_SENTENCE_TOKENS}")
        if any(not 0 <= token < vocab_size for token in ids):
            raise SentenceError(f"token ids must be from 0 to {vocab_size - 1}")
        ids = [int(token) for token in ids]
        return self._run(ids, "".join(self.tokenizer.text_of(token) for token in ids))

    def _run(self, ids: list[int], sentence: str) -> ModelRun:
        done = self._forward(tuple(ids))
        logits = self.logits(done.final[-1:])[0]
        self._check_finite(logits, "the next-token scores")
        return ModelRun(
            model_name=self.name,
            sentence=sentence,
            token_ids=ids,
            tokens=[self.tokenizer.text_of(token) for token in ids],
            queries=done.queries,
            keys=np.repeat(done.keys, self._group, axis=1),
            values=np.repeat(done.values, self._group, axis=1),
            attention=done.attention,
            next_tokens=self._likeliest(logits),
            kv_group_size=self._group,
            unturned_queries=done.unturned_queries,
            unturned_keys=np.repeat(done.unturned_keys, self._group, axis=1),
        )

    def all_logits(self, sentence: str) -> np.ndarray:
        """The next-token logits at every position (n, vocab); the tests compare them with a reference."""
        ids = tuple(self.token_ids(sentence))
        return self.logits(self._forward(ids).final)

    def logits(self, final: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):  # an overflow is found by _check_finite and said in one line
            return np.asarray(_rms_norm(final, self._final_norm, self.config.rms_epsilon) @ self._unembed.T)

    def _check_finite(self, array: np.ndarray, what: str) -> None:
        """A number beyond float32's range, or NaN, in ARRAY: one line naming the file and where it happened."""
        if not np.isfinite(array).all():
            raise ModelFileError(f"{self.path.name}: {what} overflow (beyond float32's range, or NaN): "
                                 "the model's numbers are too large to compute with")

    def _likeliest(self, logits: np.ndarray) -> list[tuple[str, float]]:
        shifted = logits.astype(np.float64) - logits.max()
        probabilities = np.exp(shifted) / np.exp(shifted).sum()
        best = np.argsort(-probabilities, kind="stable")[:NEXT_TOKEN_COUNT]
        return [(self.tokenizer.text_of(int(token)), float(probabilities[token])) for token in best]

    @property
    def _group(self) -> int:
        return self.config.head_count // self.config.kv_head_count

    # ----- the forward pass -------------------------------------------------------------------
    def _forward(self, ids: tuple[int, ...]) -> _Pass:
        if ids in self._recent:
            self._recent.move_to_end(ids)
            return self._recent[ids]
        start = self._reusable_start(ids)
        with np.errstate(all="ignore"):  # an overflow is found by _check_finite and said in one line
            done = self._compute(ids, start)
        self._recent[ids] = done
        if len(self._recent) > REMEMBERED_RUNS:
            self._recent.popitem(last=False)
        return done

    def _reusable_start(self, ids: tuple[int, ...]) -> _Pass | None:
        """The remembered sentence sharing the longest start with this one (it must share at least a token)."""
        best, best_length = None, 0
        for earlier in self._recent.values():
            length = _shared_start(earlier.token_ids, ids)
            if length > best_length:
                best, best_length = earlier, length
        if best is None:
            return None
        return _prefix(best, best_length)

    def _compute(self, ids: tuple[int, ...], start: _Pass | None) -> _Pass:
        c = self.config
        done = 0 if start is None else len(start.token_ids)
        x = self._embed[list(ids[done:])]
        positions = np.arange(done, len(ids))
        per_layer: list[_LayerArrays] = []
        for index, layer in enumerate(self._layers):
            h = _rms_norm(x, layer.attn_norm, c.rms_epsilon) @ layer.qkv.T
            self._check_finite(h, f"layer {index}'s queries, keys and values")
            heads = self._split_heads(h, positions)
            if start is not None:  # the shared start's keys and values, unchanged by anything after it
                heads = _after_start(heads, start, index)
            weights = causal_softmax(heads.queries, np.repeat(heads.keys, self._group, axis=0), done, c.head_width)
            mixed = (weights.astype(np.float32) @ np.repeat(heads.values, self._group, axis=0))  # (heads, new, width)
            x = x + mixed.transpose(1, 0, 2).reshape(len(positions), c.width) @ layer.out.T
            self._check_finite(x, f"layer {index}'s attention output")
            gate, up = np.split(_rms_norm(x, layer.ffn_norm, c.rms_epsilon) @ layer.gate_up.T, 2, axis=-1)
            x = x + (_silu(gate) * up) @ layer.down.T
            self._check_finite(x, f"layer {index}'s feed-forward output")
            per_layer.append((heads, weights))
        return self._assemble(ids, start, per_layer, x)

    def _split_heads(self, h: np.ndarray, positions: np.ndarray) -> _Heads:
        c = self.config
        n, kv_width = len(positions), c.kv_head_count * c.head_width
        q = h[:, : c.width].reshape(n, c.head_count, c.head_width).transpose(1, 0, 2)
        k = h[:, c.width : c.width + kv_width].reshape(n, c.kv_head_count, c.head_width).transpose(1, 0, 2)
        v = h[:, c.width + kv_width :].reshape(n, c.kv_head_count, c.head_width).transpose(1, 0, 2)
        cos, sin = self._cos[positions], self._sin[positions]
        q, k = np.ascontiguousarray(q), np.ascontiguousarray(k)
        return _Heads(_rotate(q, cos, sin), _rotate(k, cos, sin), np.ascontiguousarray(v), q, k)

    def _assemble(self, ids: tuple[int, ...], start: _Pass | None, per_layer: list[_LayerArrays], final: np.ndarray
                  ) -> _Pass:
        def stacked(part: str) -> np.ndarray:
            return np.stack([getattr(heads, part) for heads, _ in per_layer])

        queries, unturned_queries = stacked("queries"), stacked("unturned_queries")
        n, done = len(ids), 0 if start is None else len(start.token_ids)
        attention = np.zeros((len(per_layer), self.config.head_count, n, n))
        for index, (_, weights) in enumerate(per_layer):
            attention[index, :, done:, :] = weights
        if start is not None:  # the new tokens' queries after the shared start's (keys and values are whole)
            queries = np.concatenate([start.queries, queries], axis=2)
            unturned_queries = np.concatenate([start.unturned_queries, unturned_queries], axis=2)
            attention[:, :, :done, :done] = start.attention
            final = np.concatenate([start.final, final])
        return _Pass(ids, queries, stacked("keys"), stacked("values"), attention, final, unturned_queries,
                     stacked("unturned_keys"))


def _after_start(heads: _Heads, start: _Pass, layer: int) -> _Heads:
    """The new tokens' keys and values (turned and not) after the shared start's, which nothing later changes."""
    def joined(earlier: np.ndarray, new: np.ndarray) -> np.ndarray:
        return np.concatenate([earlier[layer], new], axis=1)

    return _Heads(heads.queries, joined(start.keys, heads.keys), joined(start.values, heads.values),
                  heads.unturned_queries, joined(start.unturned_keys, heads.unturned_keys))


def _shared_start(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    length = 0
    for first, second in zip(a, b):
        if first != second:
            break
        length += 1
    return min(length, len(b) - 1)  # at least the last token is computed afresh


def _prefix(done: _Pass, length: int) -> _Pass:
    return _Pass(
        done.token_ids[:length],
        done.queries[:, :, :length],
        done.keys[:, :, :length],
        done.values[:, :, :length],
        done.attention[:, :, :length, :length],
        done.final[:length],
        done.unturned_queries[:, :, :length],
        done.unturned_keys[:, :, :length],
    )


def _rms_norm(x: np.ndarray, weight: np.ndarray, epsilon: float) -> np.ndarray:
    # The mean square in double precision: squares of float32 overflow from 1.8e19, and x / inf would
    # quietly make a huge vector zero instead of letting the overflow show where it happens.
    mean_square = np.mean(np.square(x, dtype=np.float64), axis=-1, keepdims=True)
    return np.asarray(x / np.sqrt(mean_square + epsilon).astype(np.float32) * weight)


def _silu(x: np.ndarray) -> np.ndarray:
    return np.asarray(x / (np.float32(1) + np.exp(-x)))


def _rope_tables(config: LlamaConfig, length: int) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of each position's angle for each pair of dimensions, (length, head_width / 2).

    llama.cpp's converter reorders LLaMA's q and k rows so that RoPE turns adjacent pairs
    (dimensions 2i and 2i+1) by position · base^(-2i/d); the same numbers as the original model.
    """
    pairs = config.head_width // 2
    with np.errstate(all="ignore"):  # a base so small that 1 / base overflows is found by the caller
        frequencies = config.rope_base ** (-np.arange(pairs, dtype=np.float64) * 2 / config.head_width)
        angles = np.arange(length, dtype=np.float64)[:, None] * frequencies[None, :]
        return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


def _rotate(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """Turn each adjacent pair of dimensions of x (heads, n, head_width) by its position's angle."""
    even, odd = x[..., 0::2], x[..., 1::2]
    turned = np.empty_like(x)
    turned[..., 0::2] = even * cos - odd * sin
    turned[..., 1::2] = even * sin + odd * cos
    return turned
