"""The canvas by keyboard alone (issue 43, item 1): Tab walks the arrows one by one (queries, then keys, then
values) and goes on to the next control after the last; the arrow keys move the chosen arrow a step, Shift a
fine step, Ctrl a big one; Enter types exact numbers and Escape leaves them untyped; a scene of more than 12
tokens is one Tab stop whose arrows Page Down / Page Up step through."""

import numpy as np
import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QPushButton, QVBoxLayout, QWidget

from attn_desktop.model import Role
from attn_desktop.model.scene_files import open_reading
from attn_desktop.paths import scene_path
from attn_desktop.ui.canvas.canvas import AttentionCanvas
from attn_desktop.ui.canvas.drag_controller import TAB_STOP_TOKENS
from attn_desktop.ui.window.startup.app import configure_pyqtgraph


def focused_arrow(window):
    return window.canvas.drags.focused_arrow


def tab_into_the_canvas(qtbot, window):
    """Tab pressed on the control just before the canvas, as a student walking the window would."""
    window.canvas.setFocus()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier)  # (from the canvas) back one
    before = QApplication.focusWidget()
    assert before is not window.canvas
    qtbot.keyClick(before, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is window.canvas


def test_tab_walks_every_arrow_in_reading_order_then_leaves_the_canvas(qtbot, window):
    tab_into_the_canvas(qtbot, window)
    reading = window.reading()
    walked = [focused_arrow(window)]
    for _ in range(3 * reading.n_tokens - 1):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        walked.append(focused_arrow(window))
    assert walked == [(role, i) for role in (Role.QUERY, Role.KEY, Role.VALUE) for i in range(reading.n_tokens)]
    assert QApplication.focusWidget() is window.canvas
    qtbot.keyClick(window.canvas, Qt.Key.Key_Tab)  # past v·mat: the next control, not q·The again
    assert QApplication.focusWidget() is not window.canvas
    assert focused_arrow(window) is None  # no ring left behind on an arrow the keys no longer move
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier)
    assert QApplication.focusWidget() is window.canvas
    assert focused_arrow(window) == (Role.VALUE, reading.n_tokens - 1)  # back in: the last arrow


def test_arrow_keys_step_shift_steps_finely_and_ctrl_steps_far(qtbot, window):
    tab_into_the_canvas(qtbot, window)
    qtbot.keyClick(window.canvas, Qt.Key.Key_Tab)
    assert focused_arrow(window) == (Role.QUERY, 1)
    start = window.reading().vectors(Role.QUERY)[1].copy()  # q·cat (0.3, 2.0)
    qtbot.keyClick(window.canvas, Qt.Key.Key_Right)
    np.testing.assert_allclose(window.reading().vectors(Role.QUERY)[1], start + [0.1, 0])
    qtbot.keyClick(window.canvas, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    np.testing.assert_allclose(window.reading().vectors(Role.QUERY)[1], start + [0.11, 0])
    qtbot.keyClick(window.canvas, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    np.testing.assert_allclose(window.reading().vectors(Role.QUERY)[1], start + [0.11, -0.5])
    assert window.reading().vectors(Role.QUERY)[1].tolist() == [0.41, 1.5]  # as typed: no 0.41000000000000003


def test_a_fine_step_is_not_taken_back_by_snapping(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)  # View → Snap to Grid
    assert window.canvas.snap_step == 0.1
    tab_into_the_canvas(qtbot, window)
    before = window.reading().vectors(Role.QUERY)[0].tolist()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Up, Qt.KeyboardModifier.ShiftModifier)
    assert window.reading().vectors(Role.QUERY)[0].tolist() == [before[0], round(before[1] + 0.01, 10)]


def answer_the_dialog(qtbot, keys: list) -> list:
    """Once the modal dialog is up, type into its field with the keys: text, then a key such as Return or Escape.
    What the dialog asked is collected."""
    asked = []

    def type_in() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            QTimer.singleShot(20, type_in)
            return
        field = dialog.findChild(QLineEdit)
        asked.append(dialog.focusWidget() is field)
        for key in keys:
            if isinstance(key, str):
                field.selectAll()
                QTest.keyClicks(field, key)
            else:
                QTest.keyClick(field, key)

    QTimer.singleShot(0, type_in)
    return asked


def keys_back_on_the_canvas(qtbot, window):
    """The dialog closed and the window active again (a window manager's job; the offscreen platform leaves no
    window active): the keys are on the canvas, where they were."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.canvas, timeout=1000)


def test_enter_types_exact_numbers_and_escape_leaves_them_untyped(qtbot, window):
    tab_into_the_canvas(qtbot, window)
    for _ in range(7):
        qtbot.keyClick(window.canvas, Qt.Key.Key_Tab)
    assert focused_arrow(window) == (Role.KEY, 1)  # k·cat
    asked = answer_the_dialog(qtbot, ["1.5, -0.2", Qt.Key.Key_Return])
    qtbot.keyClick(window.canvas, Qt.Key.Key_Return)
    assert asked == [True]  # the numbers' field had the keys at once
    assert window.reading().vectors(Role.KEY)[1].tolist() == [1.5, -0.2]
    keys_back_on_the_canvas(qtbot, window)
    assert focused_arrow(window) == (Role.KEY, 1)

    asked = answer_the_dialog(qtbot, ["9, 9", Qt.Key.Key_Escape])
    qtbot.keyClick(window.canvas, Qt.Key.Key_Enter)  # the keypad's Enter too
    assert asked == [True]
    assert window.reading().vectors(Role.KEY)[1].tolist() == [1.5, -0.2]  # cancelled: nothing typed
    keys_back_on_the_canvas(qtbot, window)


@pytest.fixture
def large_scene_canvas(qtbot):
    """Lesson 9's 20 letters on a canvas between two buttons."""
    configure_pyqtgraph()
    reading = open_reading(scene_path("lessons/9_induction.json"))
    assert reading.n_tokens > TAB_STOP_TOKENS
    holder = QWidget()
    before, after = QPushButton("before"), QPushButton("after")
    canvas = AttentionCanvas(reading)
    layout = QVBoxLayout(holder)
    for widget in (before, canvas, after):
        layout.addWidget(widget)
    qtbot.addWidget(holder)
    holder.resize(700, 600)
    holder.show()
    qtbot.waitExposed(holder)
    holder.activateWindow()
    before.setFocus()
    yield before, canvas, after
    holder.close()


def test_a_large_scene_is_one_tab_stop_whose_arrows_page_down_steps_through(qtbot, large_scene_canvas):
    before, canvas, after = large_scene_canvas
    qtbot.keyClick(before, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is canvas
    assert canvas.drags.focused_arrow == (Role.EMBEDDING, 0)  # the first arrow is chosen on the way in
    qtbot.keyClick(canvas, Qt.Key.Key_PageDown)
    qtbot.keyClick(canvas, Qt.Key.Key_PageDown)
    assert canvas.drags.focused_arrow == (Role.EMBEDDING, 2)
    qtbot.keyClick(canvas, Qt.Key.Key_PageUp)
    assert canvas.drags.focused_arrow == (Role.EMBEDDING, 1)
    start = canvas.reading.vectors(Role.EMBEDDING)[1].copy()
    qtbot.keyClick(canvas, Qt.Key.Key_Left)
    assert canvas.reading.vectors(Role.EMBEDDING)[1][canvas.dims[0]] == pytest.approx(start[canvas.dims[0]] - 0.1)
    qtbot.keyClick(canvas, Qt.Key.Key_Tab)  # one stop: Tab goes on at once
    assert QApplication.focusWidget() is after
