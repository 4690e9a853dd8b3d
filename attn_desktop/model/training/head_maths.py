"""One attention head's forward pass and its gradients, worked out by hand in NumPy.

The model is exactly this (one head, no residual, no MLP), so anyone can check it:

    x_i      = E[t_i] + P[i]                           E: V x d_model, P: L x d_model
    q_i      = x_i W_Q,  k_i = x_i W_K                 W_Q, W_K: d_model x 2 (2-D, drawn as arrows)
    v_i      = x_i W_V                                 W_V: d_model x d_v
    w_ij     = softmax_j(q_i . k_j / sqrt(2))          with the causal mask when the task has one
    o_i      = sum_j w_ij v_j
    logits_i = o_i W_O + b_O                           W_O: d_v x V, b_O: V
    loss     = mean cross-entropy of logits_i against the target, over the scored positions

The parameters are head_params.py's; the training loop that follows these gradients is training.py's.
Nothing here imports Qt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from attn_desktop.model.attention import causal_mask, stable_softmax
from attn_desktop.model.training.head_params import KEY_WIDTH, HeadParams
from attn_desktop.model.training.tasks import Batch

SCORE_DIVISOR = math.sqrt(KEY_WIDTH)  # the scene's own rule: divide by sqrt(d_k)


@dataclass(frozen=True)
class Forward:
    """Every intermediate of the head on some sequences: tokens (..., L) gives

    x (..., L, d_model), q and k (..., L, 2), v (..., L, d_v),
    scores (..., L, L) = q . k before the division by sqrt(2) (as the score table shows them),
    weights (..., L, L) after the softmax (0 where the mask hides a key),
    o (..., L, d_v), logits (..., L, V).
    """

    tokens: np.ndarray
    x: np.ndarray
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    o: np.ndarray
    logits: np.ndarray

    @property
    def predictions(self) -> np.ndarray:
        """The vocabulary index the head answers at each position."""
        return np.asarray(self.logits.argmax(axis=-1))


def forward(params: HeadParams, tokens: np.ndarray | Sequence[int], causal: bool) -> Forward:
    """Run the head on TOKENS: one sequence (L,) or a batch (count, L)."""
    ids = np.asarray(tokens, dtype=np.int64)
    length = ids.shape[-1]
    x = params.embed[ids] + params.pos[:length]
    q, k, v = x @ params.w_q, x @ params.w_k, x @ params.w_v
    scores = q @ np.swapaxes(k, -1, -2)
    visible = causal_mask(length, length) if causal else np.ones((length, length), dtype=bool)
    weights = stable_softmax(scores / SCORE_DIVISOR, visible)
    o = weights @ v
    logits = o @ params.w_o + params.b_o
    return Forward(tokens=ids, x=x, q=q, k=k, v=v, scores=scores, weights=weights, o=o, logits=logits)


def log_softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)
    result: np.ndarray = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return result


class Answers(Protocol):
    """What the loss and the accuracy read of a forward pass: this head's, or layered_maths.py's."""

    @property
    def logits(self) -> np.ndarray: ...

    @property
    def predictions(self) -> np.ndarray: ...


def loss_of(result: Answers, batch: Batch) -> float:
    """Mean cross-entropy over the scored positions."""
    picked = np.take_along_axis(log_softmax(result.logits), batch.targets[..., None], axis=-1)[..., 0]
    return float(-(picked * batch.scored).sum() / scored_count(batch))


def accuracy_of(result: Answers, batch: Batch) -> float:
    """The share of scored positions where the head's answer is the target."""
    right = (result.predictions == batch.targets) & batch.scored
    return float(right.sum() / scored_count(batch))


def scored_count(batch: Batch) -> int:
    count = int(np.count_nonzero(batch.scored))
    if count == 0:
        raise ValueError("the batch has no scored position")
    return count


def loss_and_grads(params: HeadParams, batch: Batch, causal: bool) -> tuple[float, HeadParams]:
    """The loss on BATCH and its gradient with respect to every parameter, by the chain rule."""
    loss, grads, _result = loss_grads_and_forward(params, batch, causal)
    return loss, grads


def loss_grads_and_forward(params: HeadParams, batch: Batch, causal: bool) -> tuple[float, HeadParams, Forward]:
    """The same, with the forward pass it took (the training step reads its accuracy from it)."""
    f = forward(params, batch.tokens, causal)
    count, length = batch.tokens.shape
    vocab, d_model = params.embed.shape
    log_probs = log_softmax(f.logits)
    picked = np.take_along_axis(log_probs, batch.targets[..., None], axis=-1)[..., 0]
    count_scored = scored_count(batch)
    loss = float(-(picked * batch.scored).sum() / count_scored)

    # d loss / d logits = (softmax - one-hot target) at scored positions, averaged over them.
    d_logits = np.exp(log_probs)
    np.put_along_axis(d_logits, batch.targets[..., None],
                      np.take_along_axis(d_logits, batch.targets[..., None], axis=-1) - 1.0, axis=-1)
    d_logits *= batch.scored[..., None] / count_scored

    flat = count * length
    g_w_o = f.o.reshape(flat, -1).T @ d_logits.reshape(flat, vocab)
    g_b_o = d_logits.sum(axis=(0, 1))
    d_o = d_logits @ params.w_o.T                               # (count, L, d_v)
    d_weights = d_o @ np.swapaxes(f.v, -1, -2)                  # (count, L, L)
    d_v = np.swapaxes(f.weights, -1, -2) @ d_o                  # (count, L, d_v)
    # Softmax backward, row by row: w * (dw - sum_j w_j dw_j). Hidden keys have w = 0, so get 0.
    d_scaled = f.weights * (d_weights - (d_weights * f.weights).sum(axis=-1, keepdims=True))
    d_scores = d_scaled / SCORE_DIVISOR
    d_q = d_scores @ f.k
    d_k = np.swapaxes(d_scores, -1, -2) @ f.q

    x_flat = f.x.reshape(flat, d_model)
    g_w_q = x_flat.T @ d_q.reshape(flat, -1)
    g_w_k = x_flat.T @ d_k.reshape(flat, -1)
    g_w_v = x_flat.T @ d_v.reshape(flat, -1)
    d_x = d_q @ params.w_q.T + d_k @ params.w_k.T + d_v @ params.w_v.T  # (count, L, d_model)
    g_pos = d_x.sum(axis=0)
    one_hot = np.zeros((flat, vocab))
    one_hot[np.arange(flat), batch.tokens.reshape(flat)] = 1.0
    g_embed = one_hot.T @ d_x.reshape(flat, d_model)  # each token's rows of d_x, added up
    grads = HeadParams(embed=g_embed, pos=g_pos, w_q=g_w_q, w_k=g_w_k, w_v=g_w_v, w_o=g_w_o, b_o=g_b_o)
    return loss, grads, f
