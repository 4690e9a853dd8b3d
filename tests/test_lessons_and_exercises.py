"""The lesson's scenes give the lesson's numbers, and every exercise checks answers correctly."""

import json

import numpy as np
import pytest

from attn_desktop.model import HeadReading, Role, Scene, SceneFileError, read
from attn_desktop.model.layers import ATTENTION_ROLES
from attn_desktop.model.positions import shuffled_attention
from attn_desktop.model.scene_files import open_reading, open_scene, scene_data_from_text, scene_document
from attn_desktop.model.teaching.exercises import (
    EXERCISES,
    ChooseQuery,
    SetGrids,
    SetVector,
    apply_steps,
    parse_numbers,
)
from attn_desktop.model.teaching.lessons import LESSONS
from attn_desktop.model.training.tasks import TASKS
from attn_desktop.model.training.trained_head import has_trained_head, keep_as_scene, task_accuracy, task_of
from attn_desktop.model.training.training import train
from attn_desktop.paths import scene_path


def lesson_scene(name: str) -> Scene:
    return open_scene(scene_path(name))


def lesson_reading(name: str) -> HeadReading:
    """A lesson's scene looked at with the query its file chose."""
    return open_reading(scene_path(name))


def test_every_lesson_scene_loads():
    for lesson in LESSONS:
        assert lesson_scene(lesson.scene).n_tokens >= 3


def test_soft_lookup_gives_the_lesson_numbers():
    scene = lesson_scene("lessons/1_soft_lookup.json")
    assert scene.scalar_values and scene.query_tokens == ["ask"] and not scene.scale
    assert np.round(read(scene).result.weights[0], 2).tolist() == [0.59, 0.08, 0.33]
    assert round(float(read(scene).result.output[0, 0]), 2) == 3.49


def test_projection_example_for_it():
    scene = lesson_scene("lessons/2_projections.json")
    it = scene.tokens.index("it")
    assert scene.vectors(Role.EMBEDDING)[it].tolist() == [0.6, 0.8]
    assert np.round(read(scene).vectors(Role.QUERY)[it], 6).tolist() == [1.6, 1.2]
    assert np.round(read(scene).vectors(Role.KEY)[it], 6).tolist() == [1.2, 0.8]
    assert np.round(read(scene).vectors(Role.VALUE)[it], 6).tolist() == [0.6, 0.8]


def test_dragging_a_word_vector_moves_its_query_key_and_value():
    scene = lesson_scene("lessons/2_projections.json")
    scene.set_vector(Role.EMBEDDING, 2, [1.0, 0.5])
    assert read(scene).vectors(Role.QUERY)[2].tolist() == [1.0, 2.0]  # Part 2's "your turn"
    assert read(scene).vectors(Role.KEY)[2].tolist() == [2.0, 0.5]
    with pytest.raises(ValueError, match="made by the grids"):
        scene.set_vector(Role.QUERY, 0, [1.0, 1.0])


def test_grid_cells_and_the_no_grids_switch():
    scene = lesson_scene("lessons/2_projections.json")
    scene.set_grid_cell("w_q", 0, 0, 1.0)
    assert read(scene).vectors(Role.QUERY)[0].tolist() == [1.0, 2.0]  # cat's x = (1, 0) now picks up the new 1
    scene.set_use_grids(False)
    assert np.array_equal(read(scene).vectors(Role.QUERY), scene.vectors(Role.EMBEDDING))
    assert np.argmax(read(scene).result.weights, axis=1).tolist() == [0, 1, 2]  # every word matches itself
    saved = scene_document(scene)
    assert saved["use_grids"] is False and saved["layers"][0]["heads"][0]["w_q"][0][0] == 1.0 and "queries" not in saved


def test_self_attention_lesson_numbers():
    scene = lesson_scene("lessons/3_self_attention.json")
    assert np.round(read(scene).result.weights, 2).tolist() == [[0.07, 0.55, 0.37], [0.82, 0.02, 0.17], [0.54, 0.07, 0.39]]
    assert np.round(read(scene).result.output[2], 2).tolist() == [0.77, 0.38]


def test_self_attention_step_3_does_what_it_says():
    """Dragging k·it out along q·it slides the output of "it" from cat toward its own value."""
    step = LESSONS[2].steps[2]
    assert step.startswith("Drag k·it out along q·it")
    scene = lesson_scene("lessons/3_self_attention.json")
    reading = read(scene)
    own_value = reading.vectors(Role.VALUE)[2].copy()
    weights_before, output_before = reading.result.weights[2].copy(), reading.result.output[2].copy()
    assert int(np.argmax(weights_before)) == 0  # cat first
    for length in (1.5, 2.0):
        scene.set_vector(Role.KEY, 2, reading.vectors(Role.QUERY)[2] * length)
        weights, output = reading.result.weights[2], reading.result.output[2]
        assert weights[2] > weights_before[2] and weights[0] < weights_before[0]
        assert np.linalg.norm(output - own_value) < np.linalg.norm(output_before - own_value)
        weights_before, output_before = weights.copy(), output.copy()
    assert int(np.argmax(weights_before)) == 2  # far enough out, "it" looks at itself most


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.id)
def test_each_exercise_takes_the_right_answer_and_refuses_a_wrong_one(exercise):
    if exercise.kind == "choice":
        right, wrong = exercise.correct_choice, (exercise.correct_choice + 1) % len(exercise.choices)
    else:
        right = ", ".join(f"{value:g}" for value in exercise.answer)
        wrong = ", ".join(f"{value + 0.5:g}" for value in exercise.answer)
    assert exercise.check(right).correct
    result = exercise.check(wrong)
    assert not result.correct and "Hint" in result.message


