"""What a screen reader says of the canvas's arrows (model/spoken.py), from the model's numbers and without Qt:
an arrow's description, and after a step one announcement of what changed, in the student's language."""

import re

import pytest

from attn_desktop.language import percent, set_language
from attn_desktop.model import Role
from attn_desktop.model.scene_files import open_reading
from attn_desktop.model.shown_numbers import shown_vector
from attn_desktop.model.spoken import arrow_description, step_announcement
from attn_desktop.paths import DEFAULT_SCENE, scene_path

CAT, THE, MAT = 1, 4, 5  # the demo's tokens; its chosen query is "sat", whose top key is k·cat


@pytest.fixture
def reading():
    return open_reading(scene_path(DEFAULT_SCENE))


@pytest.fixture
def spanish():
    set_language("es")
    yield
    set_language("en")


def _step(reading, role, index, moved_to):
    """Move an arrow as a nudge would, and say what changed."""
    before = reading.result.weights.copy()
    reading.scene.set_vector(role, index, moved_to)
    return step_announcement(reading, role, index, before, moved_to)


def _output_of(reading, query):
    return shown_vector(reading.result.output[query].tolist())


def test_an_arrow_is_described_by_what_it_is_and_where_its_tip_is_drawn():
    assert arrow_description(Role.KEY, "cat", (1.2, 0.4)) == "key of 'cat', x 1.20, y 0.40"
    assert arrow_description(Role.VALUE, "on", (-0.5,)) == "value of 'on', x -0.50"  # on a number line


def test_the_description_is_in_the_students_language_and_numbers(spanish):
    assert arrow_description(Role.KEY, "cat", (1.2, 0.4)) == "clave de «cat», x 1,20; y 0,40"


def test_a_key_that_becomes_the_highest_says_so_with_the_models_weight_and_output(reading):
    said = _step(reading, Role.KEY, THE, [4.0, 2.0])
    weight = reading.result.weights[reading.selected, THE]
    assert weight == reading.result.weights[reading.selected].max()
    assert said == f"k·the: {percent(weight)}, now the highest. Output {_output_of(reading, reading.selected)}."


def test_the_top_key_moved_away_is_no_longer_the_highest(reading):
    said = _step(reading, Role.KEY, CAT, [-2.0, -1.0])
    weight = reading.result.weights[reading.selected, CAT]
    assert said.startswith(f"k·cat: {percent(weight)}, no longer the highest. Output (")
    assert said.endswith(f"{_output_of(reading, reading.selected)}.")


def test_a_key_that_stays_below_the_top_gives_its_weight_alone(reading):
    said = _step(reading, Role.KEY, MAT, [1.9, -0.8])
    assert re.fullmatch(rf"k·mat: {percent(reading.result.weights[reading.selected, MAT])}\. Output \(.*\)\.", said)


def test_a_query_says_which_key_it_weighs_most(reading):
    said = _step(reading, Role.QUERY, 0, [-3.0, 1.0])  # q·The turned towards k·The and k·on
    weights = reading.result.weights[0]
    top = int(weights.argmax())
    assert said.startswith(f"q·The: now the most weight on {reading.arrow_name(Role.KEY, top)}, {percent(weights[top])}.")
    assert said.endswith(f"Output {_output_of(reading, 0)}.")


def test_a_value_says_where_it_is_and_the_new_output(reading):
    said = _step(reading, Role.VALUE, CAT, [1.9, 0.8])
    assert said == f"v·cat: x 1.90, y 0.80. Output {_output_of(reading, reading.selected)}."


def test_while_the_student_predicts_nothing_tells_the_weights(reading):
    before = reading.result.weights.copy()
    reading.scene.set_vector(Role.KEY, THE, [4.0, 2.0])
    said = step_announcement(reading, Role.KEY, THE, before, (4.0, 2.0), veiled=True)
    assert said == "k·the: x 4.00, y 2.00."


def test_a_key_the_causal_mask_hides_says_so(reading):
    reading.scene.set_causal(True)  # "sat" sees The, cat and itself: not "the"
    said = _step(reading, Role.KEY, THE, [4.0, 2.0])
    assert said.startswith("k·the: hidden from q·sat by the causal mask. Output (")


def test_the_announcement_is_in_the_students_language_and_numbers(reading, spanish):
    said = _step(reading, Role.KEY, THE, [4.0, 2.0])
    assert said.startswith(f"k·the: {percent(reading.result.weights[reading.selected, THE])}, ahora el mayor. Salida (")
    assert ";" in said  # Spanish separates a vector's numbers with semicolons: its decimal mark is a comma
