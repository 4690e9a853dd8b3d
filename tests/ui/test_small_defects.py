"""Smaller defects a new user met in a trial: each checked the way that user would see it."""

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMessageBox

from attn_desktop.model import Role
from attn_desktop.model.scene_files import save_scene
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.tools.synthetic_mouse import double_click

from tests.support.in_the_window import table_column, tip_on_screen

CTRL = Qt.KeyboardModifier.ControlModifier


def activate(qtbot, window):
    """The window's shortcuts work in the active window: on a real X server, it must be made so."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


def open_lesson(qtbot, window, number):
    activate(qtbot, window)
    qtbot.keyClick(window, Qt.Key(Qt.Key.Key_0 + number), CTRL)
    qtbot.wait(20)


def exercise(window, exercise_id):
    return next(w for w in window.lesson_panel.exercise_widgets if w.exercise.id == exercise_id)


def title_says_changed(window) -> bool:
    return window.windowTitle().startswith("*")


# ----- Show me is an edit that Ctrl+Z takes back ----------------------------------------------

def test_show_me_is_one_undoable_step_that_marks_the_scene_changed(qtbot, window):
    open_lesson(qtbot, window, 1)
    assert not title_says_changed(window)
    query_before = window.reading().vectors(Role.QUERY)[0].tolist()
    qtbot.mouseClick(exercise(window, "lookup-ask-up").show_me_button, Qt.MouseButton.LeftButton)
    assert window.reading().vectors(Role.QUERY)[0].tolist() == [0.0, 2.0]
    assert title_says_changed(window)
    assert window.undo_action.text() == "&Undo Show me"
    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL)
    assert window.reading().vectors(Role.QUERY)[0].tolist() == query_before
    assert window.output_panel.vector_label.text() == "(3.49)"
    assert not title_says_changed(window)
    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert window.output_panel.vector_label.text() == "(4.51)"


def test_show_me_keeps_earlier_edits_and_asks_nothing(qtbot, window):
    open_lesson(qtbot, window, 3)
    scaled = window.scene.scale
    window.scale_action.trigger()  # an edit of the student's own before asking to be shown
    assert table_column(window, 0) == ["cat", "sat", "it"]
    qtbot.mouseClick(exercise(window, "matrix-size").show_me_button, Qt.MouseButton.LeftButton)
    assert window.asked_questions == []  # nothing is lost, so nothing to ask
    assert table_column(window, 0) == ["The", "cat", "sat", "on", "the", "mat"]
    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL)
    assert table_column(window, 0) == ["cat", "sat", "it"] and window.scene.scale != scaled
    assert window.undo_action.text() == ("&Undo Scaling off" if scaled else "&Undo Scaling on")


def test_show_me_that_changes_nothing_is_no_step(qtbot, window):
    open_lesson(qtbot, window, 3)
    qtbot.mouseClick(exercise(window, "row-for-sat").show_me_button, Qt.MouseButton.LeftButton)  # it only chooses sat
    assert window.output_panel.query_label.text() == "sat"
    assert not title_says_changed(window) and not window.undo_action.isEnabled()


# ----- Ctrl+Z while typing undoes the typing --------------------------------------------------

def make_a_step_to_undo_and_one_to_redo(qtbot, window):
    """Scaling flipped twice, then Ctrl+Z: Undo and Redo both have a scene step to take."""
    activate(qtbot, window)
    window.scale_action.trigger()
    window.scale_action.trigger()
    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL)
    assert window.undo_action.isEnabled() and window.redo_action.isEnabled()


def assert_keys_work_on_the_text(qtbot, window, box, typed):
    scale, undo, redo = window.scene.scale, window.undo_action.text(), window.redo_action.text()
    box.setFocus()
    qtbot.keyClicks(box, typed)
    qtbot.keyClick(box, Qt.Key.Key_Z, CTRL)
    assert not box.text().endswith(typed)  # the typing is undone
    assert (window.scene.scale, window.undo_action.text()) == (scale, undo)  # and not the scene
    qtbot.keyClick(box, Qt.Key.Key_Y, CTRL)  # the window's Redo key, which a line edit on X11 does not know
    assert box.text().endswith(typed)  # the typing is back
    assert (window.scene.scale, window.redo_action.text()) == (scale, redo)
    qtbot.keyClick(box, Qt.Key.Key_Z, CTRL | Qt.KeyboardModifier.ShiftModifier)  # nothing left to redo in the box
    assert (window.scene.scale, window.redo_action.text()) == (scale, redo)


def test_ctrl_z_in_the_sentence_name_field(qtbot, window):
    make_a_step_to_undo_and_one_to_redo(qtbot, window)
    window.docks[DockId.SENTENCE].raise_()
    assert_keys_work_on_the_text(qtbot, window, window.sentence_panel.new_name, "dog")


def test_ctrl_z_in_an_exercise_answer(qtbot, window):
    open_lesson(qtbot, window, 3)
    make_a_step_to_undo_and_one_to_redo(qtbot, window)
    assert_keys_work_on_the_text(qtbot, window, exercise(window, "row-for-sat").answer_edit, "0.5, 0.2")


def test_ctrl_z_in_a_grid_cell_being_typed(qtbot, window):
    open_lesson(qtbot, window, 2)
    make_a_step_to_undo_and_one_to_redo(qtbot, window)
    table = window.grid_editor.tables["w_q"]
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(table.item(0, 0)).center())
    qtbot.keyClick(table, Qt.Key.Key_7)  # typing on a cell opens its editor
    editor = table.findChild(QLineEdit)
    assert editor is not None and editor.hasFocus()
    assert_keys_work_on_the_text(qtbot, window, editor, "5")
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert window.reading().grids["w_q"][0, 0] == 0.0  # nothing typed reached the grid


def test_the_keys_outside_a_text_box_still_undo_and_redo_the_scene(qtbot, window):
    make_a_step_to_undo_and_one_to_redo(qtbot, window)
    scale = window.scene.scale
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Y, CTRL)
    assert window.scene.scale != scale
    qtbot.keyClick(window.canvas, Qt.Key.Key_Z, CTRL)
    assert window.scene.scale == scale


# ----- the coordinate dialog keeps what was typed ---------------------------------------------

def answer_dialogs(monkeypatch, answers):
    """Each call of the dialog records (label, text offered) and gives the next answer."""
    asked = []

    def get_text(parent, title, label, *args, **kwargs):
        asked.append((label, kwargs.get("text")))
        return answers.pop(0)

    monkeypatch.setattr(QInputDialog, "getText", get_text)
    return asked


def test_a_refused_coordinate_comes_back_in_the_box_with_the_reason(qtbot, window, monkeypatch):
    asked = answer_dialogs(monkeypatch, [("1.5, abc", True), ("1.5, 0.25", True)])
    double_click(window.canvas.viewport(), tip_on_screen(window, Role.KEY, 4))
    assert [text for _, text in asked] == ["-1.4, -0.2", "1.5, abc"]
    assert asked[1][0].startswith('k·the needs 2 numbers; "1.5, abc" has 1.')
    assert window.reading().vectors(Role.KEY)[4].tolist() == [1.5, 0.25]
    assert window.shown_errors == []  # the reason was in the dialog; no second box to click away


def test_cancel_after_a_refusal_changes_nothing(qtbot, window, monkeypatch):
    asked = answer_dialogs(monkeypatch, [("1e400, 0", True), ("1e400, 0", False)])
    double_click(window.canvas.viewport(), tip_on_screen(window, Role.KEY, 4))
    assert asked[1][1] == "1e400, 0" and "finite numbers" in asked[1][0]
    assert window.reading().vectors(Role.KEY)[4].tolist() == [-1.4, -0.2]
    assert not window.undo_action.isEnabled()


# ----- a W_Q cell says why it refused what was typed ------------------------------------------

def type_into_cell(qtbot, table, text):
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(table.item(0, 0)).center())
    qtbot.keyClicks(table, text[0])  # the first key opens the cell's editor
    editor = next(child for child in table.findChildren(QLineEdit) if child.isVisible())  # not an earlier one
    qtbot.keyClicks(editor, text[1:])
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.wait(10)  # Qt commits a cell edit on the next pass of the loop


@pytest.mark.parametrize("typed, reason", [
    ("abc", "\u201cabc\u201d is not a number, so W_Q keeps 0. Type a number such as 1.5 or -0.25."),
    ("1e99", "1e99 was refused (grid numbers must be finite and within \u00b11e+09), so W_Q keeps 0."),
])
def test_garbage_in_a_grid_cell_is_refused_with_the_reason(qtbot, window, typed, reason):
    open_lesson(qtbot, window, 2)
    table = window.grid_editor.tables["w_q"]
    type_into_cell(qtbot, table, typed)
    message = window.grid_editor.message_label
    assert message.text() == reason and message.isVisible()
    cell = table.visualItemRect(table.item(0, 0))  # read over the panel, clear of the number typed into
    assert not message.geometry().intersects(QRect(table.viewport().mapTo(window.grid_editor, cell.topLeft()), cell.size()))
    assert table.item(0, 0).text() == "0" and window.reading().grids["w_q"][0, 0] == 0.0
    assert not window.undo_action.isEnabled()
    type_into_cell(qtbot, table, "1")  # a good number afterwards is taken, and the reason goes
    assert window.reading().grids["w_q"][0, 0] == 1.0 and message.text().startswith("W_Q changed")


# ----- an unreadable scene on the command line ------------------------------------------------

def test_an_unreadable_scene_from_the_command_line_shows_a_dialog(qapp, tmp_path, monkeypatch, capsys):
    from attn_desktop.cli import open_app
    from attn_desktop.ui.window.startup import app

    bad = tmp_path / "bad.json"
    bad.write_text('{"tokens": []}', encoding="utf-8")
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text, *a, **k: shown.append((title, text)))
    monkeypatch.setattr(app, "make_application", lambda *a: qapp)  # the test's own application
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")  # as from a desktop entry on an X display
    monkeypatch.setenv("DISPLAY", ":0")
    from attn_desktop import platform_check

    monkeypatch.setattr(platform_check, "display_problem", lambda: None)  # and that display answers
    assert open_app.gui_main([str(bad)]) == 2
    assert len(shown) == 1 and shown[0][0] == "Cannot open scene"
    assert "bad.json" in shown[0][1] and "tokens: the list is empty" in shown[0][1]
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("attn-desktop: error: ") and "bad.json" in lines[0]


def test_with_no_screen_the_error_is_only_printed(qapp, tmp_path, monkeypatch, capsys):
    from attn_desktop.cli import open_app

    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: shown.append(a))
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert open_app.gui_main([str(bad)]) == 2 and shown == []
    assert "not valid JSON" in capsys.readouterr().err


# ----- wording -------------------------------------------------------------------------------

def test_a_completed_challenge_says_what_is_true_right_now_in_plain_words(qtbot, window):
    window.progress.mark_done("challenges", "scaled-focus")
    activate(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_BracketRight, CTRL)
    qtbot.keyClick(window, Qt.Key.Key_BracketLeft, CTRL)
    status = window.challenges_panel.rows[0].status_label.text()
    assert status == "Completed earlier. Right now: q·sat puts 75.9% on k·cat; it needs 95% or more on one key."


def test_an_exact_answer_says_it_must_be_exact(qtbot, window):
    open_lesson(qtbot, window, 3)
    widget = exercise(window, "matrix-size")
    texts = [label.text() for label in widget.findChildren(type(widget.prompt_label))]
    assert "<small>Only the exact numbers count as right.</small>" in texts
    assert not any("\u00b10" in text for text in texts)


def test_a_tie_for_the_most_weight_says_it_is_a_tie(qtbot, window):
    window.scene.set_vector(Role.KEY, 4, window.reading().vectors(Role.KEY)[1])  # k·the onto k·cat
    assert window.output_panel.attends_label.text() == "cat and the, 43% each (a tie)"
    window.scene.set_vector(Role.QUERY, window.reading().selected, [0, 0])  # a query that matches nothing
    assert window.output_panel.attends_label.text() == "all 6 keys, 17% each (a tie)"


def test_your_own_scene_has_no_empty_try_it_heading(qtbot, window, tmp_path):
    save_scene(window.scene, tmp_path / "mine.json", window.view_state)
    assert window.lesson_panel.try_it_label.isVisible()  # the scaled-attention lesson has steps to try
    assert window.documents.open_scene(tmp_path / "mine.json")
    window.docks[DockId.LESSON].raise_()
    qtbot.wait(10)
    assert window.lesson_panel.steps_label.text() == "" and not window.lesson_panel.try_it_label.isVisible()
    open_lesson(qtbot, window, 1)
    assert window.lesson_panel.try_it_label.isVisible()


def test_huge_scores_print_as_powers_of_ten(qtbot, window):
    window.scene.set_vector(Role.KEY, 1, [3e4, 3e4])
    window.scene.set_vector(Role.QUERY, window.reading().selected, [3e4, 3e4])
    assert table_column(window, 1)[1] == "1.8e9"  # q·sat · k·cat = 2 × 3e4 × 3e4
    assert table_column(window, 2)[1] == "1.3e9"  # ÷ √2
    assert window.output_panel.vector_label.text() == "(1.80, 0.80)"  # v·cat, the numbers as before


# ----- back where it was saved ----------------------------------------------------------------

def test_scaling_off_then_on_again_leaves_the_scene_unmodified(qtbot, window):
    activate(qtbot, window)
    window.scale_action.trigger()
    assert title_says_changed(window)
    window.scale_action.trigger()
    assert not title_says_changed(window) and window.history.stack.isClean()
    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL)  # back to scaling off: changed again
    assert title_says_changed(window) and not window.scene.scale
    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL)  # and back to the saved scene
    assert not title_says_changed(window) and window.scene.scale


def test_a_save_moves_what_counts_as_unmodified(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "saved.json"), ""))
    window.scale_action.trigger()
    assert window.documents.choose_and_save() and not title_says_changed(window)
    window.scale_action.trigger()
    assert title_says_changed(window)  # on again: no longer what was saved
    window.scale_action.trigger()
    assert not title_says_changed(window)
