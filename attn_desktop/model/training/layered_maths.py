"""Attention-only layers with a residual stream: the forward pass and its gradients, by hand in NumPy.

The model is exactly this, so anyone can check it:

    x0       = E[t] + P[i]                                    E: V x d_model, P: L x d_model
    for each layer l and head h:
      q, k, v = x_l W_Q^{l,h},  x_l W_K^{l,h},  x_l W_V^{l,h}    each d_model x d_head
      a      = softmax(q k^T / sqrt(d_head) + causal mask)
      z^h    = a v                                           (a head knocked out writes zeros here)
    x_{l+1}  = x_l + [z^1 ... z^H] W_O^l                      W_O^l: H*d_head x d_model
    logits   = x_last W_U + b_U                               W_U: d_model x V
    loss     = mean cross-entropy of logits against the next token, over the scored positions

Two such layers of one head each learn the induction circuit: a layer-1 head attends to the previous
token and writes it into each position; a layer-2 head's keys read that, so a token's query finds the
place just after its own earlier occurrence, and copies what is there.

The parameters are layered_params.py's; training.py's Trainer follows these gradients. Nothing here imports Qt.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from attn_desktop.model.attention import causal_mask, stable_softmax
from attn_desktop.model.training.head_maths import accuracy_of, log_softmax, loss_of, scored_count
from attn_desktop.model.training.layered_params import LayeredParams, LayerParams
from attn_desktop.model.training.tasks import Batch

HeadAt = tuple[int, int]  # (layer, head), both counted from 0


@dataclass(frozen=True)
class LayerForward:
    """One layer's intermediates: x (..., L, d_model) the stream it read; q, k, v and z (..., H, L, d_head);
    weights (..., H, L, L) after the softmax; joined (..., L, H*d_head) the heads' outputs side by side,
    zeros for a head knocked out."""

    x: np.ndarray
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    weights: np.ndarray
    z: np.ndarray
    joined: np.ndarray
    kept: np.ndarray  # (H,): 1 for a head that writes, 0 for one knocked out


@dataclass(frozen=True)
class LayeredForward:
    """Every intermediate of the model on some sequences; the last stream and the logits (..., L, V)."""

    tokens: np.ndarray
    layers: list[LayerForward]
    final: np.ndarray
    logits: np.ndarray

    @property
    def predictions(self) -> np.ndarray:
        return np.asarray(self.logits.argmax(axis=-1))

    def attention(self, layer: int, head: int) -> np.ndarray:
        """One head's weights, (..., L, L): row i is what query i puts on each key."""
        return self.layers[layer].weights[..., head, :, :]


def forward(params: LayeredParams, tokens: np.ndarray | Sequence[int], causal: bool = True,
            knocked_out: Collection[HeadAt] = ()) -> LayeredForward:
    """Run the model on TOKENS, one sequence (L,) or a batch (count, L); KNOCKED_OUT heads write nothing."""
    ids = np.asarray(tokens, dtype=np.int64)
    length = ids.shape[-1]
    visible = causal_mask(length, length) if causal else np.ones((length, length), dtype=bool)
    stream = params.embed[ids] + params.pos[:length]
    layers = []
    for index, layer in enumerate(params.layers):
        kept = np.array([(index, head) not in knocked_out for head in range(layer.n_heads)], dtype=np.float64)
        result = _layer_forward(layer, stream, visible, kept)
        layers.append(result)
        stream = stream + result.joined @ layer.w_o
    logits = stream @ params.w_u + params.b_u
    return LayeredForward(tokens=ids, layers=layers, final=stream, logits=logits)


def _layer_forward(layer: LayerParams, x: np.ndarray, visible: np.ndarray, kept: np.ndarray) -> LayerForward:
    xh = x[..., None, :, :]  # (..., 1, L, d_model): every head reads the same stream
    q, k, v = xh @ layer.w_q, xh @ layer.w_k, xh @ layer.w_v
    weights = stable_softmax((q @ np.swapaxes(k, -1, -2)) / math.sqrt(q.shape[-1]), visible)
    z = (weights @ v) * kept[:, None, None]
    joined = np.swapaxes(z, -3, -2).reshape(*z.shape[:-3], z.shape[-2], -1)
    return LayerForward(x=x, q=q, k=k, v=v, weights=weights, z=z, joined=joined, kept=kept)


