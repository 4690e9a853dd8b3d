"""Lesson files (*.attn-lesson): written and read back whole, their named quantities worked out from the
scene with the app's own attention, their exercises checked as the built-in ones are, and each of the ten
built-in lessons exported and reopened with the same scene numbers, text, exercises and verdicts."""

import json

import numpy as np
import pytest

from attn_desktop.model.head_reading import read
from attn_desktop.model.scene import Role
from attn_desktop.model.scene_files import open_scene, read_scene_data
from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.exercise import AnswerKind, ChooseQuery, SetVector, ShowMe
from attn_desktop.model.teaching.exercises import exercises_for
from attn_desktop.model.teaching.lesson_check import check_lesson, reference_answer, wrong_answer
from attn_desktop.model.teaching.lesson_file import (
    LessonChallenge,
    LessonExercise,
    LessonFile,
    LessonFileError,
    Panels,
    PredictRound,
)
from attn_desktop.model.teaching.lesson_file_reading import lesson_from_bytes, read_lesson_file
from attn_desktop.model.teaching.lesson_file_writing import lesson_document, write_lesson_file
from attn_desktop.model.teaching.lesson_quantities import Condition, Quantity, evaluate, holds, key_names
from attn_desktop.model.teaching.lessons import LESSONS
from attn_desktop.paths import scene_path

CAT_SAT_IT = "lessons/3_self_attention.json"  # cat sat it, queries (0,2) (2,0) (1.6,1.2), unscaled


def small_lesson(**changes) -> LessonFile:
    fields = {
        "title": "My lesson", "language": "en", "text": "# Look\n\nDrag *k·cat* toward **q·it**.\n\n- one\n- two",
        "scene": read_scene_data(scene_path(CAT_SAT_IT)),
        "panels": Panels(window=(DockId.LESSON, DockId.MATRIX), presenting=(DockId.MATRIX,)),
        "hidden_controls": ("scale-switch", "code-panel"), "locked": ("value", "k·sat"),
        "exercises": (
            LessonExercise(id="w-it-cat", prompt="How much weight does it give cat?", kind=AnswerKind.NUMBER,
                           quantities=(Quantity("weight", query="it", key="cat"),), tolerance=0.01,
                           hint="Softmax the row.", show_me=ShowMe("", (ChooseQuery(2),))),
            LessonExercise(id="stated", prompt="Two numbers", kind=AnswerKind.NUMBERS, answer=(36.0, 1.0),
                           labels=("weights", "row total")),
            LessonExercise(id="pick", prompt="Which?", kind=AnswerKind.CHOICE, choices=("a", "b"), correct_choice=1),
        ),
        "challenges": (
            LessonChallenge(id="focus", title="Make it look at cat", conditions=(
                Condition(Quantity("weight", query="it", key="cat"), compare=">=", value=0.9),),
                show_me=ShowMe("", (SetVector(Role.QUERY, 2, (4.0, 0.0)),))),
        ),
        "predict_rounds": (PredictRound("it"),),
    }
    fields.update(changes)
    return LessonFile(**fields)


def test_a_lesson_written_and_read_back_is_the_same(tmp_path):
    lesson = small_lesson()
    path = tmp_path / "mine.attn-lesson"
    write_lesson_file(lesson, path)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == "attn-lesson" and document["version"] == 1
    assert document["scene"]["format"] == "attention-desktop-scene"  # the scene as scene files store it
    assert read_lesson_file(path) == lesson


def test_the_named_quantities_are_the_app_s_own_numbers():
    scene = open_scene(scene_path(CAT_SAT_IT))
    result = read(scene).result
    assert evaluate(Quantity("score", query="sat", key="it"), scene) == pytest.approx(2.4)
    assert evaluate(Quantity("weight", query="sat", key="cat"), scene) == pytest.approx(result.weights[1, 0])
    assert evaluate(Quantity("weight", query="it", key="cat"), scene) == pytest.approx(0.54, abs=0.005)
    assert evaluate(Quantity("output", query="it", component=0), scene) == pytest.approx(0.77, abs=0.005)
    assert evaluate(Quantity("heaviest_key", query="sat"), scene) == "cat"
    weights = result.weights[2]
    assert evaluate(Quantity("entropy", query="it"), scene) == pytest.approx(-(weights * np.log2(weights)).sum())


