"""What an exercise is: its question, its answer and how a response is checked, and "show me" steps.

The exercises themselves are data, lesson by lesson: exercises.py gathers them all.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass

from attn_desktop.language import ntr, number, tr
from attn_desktop.model.head_reading import HeadReading
from attn_desktop.model.scene import Role, Scene
from attn_desktop.model.view_state import ViewState

NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?%?")


# ----- Show me: what it does to the canvas, one step at a time ----------------
@dataclass(frozen=True)
class SetVector:
    """Put one arrow (a query, key, value or word vector) at these numbers."""

    role: Role
    index: int
    vector: tuple[float, ...]

    def apply(self, scene: Scene, view: ViewState) -> None:
        scene.set_vector(self.role, self.index, self.vector)


@dataclass(frozen=True)
class ChooseQuery:
    index: int

    def apply(self, scene: Scene, view: ViewState) -> None:
        HeadReading(scene, view).select_query(self.index)  # which checks the scene has that query


@dataclass(frozen=True)
class SetGrids:
    """Make queries and keys with the grids W_Q, W_K (on), or use each word's own vector (off)."""

    on: bool

    def apply(self, scene: Scene, view: ViewState) -> None:
        scene.set_use_grids(self.on)


ShowMeStep = SetVector | ChooseQuery | SetGrids


@dataclass(frozen=True)
class ShowMe:
    """Open this built-in scene, then apply these steps in order."""

    scene: str
    steps: tuple[ShowMeStep, ...] = ()


class AnswerKind(str, enum.Enum):
    NUMBER = "number"    # one number, typed
    NUMBERS = "numbers"  # several numbers, typed in order
    CHOICE = "choice"    # one of the given answers, picked


@dataclass(frozen=True)
class CheckResult:
    correct: bool
    message: str


@dataclass(frozen=True)
class Exercise:
    id: str
    lesson: str
    source: str  # where the lesson asks it, e.g. "Part 1, your turn" (the panel numbers the questions)
    prompt: str
    kind: AnswerKind
    answer: tuple[float, ...] = ()
    tolerance: float = 0.0
    labels: tuple[str, ...] = ()  # what each number of a NUMBERS answer is
    choices: tuple[str, ...] = ()
    correct_choice: int = -1
    hint: str = ""
    explanation: str = ""
    show_me: ShowMe | None = None
    # Numbers a text names as {placeholders} (e.g. {score}), written with two decimals in the student's language.
    numbers: tuple[tuple[str, float], ...] = ()

    def say(self, text: str) -> str:
        """One of the exercise's texts (marked N_) in the student's language, its numbers filled in."""
        if not text:
            return ""
        shown = tr(text)
        return shown.format(**{name: number(value, 2) for name, value in self.numbers}) if self.numbers else shown

    @property
    def tolerance_text(self) -> str:
        if self.kind is AnswerKind.CHOICE:
            return ""
        if self.tolerance == 0:
            if len(self.answer) == 1:
                return tr("Only the exact answer counts as right.")
            return tr("Only the exact numbers count as right.")
        return tr("Answers within ±{tolerance} of the exact value count as right.").format(
            tolerance=_short_number(self.tolerance))

    def check(self, response: str | int) -> CheckResult:
        if self.kind is AnswerKind.CHOICE:
            return self._check_choice(response)
        return self._check_numbers(str(response))

    def _check_choice(self, response: str | int) -> CheckResult:
        if not isinstance(response, int) or not 0 <= response < len(self.choices):
            return CheckResult(False, tr("Pick one of the answers first."))
        if response == self.correct_choice:
            return CheckResult(True, self._right())
        return CheckResult(False, tr("Not this one. Hint: {hint}").format(hint=self.say(self.hint)))

    def _right(self) -> str:
        return tr("Right. {explanation}").format(explanation=self.say(self.explanation))

    def _check_numbers(self, text: str) -> CheckResult:
        expected = len(self.answer)
        numbers = parse_numbers(text, expected)
        if len(numbers) != expected:
            return CheckResult(False, self._wrong_count(expected, len(numbers)))
        off = [i for i, (given, exact) in enumerate(zip(numbers, self.answer)) if abs(given - exact) > self.tolerance + 1e-12]
        hint = self.say(self.hint)
        if not off:
            return CheckResult(True, self._right())
        if expected > 1 and len(off) < expected:
            names = ", ".join(self.say(self.labels[i]) for i in off)
            return CheckResult(False, ntr("Close: {names} is off. Hint: {hint}", "Close: {names} are off. Hint: {hint}",
                                          len(off)).format(names=names, hint=hint))
        return CheckResult(False, tr("Not yet. Hint: {hint}").format(hint=hint))

    def _wrong_count(self, expected: int, found: int) -> str:
        if expected == 1:
            return tr("Type one number; found {found} in your answer.").format(found=found)
        labels = ", ".join(self.say(label) for label in self.labels)
        return ntr("Type {count} number ({labels}); found {found} in your answer.",
                   "Type {count} numbers ({labels}); found {found} in your answer.",
                   expected).format(count=expected, labels=labels, found=found)


def _short_number(value: float) -> str:
    """VALUE with as many decimals as it needs (0.05, 0.4, 1), in the student's language."""
    written = f"{value:g}"
    return number(value, len(written.split(".")[1]) if "." in written else 0)


def parse_numbers(text: str, expected: int = 0) -> list[float]:
    """The numbers in a typed answer: '(1, 2)', '1 2', '82%, 2%, 17%' or, with decimal commas, '0,82; 0,02'.

    Numbers are separated by commas or spaces; when the answer uses
    semicolons, commas are decimal commas instead. Where one number is
    expected, a lone '4,51' is that number with a decimal comma; where the
    commas would give the wrong count, '0,82 0,02' reads them as decimal commas.
    """
    text = text.replace("−", "-").strip()
    if ";" in text or expected == 1 and re.fullmatch(r"[(\[]?\s*[-+]?\d+,\d+\s*[)\]]?", text):
        return _numbers_in(text, decimal_comma=True)
    numbers = _numbers_in(text, decimal_comma=False)
    if expected and len(numbers) != expected:  # "0,82 0,02 0,17": decimal commas, numbers apart by spaces
        with_commas = _numbers_in(text, decimal_comma=True)
        if len(with_commas) == expected:
            return with_commas
    return numbers


def _numbers_in(text: str, decimal_comma: bool) -> list[float]:
    pieces = re.split(r"[;\s]+", text) if decimal_comma else re.split(r"[,\s]+", text)
    numbers = []
    for piece in pieces:
        if decimal_comma:
            piece = piece.replace(",", ".")
        for match in NUMBER.findall(piece):
            value = float(match.rstrip("%"))
            numbers.append(value / 100 if match.endswith("%") else value)
    return numbers


def apply_steps(scene: Scene, view: ViewState, steps: Sequence[ShowMeStep]) -> None:
    """Carry out a ShowMe's steps on a scene (already holding the ShowMe's scene file) and VIEW."""
    for step in steps:
        step.apply(scene, view)