@pytest.mark.parametrize("exercise", [e for e in EXERCISES if e.show_me], ids=lambda e: e.id)
def test_show_me_sets_up_a_canvas_that_shows_the_answer(exercise):
    shown = lesson_reading(exercise.show_me.scene)
    scene = shown.scene
    apply_steps(scene, shown.view, exercise.show_me.steps)
    weights, output = shown.result.weights, shown.result.output
    if exercise.id in ("lookup-ask-up", "lookup-no-match"):
        assert output[0, 0] == pytest.approx(exercise.answer[0], abs=exercise.tolerance)
    elif exercise.id == "predict-winner":
        assert shown.selected_token == "it" and int(np.argmax(shown.selected_weights)) == exercise.correct_choice
    elif exercise.id == "predict-key-at-origin":
        assert shown.vectors(Role.KEY)[1].tolist() == [0.0, 0.0] and shown.selected_token == "it"
        assert shown.selected_weights == pytest.approx(exercise.answer, abs=exercise.tolerance)
    elif exercise.id == "projection-query":
        assert shown.vectors(Role.QUERY)[2] == pytest.approx(exercise.answer)
        assert shown.selected_token == "it"  # the word whose query the question asks for
    elif exercise.id == "row-for-sat":
        assert shown.selected_token == "sat"
        assert weights[1] == pytest.approx(exercise.answer, abs=exercise.tolerance)
    elif exercise.id == "no-grids-self-match":
        assert not scene.use_grids
        assert np.argmax(weights, axis=1).tolist() == list(range(scene.n_tokens))
    elif exercise.id == "matrix-size":
        assert weights.size == exercise.answer[0] and weights.sum(axis=1) == pytest.approx(1.0)
    elif exercise.id in ("trained-reverse-position-0", "trained-reverse-middle"):
        asked = exercise.show_me.steps[0].index
        assert shown.selected_token.startswith(f"{asked}:")  # the row the question asks about
        assert int(np.argmax(shown.selected_weights)) == exercise.answer[0]
    elif exercise.id == "two-heads-it-cat":
        assert shown.selected_token == "it"
        strongest = [scene.tokens[int(np.argmax(scene.head(0, head).attention.weights[shown.selected]))] for head in (0, 1)]
        assert strongest == ["because", "cat"]  # so head 2, the second choice, is the answer
        assert exercise.correct_choice == 1
    elif exercise.id == "induction-next-letter":
        assert shown.selected_token == "18:R"
        layer_2 = scene.head(1, 0).attention.weights[shown.selected]
        assert scene.tokens[int(np.argmax(layer_2))] == "6:H" and exercise.correct_choice == 0
    elif exercise.id == "positions-shuffle":
        assert shown.selected_token == "chased"
        order = [0, 4, 2, 3, 1]  # the cat chased the dog
        shuffled = shuffled_attention(*(shown.vectors(role) for role in ATTENTION_ROLES), order)
        assert np.abs(shuffled.output - output[order]).max() < 1e-12 and exercise.correct_choice == 0
    elif exercise.id == "cross-cat-reads":
        assert shown.selected_token == "cat"  # a target word's row: the source word it reads is the answer
        assert scene.tokens[int(np.argmax(shown.selected_weights))] == "gato" and exercise.correct_choice == 0
    elif exercise.id == "cross-black-weight":
        assert shown.selected_token == "black" and scene.tokens.index("negro") == 2
        assert shown.selected_weights[2] == pytest.approx(exercise.answer[0], abs=exercise.tolerance)
    else:
        pytest.fail(f"no check written for {exercise.id}")


def test_the_trained_reverse_scene_is_a_head_that_reverses():
    """The shipped head was trained by the app (reverse, seed 0, the task's default steps) and kept as a scene."""
    scene = lesson_scene("lessons/5_trained_reverse.json")
    assert has_trained_head(scene) and task_of(scene).name == "reverse"
    assert task_accuracy(scene) >= 0.99
    weights = read(scene).result.weights
    assert np.argmax(weights, axis=1).tolist() == [4, 3, 2, 1, 0]  # the anti-diagonal
    assert np.fliplr(weights).diagonal().min() > 0.9
    assert scene.tokens == ["0:3", "1:1", "2:4", "3:1", "4:5"]


