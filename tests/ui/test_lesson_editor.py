"""A teacher writes a lesson in the window: File → New Lesson from This Scene…, a title and a text, an exercise
added by pointing at a weight in the matrix (mouse or keys), a control hidden, Save Lesson As…; a student opens
the file and gets exactly that. Student view shows it on the way and gives the editing back whole; Edit Lesson…
opens a saved file again, and a broken one changes nothing."""

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QScrollArea

from attn_desktop.language.catalog import LANGUAGE_NAMES, translations_for
from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
from attn_desktop.model.teaching.exercise import AnswerKind
from attn_desktop.model.teaching.lesson_check import check_lesson
from attn_desktop.model.teaching.lesson_file import LessonExercise
from attn_desktop.model.teaching.lesson_file_reading import read_lesson_file
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file
from attn_desktop.model.teaching.lesson_quantities import Quantity
from attn_desktop.ui.tools.accessibility_audit import unnamed_widgets
from attn_desktop.ui.tools.language_audit import untranslated_texts

from tests.support.in_the_window import choose_from_menu_bar, right_click_and_choose

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support grabbing the keyboard")  # the menus, offscreen

ASK_FOR_THIS_WEIGHT = "Ask for This Weight in the Lesson"


def open_new_lesson(qtbot, window):
    choose_from_menu_bar(qtbot, window, ["File", "New Lesson from This Scene…"])
    editor = window.lesson_authoring.editor
    assert editor is not None
    qtbot.waitExposed(editor)
    return editor


