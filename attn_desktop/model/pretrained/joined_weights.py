"""A model's weights as the forward pass uses them: each layer's q, k and v as one matrix, gate and up as one.

The names here are the keys of the dictionary LlamaModel is built from, and of the arrays kept in the
weights cache (weights_cache.py), so a cached model is the same arrays, laid out the same way.
Matrices keep the file's orientation, one row per output (x @ m.T; BLAS reads them transposed in place).
"""

from __future__ import annotations

import numpy as np

from attn_desktop.model.pretrained.gguf_config import LlamaConfig

EMBEDDING = "token_embd"
UNEMBEDDING = "output"  # only when the file has its own; otherwise the embedding is used for both
FINAL_NORM = "output_norm"
LAYER_PARTS = ("attn_norm", "qkv", "out", "ffn_norm", "gate_up", "down")


def layer_key(index: int, part: str) -> str:
    return f"blk.{index}.{part}"


def join_file_tensors(tensors: dict[str, np.ndarray], config: LlamaConfig) -> dict[str, np.ndarray]:
    """The file's tensors (GGUF names) joined into the forward pass's arrays.

    Each layer's originals are dropped from TENSORS as its joined matrices are made, so a load never
    holds both copies of the whole model at once.
    """
    joined = {EMBEDDING: tensors.pop("token_embd.weight"), FINAL_NORM: tensors.pop("output_norm.weight")}
    if "output.weight" in tensors:
        joined[UNEMBEDDING] = tensors.pop("output.weight")
    for index in range(config.layer_count):
        def weight(name: str, index: int = index) -> np.ndarray:
            return tensors.pop(f"blk.{index}.{name}.weight")

        joined[layer_key(index, "attn_norm")] = weight("attn_norm")
        joined[layer_key(index, "qkv")] = np.concatenate([weight("attn_q"), weight("attn_k"), weight("attn_v")])
        joined[layer_key(index, "out")] = weight("attn_output")
        joined[layer_key(index, "ffn_norm")] = weight("ffn_norm")
        joined[layer_key(index, "gate_up")] = np.concatenate([weight("ffn_gate"), weight("ffn_up")])
        joined[layer_key(index, "down")] = weight("ffn_down")
    return joined


def joined_shapes(config: LlamaConfig, has_unembedding: bool) -> dict[str, tuple[int, ...]]:
    """Every joined array's shape for CONFIG, in the order they are stored."""
    c = config
    kv_width = c.kv_head_count * c.head_width
    shapes: dict[str, tuple[int, ...]] = {EMBEDDING: (c.vocab_size, c.width), FINAL_NORM: (c.width,)}
    if has_unembedding:
        shapes[UNEMBEDDING] = (c.vocab_size, c.width)
    for index in range(c.layer_count):
        shapes |= {
            layer_key(index, "attn_norm"): (c.width,),
            layer_key(index, "qkv"): (c.width + 2 * kv_width, c.width),
            layer_key(index, "out"): (c.width, c.width),
            layer_key(index, "ffn_norm"): (c.width,),
            layer_key(index, "gate_up"): (2 * c.ffn_width, c.width),
            layer_key(index, "down"): (c.width, c.ffn_width),
        }
    return shapes
