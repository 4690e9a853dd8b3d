"""Lesson 8, Predict, then see: the numbers its text and exercises state come from its scene and the model."""

import re

import numpy as np

from attn_desktop.model import HeadReading, Role, Scene, explain
from attn_desktop.model.scene_files import open_reading, open_scene
from attn_desktop.model.teaching.exercises import exercises_for
from attn_desktop.model.teaching.lessons import LESSONS, lesson
from attn_desktop.model.teaching.prediction import compare
from attn_desktop.paths import scene_path

LESSON = lesson("predict-then-see")


def lesson_scene() -> Scene:
    return open_scene(scene_path(LESSON.scene))


def lesson_reading() -> HeadReading:
    """The lesson's scene looked at with the query its file chose ("it")."""
    return open_reading(scene_path(LESSON.scene))


def exercise(exercise_id):
    return next(item for item in exercises_for(LESSON.id) if item.id == exercise_id)


def test_it_is_lesson_8_and_the_only_one_that_turns_predicting_on():
    assert LESSONS[7] is LESSON and LESSON.title == "8. Predict, then see" and LESSON.predict
    assert [item for item in LESSONS if item.predict] == [LESSON]
    assert LESSON.scene == "lessons/8_predict_then_see.json"


def test_the_winner_is_explained_with_the_scenes_weights_and_scores_once_answered():
    shown = lesson_reading()
    scene = shown.scene
    it = scene.tokens.index("it")
    assert shown.selected == it and scene.scale and scene.tokens == ["the", "dog", "chased", "it"]
    told = exercise("predict-winner").explanation  # shown after a right answer
    scores = shown.result.scores[it]
    assert f"scores {explain.number(scores[1], 1)} against the's {explain.number(scores[0], 1)}" in told
    weights = [explain.percent(w) for w in shown.result.weights[it]]
    assert f"dog {weights[1]}, the {weights[0]}, chased {weights[2]} and itself {weights[3]}" in told
    # The point of the scene: the query points exactly along k·the, yet dog's longer key wins.
    query, keys = shown.vectors(Role.QUERY)[it], shown.vectors(Role.KEY)
    assert np.allclose(query / np.linalg.norm(query), keys[0] / np.linalg.norm(keys[0]))
    assert int(np.argmax(shown.result.weights[it])) == 1


def test_the_winner_exercise_names_the_real_winner():
    shown = lesson_reading()
    scene, item = shown.scene, exercise("predict-winner")
    assert list(item.choices) == scene.tokens
    assert item.correct_choice == int(np.argmax(shown.selected_weights))


def test_the_key_at_the_origin_exercise_matches_the_model():
    shown = lesson_reading()
    scene, item = shown.scene, exercise("predict-key-at-origin")
    scene.set_vector(Role.KEY, 1, [0.0, 0.0])
    assert item.answer == tuple(np.round(shown.selected_weights, 2).tolist())
    assert item.check(", ".join(explain.percent(w) for w in shown.selected_weights)).correct


def test_the_scoring_exercise_matches_the_model():
    item = exercise("predict-score")
    assert "60%, 20%, 20% and 0%" in item.prompt and "40%, 40%, 10% and 10%" in item.prompt
    result = compare([0.6, 0.2, 0.2, 0.0], [0.4, 0.4, 0.1, 0.1])  # as the prompt gives them
    assert item.answer == (round(result.points_off), round(result.score)) == (30, 70)


def test_no_exercise_gives_away_before_its_answer_what_the_class_predicts():
    """The weights of "it" in the lesson's scene, and with k·dog at the origin, are what the class guesses:
    no prompt or hint (read before answering) states them; explanations, shown after, may."""
    shown = lesson_reading()
    scene = shown.scene
    predicted = {explain.percent(weight) for weight in shown.selected_weights}
    scene.set_vector(Role.KEY, 1, [0.0, 0.0])
    predicted |= {explain.percent(weight) for weight in shown.selected_weights}
    for item in exercises_for(LESSON.id):
        before_the_answer = f"{item.prompt} {item.hint}"
        stated = set(re.findall(r"(?<![\d.])\d+%", before_the_answer))
        assert not stated & predicted, item.id


def test_the_opening_text_asks_for_the_prediction_without_giving_it_away():
    shown = lesson_reading()
    scene, text = shown.scene, LESSON.explanation
    it = scene.tokens.index("it")
    reading = shown
    # The facts a guess is made from, as the scene has them.
    query, keys = reading.vectors(Role.QUERY)[it], reading.vectors(Role.KEY)
    assert f"\"it\", {plain(query)}" in text
    assert f"k·the {plain(keys[0])}" in text and f"key {plain(keys[1])}" in text
    # What the class is asked to predict: none of it before the reveal.
    for weight in reading.result.weights[it]:
        assert explain.percent(weight) not in text
    for score in reading.result.scores[it]:
        assert f" {explain.number(score, 1)}" not in text
    assert not any(word in text for word in ("wins", "scores", "gives dog", "longer key wins"))
    assert text.rstrip().endswith("reveal.") and "?" in text  # it ends on the question


def plain(vector) -> str:
    """A vector as a lesson writes it: (1, 1), (0.8, 0.8)."""
    return "(" + ", ".join(f"{float(number):g}" for number in vector) + ")"
