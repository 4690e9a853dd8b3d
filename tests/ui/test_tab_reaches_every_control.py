"""Tab walks the whole window and comes back (issue 43, item 1): no control is out of its reach and none keeps it
(a table used to pass Tab from cell to cell, round and round; the canvas circled its arrows for ever), and it
goes in reading order: the toolbar, the lesson on the left, the canvas, the panels on the right, those below —
never into a panel hidden behind another's tab."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QWidget

from tests.ui.test_lessons_by_keyboard import open_lesson_by_its_key

MAX_PRESSES = 400


def in_sight(widget) -> bool:
    """Not in a panel behind another's tab (Qt keeps those "visible", moved out of the window)."""
    parent = widget
    while parent is not None and not isinstance(parent, QDockWidget):
        parent = parent.parentWidget()
    return parent is None or not parent.visibleRegion().isEmpty()


def tab_stops_of(window) -> set[QWidget]:
    """Every control shown and enabled that takes the keys from Tab."""
    return {widget for widget in window.findChildren(QWidget)
            if widget.isVisible() and widget.isEnabled() and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
            and widget.focusProxy() is None and in_sight(widget)}


@pytest.mark.parametrize("lesson_id", [None, "two-heads", "why-sqrt-dk", "positions"])
def test_tab_reaches_every_control_and_comes_back_to_the_canvas(qtbot, window, lesson_id):
    if lesson_id is not None:  # the demo's lesson, two heads' canvases, and the two labs beside their lessons
        open_lesson_by_its_key(qtbot, window, lesson_id)
    start = window.canvas if window.canvas.isVisible() else window.heads_view.columns[0].canvas
    start.setFocus()
    reached: list[QWidget] = []
    for _ in range(MAX_PRESSES):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        widget = QApplication.focusWidget()
        if widget is start and reached and reached[-1] is not start:
            break  # round the whole window, back in the canvas
        reached.append(widget)
    else:
        raise AssertionError(f"Tab never came back to the canvas; stuck in {type(reached[-1]).__name__}")
    missed = tab_stops_of(window) - set(reached)
    assert not missed, sorted(f"{type(w).__name__} {w.accessibleName() or w.objectName()}" for w in missed)
    assert all(in_sight(widget) for widget in reached)  # never into a panel out of sight


def test_tab_goes_in_reading_order_toolbar_lesson_canvas_right_then_below(qtbot, window):
    window.query_picker.setFocus()  # the toolbar's first control
    order = []
    for _ in range(MAX_PRESSES):
        widget = QApplication.focusWidget()
        if widget is window.query_picker and order:
            break
        order.append(widget)
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    first = {name: order.index(widget) for name, widget in (
        ("toolbar", window.query_picker), ("lesson", window.lesson_panel.picker), ("canvas", window.canvas),
        ("scores", window.score_panel.table), ("matrix", window.matrix_view), ("weights", window.weights_chart))}
    assert sorted(first, key=first.get) == ["toolbar", "lesson", "canvas", "scores", "matrix", "weights"], first
