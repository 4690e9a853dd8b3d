"""The four challenges of the lesson, as pure functions of a scene.

Each check answers two questions a student asks: "have I done it?" (met)
and, if not, "what is still missing?" (note). The notes name the state a
student cannot see on the canvas: scaling switched off, a causal mask that
hides keys, two keys that only look alike, a key nudged by a drag.

Everything here runs on every drag move, so it stays O(n²) at worst with
small constants, and never imports Qt.

ChallengeTracker holds the rule of what counts as completed and what is
written to the student's progress file; the challenges panel only shows it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from attn_desktop.language import N_, ntr, number, tr, vector
from attn_desktop.model.explain import arrow_name
from attn_desktop.model.head_reading import HeadReading
from attn_desktop.model.layers import Change, Role
from attn_desktop.model.teaching.lesson_words import token_word
from attn_desktop.model.teaching.lessons import lesson
from attn_desktop.model.teaching.progress import ProgressKind, ProgressStore

FOCUS_WEIGHT = 0.95        # (a): at least 95% on one key
EVEN_TOKENS = 6            # (b): the six-token scene
EVEN_TOLERANCE = 0.005     # (b): every weight within half a percentage point of 1/6
TWIN_TOLERANCE = 1e-12     # (c): two weight columns this close count as exactly equal
TWIN_MIN_WEIGHT = 0.01     # (c): ...and some query must give them at least 1%, see _twin_pair
NEAR_DISTANCE = 0.3        # (c): keys closer than this get a "nearly there" note
OUTPUT_TOKEN = "sat"       # (d)

SNAP_TIP = N_("tip: turn on Snap to grid, or type the coordinates")


Check = Callable[[HeadReading, "Baseline"], tuple[bool, str]]  # (met, note)


@dataclass(frozen=True)
class Challenge:
    id: str     # its key in the progress file: never change a published one
    title: str  # what the student is asked to do
    hint: str   # a nudge towards the idea, not the answer
    check: Check = field(repr=False, compare=False)


@dataclass(frozen=True)
class ChallengeStatus:
    id: str
    met: bool
    note: str  # what is missing, in plain words; encouragement when met


@dataclass(frozen=True)
class Baseline:
    """The queries and keys as the scene opened, for "without moving any query or key"."""

    queries: np.ndarray
    keys: np.ndarray

    @classmethod
    def from_scene(cls, scene: HeadReading) -> Baseline:
        return cls(queries=_frozen_copy(scene.vectors(Role.QUERY)), keys=_frozen_copy(scene.vectors(Role.KEY)))


def _frozen_copy(array: np.ndarray) -> np.ndarray:
    copy = np.array(array, dtype=np.float64)
    copy.flags.writeable = False
    return copy


def evaluate(scene: HeadReading, baseline: Baseline) -> list[ChallengeStatus]:
    """The status of every challenge, in the order of CHALLENGES."""
    return [ChallengeStatus(c.id, *c.check(scene, baseline)) for c in CHALLENGES]


# ----- (a) scaled focus ------------------------------------------------------
def _scaled_focus(scene: HeadReading, baseline: Baseline) -> tuple[bool, str]:
    row = scene.selected_weights
    visible = scene.result.mask[scene.selected]
    if int(visible.sum()) < 2:
        # A query that sees a single key gives it 100% without anyone doing anything.
        return False, tr("{query} can see only one key; it needs at least two to choose between.").format(
            query=_query(scene))
    top = int(np.argmax(row))
    if row[top] >= FOCUS_WEIGHT and scene.scale:
        return True, tr("Done: {query} puts {weight} on {key}.").format(
            query=_query(scene), weight=number(round(row[top] * 100), 0) + "%", key=_key(scene, top))
    if not scene.scale:
        return False, tr("Scaling is off: this one counts only with ÷√d_k on.")
    return False, tr("{query} puts {weight} on {key}; it needs 95% or more on one key.").format(
        query=_query(scene), weight=_percent_floor(row[top]), key=_key(scene, top))


# ----- (b) even spread -------------------------------------------------------
def _even_spread(scene: HeadReading, baseline: Baseline) -> tuple[bool, str]:
    if scene.n_tokens != EVEN_TOKENS:
        return False, tr("This one needs the six-token scene (The cat sat on the mat); this scene has {count}.").format(
            count=scene.n_tokens)
    row = scene.selected_weights
    off = np.abs(row - 1 / EVEN_TOKENS)
    if np.all(off <= EVEN_TOLERANCE):
        return True, tr("Done: {query} gives each token about {share}.").format(
            query=_query(scene), share=number(16.7, 1) + "%")
    hidden = int((~scene.result.mask[scene.selected]).sum())
    if hidden:
        return False, ntr("The causal mask hides {count} key from {query}, "
                          "so they get 0%: turn the mask off, or choose the last token.",
                          "The causal mask hides {count} keys from {query}, "
                          "so they get 0%: turn the mask off, or choose the last token.",
                          hidden).format(count=hidden, query=_query(scene))
    worst = int(np.argmax(off))
    return False, tr("Each key needs {share}, give or take half a point ({low} to {high}). "
                     "Furthest off: {key} at {weight}.").format(
        share=number(16.7, 1) + "%", low=number(16.2, 1) + "%", high=number(17.2, 1) + "%",
        key=_key(scene, worst), weight=_percent(row[worst]))


# ----- (c) twin keys ---------------------------------------------------------
def _twin_keys(scene: HeadReading, baseline: Baseline) -> tuple[bool, str]:
    if scene.n_tokens < 2:
        return False, tr("This one needs a scene with at least two tokens.")
    weights = scene.result.weights
    # Two keys pushed far from every query both get about 0% from all of them: equal, but
    # nobody would call that "the same weight". Only columns some query can see take part.
    visible = np.flatnonzero(weights.max(axis=0) >= TWIN_MIN_WEIGHT)
    twins = _equal_columns(weights, visible)
    if twins:
        return True, tr("Done: {pair} get the same weight from every query.").format(pair=_pair(scene, *twins))
    unseen = _equal_columns(weights, np.arange(scene.n_tokens)) if visible.size < scene.n_tokens else None
    if unseen:
        return False, tr("{pair} both get almost no weight from any query; "
                         "bring them where the queries can see them.").format(pair=_pair(scene, *unseen))
    return False, _twin_missing_note(scene)


def _equal_columns(weights: np.ndarray, columns: np.ndarray) -> tuple[int, int] | None:
    """Two of these key indices whose weight columns agree within TWIN_TOLERANCE for every query.

    Comparing every pair of columns costs n² · n_q; comparing column sums first
    (sorted, so equal ones sit together) leaves almost no pairs to check.
    """
    sums = weights[:, columns].sum(axis=0)
    order = np.argsort(sums, kind="stable")
    ordered = sums[order]
    slack = 2 * TWIN_TOLERANCE * weights.shape[0]  # rounding in the sums stays far below this
    for start in np.flatnonzero(np.diff(ordered) <= slack):
        stop = int(np.searchsorted(ordered, ordered[start] + slack, side="right"))
        first, others = columns[order[start]], columns[order[start + 1:stop]]
        equal = np.all(np.abs(weights[:, others] - weights[:, [first]]) <= TWIN_TOLERANCE, axis=0)
        if equal.any():
            other = others[int(np.argmax(equal))]
            return int(min(first, other)), int(max(first, other))
    return None


def _twin_missing_note(scene: HeadReading) -> str:
    if scene.causal:
        return tr("The causal mask hides later keys from earlier queries, so no two tokens can get the same "
                  "weight from every query: turn the mask off.")
    keys = scene.vectors(Role.KEY)
    gram = keys @ keys.T
    squared_lengths = gram.diagonal()
    upper = _upper_triangle(scene.n_tokens)  # each pair once
    parallel = _same_direction_pair(gram, squared_lengths, upper)
    if parallel:
        return tr("{pair} point the same way but have different lengths, and the longer one "
                  "scores more: put them on the same point, not just in the same direction ({tip}).").format(
            pair=_pair(scene, *parallel), tip=tr(SNAP_TIP))
    squared_distances = squared_lengths[:, None] + squared_lengths[None, :] - 2 * gram
    j, k = divmod(int(np.argmin(np.where(upper, squared_distances, np.inf))), scene.n_tokens)
    distance = math.dist(keys[j], keys[k])
    if distance < NEAR_DISTANCE:
        return tr("{pair} are close ({distance} apart) but not on the same point yet; {tip}.").format(
            pair=_pair(scene, j, k), distance=_two_digits(distance), tip=tr(SNAP_TIP))
    return tr("Move one key onto another: the same point, not just the same direction ({tip}).").format(
        tip=tr(SNAP_TIP))


def _same_direction_pair(gram: np.ndarray, squared_lengths: np.ndarray, upper: np.ndarray) -> tuple[int, int] | None:
    """Two nonzero keys pointing the same way with different lengths (k·k' = |k||k'|, |k| ≠ |k'|)."""
    lengths = np.sqrt(np.maximum(squared_lengths, 0.0))
    products = lengths[:, None] * lengths[None, :]
    aligned = (gram >= (1 - 1e-9) * products) & (products > 0)
    unequal = np.abs(lengths[:, None] - lengths[None, :]) > TWIN_TOLERANCE
    found = np.flatnonzero(upper & aligned & unequal)
    return divmod(int(found[0]), len(lengths)) if found.size else None


@functools.lru_cache(maxsize=8)
def _upper_triangle(n: int) -> np.ndarray:
    mask = np.triu(np.ones((n, n), dtype=bool), 1)
    mask.flags.writeable = False
    return mask


# ----- (d) sat's output down and to the right --------------------------------
def _sat_down_right(scene: HeadReading, baseline: Baseline) -> tuple[bool, str]:
    sat = _output_token_index(scene)
    if sat is None:
        return False, tr("This one needs a scene with sat in it: open The cat sat on the mat.")
    if scene.value_width < 2:
        return False, tr("This one needs values with two numbers (x and y).")
    moved = _moved_arrows(scene, baseline)
    if moved:
        return False, tr("A query or key has moved ({arrows}); put them back (reload the scene) "
                         "— only values may move.").format(arrows=", ".join(moved))
    x, y = scene.result.output[sat, :2]
    output = vector([0.0 if round(v, 2) == 0 else float(v) for v in (x, y)])  # "-0.00" never
    if x > 0 and y < 0:
        return True, tr("Done: sat's output is {output}, down and to the right.").format(output=output)
    if x <= 0 and y >= 0:
        return False, tr("sat's output is {output}; it still needs to go to the right (x above 0) and down "
                         "(y below 0).").format(output=output)
    if x <= 0:
        return False, tr("sat's output is {output}; it still needs to go to the right (x above 0).").format(
            output=output)
    return False, tr("sat's output is {output}; it still needs to go down (y below 0).").format(output=output)


def _output_token_index(scene: HeadReading) -> int | None:
    """Where sat is among the queries: as typed, or in the student's words (the lesson opened it so)."""
    for name in (OUTPUT_TOKEN, token_word(OUTPUT_TOKEN)):
        if name in scene.query_tokens:
            return scene.query_tokens.index(name)
    return None


def _moved_arrows(scene: HeadReading, baseline: Baseline) -> list[str]:
    """The labels of the queries and keys that differ from the baseline (all of them if the shapes differ)."""
    moved = []
    for role, start in ((Role.QUERY, baseline.queries), (Role.KEY, baseline.keys)):
        now = scene.vectors(role)
        if now.shape != start.shape:
            return [tr("the scene's shape changed")]
        changed = np.flatnonzero(np.any(now != start, axis=1))
        moved += [arrow_name(role.symbol, scene.labels(role)[i]) for i in changed]
    return moved


# ----- shared ----------------------------------------------------------------
def _query(scene: HeadReading) -> str:
    return arrow_name(Role.QUERY.symbol, scene.selected_token)


def _key(scene: HeadReading, index: int) -> str:
    return arrow_name(Role.KEY.symbol, scene.tokens[index])


def _pair(scene: HeadReading, j: int, k: int) -> str:
    # Translators: two keys' arrow names, e.g. "k·cat and k·mat".
    return tr("{key} and {other}").format(key=_key(scene, j), other=_key(scene, k))


def _percent(weight: float) -> str:
    return number(weight * 100, 1) + "%"


def _two_digits(value: float) -> str:
    """VALUE to two significant digits (0.12, 0.0034), in the student's language."""
    written = f"{value:.2g}"
    return written.replace(".", number(0.5, 1)[1]) if "e" not in written else written


def _percent_floor(weight: float) -> str:
    # Rounded down, so 94.96% never reads as "95.0%" while the challenge is still unmet.
    return number(math.floor(weight * 1000) / 10, 1) + "%"


# ----- the four, in the order the panel lists them ----------------------------
CHALLENGES: tuple[Challenge, ...] = (
    Challenge(
        "scaled-focus",
        N_("With scaling on, make the chosen query put at least 95% of its weight on a single key."),
        N_("A key scores higher the longer it reaches along the query's direction."),
        _scaled_focus,
    ),
    Challenge(
        "even-spread",
        N_("Make the chosen query weigh all six tokens equally."),
        N_("Equal weights need equal scores: every key must score the same against this query."),
        _even_spread,
    ),
    Challenge(
        "twin-keys",
        N_("Make two different tokens get exactly the same weight from every query."),
        N_("Two keys on the same point score the same against any query. "
        "Pointing the same way is not enough: a longer key gets a larger score."),
        _twin_keys,
    ),
    Challenge(
        "sat-down-right",
        N_("Without moving any query or key, make the output for sat point down and to the right "
        "(x above 0, y below 0)."),
        N_("The output is a weighted blend of the values. Move the values that get the most weight."),
        _sat_down_right,
    ),
)


# ----- where they count -------------------------------------------------------
CHALLENGES_LESSON = "scaled-attention"  # the lesson that sets the four, on the demo's scene


def count_in(lesson_id: str | None) -> bool:
    """Whether the challenges count while this lesson is open (None: a scene of the student's own).

    Another lesson's scene, or its Show me, can meet a check by the way (lesson 1's query at the
    origin gives its three keys the same weight): that is not the student doing the challenge.
    """
    return lesson_id is None or lesson_id == CHALLENGES_LESSON


def elsewhere_note() -> str:
    return tr("These challenges go with the lesson \"{title}\": open it to try them.").format(
        title=tr(lesson(CHALLENGES_LESSON).title))


# ----- what counts, and what is written down --------------------------------
class ChallengeTracker:
    """The challenges a student has completed, following one scene.

    Whoever shows the challenges calls update(change) with each of the scene's
    change notifications, then reads `statuses` and `completed_ids()`.

    A challenge counts when it becomes true while the tracker watches: one
    already true when a scene opens (or when the ticks are cleared) has to be
    undone and made again, so opening a solved scene is not a way to collect ticks.

    A completion is remembered at once, so its tick shows during the drag that
    made it, but it reaches the progress file only through save(). A drag
    recomputes the challenges on every mouse move; writing the file there (an
    fsync, tens of milliseconds on a laptop disk) would stall the arrow under
    the student's hand. So the view calls save() once the gesture is over and
    the scene is still, and then every completion not yet written goes in one
    write. Each completion is written at most once: a failed write is not
    retried on the next move (the store keeps it for this run and says why in
    `save_error`).

    While another lesson is open (follow_lesson), nothing counts: every status
    says where the challenges belong.
    """

    def __init__(self, reading: HeadReading, progress: ProgressStore) -> None:
        self.reading = reading
        self.progress = progress
        self.counting = True  # False while a lesson other than the challenges' own is open
        self._unsaved: list[str] = []  # completed, not yet in the progress file (in the order completed)
        self.start()

    def follow_lesson(self, lesson_id: str | None) -> None:
        """The lesson now open (None: a scene of the student's own); its scene is the new start."""
        self.counting = count_in(lesson_id)
        self.start()

    def start(self) -> None:
        """Take the scene as it is now as the start: its queries and keys, and what is already true."""
        self._baseline = Baseline.from_scene(self.reading)
        self.statuses = self._evaluate()
        self._was_met = {status.id: status.met for status in self.statuses}

    def _evaluate(self) -> list[ChallengeStatus]:
        if not self.counting:
            return [ChallengeStatus(challenge.id, False, elsewhere_note()) for challenge in CHALLENGES]
        return evaluate(self.reading, self._baseline)

    def update(self, change: Change) -> None:
        if change & Change.STRUCTURE:
            self.start()  # another scene: new starting vectors for "without moving any query or key"
        elif change & (Change.NUMBERS | Change.SELECTION):
            self._reevaluate()

    def _reevaluate(self) -> None:
        self.statuses = self._evaluate()
        completed = self.completed_ids()
        for status in self.statuses:
            if status.met and not self._was_met[status.id] and status.id not in completed:
                self._unsaved.append(status.id)
            self._was_met[status.id] = status.met

    # ----- reading ------------------------------------------------------
    def completed_ids(self) -> set[str]:
        """Completed on this run or any earlier one (another window's saved ticks included)."""
        return self.progress.done_ids(ProgressKind.CHALLENGES) | set(self._unsaved)

    @property
    def completed_count(self) -> int:
        completed = self.completed_ids()
        return sum(challenge.id in completed for challenge in CHALLENGES)

    @property
    def has_unsaved(self) -> bool:
        return bool(self._unsaved)

    @property
    def save_error(self) -> str | None:
        """Why progress could not be written, or None: the ticks then last for this run only."""
        return self.progress.last_error

    # ----- writing ------------------------------------------------------
    def save(self) -> None:
        """Write every completion not written yet, in one write (nothing if there is none)."""
        if self._unsaved:
            completed, self._unsaved = self._unsaved, []
            self.progress.mark_done(ProgressKind.CHALLENGES, *completed)

    def restart(self) -> None:
        """Clear every tick, saved or not, and take the scene as it is now as the new start."""
        self._unsaved = []
        self.progress.reset(ProgressKind.CHALLENGES)
        self.start()


__all__ = ["CHALLENGES", "CHALLENGES_LESSON", "Baseline", "Challenge", "ChallengeStatus", "ChallengeTracker", "evaluate"]
