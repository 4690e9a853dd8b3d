"""The lessons, their exercises and the challenges go through the catalog (issue 30): under the pseudo-language
every text a student reads comes out bracketed and accented, numbers follow Spanish's decimal comma, and a
lesson's sentence is in the student's words when the lesson opens its scene."""

from __future__ import annotations

from attn_desktop.model import read
from attn_desktop.model.scene_files import new_scene, read_scene_data
from attn_desktop.model.teaching import challenges
from attn_desktop.model.teaching.exercises import EXERCISES
from attn_desktop.model.teaching.progress import ProgressStore
from attn_desktop.paths import scene_path
from attn_desktop.ui.lessons.exercise_widget import ExerciseWidget
from attn_desktop.ui.lessons.lesson_controller import lesson_scene_data
from attn_desktop.ui.lessons.lesson_panel import LessonPanel

PSEUDO = "⟦"


def exercise(exercise_id: str):
    return next(item for item in EXERCISES if item.id == exercise_id)


def answered(qtbot, exercise_id: str, answer: str) -> ExerciseWidget:
    widget = ExerciseWidget(exercise(exercise_id), done=False)
    qtbot.addWidget(widget)
    assert widget.answer_edit is not None
    widget.answer_edit.setText(answer)
    widget.check_button.click()
    return widget


def test_a_lessons_title_text_steps_and_count_of_exercises_are_translated(qtbot, speaking, tmp_path):
    speaking("en_XA")
    panel = LessonPanel(ProgressStore(tmp_path / "progress.json"))
    qtbot.addWidget(panel)
    panel.show_lesson("soft-lookup")
    assert panel.picker.currentText().startswith(PSEUDO)
    assert panel.explanation_label.text().startswith(PSEUDO)
    assert panel.formula_label.text().startswith(PSEUDO)
    assert "<li>⟦" in panel.steps_label.text()
    assert PSEUDO in panel.progress_label.text() and "0" in panel.progress_label.text()  # a plural form
    assert panel.exercise_widgets[0].prompt_label.text().startswith(PSEUDO)


def test_the_lesson_panel_follows_a_change_of_language(qtbot, speaking, tmp_path):
    panel = LessonPanel(ProgressStore(tmp_path / "progress.json"))
    qtbot.addWidget(panel)
    panel.show_lesson("soft-lookup")
    assert panel.picker.currentText() == "1. Soft lookup"
    speaking("en_XA")
    assert panel.picker.currentText().startswith(PSEUDO)
    assert panel.exercise_widgets[0].heading_label.text().count(PSEUDO) >= 1


def test_an_exercises_feedback_is_translated(qtbot, speaking):
    speaking("en_XA")
    right = answered(qtbot, "lookup-ask-up", "4.51")
    assert right.result_label.text().startswith("✓ ⟦")
    wrong = answered(qtbot, "lookup-ask-up", "3")
    assert wrong.result_label.text().startswith("✗ ⟦")
    wrong.hint_button.click()
    assert wrong.result_label.text().startswith(PSEUDO)


def test_a_challenges_text_is_translated(speaking):
    speaking("en_XA")
    assert challenges.elsewhere_note().startswith(PSEUDO)
    scene = new_scene(read_scene_data(scene_path("the_cat_sat_on_the_mat.json")))
    reading = read(scene)
    notes = [status.note for status in challenges.evaluate(reading, challenges.Baseline.from_scene(reading))]
    assert all(note.startswith(PSEUDO) for note in notes)


def test_numbers_in_feedback_have_a_decimal_comma_in_spanish(qtbot, speaking):
    speaking("es")
    assert "±0,05" in exercise("lookup-ask-up").tolerance_text
    rope = exercise("positions-rope-distance")
    value = rope.answer[0]
    typed = f"{value:.2f}".replace(".", ",")  # typed the Spanish way
    widget = answered(qtbot, "positions-rope-distance", typed)
    assert widget.result_label.text().startswith("✓ ")
    assert typed in widget.result_label.text()  # the explanation's number, written with a comma
    assert typed in widget.prompt_label.text()


def test_a_lesson_opens_its_sentence_in_the_students_words_and_its_exercises_still_check(qtbot, speaking):
    speaking("en_XA")
    tokens = lesson_scene_data("lessons/1_soft_lookup.json").tokens
    assert all(token.startswith(PSEUDO) for token in tokens)
    assert lesson_scene_data("lessons/5_trained_reverse.json").tokens[0] == "0:3"  # not a word: kept
    widget = answered(qtbot, "row-for-sat", "0.82 0.02 0.17")
    assert widget.result_label.text().startswith("✓ ")
    close = answered(qtbot, "row-for-sat", "0.82 0.5 0.17")
    assert "⟦šåt" in close.result_label.text()  # the label named off is in the student's words too


def test_in_english_the_lesson_and_its_exercises_are_as_before(qtbot):
    assert lesson_scene_data("lessons/1_soft_lookup.json").tokens == ["apple", "pear", "plum"]
    widget = answered(qtbot, "row-for-sat", "0.82 0.5 0.17")
    assert widget.result_label.text().startswith("✗ Close: sat is off. Hint: The scores are 4, 0 and 2.4.")


def test_the_code_panels_comments_are_translated_and_its_code_still_runs(speaking):
    from attn_desktop.model.exports.codegen import numpy_code
    from attn_desktop.model.teaching import positions_code

    speaking("en_XA")
    scene = new_scene(lesson_scene_data("lessons/10_positions.json"))
    script = numpy_code(read(scene)) + positions_code.numpy_code(read(scene).key_width)
    assert "# ⟦" in script
    namespace: dict = {}
    exec(compile(script, "code panel", "exec"), namespace)  # noqa: S102 - the app's own generated script
    assert namespace["j"] == 1  # the key lesson 10 asks about, found by its word in the student's language
