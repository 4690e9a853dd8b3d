"""A weights cache's description checked as untrusted input before anything is built from it.

The cache keeps the config and the tokenizer's entries of the model file it was written from. They pass
the very checks reading the GGUF file applies (gguf_config.py: counts, ranges, the vocabulary), and then
must equal the model file's own entries, read afresh in tens of milliseconds (gguf_metadata.py): a valid
value that is not the file's (another RoPE base, a shorter list of merges) would give other numbers
without a word. Every problem raises CacheRefused; the caller then reads the model file itself.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from attn_desktop.model.pretrained.gguf_config import LlamaConfig, check_layout, check_vocabulary, llama_config
from attn_desktop.model.pretrained.gguf_metadata import read_entries
from attn_desktop.model.pretrained.tokenizer import TOKENIZER_KEYS, tokenizer_metadata

CONFIG_FIELDS = frozenset(field.name for field in dataclasses.fields(LlamaConfig))


class CacheRefused(Exception):
    """A cache that is not a whole, true cache of this model file in this format."""


def checked_config(fields: Any, shown: str) -> LlamaConfig:
    """The cached config FIELDS, through the checks a GGUF file's metadata passes (ModelFileError if not)."""
    if not isinstance(fields, dict) or set(fields) != CONFIG_FIELDS:
        raise CacheRefused("its config does not have the fields of one")
    config = llama_config(_as_metadata(fields), shown)
    if config != LlamaConfig(**fields):  # a head width that does not follow from the width and heads, say
        raise CacheRefused("its config is not one reading a file gives")
    return config


def _as_metadata(fields: dict[str, Any]) -> dict[str, Any]:
    """The GGUF metadata entries that CONFIG's fields are read from, so the same checks apply to them."""
    return {
        "general.name": fields["name"],
        "llama.block_count": fields["layer_count"],
        "llama.attention.head_count": fields["head_count"],
        "llama.attention.head_count_kv": fields["kv_head_count"],
        "llama.embedding_length": fields["width"],
        "llama.rope.dimension_count": fields["head_width"],
        "llama.feed_forward_length": fields["ffn_width"],
        "llama.vocab_size": fields["vocab_size"],
        "llama.rope.freq_base": fields["rope_base"],
        "llama.attention.layer_norm_rms_epsilon": fields["rms_epsilon"],
        "llama.context_length": fields["context_length"],
    }


def checked_tokenizer(entries: Any, config: LlamaConfig, shown: str) -> dict[str, Any]:
    """The cached tokenizer ENTRIES, through the checks a GGUF file's vocabulary passes."""
    if not isinstance(entries, dict) or not set(entries) <= set(TOKENIZER_KEYS):
        raise CacheRefused("its tokenizer entries are not those of a model file")
    check_vocabulary(entries, config, shown)
    return entries


def check_model_files_own(config: LlamaConfig, entries: dict[str, Any], has_unembedding: bool,
                          model_path: Path) -> None:
    """CONFIG and the tokenizer ENTRIES are those the model file at MODEL_PATH holds now, value for value, and
    the file has an output matrix of its own if and only if the cache has one (else the embedding is used)."""
    in_file, shapes = read_entries(model_path, _built_from)
    if llama_config(in_file, model_path.name) != config:
        raise CacheRefused("its config is not the model file's")
    if tokenizer_metadata(in_file) != entries:
        raise CacheRefused("its tokenizer entries are not the model file's")
    check_layout(shapes, config, model_path.name)  # the tensors the file lists: those the config needs
    if ("output.weight" in shapes) != has_unembedding:
        raise CacheRefused("it has an output matrix where the model file has none, or none where it has one")


def _built_from(key: str) -> bool:
    """Whether a model is built from the metadata entry KEY (llama_config's and the tokenizer's entries)."""
    return key.startswith("llama.") or key == "general.name" or key in TOKENIZER_KEYS
