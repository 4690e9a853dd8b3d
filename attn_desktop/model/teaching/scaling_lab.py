"""Why divide by √d_k: random queries and keys of a chosen width, and what their scores do.

Draw a query and a key of width d_k with independent numbers of mean 0 and variance 1. Their dot
product is a sum of d_k products, each of variance 1, so it has variance d_k: the scores spread
like √d_k. Divided by √d_k they spread like 1 at every width. A softmax of scores that spread
widely gives nearly all the weight to the largest one; so without the division, the wider the
head, the closer each row of weights comes to one-hot (its entropy falls towards 0 bits), and the
gradients through the others vanish.

The numbers are drawn once, 512 wide, from a seeded generator; a width d_k uses the first d_k
numbers of each vector. So a width shows the same numbers each time it is chosen (a student's
reading can be checked), widening the vectors adds terms to the same sums (the curves are smooth),
and every width's scores are one running sum, computed once: the slider answers at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.attention import entropy_bits, stable_softmax

D_K_MIN, D_K_MAX = 2, 512
KEY_COUNT = 8  # the keys one query is compared with
QUERY_COUNT = 200  # queries whose entropies are averaged: one query's jumps from width to width would hide the trend
PAIR_COUNT = 2000  # query-key pairs whose scores give the spread
SEED = 2017


@dataclass(frozen=True)
class ScalingReading:
    """What the lab shows at one width."""

    d_k: int
    raw_spread: float  # standard deviation of q · k over the pairs
    scaled_spread: float  # the same, of q · k / √d_k
    raw_weights: np.ndarray  # the first query's softmax over its KEY_COUNT keys, scores as they are
    scaled_weights: np.ndarray  # the same query and keys, scores divided by √d_k
    raw_entropy: float  # bits, the average over QUERY_COUNT queries, each with KEY_COUNT keys of its own
    scaled_entropy: float

    @property
    def expected_raw_spread(self) -> float:
        return float(np.sqrt(self.d_k))

    @property
    def most_entropy(self) -> float:
        """The entropy of weights spread evenly over the keys: log₂ KEY_COUNT bits."""
        return float(np.log2(len(self.raw_weights)))


def check_width(d_k: int) -> int:
    if isinstance(d_k, bool) or not isinstance(d_k, (int, np.integer)):
        raise TypeError(f"d_k must be a whole number, found {d_k!r}")
    if not D_K_MIN <= int(d_k) <= D_K_MAX:
        raise ValueError(f"d_k must be between {D_K_MIN} and {D_K_MAX}, found {d_k}")
    return int(d_k)


class ScalingLab:
    """The random vectors, drawn once, and every width's scores as running sums over their numbers."""

    def __init__(self, seed: int = SEED) -> None:
        self.seed = seed

    @cached_property
    def _running_scores(self) -> tuple[np.ndarray, np.ndarray]:
        """Pair scores (PAIR_COUNT, D_K_MAX) and query-key scores (QUERY_COUNT, KEY_COUNT, D_K_MAX):
        entry [..., d - 1] is the dot product of the vectors' first d numbers."""
        generator = np.random.default_rng(self.seed)
        pairs_q = generator.standard_normal((PAIR_COUNT, D_K_MAX))
        pairs_k = generator.standard_normal((PAIR_COUNT, D_K_MAX))
        queries = generator.standard_normal((QUERY_COUNT, 1, D_K_MAX))
        keys = generator.standard_normal((QUERY_COUNT, KEY_COUNT, D_K_MAX))
        return np.cumsum(pairs_q * pairs_k, axis=-1), np.cumsum(queries * keys, axis=-1)

    def reading(self, d_k: int) -> ScalingReading:
        d_k = check_width(d_k)
        pair_scores, query_scores = (scores[..., d_k - 1] for scores in self._running_scores)
        divisor = np.sqrt(d_k)
        visible = np.ones_like(query_scores, dtype=bool)
        raw_weights = stable_softmax(query_scores, visible)
        scaled_weights = stable_softmax(query_scores / divisor, visible)
        return ScalingReading(
            d_k=d_k,
            raw_spread=float(pair_scores.std()),
            scaled_spread=float((pair_scores / divisor).std()),
            raw_weights=raw_weights[0],
            scaled_weights=scaled_weights[0],
            raw_entropy=float(entropy_bits(raw_weights).mean()),
            scaled_entropy=float(entropy_bits(scaled_weights).mean()),
        )

    def curves(self) -> ScalingCurves:
        """Every width's spreads and average entropies at once, for the lab's plots (as its readings give them)."""
        pair_scores, query_scores = self._running_scores
        widths = np.arange(D_K_MIN, D_K_MAX + 1)
        pair_scores, query_scores = pair_scores[:, D_K_MIN - 1:], query_scores[..., D_K_MIN - 1:]
        divisors = np.sqrt(widths)
        by_width = np.moveaxis(query_scores, -1, 1)  # (QUERY_COUNT, widths, KEY_COUNT): a softmax per row
        visible = np.ones_like(by_width, dtype=bool)
        raw_entropy = entropy_bits(stable_softmax(by_width, visible)).mean(axis=0)
        scaled_entropy = entropy_bits(stable_softmax(by_width / divisors[:, np.newaxis], visible)).mean(axis=0)
        return ScalingCurves(
            widths=widths,
            raw_spread=pair_scores.std(axis=0),
            scaled_spread=(pair_scores / divisors).std(axis=0),
            raw_entropy=raw_entropy,
            scaled_entropy=scaled_entropy,
        )


