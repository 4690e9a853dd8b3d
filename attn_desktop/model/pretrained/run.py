"""What one sentence through the model leaves behind: every head's q, k, v and weights."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NEXT_TOKEN_COUNT = 5  # the predictions shown and written by `attn-desktop heads`


@dataclass(frozen=True)
class ModelRun:
    """One sentence through every layer.

    Arrays are indexed [layer, head, position, ...]. Keys and values are repeated for
    each query head that shares them (grouped-query attention), so `keys[l, h]` is the
    key matrix head h really used. Queries and keys already carry RoPE's rotation.
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

    @property
    def layer_count(self) -> int:
        return int(self.attention.shape[0])

    @property
    def head_count(self) -> int:
        return int(self.attention.shape[1])

    @property
    def head_width(self) -> int:
        return int(self.queries.shape[-1])

    def kv_head_of(self, head: int) -> int:
        """The key/value head that query head `head` reads (heads share them in groups)."""
        return head // self.kv_group_size