def save_with_keys(qtbot, editor, monkeypatch, path) -> list[str]:
    filters: list[str] = []

    def chosen(parent, caption, folder, file_filter, *args, **kwargs):
        filters.append(file_filter)
        return str(path), file_filter

    monkeypatch.setattr(QFileDialog, "getSaveFileName", chosen)
    editor.activateWindow()  # (offscreen, a window is active only when told)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is editor)
    qtbot.keyClick(editor.title_edit, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    return filters


def type_into(qtbot, field, text: str) -> None:
    qtbot.mouseClick(field, Qt.MouseButton.LeftButton)
    field.selectAll()
    qtbot.keyClicks(field, text)


def test_a_teacher_writes_a_lesson_in_the_window_and_a_student_opens_it(qtbot, window, monkeypatch, tmp_path):
    editor = open_new_lesson(qtbot, window)
    type_into(qtbot, editor.title_edit, "Who is it?")
    qtbot.keyClicks(editor.text_edit, "Drag *k·cat* and watch the row.")
    assert "<em>k·cat</em>" in editor.preview_label.text()  # the live preview: the subset as the student sees it
    assert "Who is it?" in editor.preview_label.text()

    matrix = window.matrix_view
    row, column = window.shown.selected, 1
    pointed = right_click_and_choose(qtbot, matrix, matrix.cell_rect(row, column).center().toPoint(),
                                     ASK_FOR_THIS_WEIGHT)
    assert pointed == [ASK_FOR_THIS_WEIGHT]
    shown_weight = matrix.cell_text(row, column)
    exercises = editor.exercises
    assert exercises.list_widget.count() == 1
    query, key = window.shown.query_tokens[row], window.shown.tokens[column]
    assert exercises.prompt_edit.text() == f"How much weight does {query} give {key}?"
    qtbot.mouseClick(editor.controls.hidden_boxes["scale-switch"], Qt.MouseButton.LeftButton)

    path = tmp_path / "who-is-it.attn-lesson"
    filters = save_with_keys(qtbot, editor, monkeypatch, path)
    assert "*.attn-lesson" in filters[0] and window.shown_errors == []
    saved = read_lesson_file(path)
    assert check_lesson(saved).passed

    assert window.lesson_files.open_path(path)
    shown_text = window.lesson_panel.explanation_label.text()
    assert "Who is it?" in shown_text and "k·cat</a></em>" in shown_text  # the name, a link for the student
    widget = window.lesson_panel.exercise_widgets[0]
    assert widget.prompt_label.text() == f"How much weight does {query} give {key}?"
    answer = widget.exercise.answer[0]
    assert f"{answer:.2f}".lstrip("0") == shown_weight.lstrip("0") == matrix.cell_text(row, column).lstrip("0")
    qtbot.keyClicks(widget.answer_edit, shown_weight)
    qtbot.mouseClick(widget.check_button, Qt.MouseButton.LeftButton)
    assert widget.result_label.text().startswith("✓")
    assert not window.scale_action.isVisible() and not window.scale_action.isEnabled()


def test_the_matrix_asks_for_a_weight_by_keyboard_too(qtbot, window):
    editor = open_new_lesson(qtbot, window)
    matrix = window.matrix_view
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    matrix.setFocus()
    qtbot.keyClick(matrix, Qt.Key.Key_Down)
    row = window.shown.selected
    query, key = window.shown.query_tokens[row], window.shown.tokens[2]
    wanted = f"Ask for the Weight {query} Gives {key}"
    seen: list[str] = []

    def act_on_menu():
        menu = QApplication.activePopupWidget()
        if menu is None:
            QTimer.singleShot(10, act_on_menu)
            return
        seen.extend(action.text() for action in menu.actions())
        target = next(action for action in menu.actions() if action.text() == wanted)
        menu.setActiveAction(target)
        qtbot.keyClick(menu, Qt.Key.Key_Return)

    QTimer.singleShot(0, act_on_menu)
    qtbot.keyClick(matrix, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)  # the context menu's key
    assert len(seen) == len(window.shown.tokens)
    assert editor.exercises.list_widget.count() == 1
    assert editor.exercises.prompt_edit.text() == f"How much weight does {query} give {key}?"
    assert window.announcer.log[-1] == f"Exercise added to the lesson: How much weight does {query} give {key}?"


def test_every_field_of_the_editor_has_a_name_for_a_screen_reader_and_a_label(qtbot, window):
    editor = open_new_lesson(qtbot, window)
    fields = [editor.title_edit, editor.text_edit, editor.exercises.prompt_edit, editor.exercises.kind_combo,
              editor.exercises.query_combo, editor.exercises.key_combo, editor.exercises.tolerance_spin,
              editor.exercises.hint_edit, editor.student_view_box, *editor.controls.hidden_boxes.values()]
    for field in fields:
        assert field.accessibleName(), field
    assert editor.title_label.buddy() is editor.title_edit and editor.text_label.buddy() is editor.text_edit
    hint = editor.minimumSizeHint()  # beside the window on a 1024 × 768 screen: narrow, and shorter than it
    assert editor.width() <= 480 and hint.width() <= 480 and max(hint.height(), editor.height()) <= 720
    scroll = editor.findChildren(QScrollArea)[0]
    assert scroll.widget().minimumSizeHint().width() <= scroll.viewport().width()  # nothing cut off at its right


def test_student_view_shows_the_lesson_and_switching_it_off_gives_the_editing_back(qtbot, window):
    editor = open_new_lesson(qtbot, window)
    type_into(qtbot, editor.title_edit, "Look closer")
    qtbot.keyClicks(editor.text_edit, "One *two* three.")
    matrix = window.matrix_view
    right_click_and_choose(qtbot, matrix, matrix.cell_rect(0, 0).center().toPoint(), ASK_FOR_THIS_WEIGHT)
    qtbot.mouseClick(editor.controls.hidden_boxes["scale-switch"], Qt.MouseButton.LeftButton)

    qtbot.mouseClick(editor.student_view_box, Qt.MouseButton.LeftButton)
    assert window.shown_errors == [] and editor.student_view_box.isChecked()
    assert window.lesson_files.lesson is not None
    assert "Look closer" in window.lesson_panel.explanation_label.text()
    assert len(window.lesson_panel.exercise_widgets) == 1
    assert not window.scale_action.isVisible()
    assert not editor.title_edit.isEnabled()  # while the student's view is on, the lesson stands still

    qtbot.mouseClick(editor.student_view_box, Qt.MouseButton.LeftButton)
    assert window.lesson_files.lesson is None and window.scale_action.isVisible()
    assert editor.title_edit.isEnabled() and editor.title_edit.text() == "Look closer"
    assert editor.text_edit.toPlainText() == "One *two* three."
    assert editor.exercises.list_widget.count() == 1
    assert editor.controls.hidden_boxes["scale-switch"].isChecked()


def test_edit_lesson_opens_a_file_and_saves_it_changed(qtbot, window, monkeypatch, tmp_path):
    lesson = replace(builtin_lesson_file("self-attention"), hidden_controls=("causal-switch",), exercises=(
        LessonExercise(id="w", prompt="How much?", kind=AnswerKind.NUMBER,
                       quantities=(Quantity("weight", query="it", key="cat"),), tolerance=0.01),))
    path = tmp_path / "pronouns.attn-lesson"
    write_lesson_file(lesson, path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(path), ""))
    choose_from_menu_bar(qtbot, window, ["File", "Edit Lesson…"])
    editor = window.lesson_authoring.editor
    assert editor is not None and editor.title_edit.text() == lesson.title
    assert editor.controls.hidden_boxes["causal-switch"].isChecked()
    type_into(qtbot, editor.title_edit, "Pronouns, again")
    saved_path = tmp_path / "again.attn-lesson"
    save_with_keys(qtbot, editor, monkeypatch, saved_path)
    reread = read_lesson_file(saved_path)
    assert reread == replace(lesson, title="Pronouns, again")


