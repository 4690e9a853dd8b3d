"""The Description panel's four parts, built from the model without a window: the state names the chosen query,
its heaviest key and that key's weight, and the output, in the language's words and numbers; every activity has
all four parts; while Predict, then see waits for a guess, the state gives no weight away."""

import numpy as np
import pytest

from attn_desktop.model.layers import Role
from attn_desktop.model.scene_files import open_reading
from attn_desktop.model.teaching.lessons import LESSONS, lesson
from attn_desktop.model.teaching.screen_description import EXPLORER, MODEL_HEADS, TRAINING, describe_screen
from attn_desktop.paths import scene_path


def reading_of(lesson_id):
    return open_reading(scene_path(lesson(lesson_id).scene))


def test_lesson_1_state_says_what_its_first_step_tells_the_student_to_read():
    # Lesson 1's first step: "Read the weights …: 59%, 8% and 33%, and the answer 3.49."
    state = describe_screen("soft-lookup", reading_of("soft-lookup")).state
    assert "k·apple" in state and "59%" in state and "3.49" in state, state


def test_the_state_follows_the_models_numbers_when_another_query_is_chosen():
    reading = reading_of("self-attention")
    for query in range(reading.n_queries):
        reading.select_query(query)
        weights = np.asarray(reading.result.weights[query])
        heaviest = reading.arrow_name(Role.KEY, int(np.argmax(weights)))
        state = describe_screen("self-attention", reading).state
        assert reading.arrow_name(Role.QUERY, query) in state
        assert f"{heaviest}, with {round(100 * weights.max())}%" in state, state


def test_spanish_writes_the_numbers_with_a_decimal_comma(speaking):
    speaking("es")
    description = describe_screen("soft-lookup", reading_of("soft-lookup"))
    assert "3,49" in description.state and "3.49" not in description.state
    assert description.parts()[0][0] == "En pantalla", description.parts()


@pytest.mark.parametrize("activity", [item.id for item in LESSONS] + [EXPLORER, TRAINING, MODEL_HEADS])
def test_every_activity_has_all_four_parts(activity):
    reading = reading_of("self-attention" if activity in (EXPLORER, TRAINING, MODEL_HEADS) else activity)
    description = describe_screen(activity, reading)
    assert all(text.strip() for _, text in description.parts())
    spoken = description.spoken()
    assert spoken.index("On the screen:") < spoken.index("Controls:") < spoken.index("Now:") < spoken.index("Try this:")


def test_a_lessons_hint_is_its_first_step():
    item = lesson("self-attention")
    assert describe_screen(item.id, reading_of(item.id)).hint == item.steps[0]


def test_while_the_class_guesses_the_state_gives_no_weight_away():
    state = describe_screen("soft-lookup", reading_of("soft-lookup"), weights_hidden=True).state
    assert "%" not in state and "apple" not in state


@pytest.mark.parametrize(("lesson_id", "asking", "read"), [
    ("soft-lookup", "ask", "apple, pear, plum"),
    ("cross-attention", "the, black, cat, sleeps", "el, gato, negro, duerme"),
])
def test_a_scene_whose_queries_ask_from_other_words_is_described_as_such(lesson_id, asking, read):
    """Lesson 1's one query and lesson 11's target sentence are not the words whose keys they read: the
    description had said every word had a query, a key and a value arrow."""
    description = describe_screen(lesson_id, reading_of(lesson_id))
    assert f"the query arrows of the words that ask ({asking})" in description.screen
    assert f"the key and value arrows of the words they read ({read})" in description.screen
    assert "each with a query, a key and a value arrow" not in description.screen