def test_a_repeated_token_is_named_by_its_place():
    scene = open_scene(scene_path("lessons/10_positions.json"))  # the dog chased the cat
    assert key_names(read(scene)) == ["the#1", "dog", "chased", "the#2", "cat"]
    first = evaluate(Quantity("weight", query="chased", key="the#1"), scene)
    second = evaluate(Quantity("weight", query="the#2", key="cat"), scene)
    assert first == pytest.approx(read(scene).result.weights[2, 0]) and second == pytest.approx(
        read(scene).result.weights[3, 4])
    with pytest.raises(LessonFileError, match="the#1"):  # "the" alone is ambiguous
        evaluate(Quantity("weight", query="chased", key="the"), scene)


def test_a_computed_exercise_is_answered_from_the_lesson_s_scene():
    lesson = small_lesson()
    exercise = lesson.exercises[0].exercise(lesson.new_scene())
    assert exercise.answer[0] == pytest.approx(0.54, abs=0.005)
    assert exercise.check("0.54").correct and not exercise.check("0.6").correct


def test_a_challenge_is_met_by_its_show_me_and_not_at_the_start():
    lesson = small_lesson()
    challenge = lesson.challenges[0]
    assert not challenge.met(lesson.new_scene())
    assert challenge.met(lesson.show_me_scene(challenge.show_me))


def test_lesson_check_runs_every_reference_and_a_wrong_answer():
    report = check_lesson(small_lesson())
    assert report.passed, report
    assert [(item.id, item.reference_passes, item.wrong_rejected) for item in report.exercises] == [
        ("w-it-cat", True, True), ("stated", True, True), ("pick", True, True)]
    assert [(item.id, item.reference_passes) for item in report.challenges] == [("focus", True)]
    document = report.to_document()
    assert set(document) == {"lesson", "version", "exercises", "challenges", "problems"}


def test_lesson_check_finds_a_challenge_its_show_me_does_not_meet_and_a_tolerance_too_wide():
    lesson = small_lesson(
        challenges=(LessonChallenge(id="never", title="t", conditions=(
            Condition(Quantity("heaviest_key", query="it"), equals="sat"),), show_me=ShowMe("", ())),),
        exercises=(LessonExercise(id="wide", prompt="p", kind=AnswerKind.NUMBER, answer=(1.0,), tolerance=1e6),))
    report = check_lesson(lesson)
    assert not report.passed
    assert report.challenges[0].reference_passes is False and report.exercises[0].wrong_rejected is False
    assert len(report.problems) == 2


def test_a_challenge_without_show_me_cannot_be_checked_statically():
    lesson = small_lesson(challenges=(LessonChallenge(id="free", title="t", conditions=(
        Condition(Quantity("weight", query="it", key="sat"), compare=">", value=0.5),)),))
    report = check_lesson(lesson)
    assert report.challenges[0].reference_passes is None and report.passed


@pytest.mark.parametrize("lesson", LESSONS, ids=[lesson.id for lesson in LESSONS])
def test_each_built_in_lesson_round_trips_with_the_same_numbers_text_and_verdicts(lesson, tmp_path):
    exported = builtin_lesson_file(lesson.id)
    path = tmp_path / f"{lesson.id}.attn-lesson"
    write_lesson_file(exported, path)
    reopened = read_lesson_file(path)
    assert reopened == exported
    original = open_scene(scene_path(lesson.scene))
    again = reopened.new_scene()
    for role in original.input_roles:
        assert np.array_equal(original.vectors(role), again.vectors(role))
    assert np.array_equal(read(original).result.weights, read(again).result.weights)
    assert lesson.explanation in reopened.text and all(step in reopened.text for step in lesson.steps)
    built_in = exercises_for(lesson.id)
    assert [item.id for item in reopened.exercises] == [item.id for item in built_in]
    for mine, theirs in zip(reopened.exercises, built_in):
        as_read = mine.exercise(again)
        for response in (reference_answer(theirs), wrong_answer(theirs)):
            assert as_read.check(response).correct == theirs.check(response).correct, (theirs.id, response)
        assert theirs.check(reference_answer(theirs)).correct and not theirs.check(wrong_answer(theirs)).correct
    assert check_lesson(reopened).passed


