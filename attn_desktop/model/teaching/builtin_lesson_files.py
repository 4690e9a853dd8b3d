"""The ten built-in lessons as lesson files: the teacher's starting point for a variant of one
(`attn-desktop lesson export ID -o FILE`).

Each holds the lesson's scene, its text (the explanation, then the steps as a numbered list) and formula,
the panels it shows, its Predict, then see round and its exercises, each exactly as the built-in one
(stated, with its answer, tolerance, hints and Show me), in the language the app speaks when it is
exported. The four challenges of lesson 4 are code of their own (challenges.py), not conditions over named
quantities, and are not exported.
"""

from __future__ import annotations

from attn_desktop.language import current_language, tr
from attn_desktop.model.files.scene_types import ProjectedScene
from attn_desktop.model.head_reading import read
from attn_desktop.model.scene_files import new_scene, read_scene_data
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.exercise import Exercise, ShowMe
from attn_desktop.model.teaching.exercises import exercises_for
from attn_desktop.model.teaching.lesson_file import OWN_SCENE, LessonExercise, LessonFile, Panels, PredictRound
from attn_desktop.model.teaching.lesson_quantities import query_names
from attn_desktop.model.teaching.lessons import Lesson, lesson
from attn_desktop.model.teaching.panel_sets import Activity, panels_shown
from attn_desktop.paths import scene_path


def builtin_lesson_file(lesson_id: str) -> LessonFile:
    """The built-in lesson LESSON_ID as a lesson file, in the app's current language."""
    found = lesson(lesson_id)
    scene = read_scene_data(scene_path(found.scene))
    shown = new_scene(scene)
    activity = Activity(several_heads=not shown.is_one_head, companion=found.companion,
                        grids=isinstance(scene, ProjectedScene), predicting=found.predict,
                        subject=frozenset(found.presents))
    rounds = (PredictRound(query_names(read(shown))[scene.selected]),) if found.predict else ()
    return LessonFile(
        title=tr(found.title), language=current_language(), text=lesson_text(found), scene=scene,
        formula=tr(found.formula) if found.formula else "", first_head=found.first_head,
        panels=Panels(window=_in_order(panels_shown(activity, False)),
                      presenting=_in_order(panels_shown(activity, True))),
        exercises=tuple(_exercise(exercise, found) for exercise in exercises_for(lesson_id)),
        predict_rounds=rounds,
    )


def lesson_text(found: Lesson) -> str:
    """The lesson's text as Markdown: the explanation, then its steps numbered."""
    steps = "\n".join(f"{number}. {tr(step)}" for number, step in enumerate(found.steps, start=1))
    return f"{tr(found.explanation)}\n\n{steps}\n"


def _in_order(docks: frozenset[DockId]) -> tuple[DockId, ...]:
    return tuple(dock for dock in DockId if dock in docks)


def _exercise(exercise: Exercise, found: Lesson) -> LessonExercise:
    show_me = exercise.show_me
    if show_me is not None and show_me.scene == found.scene:
        show_me = ShowMe(OWN_SCENE, show_me.steps)
    return LessonExercise(
        id=exercise.id, prompt=exercise.say(exercise.prompt), kind=exercise.kind, answer=exercise.answer,
        tolerance=exercise.tolerance, labels=tuple(exercise.say(label) for label in exercise.labels),
        choices=tuple(exercise.say(choice) for choice in exercise.choices), correct_choice=exercise.correct_choice,
        hint=exercise.say(exercise.hint), explanation=exercise.say(exercise.explanation), show_me=show_me,
    )
