"""Real mouse events for a graphics view, for the self-test, the tests and the benchmark.

QTest.mouseMove carries no held buttons, so it never starts a drag in a
QGraphicsView; these press / move-with-button-held / release events do, just
as a hand on the mouse would.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QGraphicsItem, QWidget

LEFT = Qt.MouseButton.LeftButton
NO_BUTTON = Qt.MouseButton.NoButton


def send_mouse(widget: QWidget, kind: QEvent.Type, pos: QPointF, button: Qt.MouseButton, buttons: Qt.MouseButton,
               modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    global_pos = QPointF(widget.mapToGlobal(pos.toPoint()))
    event = QMouseEvent(kind, QPointF(pos), global_pos, button, buttons, modifiers)
    QApplication.sendEvent(widget, event)


def press(widget: QWidget, pos: QPointF) -> None:
    send_mouse(widget, QEvent.Type.MouseButtonPress, pos, LEFT, LEFT)


def move_holding(widget: QWidget, pos: QPointF) -> None:
    send_mouse(widget, QEvent.Type.MouseMove, pos, NO_BUTTON, LEFT)


def release(widget: QWidget, pos: QPointF) -> None:
    send_mouse(widget, QEvent.Type.MouseButtonRelease, pos, LEFT, NO_BUTTON)


def drag(widget: QWidget, start: QPointF, end: QPointF, steps: int = 10) -> None:
    press(widget, start)
    for step in range(1, steps + 1):
        t = step / steps
        move_holding(widget, start + (end - start) * t)
    release(widget, end)


def click(widget: QWidget, pos: QPointF) -> None:
    press(widget, pos)
    release(widget, pos)


def viewport_pos_of(item: QGraphicsItem, data_point: QPointF) -> QPointF:
    """Where a point in an item's data coordinates appears in its view's viewport."""
    scene_pos = item.mapToScene(data_point)
    view = item.scene().views()[0]
    return QPointF(view.mapFromScene(scene_pos))


__all__ = ["click", "double_click", "drag", "move_holding", "press", "release", "viewport_pos_of"]


def double_click(widget: QWidget, pos: QPointF) -> None:
    """Press, release, then a double-click press and release: what Qt sees from a real double-click."""
    click(widget, pos)
    send_mouse(widget, QEvent.Type.MouseButtonDblClick, pos, LEFT, LEFT)
    release(widget, pos)