def test_the_document_has_no_field_the_schema_does_not_describe():
    schema = json.loads((scene_path("").parent / "lesson.schema.json").read_text(encoding="utf-8"))
    document = lesson_document(small_lesson())
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(document) <= set(schema["properties"]) and set(schema["required"]) <= set(document)
    exercise_fields = set(schema["$defs"]["exercise"]["properties"])
    assert all(set(item) <= exercise_fields for item in document["exercises"])


def test_bytes_of_a_lesson_read_as_a_file_is():
    raw = json.dumps(lesson_document(small_lesson())).encode("utf-8")
    assert lesson_from_bytes(raw) == small_lesson()


def test_a_computed_choice_asks_for_the_heaviest_key_among_the_scene_s_keys(tmp_path):
    lesson = small_lesson(exercises=(
        LessonExercise(id="winner", prompt="Which key does sat favour?", kind=AnswerKind.CHOICE,
                       quantities=(Quantity("heaviest_key", query="sat"),)),
        LessonExercise(id="row", prompt="Score, output and entropy of it", kind=AnswerKind.NUMBERS,
                       quantities=(Quantity("score", query="it", key="cat"),
                                   Quantity("output", query="it", component=1),
                                   Quantity("entropy", query="it")), tolerance=0.01, labels=("score", "out", "bits")),
    ))
    path = tmp_path / "computed.attn-lesson"
    write_lesson_file(lesson, path)
    reopened = read_lesson_file(path)
    assert reopened == lesson
    winner = reopened.exercises[0].exercise(reopened.new_scene())
    assert winner.choices == ("cat", "sat", "it") and winner.correct_choice == 0
    assert winner.check(0).correct and not winner.check(2).correct
    row = reopened.exercises[1].exercise(reopened.new_scene())
    assert row.answer[0] == pytest.approx(3.2) and row.answer[1] == pytest.approx(0.38, abs=0.005)
    assert check_lesson(reopened).passed


def test_a_quantity_reads_the_head_it_names():
    lesson = builtin_lesson_file("two-heads")  # "it" looks at "because" in head 1, at "cat" in head 2
    scene = lesson.new_scene()
    assert evaluate(Quantity("heaviest_key", query="it", at=(0, 0)), scene) == "because"
    assert evaluate(Quantity("heaviest_key", query="it", at=(0, 1)), scene) == "cat"
    assert evaluate(Quantity("weight", query="it", key="cat", at=(0, 1)), scene) == pytest.approx(0.84, abs=0.005)
    with pytest.raises(LessonFileError, match="no head 2"):
        evaluate(Quantity("weight", query="it", key="cat", at=(0, 2)), scene)


def test_a_tie_for_the_heaviest_key_counts_each_tied_key_as_heaviest():
    scene = open_scene(scene_path("lessons/1_soft_lookup.json"))
    scene.set_vector(Role.QUERY, 0, (0.0, 0.0))  # every score 0: a three-way tie
    query = read(scene).query_tokens[0]
    assert all(holds(Condition(Quantity("heaviest_key", query=query), equals=name), scene)
               for name in ("apple", "pear", "plum"))


def test_lesson_check_finds_a_challenge_met_before_anything_moves():
    lesson = small_lesson(challenges=(LessonChallenge(id="done", title="t", conditions=(
        Condition(Quantity("heaviest_key", query="sat"), equals="cat"),)),))  # sat already favours cat
    report = check_lesson(lesson)
    assert not report.passed and report.challenges[0].reference_passes is None
    assert report.problems == ("challenge done: it is met already in the lesson's scene, before anything moves",)
