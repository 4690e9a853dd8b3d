"""Where each word is: the ways a model tells positions apart, as plain NumPy the lessons and tests share.

Attention alone is blind to order: shuffle the sentence and every word gets the same weights and output,
shuffled (`shuffled_attention` shows it). Models add position in one of three ways:

- **sinusoidal** (the original Transformer): x_i + PE[i], PE[i, 2j] = sin(i / 10000^(2j/d)),
  PE[i, 2j+1] = cos(i / 10000^(2j/d));
- **learned**: x_i + P[i], a vector per position trained with the rest (lesson 5's heads have them);
- **rotary (RoPE)**, as SmolLM2, Llama, Qwen and Mistral do: each pair of numbers of q at position m is turned
  by the angle m·θ_j and of k at position n by n·θ_j, θ_j = base^(−2j/d). A turned q and k score
  q·k = Σ_j |q_j||k_j| cos(φ_j + (m − n)θ_j): the score depends on the distance m − n only.

Pairs: the original RoPE (and Hugging Face's Llama) pairs number j with number j + d/2 ("halves"); llama.cpp's
converter reorders each head's rows so that RoPE turns adjacent numbers 2j and 2j + 1 ("adjacent"), which is
how the GGUF files this app reads, and its own forward pass (pretrained/llama.py), lay them out.

Nothing here imports Qt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

from attn_desktop.model.attention import AttentionResult, attention

SINUSOID_BASE = 10000.0  # the original Transformer's
PairLayout = Literal["adjacent", "halves"]


def sinusoidal_encoding(length: int, width: int, base: float = SINUSOID_BASE) -> np.ndarray:
    """The original Transformer's position vectors, (length, width): sines in the even numbers, cosines in
    the odd ones, each pair at its own wavelength (from 2π up to base · 2π)."""
    if length < 0 or width < 1:
        raise ValueError(f"a position encoding needs a length of 0 or more and a width of 1 or more, not "
                         f"{length} × {width}")
    positions = np.arange(length, dtype=np.float64)[:, None]
    rates = base ** (-np.arange(0, width, 2, dtype=np.float64) / width)  # one per pair (the last may be half)
    angles = positions * rates[None, :]
    encoding = np.empty((length, width))
    encoding[:, 0::2] = np.sin(angles)
    encoding[:, 1::2] = np.cos(angles[:, : width // 2])
    return encoding


def rope_frequencies(width: int, base: float) -> np.ndarray:
    """θ_j = base^(−2j/width) for each of the width/2 pairs: the first turns by a radian a position, the
    last hardly at all."""
    if width < 2 or width % 2:
        raise ValueError(f"RoPE turns pairs of numbers: a width of {width} is not an even number of 2 or more")
    if not np.isfinite(base) or base <= 1:
        raise ValueError(f"RoPE's base must be a number above 1, not {base}")
    return np.asarray(base ** (-np.arange(width // 2, dtype=np.float64) * 2 / width))


def rotate(vectors: np.ndarray, positions: Sequence[float] | np.ndarray, frequencies: np.ndarray,
           layout: PairLayout = "adjacent") -> np.ndarray:
    """VECTORS (..., n, width) with row i turned for position POSITIONS[i]: each pair by position · θ_j."""
    array = np.asarray(vectors, dtype=np.float64)
    width = array.shape[-1]
    if width != 2 * len(frequencies):
        raise ValueError(f"{len(frequencies)} frequencies turn vectors {2 * len(frequencies)} wide, not {width}")
    angles = np.asarray(positions, dtype=np.float64)[:, None] * frequencies[None, :]
    cos, sin = np.cos(angles), np.sin(angles)
    first, second = _pair_indices(width, layout)
    x, y = array[..., first], array[..., second]
    turned = np.empty_like(array)
    turned[..., first] = x * cos - y * sin
    turned[..., second] = x * sin + y * cos
    return turned


def unrotate(vectors: np.ndarray, positions: Sequence[float] | np.ndarray, frequencies: np.ndarray,
             layout: PairLayout = "adjacent") -> np.ndarray:
    """The inverse of rotate: each pair turned back by position · θ_j."""
    return rotate(vectors, -np.asarray(positions, dtype=np.float64), frequencies, layout)


def rotated_score(q: np.ndarray, k: np.ndarray, m: float, n: float, frequencies: np.ndarray,
                  layout: PairLayout = "adjacent") -> float:
    """q·k once q is turned for position M and k for position N (before any division by √d)."""
    turned_q = rotate(np.asarray(q, dtype=np.float64)[None, :], [m], frequencies, layout)[0]
    turned_k = rotate(np.asarray(k, dtype=np.float64)[None, :], [n], frequencies, layout)[0]
    return float(turned_q @ turned_k)


def halves_to_adjacent(width: int) -> np.ndarray:
    """The reordering llama.cpp's converter applies to each head's q and k rows: index it with this to take a
    vector laid out in halves (j paired with j + width/2) to adjacent pairs (2j with 2j + 1)."""
    half = width // 2
    order = np.empty(width, dtype=np.int64)
    order[0::2] = np.arange(half)
    order[1::2] = np.arange(half) + half
    return order


def shuffled_attention(queries: np.ndarray, keys: np.ndarray, values: np.ndarray, order: Sequence[int],
                       scale: bool = True) -> AttentionResult:
    """Attention on the sentence reordered by ORDER (row i of the result is word ORDER[i]), no mask: without
    positions its weights and outputs are the unshuffled ones, their rows and columns reordered the same way."""
    index = np.asarray(order, dtype=np.int64)
    if sorted(index.tolist()) != list(range(len(queries))):
        raise ValueError(f"{list(order)} is not an ordering of the {len(queries)} words")
    return attention(queries[index], keys[index], values[index], scale=scale)


def _pair_indices(width: int, layout: PairLayout) -> tuple[np.ndarray, np.ndarray]:
    if layout == "adjacent":
        return np.arange(0, width, 2), np.arange(1, width, 2)
    if layout == "halves":
        return np.arange(width // 2), np.arange(width // 2, width)
    raise ValueError(f"pairs are laid out \"adjacent\" or \"halves\", not {layout!r}")
