"""A ModelRun made from random numbers, for tests that need a model's heads but not the model.

Its attention is what a real head computes from its queries and keys, softmax(q k^T / sqrt(d))
with the causal mask, worked out here independently of the app's own attention code. Its queries and keys
count as turned by RoPE (base 100,000, adjacent pairs, as SmolLM2's file): turned back for their positions,
they are the run's q and k from before RoPE.
"""

import numpy as np

from attn_desktop.model.positions import rope_frequencies, unrotate
from attn_desktop.model.pretrained.next_token import SHOWN_TOKENS, NextTokenScores, likeliest_ids
from attn_desktop.model.pretrained.run import ModelRun

ROPE_BASE = 100000.0

SENTENCE_TOKENS = ["The", " cat", " sat", " on", " the", " mat", " because", " it", " was", " tired"]


def causal_softmax_attention(queries: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """(..., n, d) queries and keys -> (..., n, n) weights, each row a softmax over itself and earlier keys."""
    width = queries.shape[-1]
    scores = queries @ np.swapaxes(keys, -1, -2) / np.sqrt(width)
    n = scores.shape[-1]
    scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    exp = np.exp(scores)
    return exp / exp.sum(axis=-1, keepdims=True)


def random_model_run(tokens=SENTENCE_TOKENS, layers: int = 3, heads: int = 4, width: int = 64, seed: int = 0,
                     kv_group_size: int = 2, model_name: str = "TinyRandom-64") -> ModelRun:
    rng = np.random.default_rng(seed)
    n = len(tokens)
    queries = rng.normal(0.0, 1.5, (layers, heads, n, width))
    kv_heads = heads // kv_group_size
    keys = np.repeat(rng.normal(0.0, 1.5, (layers, kv_heads, n, width)), kv_group_size, axis=1)
    values = np.repeat(rng.normal(0.0, 1.0, (layers, kv_heads, n, width)), kv_group_size, axis=1)
    return ModelRun(
        model_name=model_name, sentence="".join(tokens), token_ids=list(range(n)), tokens=list(tokens),
        queries=queries, keys=keys, values=values, attention=causal_softmax_attention(queries, keys),
        next_tokens=list(NEXT_TOKENS),
        kv_group_size=kv_group_size,
        unturned_queries=unturned(queries), unturned_keys=unturned(keys),
        next_scores=next_scores(NEXT_TOKENS), residuals=rng.normal(0.0, 1.0, (layers, n, heads * width)).astype(np.float32),
    )


NEXT_TOKENS = [(" and", 0.3), (".", 0.2), (",", 0.1), (" so", 0.05), (" from", 0.01)]
OTHER_TOKENS = 100  # the rest of the probability (0.34) spread over these: 0.0034 each, below the fifth


def next_scores(named: list[tuple[str, float]]) -> NextTokenScores:
    """Scores over a vocabulary of the NAMED tokens and OTHER_TOKENS more, whose probabilities at T = 1 are
    the named ones' (the likeliest first) and the rest shared evenly."""
    rest = (1.0 - sum(p for _, p in named)) / OTHER_TOKENS
    probabilities = np.array([p for _, p in named] + [rest] * OTHER_TOKENS)
    texts = [text for text, _ in named] + [f" other{index}" for index in range(OTHER_TOKENS)]
    top = likeliest_ids(np.log(probabilities).astype(np.float32), SHOWN_TOKENS)
    return NextTokenScores(np.log(probabilities).astype(np.float32), tuple(int(t) for t in top),
                           tuple(texts[t] for t in top))


def unturned(vectors: np.ndarray) -> np.ndarray:
    """(..., n, width) vectors turned back by RoPE for positions 0 to n - 1."""
    return unrotate(vectors, np.arange(vectors.shape[-2]), rope_frequencies(vectors.shape[-1], ROPE_BASE))
