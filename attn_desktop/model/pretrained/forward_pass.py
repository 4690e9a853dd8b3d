"""One sentence's pass through the layers, as llama.py keeps it: every layer's q, k, v (turned by RoPE and
not), weights and stream, remembered to reuse for a sentence that starts the same (its keys and values)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class LayerHeads:
    """One layer's q, k and v split into heads, and q and k before RoPE turned them."""

    queries: np.ndarray           # (heads, n, head_width), turned
    keys: np.ndarray              # (kv_heads, n, head_width), turned
    values: np.ndarray            # (kv_heads, n, head_width)
    unturned_queries: np.ndarray  # (heads, n, head_width)
    unturned_keys: np.ndarray     # (kv_heads, n, head_width)


# one layer's new q, k, v (keys and values from position 0), weights, and the new tokens' stream after it
LayerArrays = tuple[LayerHeads, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class ForwardPass:
    """The per-layer arrays of one sentence, kept to reuse for a sentence that starts the same."""

    token_ids: tuple[int, ...]
    knocked_out: frozenset[tuple[int, int]]
    queries: np.ndarray   # (layers, heads, n, head_width)
    keys: np.ndarray      # (layers, kv_heads, n, head_width)
    values: np.ndarray    # (layers, kv_heads, n, head_width)
    attention: np.ndarray  # (layers, heads, n, n)
    residuals: np.ndarray  # (layers, n, width): the stream after each layer (the last, before the final norm)
    # q and k before RoPE: a quarter more than the arrays above hold beside the float64 attention
    unturned_queries: np.ndarray  # (layers, heads, n, head_width)
    unturned_keys: np.ndarray     # (layers, kv_heads, n, head_width)
    reused_tokens: int = 0   # leading tokens whose keys and values came from a remembered pass
    multiply_adds: int = 0   # what computing this pass took (generation.multiply_adds)


PassKey = tuple[tuple[int, ...], frozenset[tuple[int, int]]]  # a remembered pass: its token ids and knocked heads


def after_start(heads: LayerHeads, start: ForwardPass, layer: int) -> LayerHeads:
    """The new tokens' keys and values (turned and not) after the shared start's, which nothing later changes."""
    def joined(earlier: np.ndarray, new: np.ndarray) -> np.ndarray:
        return np.concatenate([earlier[layer], new], axis=1)

    return LayerHeads(heads.queries, joined(start.keys, heads.keys), joined(start.values, heads.values),
                  heads.unturned_queries, joined(start.unturned_keys, heads.unturned_keys))


def pass_bytes(done: ForwardPass) -> int:
    """What a remembered pass holds (a pass cut from another shares its arrays: counted twice, to be safe)."""
    return sum(int(array.nbytes) for array in (done.queries, done.keys, done.values, done.attention, done.residuals,
                                               done.unturned_queries, done.unturned_keys))


def shared_start(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    length = 0
    for first, second in zip(a, b):
        if first != second:
            break
        length += 1
    return min(length, len(b) - 1)  # at least the last token is computed afresh


def prefix(done: ForwardPass, length: int) -> ForwardPass:
    return ForwardPass(
        done.token_ids[:length],
        done.knocked_out,
        done.queries[:, :, :length],
        done.keys[:, :, :length],
        done.values[:, :, :length],
        done.attention[:, :, :length, :length],
        done.residuals[:, :length],
        done.unturned_queries[:, :, :length],
        done.unturned_keys[:, :, :length],
    )