@dataclass(frozen=True)
class ScalingCurves:
    widths: np.ndarray
    raw_spread: np.ndarray
    scaled_spread: np.ndarray
    raw_entropy: np.ndarray
    scaled_entropy: np.ndarray


@lru_cache(maxsize=4)
def lab(seed: int = SEED) -> ScalingLab:
    """The lab's vectors, drawn the first time they are wanted (not at start-up)."""
    return ScalingLab(seed)


def reading(d_k: int, seed: int = SEED) -> ScalingReading:
    """The spread of scores and the softmax's entropy at width D_K."""
    return lab(seed).reading(d_k)


def curves(seed: int = SEED) -> ScalingCurves:
    return lab(seed).curves()


def numpy_code(d_k: int, seed: int = SEED) -> str:
    """The lab at width D_K as a NumPy script: the same random numbers, drawn in the same order, so it
    prints the lab's readings. ASCII comments (sqrt, not the root sign) survive any editor."""
    d_k = check_width(d_k)
    return "\n".join((
        "# " + tr("Why divide by sqrt(d_k): the lab at d_k = {d_k}").format(d_k=d_k),
        "import numpy as np",
        "",
        f"rng = np.random.default_rng({seed})",
        f"d_k, widest = {d_k}, {D_K_MAX}  # "
        + tr("every vector is drawn {widest} wide; d_k uses its first numbers").format(widest=D_K_MAX),
        f"pairs_q = rng.standard_normal(({PAIR_COUNT}, widest))",
        f"pairs_k = rng.standard_normal(({PAIR_COUNT}, widest))",
        f"queries = rng.standard_normal(({QUERY_COUNT}, 1, widest))",
        f"keys = rng.standard_normal(({QUERY_COUNT}, {KEY_COUNT}, widest))  # "
        + tr("{count} keys for each query").format(count=KEY_COUNT),
        "",
        "scores = (pairs_q[:, :d_k] * pairs_k[:, :d_k]).sum(axis=1)",
        'print(f"spread of q.k: {scores.std():.2f}   divided by sqrt(d_k): {(scores / np.sqrt(d_k)).std():.2f}")',
        "",
        "def entropy_bits(logits):",
        "    w = np.exp(logits - logits.max(axis=-1, keepdims=True))",
        "    w /= w.sum(axis=-1, keepdims=True)",
        "    return -(w * np.log2(np.where(w > 0, w, 1.0))).sum(axis=-1)",
        "",
        "each_query = (queries[..., :d_k] * keys[..., :d_k]).sum(axis=-1)  # " + tr("one row of scores per query"),
        ('print(f"average entropy: {entropy_bits(each_query).mean():.2f} bits   '
        'divided by sqrt(d_k): {entropy_bits(each_query / np.sqrt(d_k)).mean():.2f} bits")'),
    )) + "\n"
