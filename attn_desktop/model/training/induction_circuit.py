"""Reading a trained layered model for the induction circuit: which head looks at the previous token,
which at the token after the last occurrence, how much each, and when the loss dropped.

Each score is a mean attention weight (0 to 1), measured on sequences of the induction task:

- previous-token score of a head: the weight from every query i >= 1 on key i - 1;
- induction score of a head: the weight from every predictable position i (the second copy, see
  induction_task.predictable_places) on key j + 1, where j < i is the earlier occurrence of token i.

A head "is" of its kind when its score is at least CIRCUIT_THRESHOLD: half its attention, on average,
goes to that one place (the same rule the model-heads view states for a real model's heads).

Nothing here imports Qt.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from attn_desktop.model.training.head_maths import accuracy_of
from attn_desktop.model.training.induction_task import InductionTask, predictable_places
from attn_desktop.model.training.layered_maths import HeadAt, LayeredForward, forward
from attn_desktop.model.training.layered_params import LayeredParams
from attn_desktop.model.training.training import EVALUATION_COUNT, EVALUATION_SEED

CIRCUIT_THRESHOLD = 0.5
# The loss has "dropped" once it falls below this share of its value at chance (ln V): a plateau near
# ln V first, then a fall. Half is well clear of the plateau's wobble and reached within a few steps of
# the fall's steepest point on every seed tried (bench/training.py).
DROP_SHARE = 0.5
PLATEAU_SHARE = 0.9  # the plateau: steps whose loss stays above this share of ln V
# Each step's loss is of its own random batch and wobbles by a tenth of ln V; the rules read the mean of the
# last SMOOTHING_STEPS steps' losses, so one lucky batch does not end the plateau.
SMOOTHING_STEPS = 20


@dataclass(frozen=True)
class CircuitReading:
    """Every head's two scores, (layers, heads) each, and the accuracy with the given heads knocked out."""

    previous_token: np.ndarray
    induction: np.ndarray
    accuracy: float

    def strongest(self, scores: np.ndarray, layer: int) -> tuple[int, float]:
        """The head of LAYER with the highest of SCORES, and that score."""
        head = int(np.argmax(scores[layer]))
        return head, float(scores[layer, head])

    @property
    def previous_token_head(self) -> tuple[int, float]:
        """Layer 1's head that looks most at the previous token, and its score."""
        return self.strongest(self.previous_token, 0)

    @property
    def induction_head(self) -> tuple[int, float]:
        """The last layer's head that looks most at the token after the earlier occurrence, and its score."""
        return self.strongest(self.induction, self.induction.shape[0] - 1)

    @property
    def formed(self) -> bool:
        """Both heads are there: each at least CIRCUIT_THRESHOLD."""
        return min(self.previous_token_head[1], self.induction_head[1]) >= CIRCUIT_THRESHOLD


def read_circuit(task: InductionTask, params: LayeredParams, knocked_out: Collection[HeadAt] = (),
                 count: int = EVALUATION_COUNT, seed: int = EVALUATION_SEED) -> CircuitReading:
    """The scores and accuracy on COUNT fresh sequences from SEED (the evaluation's own, by default)."""
    batch = task.sample(np.random.default_rng(seed), count)
    with np.errstate(all="ignore"):
        result = forward(params, batch.tokens, task.causal, knocked_out)
        return CircuitReading(previous_token=previous_token_scores(result),
                              induction=induction_scores(result), accuracy=accuracy_of(result, batch))


def previous_token_scores(result: LayeredForward) -> np.ndarray:
    """Each head's mean weight from query i on key i - 1, over i >= 1: (layers, heads)."""
    length = result.tokens.shape[-1]
    queries = np.arange(1, length)
    return np.array([[float(layer.weights[..., head, queries, queries - 1].mean())
                      for head in range(layer.weights.shape[-3])] for layer in result.layers])


def induction_scores(result: LayeredForward) -> np.ndarray:
    """Each head's mean weight from a predictable position on the token after its earlier occurrence."""
    queries, keys = induction_targets(result.tokens)
    rows = np.nonzero(queries >= 0)
    place = (*rows[:-1], queries[rows], keys[rows])  # (sequence, query, key) of each predictable position
    return np.array([[float(layer.weights[..., head, :, :][place].mean())
                      if rows[0].size else 0.0
                      for head in range(layer.weights.shape[-3])] for layer in result.layers])


def induction_targets(tokens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every position of TOKENS ((..., L)): the position itself where it is predictable, else -1;
    and the key an induction head should look at there (j + 1, j the earlier occurrence), else -1."""
    flat = np.asarray(tokens, dtype=np.int64)
    scored = predictable_places(flat)
    length = flat.shape[-1]
    earlier = (flat[..., :, None] == flat[..., None, :]) & np.tri(length, length, -2, dtype=bool)
    last_earlier = np.where(earlier.any(axis=-1), length - 1 - np.argmax(earlier[..., ::-1], axis=-1), -1)
    queries = np.where(scored, np.arange(length), -1)
    keys = np.where(scored, last_earlier + 1, -1)
    return queries, keys


def loss_drop(losses: Sequence[float], vocab_size: int) -> tuple[int | None, int | None]:
    """(where the plateau ends, where the loss drops), as indexes into LOSSES (one per step), or None.

    Both read the mean of the last SMOOTHING_STEPS losses at each step. The plateau: the first steps,
    whose loss stays above PLATEAU_SHARE of ln V (guessing); it ends at the last such step before the
    drop. The drop: the first step whose mean falls below DROP_SHARE of ln V.
    """
    chance = math.log(vocab_size)
    raw = np.asarray(losses, dtype=np.float64)
    sums = np.cumsum(np.concatenate(([0.0], raw)))
    starts = np.maximum(np.arange(raw.size) + 1 - SMOOTHING_STEPS, 0)
    values = (sums[1:] - sums[starts]) / (np.arange(raw.size) + 1 - starts)
    below = np.flatnonzero(values < DROP_SHARE * chance)
    drop = int(below[0]) if below.size else None
    high = np.flatnonzero(values[:drop] > PLATEAU_SHARE * chance) if drop is not None else np.zeros(0, dtype=int)
    plateau_end = int(high[-1]) if high.size else None
    return plateau_end, drop


__all__ = ["CIRCUIT_THRESHOLD", "CircuitReading", "induction_scores", "induction_targets", "loss_drop",
           "previous_token_scores", "read_circuit"]
