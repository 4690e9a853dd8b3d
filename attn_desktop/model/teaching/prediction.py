"""Predict, then see: a student's guess of one query's weights, compared with the real ones.

A guess is a weights vector over the keys, like the softmax's own: no negative
shares, adding up to 1. Naming the key that wins is a guess too, the one that
gives that key everything. The comparison gives one number a student can read,
the total variation distance ½ Σ |guess − real| ("off by 18 points": the share of
weight that sits on the wrong keys), each key's difference, and whether the
guessed winner is the real one. A round scores 100 × (1 − distance).

Asking for a prediction before showing a chart improves what learners recall
(Kim, Reinecke & Hullman, CHI 2017). NumPy only: no Qt here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from attn_desktop.language import tr

Flags = Sequence[bool] | np.ndarray | None  # one per key: whether the query can see it
MAX_ROUNDS = 10**9  # a round takes seconds: more than any class will ever play, and exact as a float
TIE_TOLERANCE = 1e-9  # weights this close to the largest count as winning too


def as_guess(values: Sequence[float] | np.ndarray, n_keys: int, allowed: Flags = None) -> np.ndarray:
    """VALUES as a guess over N_KEYS keys, scaled to add up to 1; ValueError naming what is wrong.

    ALLOWED (one flag per key, default all) marks the keys a query can see: a key the causal mask
    hides gets no share, whatever was given for it.
    """
    guess = np.asarray(values, dtype=float).reshape(-1)
    if guess.shape != (n_keys,):
        raise ValueError(f"a guess needs one share for each of the {n_keys} keys, not {guess.size}")
    if not np.all(np.isfinite(guess)):
        raise ValueError("a guess must be numbers, not NaN or infinity")
    if np.any(guess < 0):
        raise ValueError("a guess cannot give a key a negative share")
    guess = np.where(_allowed(allowed, n_keys), guess, 0.0)
    total = float(guess.sum())
    if total <= 0:
        raise ValueError("a guess must give some weight to at least one key it can see")
    return np.asarray(guess / total, dtype=float)


def winner_guess(index: int, n_keys: int) -> np.ndarray:
    """"This key wins": the guess that gives key INDEX all the weight."""
    if not 0 <= index < n_keys:
        raise ValueError(f"the winner must be one of the {n_keys} keys (0 to {n_keys - 1}), not {index}")
    guess = np.zeros(n_keys)
    guess[index] = 1.0
    return guess


def even_guess(n_keys: int, allowed: Flags = None) -> np.ndarray:
    """The same share for every key the query can see: the guess of someone with no idea."""
    return as_guess(np.ones(n_keys), n_keys, allowed)


def with_share(guess: np.ndarray, index: int, share: float, allowed: Flags = None) -> np.ndarray:
    """The guess with key INDEX set to SHARE (clamped to 0–1), the other keys sharing the rest in the
    proportions they had (evenly, if they had nothing): dragging one bar keeps the total at 1."""
    n_keys = len(guess)
    visible = _allowed(allowed, n_keys)
    if not 0 <= index < n_keys or not visible[index]:
        return np.array(guess, dtype=float)
    if not np.isfinite(share):
        raise ValueError("a share must be a number, not NaN or infinity")
    others = visible.copy()
    others[index] = False
    share = 1.0 if not others.any() else min(max(float(share), 0.0), 1.0)
    rest = np.where(others, np.asarray(guess, dtype=float), 0.0)
    rest = rest / rest.sum() if rest.sum() > 0 else others / others.sum()
    result = np.asarray(rest * (1.0 - share), dtype=float)
    result[index] = share
    return result


def winners(weights: np.ndarray) -> list[int]:
    """The keys with the largest weight (several when they tie)."""
    top = float(np.max(weights))
    return [int(i) for i in np.flatnonzero(weights >= top - TIE_TOLERANCE)]


@dataclass(frozen=True)
class Comparison:
    """A guess beside the real weights."""

    guess: np.ndarray
    real: np.ndarray
    differences: np.ndarray  # guess − real, key by key
    distance: float  # total variation distance, 0 (the same) to 1 (no weight in common)
    guessed_winner: int | None  # None when the guess ties its largest shares
    real_winners: tuple[int, ...]

    @property
    def winner_right(self) -> bool:
        return self.guessed_winner is not None and self.guessed_winner in self.real_winners

    @property
    def score(self) -> float:
        """100 for the exact weights, 0 for a guess with no weight where the real weights are."""
        return 100.0 * (1.0 - self.distance)

    @property
    def points_off(self) -> float:
        """The distance in percentage points: the share of weight the guess put on the wrong keys."""
        return 100.0 * self.distance


def compare(guess: Sequence[float] | np.ndarray, real: Sequence[float] | np.ndarray) -> Comparison:
    """Compare a guess with the real weights (both made to add up to 1; ValueError for bad input)."""
    real_weights = np.asarray(real, dtype=float).reshape(-1)
    real_weights = as_guess(real_weights, real_weights.size)
    guessed = as_guess(guess, real_weights.size)
    differences = guessed - real_weights
    distance = float(min(max(0.5 * np.abs(differences).sum(), 0.0), 1.0))
    guessed_top = winners(guessed)
    return Comparison(guessed, real_weights, differences, distance,
                      guessed_top[0] if len(guessed_top) == 1 else None, tuple(winners(real_weights)))


@dataclass(frozen=True)
class SessionScore:
    """Rounds played and how they went: for this session, or (kept in the progress file) for all time."""

    rounds: int = 0
    total_score: float = 0.0
    winners_right: int = 0
    best_score: float = 0.0

    @property
    def average(self) -> float:
        return self.total_score / self.rounds if self.rounds else 0.0

    def with_round(self, comparison: Comparison) -> SessionScore:
        if self.rounds >= MAX_ROUNDS:
            return self  # the record is full: what it says stays readable (from_dict refuses more)
        return SessionScore(self.rounds + 1, self.total_score + comparison.score,
                            self.winners_right + comparison.winner_right, max(self.best_score, comparison.score))

    def to_dict(self) -> dict[str, float | int]:
        return {"rounds": self.rounds, "total_score": round(self.total_score, 6),
                "winners_right": self.winners_right, "best_score": round(self.best_score, 6)}

    @classmethod
    def from_dict(cls, record: object) -> SessionScore:
        """A record as the progress file keeps it; ValueError if it is not one."""
        if not isinstance(record, dict):
            raise ValueError(tr("a prediction record must be an object"))  # noqa: TRY004 - one error type for a bad file
        rounds, right = record.get("rounds", 0), record.get("winners_right", 0)
        total, best = record.get("total_score", 0.0), record.get("best_score", 0.0)
        # Ranges before arithmetic: a file may hold a whole number too big for a float (or for NumPy).
        if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_ROUNDS for n in (rounds, right)):
            raise ValueError(tr("rounds and winners right must be whole numbers from 0 to {most}").format(
                most=f"{MAX_ROUNDS:,}"))
        if not all(_plain_number(x) and abs(x) <= 100 * MAX_ROUNDS + 1 for x in (total, best)):
            raise ValueError(tr("scores must be numbers"))
        if right > rounds or not 0 <= best <= 100 or not 0 <= total <= 100 * rounds + 1e-6:
            raise ValueError(tr("the record's numbers do not fit together"))
        return cls(rounds, float(total), right, float(best))


def _plain_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and (isinstance(x, int) or math.isfinite(x))


def _allowed(allowed: Flags, n_keys: int) -> np.ndarray:
    if allowed is None:
        return np.ones(n_keys, dtype=bool)
    flags = np.asarray(allowed, dtype=bool).reshape(-1)
    if flags.shape != (n_keys,):
        raise ValueError(f"allowed needs one flag for each of the {n_keys} keys, not {flags.size}")
    return flags


def numpy_code(guess: Sequence[float] | np.ndarray) -> str:
    """How a guess is scored, as NumPy lines that follow the scene's own script (its `tokens`,
    `weights` and chosen query `i`): they print what the app shows after Reveal."""
    shares = ", ".join(f"{round(float(share), 4):g}" for share in guess)
    return "\n".join((
        "# " + tr("Predict, then see: how far a guess is from the real weights"),
        f"guess = np.array([{shares}])  # " + tr("your last guess, one share per key"),
        "guess = guess / guess.sum()",
        "real = weights[i]",
        "off_by = 0.5 * np.abs(guess - real).sum()  # " + tr("total variation distance: weight on the wrong keys"),
        'print(f"off by {100 * off_by:.0f} points, score {100 * (1 - off_by):.0f}")',
        'print("winner:", tokens[int(np.argmax(real))], "- you said:", tokens[int(np.argmax(guess))])',
    )) + "\n"
