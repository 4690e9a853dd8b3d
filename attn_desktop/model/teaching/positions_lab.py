"""The Positions lab's numbers: what attention does with word order, without positions and with each kind.

- **Order**: the scene's words in two orders, no positions: every word's weights and output are the same in
  both, only reordered (positions.shuffled_attention).
- **Added**: x_i + α·PE[i] (sinusoidal) before the grids: the two orders now differ, and PE[i]·PE[j] depends on
  the distance i − j only. Lesson 5's trained head, x = E[t_i] + α·P[i]: at α = 1 its mirror pattern, at
  α = 0 a head that cannot tell places apart.
- **Rotated**: one 2-D pair of q and k, q turned by m·θ and k by n·θ: their dot product depends on m − n
  only; and the 32 pairs of a 64-wide head at SmolLM2's frequencies, each turned by (m − n)·θ_i.

The head the lab reads is the one the one-head panels show, as a `LabHead` of plain arrays. Nothing here
imports Qt.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from attn_desktop.model.attention import AttentionResult, attention
from attn_desktop.model.head_reading import HeadReading
from attn_desktop.model.layers import GRID_NAMES, Role
from attn_desktop.model.positions import rope_frequencies, shuffled_attention, sinusoidal_encoding

STRENGTH_MAX = 2.0  # α, the strength of the position added to x
PAIR_THETA = 1.0  # radians a position: the turn of the lab's one 2-D pair (SmolLM2's fastest pair)
POSITION_MAX = 20  # m and n run from 0 to this
HEAD_WIDTH = 64  # SmolLM2's heads: 32 pairs
SMOLLM2_ROPE_BASE = 100000.0  # llama.rope.freq_base in SmolLM2-135M-Instruct's file
HEATMAP_POSITIONS, HEATMAP_WIDTH = 50, 64
LEARNED_SCENE = "lessons/5_trained_reverse.json"


@dataclass(frozen=True)
class LabHead:
    """One head's inputs as the lab needs them: the word vectors x and the grids that make q, k and v
    (a head given q, k and v directly: those, with grids that keep them as they are)."""

    tokens: list[str]
    inputs: dict[Role, np.ndarray]  # x alone (Role.EMBEDDING), or q, k and v
    grids: dict[str, np.ndarray]  # w_q, w_k, w_v; empty for q, k and v given directly
    scale: bool

    @property
    def width(self) -> int:
        """The width of the vectors positions are added to (x's, or q's)."""
        return int(next(iter(self.inputs.values())).shape[1])

    def vectors(self, order: Sequence[int], strength: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """q, k and v of the words taken in ORDER, each with STRENGTH·PE of its new place added to its input."""
        index = np.asarray(order, dtype=np.int64)
        placed = {role: rows[index] + strength * sinusoidal_encoding(len(index), rows.shape[1])
                  for role, rows in self.inputs.items()}
        if Role.EMBEDDING in placed:
            x = placed[Role.EMBEDDING]
            made = tuple(x @ self.grids[name] if self.grids else x for name in GRID_NAMES)
            return made[0], made[1], made[2]
        return placed[Role.QUERY], placed[Role.KEY], placed[Role.VALUE]


def lab_head(reading: HeadReading) -> LabHead | None:
    """The head READING shows, or None when its queries are not its words (a cross-attention scene) or it
    reads another layer's stream (positions go into a model's first layer)."""
    if reading.query_tokens != reading.tokens or reading.layer != 0:
        return None
    scene = reading.scene
    inputs = {role: np.array(scene.vectors(role)) for role in scene.input_roles}
    grids = {name: np.array(grid) for name, grid in reading.grids.items()} if reading.use_grids else {}
    if Role.EMBEDDING in inputs and not grids:
        width = inputs[Role.EMBEDDING].shape[1]
        grids = {name: np.eye(width) for name in GRID_NAMES}
    return LabHead(list(reading.tokens), inputs, grids, reading.scale)


# ----- order ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class OrderComparison:
    """The sentence and the same words in ORDER (row i of `second` is word ORDER[i]), attention without a mask."""

    tokens: list[str]
    order: list[int]
    first: AttentionResult
    second: AttentionResult

    @property
    def second_tokens(self) -> list[str]:
        return [self.tokens[i] for i in self.order]

    def outputs_only_reordered(self, tolerance: float = 1e-12) -> bool:
        """Whether every word's output in the second order is its output in the first."""
        return bool(np.allclose(self.second.output, self.first.output[self.order], rtol=0, atol=tolerance))

    def weights_only_reordered(self, tolerance: float = 1e-12) -> bool:
        index = np.asarray(self.order)
        return bool(np.allclose(self.second.weights, self.first.weights[np.ix_(index, index)], rtol=0, atol=tolerance))


def compare_orders(head: LabHead, order: Sequence[int], strength: float = 0.0) -> OrderComparison:
    """HEAD's attention for its sentence and for its words in ORDER, STRENGTH·PE added to each place."""
    order = list(order)
    n = len(head.tokens)
    first = attention(*head.vectors(range(n), strength), scale=head.scale)
    if strength == 0.0:  # no position: the very numbers, reordered (what the lesson is about)
        second = shuffled_attention(*head.vectors(range(n)), order, scale=head.scale)
    else:
        second = attention(*head.vectors(order, strength), scale=head.scale)
    return OrderComparison(list(head.tokens), order, first, second)


def other_order(n: int) -> list[int]:
    """The second order the lab compares with: the second word and the last swapped ("the dog chased the
    cat" → "the cat chased the dog"); two words the other way round; one word as it is."""
    order = list(range(n))
    if n >= 3:
        order[1], order[-1] = order[-1], order[1]
    return order[::-1] if n == 2 else order


