"""Scaled dot-product attention as a pure NumPy function.

This module is the single source of truth for every number the app shows.
It never imports Qt, so it can be tested, exported and scripted headless.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_desktop.language import tr


@dataclass(frozen=True)
class AttentionResult:
    """Every intermediate of one attention computation.

    Shapes, with n_q queries, n keys/values, d_k key width and d_v value width:
    scores (n_q, n) = Q Kᵀ; scaled (n_q, n) = what enters the softmax, with
    masked entries set to -inf; weights (n_q, n), each unmasked row summing to 1;
    output (n_q, d_v) = weights V; mask (n_q, n), True where a key is visible.
    """

    scores: np.ndarray
    scaled: np.ndarray
    weights: np.ndarray
    output: np.ndarray
    mask: np.ndarray
    divisor: float


def causal_mask(n_queries: int, n_keys: int) -> np.ndarray:
    """True where query i may see key j: itself and earlier tokens (j <= i).

    Self-attention's mask: "earlier" needs the queries and keys to be one sentence. A scene whose
    queries come from a target sentence (cross-attention) refuses it; see Scene.set_causal."""
    return np.tri(n_queries, n_keys, dtype=bool)


def stable_softmax(logits: np.ndarray, visible: np.ndarray) -> np.ndarray:
    """Row-wise softmax over the visible entries; hidden entries get weight 0.

    Subtracting each row's largest visible logit keeps exp() from overflowing,
    so rows of huge scores (vectors of length 1e6) still sum to 1. A row with
    no visible entry gets all-zero weights rather than NaN.
    """
    masked = np.where(visible, logits, -np.inf)
    row_max = masked.max(axis=-1, keepdims=True)
    row_max = np.where(np.isfinite(row_max), row_max, 0.0)
    exp = np.where(visible, np.exp(masked - row_max), 0.0)
    total = exp.sum(axis=-1, keepdims=True)
    weights: np.ndarray = np.divide(exp, total, out=np.zeros_like(exp), where=total > 0)
    return weights


def _softmax_of_finite(logits: np.ndarray) -> np.ndarray:
    """stable_softmax with every entry visible and finite, as its steps then reduce to: each row's largest is
    finite, nothing is masked, and each row's total is at least 1 (its largest entry's exp(0))."""
    exp = np.exp(logits - logits.max(axis=-1, keepdims=True))
    weights: np.ndarray = exp / exp.sum(axis=-1, keepdims=True)
    return weights


def attention(
    queries: np.ndarray,
    keys: np.ndarray,
    values: np.ndarray,
    scale: bool = True,
    mask: np.ndarray | None = None,
) -> AttentionResult:
    """softmax(Q Kᵀ / √d_k) V, or without the √d_k when ``scale`` is False.

    ``mask`` (n_q, n) marks the keys each query may see; None means all.
    Works for any shapes that multiply: self-attention (n_q == n) and
    cross-attention alike.
    """
    q = _as_matrix(queries, "queries")
    k = _as_matrix(keys, "keys")
    v = _as_matrix(values, "values")
    if q.shape[1] != k.shape[1]:
        raise ValueError(f"queries have width {q.shape[1]} but keys have width {k.shape[1]}")
    if k.shape[0] != v.shape[0]:
        raise ValueError(f"there are {k.shape[0]} keys but {v.shape[0]} values")
    visible = np.ones((q.shape[0], k.shape[0]), dtype=bool) if mask is None else np.asarray(mask, bool)
    if visible.shape != (q.shape[0], k.shape[0]):
        raise ValueError(f"mask has shape {visible.shape}, expected {(q.shape[0], k.shape[0])}")

    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is refused below, in one message, not warned of
        scores = q @ k.T
    if not np.isfinite(scores).all():
        raise ValueError(tr("the scores overflow: the vectors are too long to compute with"))
    divisor = float(np.sqrt(q.shape[1])) if scale else 1.0
    if mask is None:  # every key visible: the same numbers as below, without the masking's calls (a drag's every move)
        scaled = scores / divisor
        weights = _softmax_of_finite(scaled)
    else:
        scaled = np.where(visible, scores / divisor, -np.inf)
        weights = stable_softmax(scaled, visible)
    return AttentionResult(
        scores=scores,
        scaled=scaled,
        weights=weights,
        output=weights @ v,
        mask=visible,
        divisor=divisor,
    )


def _as_matrix(array: np.ndarray, name: str) -> np.ndarray:
    matrix = np.asarray(array, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] == 0 or matrix.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array, got shape {matrix.shape}")
    return matrix


def entropy_bits(weights: np.ndarray) -> np.ndarray:
    """Each row's entropy in bits, −Σ w log₂ w: 0 when all the weight is on one key, log₂ n when
    it is spread evenly over n. Zero weights (masked keys) add nothing."""
    w = np.asarray(weights, dtype=np.float64)
    logs = np.log2(w, out=np.zeros_like(w), where=w > 0)
    bits: np.ndarray = np.maximum(-(w * logs).sum(axis=-1), 0.0)  # -0.0 and rounding below 0 read as 0
    return bits
