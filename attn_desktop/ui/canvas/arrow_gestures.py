"""What an arrow does with the mouse: a grab handle round its tip, clicks, and drags that it reports.

A base of ArrowItem (arrow_item.py). It never changes the scene itself. Like pyqtgraph's ROI, it
reports a drag through signals (started, moved to a proposed tip, finished, cancelled) and a click
through `clicked`; the drag controller (drag_controller.py) writes the proposed tip to the scene,
and the canvas then moves the arrow through ``set_tip``.

Which arrow takes a press where handles overlap is the drag controller's choice (see
tip_choice.py): at each press it tells every arrow whether it may take a click or a drag from it,
and an arrow that may not lets the press pass on.
"""

from __future__ import annotations

import enum

import pyqtgraph as pg
from pyqtgraph.GraphicsScene.mouseEvents import HoverEvent, MouseClickEvent, MouseDragEvent
from PySide6.QtCore import QPointF, Qt, Signal


class DragPhase(enum.Enum):
    IDLE = enum.auto()
    DRAGGING = enum.auto()  # the tip follows the mouse
    CANCELLED = enum.auto()  # put back (Escape, a right-click) while the button is still held: moves are ignored


class ArrowGestures(pg.GraphicsObject):
    """An item grabbed by its tip: it reports clicks and drags through these signals."""

    drag_started = Signal()
    drag_moved = Signal(QPointF)  # where the mouse would put the tip, in data units
    drag_finished = Signal(QPointF)  # the same, at the release
    drag_cancelled = Signal()  # Escape or a right-click: the drag's start is to be restored
    clicked = Signal()  # only from an arrow made clickable
    double_clicked = Signal()  # only from a draggable arrow: asks to type exact coordinates

    _tip: QPointF  # ArrowItem's: where the tip is, in data units
    _hovered: bool  # under the mouse: the drawing shows the grab handle

    def _take_gestures(self, draggable: bool, clickable: bool) -> None:
        """Set up for an arrow that may be dragged by its tip, and clicked; called once, when made."""
        self._hovered = False
        self._draggable = draggable
        self._drag_start_tip = QPointF()
        self._drag_phase = DragPhase.IDLE
        self._clickable = clickable
        # Set by the canvas at each press: whether a click or a drag from there is this arrow's to take.
        self._takes_clicks = True
        self._takes_drags = True
        self.setAcceptHoverEvents(draggable)
        if draggable:
            self.setCursor(Qt.CursorShape.OpenHandCursor)

    def set_draggable(self, draggable: bool) -> None:
        """Locked (a lesson file's) or free again: a locked arrow shows no hand and takes no drag or double-click."""
        self._draggable = draggable
        self.setAcceptHoverEvents(draggable)
        if draggable:
            self.setCursor(Qt.CursorShape.OpenHandCursor)
        else:
            self.unsetCursor()
            self._hovered = False
        self.update()

    def hoverEnterEvent(self, event: HoverEvent) -> None:
        self._hovered = True
        self.update()

    def hoverLeaveEvent(self, event: HoverEvent) -> None:
        self._hovered = False
        self.update()

    def set_press_rights(self, clicks: bool, drags: bool) -> None:
        """Whether a click, and a drag, from the press just made are this arrow's to take (the canvas
        decides at each press); one it may not take passes to the next arrow under the pointer."""
        self._takes_clicks, self._takes_drags = clicks, drags

    def mouseClickEvent(self, event: MouseClickEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or not self._takes_clicks:
            event.ignore()
        elif event.double() and self._draggable:
            event.accept()
            self.double_clicked.emit()
        elif self._clickable:
            event.accept()
            self.clicked.emit()
        else:
            event.ignore()  # an arrow beneath may take it

    def mouseDragEvent(self, event: MouseDragEvent) -> None:
        if not self._draggable or event.button() != Qt.MouseButton.LeftButton:
            event.ignore()
            return
        if event.isStart():
            if not self._takes_drags:
                event.ignore()  # pyqtgraph then offers the drag to the next arrow under the mouse
                return
            self._drag_start_tip = QPointF(self._tip)
            self._drag_phase = DragPhase.DRAGGING
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
            self.update()  # the grab ring shows while dragging
            self.drag_started.emit()
        event.accept()
        if self._drag_phase is not DragPhase.DRAGGING:
            if event.isFinish():
                self._drag_phase = DragPhase.IDLE  # the release after a cancelled drag
            return
        # Move the tip by how far the mouse moved, so grabbing the shaft or
        # the edge of the handle does not make the arrow jump.
        proposed = self._drag_start_tip + (event.pos() - event.buttonDownPos())
        if event.isFinish():
            self._drag_phase = DragPhase.IDLE
            self.setCursor(Qt.CursorShape.OpenHandCursor)
            self.update()  # the grab ring stays only if the mouse is still over the tip
            self.drag_finished.emit(proposed)
        else:
            self.drag_moved.emit(proposed)

    @property
    def accepts_drags(self) -> bool:
        return self._draggable

    @property
    def drag_phase(self) -> DragPhase:
        return self._drag_phase

    @property
    def is_dragging(self) -> bool:
        return self._drag_phase is DragPhase.DRAGGING

    def cancel_drag(self) -> None:
        """Escape during a drag: stop following the mouse and ask for the drag's start back."""
        if self._drag_phase is not DragPhase.DRAGGING:
            return
        self._drag_phase = DragPhase.CANCELLED
        self.setCursor(Qt.CursorShape.OpenHandCursor)
        self.update()  # the grab ring goes
        self.drag_cancelled.emit()
