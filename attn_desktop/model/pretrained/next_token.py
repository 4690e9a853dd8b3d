"""The model's guess for the next token, read at a temperature and cut off by top-k and top-p.

A run keeps the last position's logits (`NextTokenScores`): every view of the prediction is computed
from them without the model, so moving the temperature slider costs a softmax over the vocabulary
(under a millisecond), not a forward pass. Dividing the logits by T keeps their order: the likeliest
tokens are the same at every temperature, only their share changes (T → 0 puts everything on the
first; large T spreads it evenly).

Top-k keeps the k likeliest tokens; top-p keeps the fewest likeliest whose probabilities add up to at
least p. Sampling draws from what is kept, renormalized (as Hugging Face's `generate` does).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_desktop.language import tr

SHOWN_TOKENS = 10  # the likeliest tokens kept by name (the bars of the prediction)
MIN_TEMPERATURE = 0.1
MAX_TEMPERATURE = 3.0


class TemperatureError(ValueError):
    """A temperature that is not a positive number."""


def temperature_problem(temperature: float) -> str | None:
    """Why TEMPERATURE cannot be used (one line), or None."""
    if not np.isfinite(temperature):
        return tr("the temperature must be a number above 0, not {text}").format(text=temperature)
    if temperature <= 0:
        return tr("the temperature must be above 0 (it divides the scores), not {value}").format(
            value=f"{temperature:g}")
    return None


@dataclass(frozen=True)
class NextTokenScores:
    """The last position's scores for every token of the vocabulary, and the likeliest by name."""

    logits: np.ndarray         # (vocab,) float32, as the model computed them
    top_ids: tuple[int, ...]   # the SHOWN_TOKENS likeliest ids, likeliest first (the same at every temperature)
    top_texts: tuple[str, ...]  # their text (" Paris")

    def probabilities(self, temperature: float = 1.0) -> np.ndarray:
        """softmax(logits / T) over the whole vocabulary, float64."""
        return probabilities_at(self.logits, temperature)

    def top(self, temperature: float = 1.0, count: int = SHOWN_TOKENS) -> list[tuple[str, float]]:
        """The COUNT likeliest tokens with their probabilities at TEMPERATURE."""
        probabilities = self.probabilities(temperature)
        return [(text, float(probabilities[token])) for token, text in zip(self.top_ids[:count], self.top_texts)]


def likeliest_ids(logits: np.ndarray, count: int = SHOWN_TOKENS) -> np.ndarray:
    """The COUNT ids of highest logit, highest first (ties by lower id, as a stable sort gives)."""
    count = min(count, len(logits))
    if count < len(logits):  # every id tied with the COUNT-th too: argpartition would pick among them at random
        kth = np.partition(-logits, count - 1)[count - 1]
        candidates = np.flatnonzero(-logits <= kth)
    else:
        candidates = np.arange(len(logits))
    order = np.lexsort((candidates, -logits[candidates].astype(np.float64)))
    return np.asarray(candidates[order][:count])


def probabilities_at(logits: np.ndarray, temperature: float) -> np.ndarray:
    """softmax(logits / T) in float64 (a temperature ≤ 0 or NaN: TemperatureError)."""
    problem = temperature_problem(temperature)
    if problem:
        raise TemperatureError(problem)
    # Shifted before dividing: the largest becomes 0, the others at most 0, so a tiny T makes -inf (a
    # probability of 0), never inf - inf (NaN) as dividing first would for T = 1e-310.
    scaled = np.asarray(logits, dtype=np.float64) - float(np.max(logits))
    with np.errstate(over="ignore"):  # to -inf: a probability of 0
        scaled /= temperature
    np.exp(scaled, out=scaled)
    scaled /= scaled.sum()
    return scaled


def kept_count(sorted_probabilities: np.ndarray, top_k: int = 0, top_p: float = 1.0) -> int:
    """How many of the likeliest tokens (SORTED_PROBABILITIES, highest first) top-k and top-p keep.

    top_k 0 keeps every token; top_p 1 keeps every token. Top-p keeps the fewest whose sum reaches p
    (at least one)."""
    kept = len(sorted_probabilities) if top_k <= 0 else min(top_k, len(sorted_probabilities))
    if top_p < 1.0:
        reached = np.cumsum(sorted_probabilities[:kept]) >= top_p - 1e-12
        kept = min(kept, int(np.argmax(reached)) + 1 if reached.any() else kept)
    return max(1, kept)


def sample_token(probabilities: np.ndarray, top_k: int, top_p: float, rng: np.random.Generator) -> int:
    """One token id drawn from PROBABILITIES (over the vocabulary) after the top-k and top-p cut-offs."""
    order = np.argsort(-probabilities, kind="stable")
    sorted_probabilities = probabilities[order]
    kept = kept_count(sorted_probabilities, top_k, top_p)
    shares = sorted_probabilities[:kept] / sorted_probabilities[:kept].sum()
    return int(order[rng.choice(kept, p=shares)])


def moved_most(before: NextTokenScores, after: NextTokenScores, temperature: float = 1.0
               ) -> tuple[str, float, float]:
    """The token, among those either prediction names, whose probability changed most from BEFORE to AFTER
    (both over the same vocabulary): its text, its probability before and after, at TEMPERATURE."""
    was, now = before.probabilities(temperature), after.probabilities(temperature)
    texts = dict(zip(before.top_ids, before.top_texts)) | dict(zip(after.top_ids, after.top_texts))
    token = max(texts, key=lambda candidate: (abs(now[candidate] - was[candidate]), -candidate))
    return texts[token], float(was[token]), float(now[token])
