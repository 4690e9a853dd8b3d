"""What one sentence through the model leaves behind: every head's q, k, v and weights, the stream after
each layer and the next-token scores (with the heads knocked out in it, if any).

The run also keeps each head's q and k as the model made them, before RoPE turned them for their
positions: `attention_without_rope` recomputes a layer's weights from those, so a lesson can show
what a head does once it cannot tell where each word is (the layer inputs are the normal pass's).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.pretrained.generation import causal_weights
from attn_desktop.model.pretrained.next_token import NextTokenScores

NEXT_TOKEN_COUNT = 5  # the predictions shown and written by `attn-desktop heads`


@dataclass(frozen=True)
class ModelRun:
    """One sentence through every layer.

    Arrays are indexed [layer, head, position, ...]. Keys and values are repeated for
    each query head that shares them (grouped-query attention), so `keys[l, h]` is the
    key matrix head h really used. Queries and keys already carry RoPE's rotation; the
    unturned ones (when the model kept them) are the same vectors before it.
    """

    model_name: str
    sentence: str
    token_ids: list[int]
    tokens: list[str]          # each token's text as the model split the sentence (" cat", "The")
    queries: np.ndarray        # (layers, heads, n, head_dim), after RoPE
    keys: np.ndarray           # (layers, heads, n, head_dim), after RoPE
    values: np.ndarray         # (layers, heads, n, head_dim)
    attention: np.ndarray      # (layers, heads, n, n): softmax(q k^T / sqrt(head_dim)) with the causal mask
    next_tokens: list[tuple[str, float]]  # the NEXT_TOKEN_COUNT likeliest next tokens, with probabilities
    kv_group_size: int = 1     # query heads per key/value head
    unturned_queries: np.ndarray | None = None  # (layers, heads, n, head_dim), before RoPE
    unturned_keys: np.ndarray | None = None     # (layers, heads, n, head_dim), before RoPE, repeated like keys
    next_scores: NextTokenScores | None = None  # the last position's logits over the vocabulary, likeliest named
    knocked_out: frozenset[tuple[int, int]] = frozenset()  # (layer, head) zeroed before the output projection
    residuals: np.ndarray | None = None  # (layers, n, width) float32: the stream after each layer (the logit lens)
    reused_tokens: int = 0     # leading tokens whose keys and values came from a remembered run (0: computed whole)
    multiply_adds: int = 0     # what computing this run took when it was first computed (generation.multiply_adds)
    multiply_adds_without_cache: int = 0  # what computing every token through every layer would take

    @property
    def layer_count(self) -> int:
        return int(self.attention.shape[0])

    @property
    def head_count(self) -> int:
        return int(self.attention.shape[1])

    @property
    def head_width(self) -> int:
        return int(self.queries.shape[-1])

    @property
    def has_unturned(self) -> bool:
        """Whether the run kept q and k from before RoPE (a model's run does; a made-up one may not)."""
        return self.unturned_queries is not None and self.unturned_keys is not None

    def kv_head_of(self, head: int) -> int:
        """The key/value head that query head `head` reads (heads share them in groups)."""
        return head // self.kv_group_size

    def attention_without_rope(self, layer: int | None = None) -> np.ndarray:
        """softmax(q·kᵀ/√d + causal mask) of the q and k before RoPE, in float64: (heads, n, n) for
        LAYER, or (layers, heads, n, n) for every layer. Only the weights are recomputed: each layer
        reads what it read in the normal pass, with RoPE."""
        if self.unturned_queries is None or self.unturned_keys is None:
            raise ValueError(tr("this run of {model} did not keep its queries and keys from before RoPE").format(
                model=self.model_name))
        if layer is not None:
            if not 0 <= layer < self.layer_count:
                raise ValueError(tr("{model} has layers 0 to {last}; there is no layer {layer}").format(
                    model=self.model_name, last=self.layer_count - 1, layer=layer))
            return causal_softmax(self.unturned_queries[layer], self.unturned_keys[layer], 0, self.head_width)
        weights = np.empty(self.attention.shape)
        for index in range(self.layer_count):  # a layer at a time: one layer's scores in float64 at most
            weights[index] = causal_softmax(self.unturned_queries[index], self.unturned_keys[index], 0,
                                            self.head_width)
        return weights


def causal_softmax(q: np.ndarray, k: np.ndarray, offset: int, head_width: int) -> np.ndarray:
    """softmax(q·k / √d) over the keys at or before each query, in float64 (rows (heads, new, n)).

    Q holds the queries from position OFFSET on; K every key from position 0. The forward pass's own
    computation (generation.causal_weights, in blocks of rows so that a step of generation gives the same
    bits as a whole pass): a head's weights recomputed from the same q and k agree to the last digit.
    """
    if q.shape[-1] != head_width:
        raise ValueError(f"queries of width {q.shape[-1]}, not {head_width}")
    return causal_weights(q, k, offset)
