"""Lesson 10's text, exercises and Code panel say what its scene and RoPE really give."""

import re
import subprocess
import sys

import numpy as np
import pytest

from attn_desktop.model.exports.codegen import numpy_code
from attn_desktop.model.layers import ATTENTION_ROLES, Role
from attn_desktop.model.positions import rotated_score, shuffled_attention
from attn_desktop.model.scene_files import open_reading
from attn_desktop.model.teaching import positions_code
from attn_desktop.model.teaching.exercises import exercises_for
from attn_desktop.model.teaching.lessons import lesson
from attn_desktop.model.teaching.positions_exercises import SCORE_AT_4_AND_0
from attn_desktop.paths import scene_path

CAT_CHASED_DOG = [0, 4, 2, 3, 1]  # "the cat chased the dog": dog and cat swap places
ONE_RADIAN = np.array([1.0])  # the Rotated page's speed for one 2-D pair


@pytest.fixture
def shown():
    """The lesson's scene looked at with the query its file chose ("chased")."""
    return open_reading(scene_path(lesson("positions").scene))


@pytest.fixture
def scene(shown):
    return shown.scene


def test_chased_gives_dog_and_cat_what_the_lesson_says_in_either_order(shown, scene):
    assert shown.selected_token == "chased" and scene.tokens == ["the", "dog", "chased", "the", "cat"]
    weights = shown.selected_weights
    assert [round(100 * weights[1]), round(100 * weights[4])] == [34, 34]
    assert "gives dog and cat 34% of its weight each" in lesson("positions").explanation
    swapped = shuffled_attention(*(shown.vectors(role) for role in ATTENTION_ROLES), CAT_CHASED_DOG)
    chased = CAT_CHASED_DOG.index(2)
    assert swapped.weights[chased][[CAT_CHASED_DOG.index(1), CAT_CHASED_DOG.index(4)]] == pytest.approx(
        [weights[1], weights[4]], abs=1e-12)
    assert np.round(swapped.output[chased], 2).tolist() == [0.88, 0.09]


def test_the_score_exercise_is_rope_at_one_radian_a_position(shown, scene):
    q, k = shown.vectors(Role.QUERY)[2], shown.vectors(Role.KEY)[1]  # q·chased, k·dog
    at_4_0 = rotated_score(q, k, 4, 0, ONE_RADIAN)
    assert round(at_4_0, 2) == SCORE_AT_4_AND_0
    assert rotated_score(q, k, 7, 3, ONE_RADIAN) == pytest.approx(at_4_0, abs=1e-12)
    assert abs(rotated_score(q, k, 3, 7, ONE_RADIAN) - at_4_0) > 0.1  # the other way round is another distance
    exercise = next(item for item in exercises_for("positions") if item.id == "positions-rope-distance")
    assert exercise.check(f"{at_4_0:.2f}").correct and not exercise.check("0").correct


@pytest.mark.slow
def test_the_code_panel_script_runs_and_prints_the_lessons_numbers(shown, scene, tmp_path):
    script = tmp_path / "lesson10.py"
    script.write_text(numpy_code(shown) + "\n\n" + positions_code.numpy_code(shown.key_width))
    done = subprocess.run([sys.executable, str(script)], check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "chased attends to: the 12%, dog 34%, chased 9%, the 12%, cat 34%" in lines
    assert "same outputs, reordered: True" in lines
    at_4_0, at_7_3 = (float(number) for number in re.findall(r"-?\d+\.\d+", lines[-1]))
    assert round(at_4_0, 2) == SCORE_AT_4_AND_0 and at_7_3 == at_4_0  # the exercise's numbers, from the script


def test_the_code_panel_says_so_when_a_scene_is_too_odd_to_turn():
    assert "odd width" in positions_code.numpy_code(3)


def test_three_exercises_one_of_each_part():
    assert [item.id for item in exercises_for("positions")] == [
        "positions-shuffle", "positions-rope-distance", "positions-real-head-without-rope"]
