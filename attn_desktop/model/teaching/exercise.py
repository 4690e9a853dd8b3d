"""What an exercise is: its question, its answer and how a response is checked, and "show me" steps.

The exercises themselves are data, lesson by lesson: exercises.py gathers them all.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass

from attn_desktop.model.scene import Role, Scene

NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?%?")


# ----- Show me: what it does to the canvas, one step at a time ----------------
@dataclass(frozen=True)
class SetVector:
    """Put one arrow (a query, key, value or word vector) at these numbers."""

    role: Role
    index: int
    vector: tuple[float, ...]

    def apply(self, scene: Scene) -> None:
        scene.set_vector(self.role, self.index, self.vector)


@dataclass(frozen=True)
class ChooseQuery:
    index: int

    def apply(self, scene: Scene) -> None:
        scene.reading().select_query(self.index)


@dataclass(frozen=True)
class SetGrids:
    """Make queries and keys with the grids W_Q, W_K (on), or use each word's own vector (off)."""

    on: bool

    def apply(self, scene: Scene) -> None:
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

    @property
    def tolerance_text(self) -> str:
        if self.kind is AnswerKind.CHOICE:
            return ""
        if self.tolerance == 0:
            return "Only the exact answer counts as right." if len(self.answer) == 1 else "Only the exact numbers count as right."
        return f"Answers within ±{self.tolerance:g} of the exact value count as right."

    def check(self, response: str | int) -> CheckResult:
        if self.kind is AnswerKind.CHOICE:
            return self._check_choice(response)
        return self._check_numbers(str(response))

    def _check_choice(self, response: str | int) -> CheckResult:
        if not isinstance(response, int) or not 0 <= response < len(self.choices):
            return CheckResult(False, "Pick one of the answers first.")
        if response == self.correct_choice:
            return CheckResult(True, f"Right. {self.explanation}")
        return CheckResult(False, f"Not this one. Hint: {self.hint}")

    def _check_numbers(self, text: str) -> CheckResult:
        expected = len(self.answer)
        numbers = parse_numbers(text, expected)
        if len(numbers) != expected:
            wanted = "one number" if expected == 1 else f"{expected} numbers ({', '.join(self.labels)})"
            return CheckResult(False, f"Type {wanted}; found {len(numbers)} in your answer.")
        off = [i for i, (given, exact) in enumerate(zip(numbers, self.answer)) if abs(given - exact) > self.tolerance + 1e-12]
        if not off:
            return CheckResult(True, f"Right. {self.explanation}")
        if expected > 1 and len(off) < expected:
            names = ", ".join(self.labels[i] for i in off)
            return CheckResult(False, f"Close: {names} {'is' if len(off) == 1 else 'are'} off. Hint: {self.hint}")
        return CheckResult(False, f"Not yet. Hint: {self.hint}")


def parse_numbers(text: str, expected: int = 0) -> list[float]:
    """The numbers in a typed answer: '(1, 2)', '1 2', '82%, 2%, 17%' or, with decimal commas, '0,82; 0,02'.

    Numbers are separated by commas or spaces; when the answer uses
    semicolons, commas are decimal commas instead. Where one number is
    expected, a lone '4,51' is that number with a decimal comma.
    """
    text = text.replace("−", "-").strip()
    if ";" in text or expected == 1 and re.fullmatch(r"[(\[]?\s*[-+]?\d+,\d+\s*[)\]]?", text):
        pieces, decimal_comma = re.split(r"[;\s]+", text), True
    else:
        pieces, decimal_comma = re.split(r"[,\s]+", text), False
    numbers = []
    for piece in pieces:
        if decimal_comma:
            piece = piece.replace(",", ".")
        for match in NUMBER.findall(piece):
            value = float(match.rstrip("%"))
            numbers.append(value / 100 if match.endswith("%") else value)
    return numbers


def apply_steps(scene: Scene, steps: Sequence[ShowMeStep]) -> None:
    """Carry out a ShowMe's steps on a scene (already holding the ShowMe's scene file)."""
    for step in steps:
        step.apply(scene)

