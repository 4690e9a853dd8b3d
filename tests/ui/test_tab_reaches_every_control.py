"""Tab walks the whole window and comes back (issue 43, item 1): no control is out of its reach and none keeps it
(a table used to pass Tab from cell to cell, round and round; the canvas circled its arrows for ever)."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

MAX_PRESSES = 400


def tab_stops_of(window) -> set[QWidget]:
    """Every control shown and enabled that takes the keys from Tab."""
    return {widget for widget in window.findChildren(QWidget)
            if widget.isVisible() and widget.isEnabled() and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
            and widget.focusProxy() is None}


def test_tab_reaches_every_control_and_comes_back_to_the_canvas(qtbot, window):
    window.canvas.setFocus()
    reached: list[QWidget] = []
    for _ in range(MAX_PRESSES):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        widget = QApplication.focusWidget()
        if widget is window.canvas and reached and reached[-1] is not window.canvas:
            break  # round the whole window, back in the canvas
        reached.append(widget)
    else:
        raise AssertionError(f"Tab never came back to the canvas; stuck in {type(reached[-1]).__name__}")
    missed = tab_stops_of(window) - set(reached)
    assert not missed, sorted(f"{type(w).__name__} {w.accessibleName() or w.objectName()}" for w in missed)
