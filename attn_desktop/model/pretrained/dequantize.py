"""A GGUF tensor's raw blocks turned into float32, written straight into the array the forward pass uses.

The `gguf` package's own dequantize splits a tensor into groups of 16 rows and a Python call per group, then
makes working copies several times the tensor's size; for SmolLM2's 272 tensors that took two of a first
load's seconds. The two block types SmolLM2's file holds (Q4_1 for the layers, Q8_0 for the embedding) are
done here in a few whole-array passes over a piece of rows at a time (a piece fits in the processor's
cache), with the very operations of the gguf package in the same order, so the numbers are the same to the
last bit (tests/test_dequantize.py compares them). Any other type goes through the gguf package, a piece of
rows at a time too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

PIECE_VALUES = 1 << 18  # weights dequantized at a time: a piece's working arrays stay about a megabyte
Q4_1_BLOCK = (32, 20)  # weights per block, bytes per block: a float16 scale d, a float16 minimum m, 16 bytes of 4-bit q
Q8_0_BLOCK = (32, 34)  # a float16 scale d, then 32 signed bytes q


def dequantize_into(data: np.ndarray, kind: Any, out: np.ndarray) -> None:
    """Fill OUT (rows, weights per row: float32) with the tensor whose raw rows are DATA, of ggml type KIND.

    DATA is what the gguf reader gives: bytes per row for a quantized type, the numbers themselves otherwise.
    Raises ValueError when DATA does not hold OUT's shape.
    """
    rows = len(out) if out.ndim > 1 else 1
    shaped = out.reshape(rows, -1)
    raw = data.reshape(rows, -1)
    step = max(1, PIECE_VALUES // max(shaped.shape[1], 1))
    convert = _CONVERTERS.get(getattr(kind, "name", ""), _with_gguf)
    for start in range(0, rows, step):
        convert(raw[start : start + step], kind, shaped[start : start + step])


def _q4_1(raw: np.ndarray, _kind: Any, out: np.ndarray) -> None:
    """d * q + m for each block, q the 4-bit numbers: the 16 low halves of its bytes first, then the high ones."""
    blocks = _blocks(raw, out, Q4_1_BLOCK)
    scale = blocks[..., 0:2].view(np.float16).astype(np.float32)
    minimum = blocks[..., 2:4].view(np.float16).astype(np.float32)
    packed = blocks[..., 4:]
    weights = out.reshape(blocks.shape[0], blocks.shape[1], Q4_1_BLOCK[0])
    half = Q4_1_BLOCK[0] // 2
    weights[..., :half] = packed & np.uint8(0x0F)
    weights[..., half:] = packed >> np.uint8(4)
    weights *= scale
    weights += minimum


def _q8_0(raw: np.ndarray, _kind: Any, out: np.ndarray) -> None:
    """q * d for each block, q the signed bytes."""
    blocks = _blocks(raw, out, Q8_0_BLOCK)
    scale = blocks[..., 0:2].view(np.float16).astype(np.float32)
    weights = out.reshape(blocks.shape[0], blocks.shape[1], Q8_0_BLOCK[0])
    weights[...] = blocks[..., 2:].view(np.int8)
    weights *= scale


def _f32(raw: np.ndarray, _kind: Any, out: np.ndarray) -> None:
    out[...] = raw.view(np.float32).reshape(out.shape)


def _blocks(raw: np.ndarray, out: np.ndarray, block: tuple[int, int]) -> np.ndarray:
    """RAW's bytes as (rows, blocks per row, bytes per block), after checking they make OUT's shape."""
    per_block, block_bytes = block
    rows, width = out.shape
    if raw.dtype != np.uint8 or raw.shape != (rows, width // per_block * block_bytes) or width % per_block:
        raise ValueError(f"{raw.shape[-1]} bytes a row do not hold {width} weights")
    return raw.reshape(rows, width // per_block, block_bytes)


def _with_gguf(raw: np.ndarray, kind: Any, out: np.ndarray) -> None:
    from gguf.quants import dequantize

    out[...] = np.asarray(dequantize(raw, kind), dtype=np.float32).reshape(out.shape)


_CONVERTERS = {"Q4_1": _q4_1, "Q8_0": _q8_0, "F32": _f32}
