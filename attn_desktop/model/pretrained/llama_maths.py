"""The arithmetic of a LLaMA-style layer that is not a matrix product: RMSNorm, SiLU and RoPE's turns, on
float32 arrays as llama.py computes them."""

from __future__ import annotations

import numpy as np

from attn_desktop.model.pretrained.gguf_file import LlamaConfig


def rms_norm(x: np.ndarray, weight: np.ndarray, epsilon: float) -> np.ndarray:
    # The mean square in double precision: squares of float32 overflow from 1.8e19, and x / inf would
    # quietly make a huge vector zero instead of letting the overflow show where it happens.
    mean_square = np.mean(np.square(x, dtype=np.float64), axis=-1, keepdims=True)
    return np.asarray(x / np.sqrt(mean_square + epsilon).astype(np.float32) * weight)


def silu(x: np.ndarray) -> np.ndarray:
    return np.asarray(x / (np.float32(1) + np.exp(-x)))


def rope_tables(config: LlamaConfig, length: int) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of each position's angle for each pair of dimensions, (length, head_width / 2).

    llama.cpp's converter reorders LLaMA's q and k rows so that RoPE turns adjacent pairs
    (dimensions 2i and 2i+1) by position · base^(-2i/d); the same numbers as the original model.
    """
    pairs = config.head_width // 2
    with np.errstate(all="ignore"):  # a base so small that 1 / base overflows is found by the caller
        frequencies = config.rope_base ** (-np.arange(pairs, dtype=np.float64) * 2 / config.head_width)
        angles = np.arange(length, dtype=np.float64)[:, None] * frequencies[None, :]
        return np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)


def rotate(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """Turn each adjacent pair of dimensions of x (heads, n, head_width) by its position's angle."""
    even, odd = x[..., 0::2], x[..., 1::2]
    turned = np.empty_like(x)
    turned[..., 0::2] = even * cos - odd * sin
    turned[..., 1::2] = even * sin + odd * cos
    return turned
