"""A lesson being written in the app: a LessonFile made from the window's scene, and the exercises and
challenges a teacher adds to it by pointing or by choosing a quantity.

Everything here is a LessonFile value (lesson_file.py), so what the editor saves is exactly what a file reader
gives back; the editor checks a draft by writing it out and reading it back (read_back).
"""

from __future__ import annotations

from collections.abc import Iterable

from attn_desktop.language import tr
from attn_desktop.model.files.scene_types import SceneData
from attn_desktop.model.head_reading import read
from attn_desktop.model.scene_files import new_scene
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.exercise import AnswerKind
from attn_desktop.model.teaching.lesson_file import LessonExercise, LessonFile, Panels
from attn_desktop.model.teaching.lesson_file_reading import lesson_from_bytes
from attn_desktop.model.teaching.lesson_file_writing import lesson_file_text
from attn_desktop.model.teaching.lesson_quantities import Quantity, key_names, query_names

STATED = "stated"  # an exercise whose answer the teacher types, besides the quantities the app computes
WEIGHT_TOLERANCE = 0.01  # two decimals, as the matrix shows a weight


def lesson_from_scene(scene: SceneData, title: str, language: str, panels: Iterable[DockId]) -> LessonFile:
    """A new lesson on SCENE (as a scene file holds it, its switches with it), showing PANELS in the window and
    when presenting, with no text, exercises or challenges yet."""
    shown = tuple(dock for dock in DockId if dock in set(panels))
    return LessonFile(title=title, language=language, text="", scene=scene, panels=Panels(shown, shown))


def fresh_id(stem: str, taken: Iterable[str]) -> str:
    """STEM, or STEM-2, STEM-3…: an id no exercise or challenge of the lesson has yet."""
    used = set(taken)
    if stem not in used:
        return stem
    number = 2
    while f"{stem}-{number}" in used:
        number += 1
    return f"{stem}-{number}"


def kind_of(quantity_name: str) -> AnswerKind:
    """The answer a computed exercise on QUANTITY_NAME asks for: a key picked, or a number typed."""
    return AnswerKind.CHOICE if quantity_name == "heaviest_key" else AnswerKind.NUMBER


def prompt_for(quantity: Quantity) -> str:
    """The question a computed exercise asks, in the teacher's language (the teacher may reword it)."""
    if quantity.name == "weight":
        return tr("How much weight does {query} give {key}?").format(query=quantity.query, key=quantity.key)
    if quantity.name == "score":
        return tr("What is the score of {query} for {key}, q · k?").format(query=quantity.query, key=quantity.key)
    if quantity.name == "output":
        return tr("What is number {component} of {query}'s output?").format(component=quantity.component + 1,
                                                                            query=quantity.query)
    if quantity.name == "entropy":
        return tr("How spread are {query}'s weights, in bits?").format(query=quantity.query)
    return tr("Which key does {query} give the most weight?").format(query=quantity.query)


def computed_exercise(quantity: Quantity, taken: Iterable[str], tolerance: float = WEIGHT_TOLERANCE) -> LessonExercise:
    """An exercise asking for QUANTITY, its answer worked out from the lesson's scene when it is opened."""
    stem = "-".join(part for part in (quantity.name, quantity.query, quantity.key) if part)
    exercise_id = fresh_id(_as_id(stem), taken)
    kind = kind_of(quantity.name)
    return LessonExercise(id=exercise_id, prompt=prompt_for(quantity), kind=kind, quantities=(quantity,),
                          tolerance=0.0 if kind is AnswerKind.CHOICE else tolerance)


def weight_exercise(scene: SceneData, row: int, column: int, at: tuple[int, int],
                    taken: Iterable[str]) -> LessonExercise:
    """The exercise "how much weight does query ROW give key COLUMN?" of head AT, pointed at in the matrix."""
    reading = read(new_scene(scene), *at)
    quantity = Quantity("weight", query=query_names(reading)[row], key=key_names(reading)[column], at=at)
    return computed_exercise(quantity, taken)


def read_back(lesson: LessonFile) -> LessonFile:
    """LESSON as a student's app reads it from its file: every field checked, as lesson_file_reading.py does.
    LessonFileError (one line) says why a draft cannot be saved as it stands."""
    return lesson_from_bytes(lesson_file_text(lesson).encode("utf-8"))


def _as_id(text: str) -> str:
    """TEXT as an id: letters and digits kept, anything else a '-' (a token may be any word, "it's", "猫")."""
    kept = "".join(character if character.isascii() and (character.isalnum() or character in "_.-") else "-"
                   for character in text).strip("-._")
    return kept or "exercise"
