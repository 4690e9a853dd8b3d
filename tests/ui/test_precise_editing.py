"""Precise editing: Tab chooses an arrow, arrow keys nudge it, snapping, right-click cancels a drag."""

import numpy as np
from PySide6.QtCore import QEvent, QPointF, Qt

from attn_desktop.model import Role
from attn_desktop.ui.tools.synthetic_mouse import move_holding, press, release, send_mouse

from tests.support.in_the_window import drag_arrow, tip_on_screen


def test_tab_chooses_an_arrow_and_the_arrow_keys_nudge_it(qtbot, window):
    canvas = window.canvas
    canvas.setFocus()
    qtbot.keyClick(canvas, Qt.Key.Key_Tab)
    assert canvas.drags.focused_arrow == (Role.QUERY, 0)
    qtbot.keyClick(canvas, Qt.Key.Key_Tab)
    assert canvas.drags.focused_arrow == (Role.QUERY, 1)
    qtbot.keyClick(canvas, Qt.Key.Key_Right)
    qtbot.keyClick(canvas, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)  # a big step
    np.testing.assert_allclose(window.reading().vectors(Role.QUERY)[1], [0.4, 2.5])
    # Nudges of one arrow in a row are one step: Undo takes q·cat back to where the keys found it.
    assert window.history.stack.count() == 1 and window.undo_action.text() == "&Undo Move q·cat"
    qtbot.keyClick(canvas, Qt.Key.Key_Tab)
    qtbot.keyClick(canvas, Qt.Key.Key_Left)
    assert window.history.stack.count() == 2  # another arrow's nudge is a step of its own
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert window.reading().vectors(Role.QUERY)[1].tolist() == [0.3, 2.0]
    assert window.reading().vectors(Role.QUERY)[2].tolist() == [2.4, 0.6]


def test_a_dragged_arrow_becomes_the_one_the_keys_move(qtbot, window):
    drag_arrow(window, Role.VALUE, 2, QPointF(20, 0))
    assert window.canvas.drags.focused_arrow == (Role.VALUE, 2)


def test_snapping_steps_from_the_menu(qtbot, window):
    half = next(a for a in window.menu_actions.groups["snap_step_actions"].actions() if a.data() == 0.5)
    half.trigger()
    assert window.snap_action.isChecked() and window.canvas.snap_step == 0.5
    drag_arrow(window, Role.KEY, 1, QPointF(-37, 23))
    x, y = window.reading().vectors(Role.KEY)[1]
    assert (x * 2).is_integer() and (y * 2).is_integer()
    window.snap_action.trigger()
    assert window.canvas.snap_step == 0.0


def test_a_right_click_during_a_drag_puts_the_arrow_back(qtbot, window):
    viewport = window.canvas.viewport()
    start = tip_on_screen(window, Role.KEY, 1)
    press(viewport, start)
    for step in range(1, 6):
        move_holding(viewport, start + QPointF(-12 * step, 0))
    send_mouse(viewport, QEvent.Type.MouseButtonPress, start + QPointF(-60, 0), Qt.MouseButton.RightButton,
               Qt.MouseButton.LeftButton | Qt.MouseButton.RightButton)
    release(viewport, start + QPointF(-60, 0))
    assert window.reading().vectors(Role.KEY)[1].tolist() == [2.2, 1.0]
    assert window.history.stack.count() == 0