def loss_grads_and_forward(params: LayeredParams, batch: Batch, causal: bool = True,
                           knocked_out: Collection[HeadAt] = ()) -> tuple[float, LayeredParams, LayeredForward]:
    """The loss on BATCH, its gradient with respect to every parameter (by the chain rule), and the forward pass."""
    f = forward(params, batch.tokens, causal, knocked_out)
    count, length = batch.tokens.shape
    vocab, d_model = params.embed.shape
    log_probs = log_softmax(f.logits)
    picked = np.take_along_axis(log_probs, batch.targets[..., None], axis=-1)[..., 0]
    loss = float(-(picked * batch.scored).sum() / scored_count(batch))

    # d loss / d logits = (softmax - one-hot target) at scored positions, averaged over them.
    d_logits = np.exp(log_probs)
    np.put_along_axis(d_logits, batch.targets[..., None],
                      np.take_along_axis(d_logits, batch.targets[..., None], axis=-1) - 1.0, axis=-1)
    d_logits *= batch.scored[..., None] / scored_count(batch)
    flat = count * length
    g_w_u = f.final.reshape(flat, d_model).T @ d_logits.reshape(flat, vocab)
    g_b_u = d_logits.sum(axis=(0, 1))
    d_stream = d_logits @ params.w_u.T

    layer_grads: list[LayerParams] = []
    for layer, result in zip(reversed(params.layers), reversed(f.layers)):
        layer_grad, d_stream = _layer_backward(layer, result, d_stream)
        layer_grads.insert(0, layer_grad)

    g_pos = d_stream.sum(axis=0)
    g_embed = np.zeros_like(params.embed)
    np.add.at(g_embed, batch.tokens.reshape(flat), d_stream.reshape(flat, d_model))
    return loss, LayeredParams(embed=g_embed, pos=g_pos, layers=layer_grads, w_u=g_w_u, b_u=g_b_u), f


def _layer_backward(layer: LayerParams, f: LayerForward, d_out_stream: np.ndarray) -> tuple[LayerParams, np.ndarray]:
    """The layer's gradients, and the gradient of the stream it read (the residual path plus its heads)."""
    d_model = f.x.shape[-1]
    heads, d_head = layer.n_heads, layer.w_q.shape[-1]
    g_w_o = f.joined.reshape(-1, heads * d_head).T @ d_out_stream.reshape(-1, d_model)
    d_joined = d_out_stream @ layer.w_o.T                                     # (B, L, H*d_head)
    d_z = np.swapaxes(d_joined.reshape(*d_joined.shape[:-1], heads, d_head), -3, -2)  # (B, H, L, d_head)
    d_z = d_z * f.kept[:, None, None]  # a head knocked out wrote nothing, so learns nothing
    d_weights = d_z @ np.swapaxes(f.v, -1, -2)
    d_v = np.swapaxes(f.weights, -1, -2) @ d_z
    # Softmax backward, row by row: w * (dw - sum_j w_j dw_j). Hidden keys have w = 0, so get 0.
    d_scores = f.weights * (d_weights - (d_weights * f.weights).sum(axis=-1, keepdims=True)) / math.sqrt(d_head)
    d_q = d_scores @ f.k
    d_k = np.swapaxes(d_scores, -1, -2) @ f.q
    x_flat = f.x.reshape(-1, d_model)

    def grid_gradient(d_projected: np.ndarray) -> np.ndarray:  # (B, H, L, d_head) -> (H, d_model, d_head)
        per_head = np.swapaxes(d_projected, 0, 1).reshape(heads, -1, d_head)
        return np.asarray(x_flat.T @ per_head)

    g_w_q, g_w_k, g_w_v = grid_gradient(d_q), grid_gradient(d_k), grid_gradient(d_v)
    d_x = d_out_stream + (d_q @ np.swapaxes(layer.w_q, -1, -2) + d_k @ np.swapaxes(layer.w_k, -1, -2)
                          + d_v @ np.swapaxes(layer.w_v, -1, -2)).sum(axis=-3)
    return LayerParams(w_q=g_w_q, w_k=g_w_k, w_v=g_w_v, w_o=g_w_o), d_x


__all__ = ["HeadAt", "LayerForward", "LayeredForward", "accuracy_of", "forward", "loss_grads_and_forward", "loss_of"]
