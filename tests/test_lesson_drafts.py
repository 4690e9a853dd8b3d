"""A lesson written in the app: made from a scene, exercises added by pointing at a weight or by choosing a
quantity; what it makes writes out and reads back as the same lesson, and passes lesson check."""

from dataclasses import replace

import pytest

from attn_desktop.model.head_reading import read
from attn_desktop.model.scene_files import new_scene, read_scene_data
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.exercise import AnswerKind
from attn_desktop.model.teaching.lesson_check import check_lesson
from attn_desktop.model.teaching.lesson_drafts import (
    computed_exercise,
    fresh_id,
    lesson_from_scene,
    read_back,
    weight_exercise,
)
from attn_desktop.model.teaching.lesson_file import LessonFileError
from attn_desktop.model.teaching.lesson_file_reading import read_lesson_file
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file
from attn_desktop.model.teaching.lesson_quantities import Quantity
from attn_desktop.paths import scene_path

CAT_SAT_IT = "lessons/3_self_attention.json"  # cat sat it


@pytest.fixture
def scene():
    return read_scene_data(scene_path(CAT_SAT_IT))


def test_a_lesson_from_a_scene_keeps_the_scene_its_switches_and_the_panels_in_the_windows_order(scene):
    switched = replace(scene, scale=not scene.scale)
    lesson = lesson_from_scene(switched, "Pronouns", "en", [DockId.MATRIX, DockId.LESSON])
    assert lesson.scene.scale == switched.scale
    assert lesson.panels.window == (DockId.LESSON, DockId.MATRIX) == lesson.panels.presenting
    assert (lesson.text, lesson.exercises, lesson.challenges) == ("", (), ())


def test_pointing_at_a_weight_asks_for_the_number_the_matrix_shows(scene, tmp_path):
    lesson = lesson_from_scene(scene, "Pronouns", "en", [DockId.MATRIX])
    exercise = weight_exercise(scene, 2, 0, (0, 0), taken=())
    assert exercise.quantities == (Quantity("weight", query="it", key="cat"),)
    assert exercise.prompt == "How much weight does it give cat?"
    assert exercise.id == "weight-it-cat"
    path = tmp_path / "pronouns.attn-lesson"
    write_lesson_file(replace(lesson, exercises=(exercise,)), path)
    reread = read_lesson_file(path)
    shown = read(new_scene(scene)).result.weights[2, 0]
    assert reread.exercises[0].exercise(reread.new_scene()).answer == (pytest.approx(shown),)
    assert check_lesson(reread).passed


def test_a_second_exercise_on_the_same_weight_gets_an_id_of_its_own(scene):
    first = weight_exercise(scene, 2, 0, (0, 0), taken=())
    second = weight_exercise(scene, 2, 0, (0, 0), taken=(first.id,))
    assert second.id == "weight-it-cat-2"
    assert fresh_id("a", ["a", "a-2"]) == "a-3"


def test_the_heaviest_key_is_a_choice_and_odd_tokens_make_valid_ids():
    exercise = computed_exercise(Quantity("heaviest_key", query="_it's"), taken=())
    assert exercise.kind is AnswerKind.CHOICE and exercise.tolerance == 0.0
    assert exercise.id == "heaviest_key-_it-s"
    assert computed_exercise(Quantity("entropy", query="猫"), taken=()).id == "entropy"


def test_a_draft_that_cannot_be_saved_says_why_in_one_line(scene):
    lesson = lesson_from_scene(scene, "", "en", [])
    assert read_back(lesson) == lesson
    wrong = replace(lesson, exercises=(computed_exercise(Quantity("weight", query="dog", key="cat"), taken=()),))
    with pytest.raises(LessonFileError) as refused:
        read_back(wrong)
    assert "dog" in str(refused.value) and "\n" not in str(refused.value)