def test_a_broken_file_to_edit_is_one_message_and_the_editor_keeps_its_lesson(qtbot, window, monkeypatch, tmp_path):
    editor = open_new_lesson(qtbot, window)
    type_into(qtbot, editor.title_edit, "Mine")
    path = tmp_path / "broken.attn-lesson"
    path.write_text('{"format": "attn-lesson", "version": 1, "title": ', encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(path), ""))
    choose_from_menu_bar(qtbot, window, ["File", "Edit Lesson…"])
    assert len(window.shown_errors) == 1 and "broken.attn-lesson" in window.shown_errors[0][1]
    assert window.lesson_authoring.editor is editor and editor.title_edit.text() == "Mine"


def test_tab_goes_through_the_editor_in_reading_order(qtbot, window):
    editor = open_new_lesson(qtbot, window)
    matrix = window.matrix_view
    right_click_and_choose(qtbot, matrix, matrix.cell_rect(0, 1).center().toPoint(), ASK_FOR_THIS_WEIGHT)
    editor.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is editor)
    editor.title_edit.setFocus()
    reached = []
    for _ in range(60):
        reached.append(QApplication.focusWidget())
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        if QApplication.focusWidget() is editor.title_edit:
            break
    exercises, controls = editor.exercises, editor.controls
    in_order = [editor.title_edit, editor.text_edit, exercises.list_widget, exercises.prompt_edit,
                exercises.kind_combo, exercises.query_combo, exercises.key_combo, exercises.tolerance_spin,
                exercises.hint_edit, editor.challenges.list_widget, *controls.hidden_boxes.values(),
                *controls.locked_boxes.values(), editor.student_view_box]
    places = [reached.index(widget) for widget in in_order]
    assert places == sorted(places)
    said = [QAccessible.queryAccessibleInterface(widget).text(QAccessible.Text.Name) for widget in reached]
    assert all(said), said  # what a screen reader says on reaching each


def test_closing_the_editor_with_changes_asks_first(qtbot, window):
    editor = open_new_lesson(qtbot, window)
    editor.close()  # nothing changed: no question
    assert window.asked_questions == [] and not editor.isVisible()
    editor = open_new_lesson(qtbot, window)
    type_into(qtbot, editor.title_edit, "Half written")
    window.question_answers.append(QMessageBox.StandardButton.Cancel)
    editor.close()
    assert window.asked_questions == ["Lesson Editor"] and editor.isVisible()
    assert editor.title_edit.text() == "Half written"


