"""Undo/redo, the unsaved mark, the question before work is dropped, and autosave after a crash."""

import json

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMessageBox

from attn_desktop.model import Role
from attn_desktop.model.scene_files import read_scene_data, save_scene
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.window.main_window import MainWindow
from attn_desktop.ui.window.startup.app import default_scene

from tests.support.crash import pretend_the_process_died
from tests.support.in_the_window import drag_arrow, table_column

SEED_WEIGHTS = ["0%", "76%", "6%", "1%", "0%", "17%"]
Buttons = QMessageBox.StandardButton


def undo(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)


def redo(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)


def test_a_whole_drag_is_one_undo_step_named_in_the_edit_menu(qtbot, window):
    drag_arrow(window, Role.KEY, 1, QPointF(-60, -40), steps=10)
    moved = window.reading().vectors(Role.KEY)[1].tolist()
    assert window.history.stack.count() == 1
    assert window.undo_action.text() == "&Undo Move k·cat"
    assert window.windowTitle().startswith("*")
    undo(qtbot, window)
    assert window.reading().vectors(Role.KEY)[1].tolist() == [2.2, 1.0]
    assert table_column(window, 3) == SEED_WEIGHTS
    assert not window.windowTitle().startswith("*")
    redo(qtbot, window)
    assert window.reading().vectors(Role.KEY)[1].tolist() == moved


def test_settings_switches_and_typed_coordinates_are_steps_too(qtbot, window, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    window.scale_action.trigger()
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("0.5, 0.5", True))
    window.coordinates.type_coordinates(Role.VALUE, 0)
    assert [window.history.stack.text(i) for i in range(window.history.stack.count())] == ["Scaling off", "Move v·The"]
    undo(qtbot, window)
    undo(qtbot, window)
    assert window.scene.scale and window.reading().vectors(Role.VALUE)[0].tolist() == [0.2, -1.0]
    assert window.toolbar_boxes[window.scale_action].isChecked()


def test_a_cancelled_drag_leaves_no_step(qtbot, window):
    from attn_desktop.ui.tools.synthetic_mouse import move_holding, press, release

    from tests.support.in_the_window import tip_on_screen

    viewport = window.canvas.viewport()
    start = tip_on_screen(window, Role.KEY, 1)
    press(viewport, start)
    move_holding(viewport, start + QPointF(-40, 0))
    move_holding(viewport, start + QPointF(-80, 0))
    qtbot.keyClick(window.canvas, Qt.Key.Key_Escape)
    release(viewport, start + QPointF(-80, 0))
    assert window.history.stack.count() == 0 and not window.windowTitle().startswith("*")


def test_closing_with_unsaved_work_asks_and_cancel_keeps_the_window(qtbot, window):
    window.causal_action.trigger()  # Attention > Causal mask
    window.question_answers.append(Buttons.Cancel)
    assert not window.close()
    assert window.asked_questions == ["Unsaved changes"] and window.isVisible()


def test_save_from_the_question_writes_the_file(qtbot, window, tmp_path, monkeypatch):
    target = tmp_path / "lesson plan.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.causal_action.trigger()  # Attention > Causal mask
    window.question_answers.append(Buttons.Save)
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)  # open lesson 1: asks first
    assert json.loads(target.read_text(encoding="utf-8"))["causal"] is True
    assert window.lesson_panel.picker.currentText() == "1. Soft lookup"


def test_ctrl_s_saves_to_the_open_file_and_clears_the_mark(qtbot, window, tmp_path):
    path = tmp_path / "mine.json"
    save_scene(read_scene_data(scene_path(DEFAULT_SCENE)), path)
    assert window.documents.open_scene(path)
    window.scale_action.trigger()  # scaling off
    assert window.windowTitle() == "*mine.json — Attention Desktop"
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert json.loads(path.read_text(encoding="utf-8"))["scale"] is False
    assert window.windowTitle() == "mine.json — Attention Desktop"


def test_unsaved_work_is_autosaved_and_offered_back_after_a_crash(qtbot, window, private_data_dir):
    window.scene.set_vector(Role.KEY, 1, [0.5, 0.5])
    window.autosaver.write_now()  # what the debounce timer does a moment after the edit
    assert json.loads(window.autosaver.path.read_text(encoding="utf-8"))["scene"]["keys"][1] == [0.5, 0.5]
    pretend_the_process_died(window)  # no close, no save. The next start finds the copy:
    again = MainWindow(default_scene())
    qtbot.addWidget(again)
    window.question_answers.append(Buttons.Yes)
    again.documents.offer_to_restore()
    assert again.reading().vectors(Role.KEY)[1].tolist() == [0.5, 0.5]
    assert again.windowTitle().startswith("*")  # restored work is still unsaved
    again.history.reset()


def test_saving_removes_the_autosave(qtbot, window, tmp_path, monkeypatch):
    window.causal_action.trigger()  # Attention > Causal mask
    window.autosaver.write_now()
    assert window.autosaver.path.exists()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "s.json"), ""))
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert not window.autosaver.path.exists()


def test_every_shortcut_belongs_to_one_action_once(window):
    """A key that two actions (or one action twice) claim is "ambiguous": Qt fires neither."""
    owners: dict[str, list[str]] = {}
    for action in window.findChildren(QAction):
        for key in action.shortcuts():
            owners.setdefault(key.toString(), []).append(action.text())
    shared = {key: names for key, names in owners.items() if len(names) > 1}
    assert not shared
    for key in ("Ctrl+Shift+Z", "Ctrl+Y"):  # whatever the platform offers
        assert owners.get(key) == [window.redo_action.text()], key


@pytest.mark.parametrize("modifiers, key", [
    (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier, Qt.Key.Key_Z),
    (Qt.KeyboardModifier.ControlModifier, Qt.Key.Key_Y),
])
def test_redo_answers_both_usual_keys(qtbot, window, modifiers, key):
    drag_arrow(window, Role.KEY, 1, QPointF(-60, -40), steps=10)
    moved = window.reading().vectors(Role.KEY)[1].tolist()
    undo(qtbot, window)
    qtbot.keyClick(window, key, modifiers)
    assert window.reading().vectors(Role.KEY)[1].tolist() == moved
    assert table_column(window, 3) != SEED_WEIGHTS


@pytest.mark.parametrize("platform_keys", [
    ["Ctrl+Shift+Z", "Redo"],  # X11 (what Xvfb and most Linux desktops give)
    ["Ctrl+Y", "Alt+Shift+Backspace", "Ctrl+Shift+Z", "Redo"],  # Windows
    ["Ctrl+Y"],
])
def test_redo_keys_are_listed_once_on_every_platform(monkeypatch, platform_keys):
    from PySide6.QtGui import QKeySequence

    from attn_desktop.ui.window.actions import table as actions

    monkeypatch.setattr(actions.QKeySequence, "keyBindings",
                        staticmethod(lambda standard: [QKeySequence(key) for key in platform_keys]))
    keys = [key.toString() for key in actions.redo_shortcuts()]
    assert len(keys) == len(set(keys)) and {"Ctrl+Shift+Z", "Ctrl+Y"} <= set(keys)
