"""`lesson check`'s work, headless: run each exercise's reference and one wrong answer through its check,
and each challenge's reference through its conditions, and say what does not hold.

An exercise's reference is its stated answer, or the value the app computes from the lesson's scene; its
wrong answer is each number moved by its own size (at least 1), or the next choice: a check that takes it
allows too much. A challenge's reference is its Show me: the scene it sets up must meet the challenge. A
challenge without one cannot be reached statically (nobody can tell, without a student's drags, that it
can be met): its reference_passes is None, which is no failure. A challenge already met in the lesson's
own scene, before anything moves, is a problem: the student would have nothing to do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from attn_desktop.language import tr
from attn_desktop.model.teaching.exercise import AnswerKind, Exercise
from attn_desktop.model.teaching.lesson_file import LESSON_VERSION, LessonFile


@dataclass(frozen=True)
class ExerciseVerdict:
    id: str
    reference_passes: bool
    wrong_rejected: bool


@dataclass(frozen=True)
class ChallengeVerdict:
    id: str
    reference_passes: bool | None  # None: no Show me, so it cannot be reached statically


@dataclass(frozen=True)
class LessonReport:
    lesson: str  # the lesson's title
    version: int  # the lesson file format's version
    exercises: tuple[ExerciseVerdict, ...]
    challenges: tuple[ChallengeVerdict, ...]
    problems: tuple[str, ...]  # one line each, in the user's language

    @property
    def passed(self) -> bool:
        return not self.problems

    def to_document(self) -> dict[str, Any]:
        """The REPORT.json of `attn-desktop lesson check`."""
        return {
            "lesson": self.lesson, "version": self.version,
            "exercises": [{"id": item.id, "reference_passes": item.reference_passes,
                           "wrong_rejected": item.wrong_rejected} for item in self.exercises],
            "challenges": [{"id": item.id, "reference_passes": item.reference_passes} for item in self.challenges],
            "problems": list(self.problems),
        }


def reference_answer(exercise: Exercise) -> str | int:
    """The response a student who is right gives: the correct choice, or the exact numbers."""
    if exercise.kind is AnswerKind.CHOICE:
        return exercise.correct_choice
    return " ".join(repr(float(value)) for value in exercise.answer)


def wrong_answer(exercise: Exercise) -> str | int:
    """A response that is wrong: the next choice, or each number moved by its own size (at least 1)."""
    if exercise.kind is AnswerKind.CHOICE:
        return (exercise.correct_choice + 1) % len(exercise.choices)
    return " ".join(repr(float(value + max(1.0, abs(value)))) for value in exercise.answer)


def check_lesson(lesson: LessonFile) -> LessonReport:
    problems: list[str] = []
    scene = lesson.new_scene()
    exercises = []
    for item in lesson.exercises:
        exercise = item.exercise(scene)
        verdict = ExerciseVerdict(item.id, exercise.check(reference_answer(exercise)).correct,
                                  not exercise.check(wrong_answer(exercise)).correct)
        if not verdict.reference_passes:
            problems.append(tr("exercise {id}: its own answer does not pass its check").format(id=item.id))
        if not verdict.wrong_rejected:
            problems.append(tr("exercise {id}: a wrong answer, {answer}, passes its check; is the tolerance too "
                               "wide?").format(id=item.id, answer=wrong_answer(exercise)))
        exercises.append(verdict)
    challenges = []
    for challenge in lesson.challenges:
        if challenge.met(scene):
            problems.append(tr("challenge {id}: it is met already in the lesson's scene, before anything "
                               "moves").format(id=challenge.id))
        reached = None if challenge.show_me is None else challenge.met(lesson.show_me_scene(challenge.show_me))
        if reached is False:
            problems.append(tr("challenge {id}: its Show me does not meet it").format(id=challenge.id))
        challenges.append(ChallengeVerdict(challenge.id, reached))
    return LessonReport(lesson.title, LESSON_VERSION, tuple(exercises), tuple(challenges), tuple(problems))
