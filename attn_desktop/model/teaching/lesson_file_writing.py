"""Writing a lesson file: the JSON document of a LessonFile (docs/lesson-files.md), written atomically.

Fields that hold their default are left out, so a file says only what its lesson sets; reading the
document back (lesson_file_reading.py) gives the same LessonFile.
"""

from __future__ import annotations

import json
import os
from typing import Any

from attn_desktop.model.files.safe_write import write_text_atomically
from attn_desktop.model.scene_files import scene_document
from attn_desktop.model.teaching.exercise import ChooseQuery, SetGrids, SetVector, ShowMe, ShowMeStep
from attn_desktop.model.teaching.lesson_file import (
    LESSON_FORMAT,
    LESSON_VERSION,
    LessonChallenge,
    LessonExercise,
    LessonFile,
)
from attn_desktop.model.teaching.lesson_quantities import Condition, Quantity


def lesson_document(lesson: LessonFile) -> dict[str, Any]:
    """The JSON document a lesson file holds for LESSON."""
    document: dict[str, Any] = {"format": LESSON_FORMAT, "version": LESSON_VERSION, "title": lesson.title,
                                "language": lesson.language, "text": lesson.text}
    if lesson.formula:
        document["formula"] = lesson.formula
    document["scene"] = scene_document(lesson.scene)
    if lesson.first_head != (0, 0):
        document["first_head"] = list(lesson.first_head)
    if lesson.panels.window or lesson.panels.presenting:
        document["panels"] = {"window": [str(dock) for dock in lesson.panels.window],
                              "presenting": [str(dock) for dock in lesson.panels.presenting]}
    _put(document, "hidden_controls", list(lesson.hidden_controls))
    _put(document, "locked", list(lesson.locked))
    _put(document, "exercises", [_exercise(exercise) for exercise in lesson.exercises])
    _put(document, "challenges", [_challenge(challenge) for challenge in lesson.challenges])
    _put(document, "predict_rounds", [{"query": round_.query} for round_ in lesson.predict_rounds])
    return document


def lesson_file_text(lesson: LessonFile) -> str:
    """The file's text: indented JSON, non-ASCII written as itself (a teacher may read or diff it)."""
    return json.dumps(lesson_document(lesson), ensure_ascii=False, indent=1) + "\n"


def write_lesson_file(lesson: LessonFile, path: str | os.PathLike[str]) -> None:
    """Write LESSON to PATH atomically: a crash mid-save leaves the old file whole."""
    write_text_atomically(path, lesson_file_text(lesson))


def _put(document: dict[str, Any], name: str, value: Any) -> None:
    if value:
        document[name] = value


def _exercise(exercise: LessonExercise) -> dict[str, Any]:
    document: dict[str, Any] = {"id": exercise.id, "prompt": exercise.prompt, "kind": exercise.kind.value}
    if exercise.computed:
        document["quantities"] = [_quantity(quantity) for quantity in exercise.quantities]
    else:
        _put(document, "answer", list(exercise.answer))
    _put(document, "tolerance", exercise.tolerance)
    _put(document, "labels", list(exercise.labels))
    _put(document, "choices", list(exercise.choices))
    if exercise.correct_choice >= 0:
        document["correct_choice"] = exercise.correct_choice
    _put(document, "hint", exercise.hint)
    _put(document, "explanation", exercise.explanation)
    if exercise.show_me is not None:
        document["show_me"] = show_me_document(exercise.show_me)
    return document


def _challenge(challenge: LessonChallenge) -> dict[str, Any]:
    document: dict[str, Any] = {"id": challenge.id, "title": challenge.title,
                                "conditions": [_condition(condition) for condition in challenge.conditions]}
    _put(document, "hint", challenge.hint)
    if challenge.show_me is not None:
        document["show_me"] = show_me_document(challenge.show_me)
    return document


def _quantity(quantity: Quantity) -> dict[str, Any]:
    document: dict[str, Any] = {"quantity": quantity.name, "query": quantity.query}
    if quantity.key:
        document["key"] = quantity.key
    if quantity.name == "output":
        document["component"] = quantity.component
    if quantity.at != (0, 0):
        document["at"] = list(quantity.at)
    return document


def _condition(condition: Condition) -> dict[str, Any]:
    document = _quantity(condition.quantity)
    if condition.quantity.is_number:
        document.update(compare=condition.compare, value=condition.value)
    else:
        document["equals"] = condition.equals
    return document


def show_me_document(show_me: ShowMe) -> dict[str, Any]:
    return {"scene": show_me.scene, "steps": [_step(step) for step in show_me.steps]}


def _step(step: ShowMeStep) -> dict[str, Any]:
    if isinstance(step, SetVector):
        return {"set_vector": {"role": step.role.value, "index": step.index, "vector": list(step.vector)}}
    if isinstance(step, ChooseQuery):
        return {"choose_query": step.index}
    assert isinstance(step, SetGrids)
    return {"set_grids": step.on}