def test_opening_another_lesson_turns_the_student_view_off(qtbot, window):
    editor = open_new_lesson(qtbot, window)
    qtbot.mouseClick(editor.student_view_box, Qt.MouseButton.LeftButton)
    assert window.lesson_files.lesson is not None
    window.open_lesson("soft-lookup")
    assert not editor.student_view_box.isChecked() and editor.title_edit.isEnabled()


def choose_by_keys(qtbot, combo, data) -> None:
    """Down or Up in a closed box, as a keyboard user chooses, until DATA is chosen."""
    wanted = combo.findData(data)
    assert wanted >= 0, data
    key = Qt.Key.Key_Down if wanted > combo.currentIndex() else Qt.Key.Key_Up
    while combo.currentIndex() != wanted:
        qtbot.keyClick(combo, key)


def test_a_stated_answer_a_challenge_and_a_lock_chosen_in_the_editor_reach_the_file(qtbot, window, monkeypatch,
                                                                                   tmp_path):
    editor = open_new_lesson(qtbot, window)
    type_into(qtbot, editor.title_edit, "Choices")
    exercises = editor.exercises
    qtbot.mouseClick(exercises.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, exercises.prompt_edit, "How many tokens?")
    choose_by_keys(qtbot, exercises.kind_combo, "stated")
    assert exercises.answer_edit.isVisible() and not exercises.key_combo.isVisible()
    type_into(qtbot, exercises.answer_edit, "6")
    qtbot.mouseClick(exercises.add_button, Qt.MouseButton.LeftButton)
    choose_by_keys(qtbot, exercises.kind_combo, "entropy")
    assert not exercises.key_combo.isVisible()
    choose_by_keys(qtbot, exercises.query_combo, window.shown.query_tokens[1])

    challenges = editor.challenges
    qtbot.mouseClick(challenges.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, challenges.title_edit, "Make the first word's row sharp")
    choose_by_keys(qtbot, challenges.quantity_fields.kind_combo, "entropy")
    choose_by_keys(qtbot, challenges.compare_combo, "<")
    type_into(qtbot, challenges.value_spin, "0.1")
    qtbot.mouseClick(editor.controls.locked_boxes["value"], Qt.MouseButton.LeftButton)

    path = tmp_path / "choices.attn-lesson"
    save_with_keys(qtbot, editor, monkeypatch, path)
    assert window.shown_errors == []
    saved = read_lesson_file(path)
    stated, entropy = saved.exercises
    assert (stated.prompt, stated.kind, stated.answer, stated.quantities) == ("How many tokens?", AnswerKind.NUMBER,
                                                                                (6.0,), ())
    assert entropy.quantities == (Quantity("entropy", query=window.shown.query_tokens[1]),)
    condition = saved.challenges[0].conditions[0]
    assert saved.challenges[0].title == "Make the first word's row sharp"
    assert (condition.quantity.name, condition.compare, condition.value) == ("entropy", "<", 0.1)
    assert saved.locked == ("value",)
    assert check_lesson(saved).passed


@pytest.mark.parametrize("code", ["es", "ar"])
def test_the_editor_speaks_the_language_chosen_and_names_every_field_in_it(qtbot, window, code):
    editor = open_new_lesson(qtbot, window)
    matrix = window.matrix_view
    right_click_and_choose(qtbot, matrix, matrix.cell_rect(0, 1).center().toPoint(), ASK_FOR_THIS_WEIGHT)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    choose_from_menu_bar(qtbot, window, ["View", "Language", LANGUAGE_NAMES[code]])
    language = translations_for(code)
    assert editor.save_action.text() == language.gettext("&Save Lesson As…")
    assert editor.title_label.text() == language.gettext("&Title:")
    assert editor.exercises.prompt_edit.accessibleName() == language.gettext("Exercise prompt")
    assert unnamed_widgets(editor) == []
    assert untranslated_texts(editor) == []


