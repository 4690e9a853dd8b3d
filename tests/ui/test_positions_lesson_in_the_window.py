"""Lesson 10 in the window, as a class works through it: Alt+0 opens it with the Positions lab beside its text,
the Code panel shows the rotation, its exercises are checked, and (with the SmolLM2 pack) the Real head page
opens the previous-token head and its RoPE box takes the rotation away and back."""

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt

from attn_desktop.model.pretrained import pack
from attn_desktop.model.pretrained.head_kinds import CLEAR_PREVIOUS_TOKEN_HEAD
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.window.actions.menu_id import MenuId

from tests.support.in_the_window import matrix_cells


def open_lesson_10(qtbot, window):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: window.lessons.current == "positions")
    qtbot.waitUntil(lambda: window.positions_lab.isVisible())
    return window.positions_lab


def click(qtbot, widget):
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=widget.rect().center())


def click_check_box(qtbot, box):
    """On its box: a check box as wide as its column takes clicks on its box and its words only."""
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))


def previous_token_cells(window) -> list[float]:
    """Each token's weight on the token before it, as the Attention matrix panel shows it."""
    cells = matrix_cells(window)
    return [float(cells[row][row - 1]) for row in range(1, len(cells))]


def test_alt_0_opens_the_lesson_on_chased_with_the_positions_lab_beside_its_text(qtbot, window):
    lab = open_lesson_10(qtbot, window)
    assert window.lesson_panel.picker.currentText() == "10. Where is each word?"
    assert window.query_picker.currentText() == "chased"
    assert matrix_cells(window)[2] == ["0.12", "0.34", "0.09", "0.12", "0.34"]  # dog and cat alike
    assert window.docks[DockId.LESSON].isVisible() and lab.isVisible()
    lessons_menu = window.menus[MenuId.LESSONS]
    entry = next(action for action in lessons_menu.actions() if action.text() == "10. Where is each word?")
    assert entry.shortcut().toString() == "Alt+0"


def test_the_code_panel_adds_the_shuffle_and_the_rotation(qtbot, window):
    open_lesson_10(qtbot, window)
    window.docks[DockId.CODE].show()
    window.docks[DockId.CODE].raise_()
    qtbot.waitUntil(lambda: "def rotate(vectors, positions):" in window.code_panel.editor.toPlainText())
    code = window.code_panel.editor.toPlainText()
    assert "shuffled = softmax(Q[order] @ K[order].T" in code and "at_7_3 = " in code


def test_the_shuffle_question_is_checked_with_real_clicks(qtbot, window):
    open_lesson_10(qtbot, window)
    widgets = {widget.exercise.id: widget for widget in window.lesson_panel.exercise_widgets}
    shuffle = widgets["positions-shuffle"]
    qtbot.waitUntil(shuffle.isVisible)  # shown by the panel's layout once the event loop runs
    click(qtbot, shuffle.choice_buttons[1])
    click(qtbot, shuffle.check_button)
    assert shuffle.result_label.text().startswith("✗")
    click(qtbot, shuffle.choice_buttons[0])
    click(qtbot, shuffle.check_button)
    assert shuffle.result_label.text().startswith("✓") and "(0.88, 0.09)" in shuffle.result_label.text()


def test_without_the_model_pack_the_real_head_button_says_so_and_the_lesson_stays(qtbot, window, monkeypatch):
    def missing():
        raise pack.ModelUnavailable("The model pack is not installed.")

    monkeypatch.setattr(pack, "find_pack_model", missing)
    lab = open_lesson_10(qtbot, window)
    lab.show_page("Real head")
    page = lab.real_head_page
    assert not page.rope_box.isEnabled()  # the lesson's own scene is not a model's head
    click(qtbot, page.open_button)
    assert "Cannot open layer 16, head 0" in window.statusBar().currentMessage()
    assert window.scene.taken_from is None and window.scene.tokens[2] == "chased" and window.shown_errors == []


@pytest.mark.slow
def test_the_real_head_page_opens_the_previous_token_head_and_its_box_takes_rope_away(qtbot, window,
                                                                                     smollm2_installed):
    lab = open_lesson_10(qtbot, window)
    lab.show_page("Real head")
    page = lab.real_head_page
    click(qtbot, page.open_button)
    qtbot.waitUntil(lambda: window.scene.taken_from is not None, timeout=60_000)  # loaded on the model's thread
    taken = window.scene.taken_from
    assert (taken.layer, taken.head) == CLEAR_PREVIOUS_TOKEN_HEAD and taken.rope
    qtbot.waitUntil(lambda: page.rope_box.isEnabled() and page.rope_box.isChecked())
    on = previous_token_cells(window)
    assert np.mean(on) > 0.79
    assert lab.isVisible()  # the lab stays beside the head: its box is where the class looks
    click_check_box(qtbot, page.rope_box)
    qtbot.waitUntil(lambda: not window.scene.taken_from.rope, timeout=10_000)
    assert np.mean(previous_token_cells(window)) < 0.17 and not page.rope_box.isChecked()
    click_check_box(qtbot, page.rope_box)
    qtbot.waitUntil(lambda: window.scene.taken_from.rope, timeout=10_000)
    assert np.mean(previous_token_cells(window)) > 0.79 and window.shown_errors == []