def test_the_trained_reverse_scene_is_what_training_makes():
    """Retraining from the same seed gives the shipped head, so the lesson's "400 steps from seed 0" is true."""
    task = TASKS["reverse"]
    trained = keep_as_scene(task, train(task, task.default_steps, seed=0).snapshot(), task.example_tokens())
    shipped = lesson_scene("lessons/5_trained_reverse.json")
    # The weights the student reads, not the last digits of every grid number: another machine's
    # arithmetic may differ in the last bits after 400 steps, and the lesson's claims would still hold.
    assert np.allclose(read(Scene(trained)).result.weights, read(shipped).result.weights, atol=0.01)


def test_the_exercises_answers_are_the_trained_heads_own():
    scene = lesson_scene("lessons/5_trained_reverse.json")
    row_0 = next(e for e in EXERCISES if e.id == "trained-reverse-position-0")
    middle = next(e for e in EXERCISES if e.id == "trained-reverse-middle")
    assert int(np.argmax(read(scene).result.weights[0])) == row_0.answer[0] == 4
    assert int(np.argmax(read(scene).result.weights[2])) == middle.answer[0] == 2


def test_without_position_vectors_the_trained_head_cannot_reverse():
    """The choice question's answer, checked: the same digit in two places gets the same weights."""
    scene = lesson_scene("lessons/5_trained_reverse.json")
    embed = np.array(scene.trained_head.embed)
    ids = scene.trained_head.token_ids  # 3 1 4 1 5: the 1 at positions 1 and 3
    for position, token in enumerate(ids):
        scene.set_vector(Role.EMBEDDING, position, embed[token])
    assert np.allclose(read(scene).result.weights[1], read(scene).result.weights[3])
    assert task_accuracy(scene) < 0.5


def test_show_me_steps_run_in_order_on_a_bare_scene():
    shown = lesson_reading("lessons/2_projections.json")
    scene = shown.scene
    apply_steps(scene, shown.view, (SetGrids(False), SetVector(Role.EMBEDDING, 0, (0.5, 0.25)), ChooseQuery(0), ChooseQuery(1)))
    assert not scene.use_grids and shown.selected_token == scene.tokens[1]
    assert shown.vectors(Role.QUERY)[0].tolist() == [0.5, 0.25]  # no grids: a word's query is its own vector


def test_answers_can_be_typed_in_the_ways_students_type_them():
    assert parse_numbers("(1, 2)", 2) == [1.0, 2.0]
    assert parse_numbers("(1,2)", 2) == [1.0, 2.0]
    assert parse_numbers("82%, 2%, 17%", 3) == [0.82, 0.02, 0.17]
    assert parse_numbers("0,82; 0,02; 0,17", 3) == [0.82, 0.02, 0.17]
    assert parse_numbers("4,51", 1) == [4.51]
    assert parse_numbers("36 and 1", 2) == [36.0, 1.0]
    assert parse_numbers("(−1, 0.5)", 2) == [-1.0, 0.5]


def test_a_wrong_count_of_numbers_says_what_is_expected():
    sat = next(e for e in EXERCISES if e.id == "row-for-sat")
    assert sat.check("0.82").message == "Type 3 numbers (cat, sat, it); found 1 in your answer."
    assert "it is off" in sat.check("0.82, 0.02, 0.30").message


PROJECTION = {
    "tokens": ["a", "b"], "embeddings": [[1, 0], [0, 1]],
    "w_q": [[1, 0], [0, 1]], "w_k": [[1, 0], [0, 1]], "w_v": [[1], [2]],
}


@pytest.mark.parametrize(
    "change, expected",
    [
        ({"w_q": [[1, 0]]}, "w_q: has 1 rows but the word vectors have 2 numbers"),
        ({"w_k": [[1, 0, 0], [0, 1, 0]]}, "w_q makes queries of 2 numbers but w_k makes keys of 3"),
        ({"w_v": [[1], ["x"]]}, 'w_v[1][0]: expected a number, found the text "x"'),
        ({"queries": [[1, 0], [0, 1]]}, "queries: a projection scene gives embeddings"),
        ({"embeddings": [[1, 0]]}, "there are 2 tokens but 1 word vectors"),
        ({"use_grids": False}, "switching the grids off needs square grids"),
        ({"w_q": None}, "w_q: missing"),
    ],
)
def test_bad_projection_scenes_are_refused_clearly(change, expected):
    document = {**PROJECTION, **change}
    document = {key: value for key, value in document.items() if value is not None}
    with pytest.raises(SceneFileError) as caught:
        scene_data_from_text(json.dumps(document))
    assert expected in str(caught.value)


def test_a_scalar_value_scene_round_trips_as_plain_numbers():
    scene = lesson_scene("lessons/1_soft_lookup.json")
    assert scene_document(scene)["values"] == [3.0, 5.0, 4.0]