def test_pointing_at_another_sentence_than_the_lessons_is_one_message_and_adds_nothing(qtbot, window):
    editor = open_new_lesson(qtbot, window)
    assert window.open_lesson("self-attention")  # cat sat it, in place of the lesson's sentence
    matrix = window.matrix_view
    right_click_and_choose(qtbot, matrix, matrix.cell_rect(0, 1).center().toPoint(), ASK_FOR_THIS_WEIGHT)
    assert [title for title, _ in window.shown_errors] == ["Cannot ask for this weight"]
    assert editor.exercises.list_widget.count() == 0


def test_quitting_the_window_with_a_lesson_not_saved_asks_first(qtbot, window, monkeypatch, tmp_path):
    editor = open_new_lesson(qtbot, window)
    type_into(qtbot, editor.title_edit, "Unsaved: a/b")
    window.question_answers.append(QMessageBox.StandardButton.Cancel)
    assert not window.close()
    assert window.asked_questions == ["Lesson Editor"] and window.isVisible() and editor.isVisible()
    window.question_answers.append(QMessageBox.StandardButton.Save)
    suggested = []

    def chosen(parent, caption, folder, file_filter, *args, **kwargs):
        suggested.append(folder)
        return str(tmp_path / "kept.attn-lesson"), file_filter

    monkeypatch.setattr(QFileDialog, "getSaveFileName", chosen)
    editor.close()
    assert suggested[0].endswith("Unsaved  a b.attn-lesson")  # a title's slash makes no folder
    assert read_lesson_file(tmp_path / "kept.attn-lesson").title == "Unsaved: a/b" and not editor.isVisible()


def test_on_a_1024_by_768_screen_the_editor_leaves_the_matrix_and_scores_in_sight(qtbot, window, monkeypatch):
    """No room beside a window that fills a projector's screen: the editor goes over its leading edge (the Lesson
    panel and the first plot), never over the matrix a teacher points at, or the score table."""
    from PySide6.QtCore import QPoint, QRect

    from attn_desktop.model.teaching.dock_id import DockId

    from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged

    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    window.move(0, 0)
    wait_until_arranged(qtbot, window)
    editor = open_new_lesson(qtbot, window)
    covered = editor.frameGeometry()
    for dock in (window.docks[DockId.MATRIX], window.docks[DockId.SCORE]):
        seen = QRect(dock.mapToGlobal(QPoint(0, 0)), dock.size())
        assert not covered.intersects(seen), (dock.objectName(), covered, seen)
    assert QRect(0, 0, 1024, 768).contains(covered), covered


def test_student_view_moves_the_editor_off_the_lesson_panel_and_back(qtbot, window, monkeypatch):
    """At 1024 × 768 the editor stands over the Lesson panel; in the student's view it shrinks to its switch in
    the window's corner, so the lesson's text and exercises show as the student gets them; off, it is back."""
    from PySide6.QtCore import QPoint, QRect

    from attn_desktop.model.teaching.dock_id import DockId

    from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged

    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    window.move(0, 0)
    wait_until_arranged(qtbot, window)
    editor = open_new_lesson(qtbot, window)
    editing = editor.geometry()
    qtbot.mouseClick(editor.student_view_box, Qt.MouseButton.LeftButton)
    lesson_dock = window.docks[DockId.LESSON]
    qtbot.waitUntil(lambda: not editor.frameGeometry().intersects(
        QRect(lesson_dock.mapToGlobal(QPoint(0, 0)), lesson_dock.size())))
    assert editor.student_view_box.isVisible() and not editor.title_edit.isVisible()
    assert editor.height() < 100
    qtbot.mouseClick(editor.student_view_box, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: editor.geometry() == editing)
    assert editor.title_edit.isVisible()