def shuffled_order(n: int, rng: np.random.Generator) -> list[int]:
    """A random order of N words other than the one they are in (when there is another)."""
    order = list(range(n))
    while n > 1 and order == list(range(n)):
        order = rng.permutation(n).tolist()
    return order


def order_back(first: Sequence[Hashable], now: Sequence[Hashable]) -> list[int] | None:
    """The order that takes the words NOW back to FIRST (word i of the result is NOW[order[i]]), or None when
    NOW is not FIRST reordered. Equal words are interchangeable: the first still free is taken."""
    if len(first) != len(now):
        return None
    free = list(range(len(now)))
    order = []
    for word in first:
        found = next((i for i in free if now[i] == word), None)
        if found is None:
            return None
        free.remove(found)
        order.append(found)
    return order


# ----- added ----------------------------------------------------------------------------------------
def encoding_dot_by_distance(width: int, reach: int = POSITION_MAX, at: int = POSITION_MAX) -> tuple[np.ndarray, np.ndarray]:
    """Distances i − j from −REACH to REACH and PE[i]·PE[j] at each, i = AT (the same at any i)."""
    encoding = sinusoidal_encoding(at + reach + 1, width)
    distances = np.arange(-reach, reach + 1)
    return distances, encoding[at] @ encoding[at - distances].T


def encoding_heatmap() -> np.ndarray:
    """The sinusoidal encoding, positions × dimensions, for the lab's picture."""
    return sinusoidal_encoding(HEATMAP_POSITIONS, HEATMAP_WIDTH)


@dataclass(frozen=True)
class LearnedHead:
    """Lesson 5's trained head: its example's token ids, embeddings E, positions P and grids."""

    tokens: list[str]
    token_ids: list[int]
    embed: np.ndarray
    pos: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray

    def weights(self, strength: float) -> np.ndarray:
        """Its attention weights with x_i = E[t_i] + STRENGTH·P[i]."""
        x = self.embed[self.token_ids] + strength * self.pos[: len(self.token_ids)]
        queries, keys = x @ self.w_q, x @ self.w_k
        return attention(queries, keys, np.zeros((len(x), 1)), scale=True).weights


@cache
def learned_head() -> LearnedHead:
    """Lesson 5's head, read from its scene file as any scene is (once, when first wanted)."""
    from attn_desktop.model.scene_files import read_scene_data
    from attn_desktop.paths import scene_path

    data = read_scene_data(scene_path(LEARNED_SCENE))
    trained = getattr(data, "trained_head", None)
    grids = getattr(data, "only_head", None)
    if trained is None or grids is None:
        raise ValueError(f"{LEARNED_SCENE} holds no trained head")
    return LearnedHead(list(data.tokens), list(trained.token_ids), np.array(trained.embed), np.array(trained.pos),
                       np.array(grids.w_q), np.array(grids.w_k))


def is_anti_diagonal(weights: np.ndarray) -> bool:
    """Whether each row puts most of its weight on the mirror place (row i on column n − 1 − i)."""
    n = len(weights)
    return bool(np.all(np.argmax(weights, axis=1) == np.arange(n)[::-1]))


# ----- rotated --------------------------------------------------------------------------------------
def first_pair(vector: np.ndarray) -> np.ndarray:
    """A vector's first two numbers (a one-number vector's second is 0)."""
    pair = np.zeros(2)
    numbers = np.asarray(vector, dtype=np.float64)[:2]
    pair[: len(numbers)] = numbers
    return pair


def turned(pair: np.ndarray, angle: float) -> np.ndarray:
    cos, sin = np.cos(angle), np.sin(angle)
    return np.array([pair[0] * cos - pair[1] * sin, pair[0] * sin + pair[1] * cos])


@dataclass(frozen=True)
class TurnedPair:
    q: np.ndarray  # turned by m·θ
    k: np.ndarray  # turned by n·θ
    score: float  # q·k
    angle: float  # between them, in radians (0 to π)


def turn_pair(q: np.ndarray, k: np.ndarray, m: float, n: float, theta: float = PAIR_THETA) -> TurnedPair:
    q_turned, k_turned = turned(q, m * theta), turned(k, n * theta)
    lengths = float(np.linalg.norm(q_turned) * np.linalg.norm(k_turned))
    cos = float(q_turned @ k_turned) / lengths if lengths > 0 else 1.0
    return TurnedPair(q_turned, k_turned, float(q_turned @ k_turned), float(np.arccos(np.clip(cos, -1.0, 1.0))))


def score_along_m(q: np.ndarray, k: np.ndarray, distance: int, theta: float = PAIR_THETA) -> tuple[np.ndarray, np.ndarray]:
    """m from 0 to POSITION_MAX with n = m − DISTANCE, and q·k at each: a flat line."""
    ms = np.arange(POSITION_MAX + 1)
    return ms, np.array([turn_pair(q, k, float(m), float(m - distance), theta).score for m in ms])


def score_along_distance(q: np.ndarray, k: np.ndarray, theta: float = PAIR_THETA) -> tuple[np.ndarray, np.ndarray]:
    """m − n from −POSITION_MAX to POSITION_MAX and q·k at each: a cosine."""
    distances = np.arange(-POSITION_MAX, POSITION_MAX + 1)
    return distances, np.array([turn_pair(q, k, float(distance), 0.0, theta).score for distance in distances])


def clock_angles(distance: float, base: float, width: int = HEAD_WIDTH) -> np.ndarray:
    """Each pair's turn (m − n)·θ_i, in radians within [0, 2π), for a head WIDTH wide."""
    return np.mod(distance * rope_frequencies(width, base), 2 * np.pi)


__all__ = ["LabHead", "OrderComparison", "compare_orders", "lab_head", "learned_head", "other_order", "turn_pair"]
