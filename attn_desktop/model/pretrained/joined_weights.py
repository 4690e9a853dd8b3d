"""A model's weights as the forward pass uses them: each layer's q, k and v as one matrix, gate and up as one.

The names here are the keys of the dictionary LlamaModel is built from, and of the arrays kept in the
weights cache (weights_cache.py), so a cached model is the same arrays, laid out the same way.
Matrices keep the file's orientation, one row per output (x @ m.T; BLAS reads them transposed in place).
"""

from __future__ import annotations

from attn_desktop.model.pretrained.gguf_config import LlamaConfig

EMBEDDING = "token_embd"
UNEMBEDDING = "output"  # only when the file has its own; otherwise the embedding is used for both
FINAL_NORM = "output_norm"
LAYER_PARTS = ("attn_norm", "qkv", "out", "ffn_norm", "gate_up", "down")


def layer_key(index: int, part: str) -> str:
    return f"blk.{index}.{part}"


def file_tensor_places(config: LlamaConfig, has_unembedding: bool) -> dict[str, tuple[str, slice]]:
    """Where each of the file's tensors (GGUF names) goes: the joined array (joined_shapes) and its rows.

    The loader dequantizes each tensor straight into its rows (gguf_file.py): the joined matrices are never
    put together from copies. Tensors the file holds beyond these are never read.
    """
    c = config
    kv_width = c.kv_head_count * c.head_width
    whole = slice(None)
    places = {"token_embd.weight": (EMBEDDING, whole), "output_norm.weight": (FINAL_NORM, whole)}
    if has_unembedding:
        places["output.weight"] = (UNEMBEDDING, whole)
    for index in range(c.layer_count):
        def tensor(name: str, index: int = index) -> str:
            return f"blk.{index}.{name}.weight"

        places |= {
            tensor("attn_norm"): (layer_key(index, "attn_norm"), whole),
            tensor("attn_q"): (layer_key(index, "qkv"), slice(0, c.width)),
            tensor("attn_k"): (layer_key(index, "qkv"), slice(c.width, c.width + kv_width)),
            tensor("attn_v"): (layer_key(index, "qkv"), slice(c.width + kv_width, c.width + 2 * kv_width)),
            tensor("attn_output"): (layer_key(index, "out"), whole),
            tensor("ffn_norm"): (layer_key(index, "ffn_norm"), whole),
            tensor("ffn_gate"): (layer_key(index, "gate_up"), slice(0, c.ffn_width)),
            tensor("ffn_up"): (layer_key(index, "gate_up"), slice(c.ffn_width, 2 * c.ffn_width)),
            tensor("ffn_down"): (layer_key(index, "down"), whole),
        }
    return places


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
