"""One vector drawn as an arrow from the origin, draggable by its tip.

The arrow lives in data coordinates (the plot's units) but draws its line
width, head and label in screen pixels, so it stays crisp and readable at
any zoom. It never changes the scene itself. Like pyqtgraph's ROI, it reports
a drag through signals (started, moved to a proposed tip, finished, cancelled)
and a click through `clicked`; the drag controller (drag_controller.py) writes
the proposed tip to the scene, and the canvas then moves this arrow through
``set_tip``.

Which arrow takes a press where handles overlap is the drag controller's
choice (see tip_choice.py): at each press it tells every arrow whether it may take a click
or a drag from it, and an arrow that may not lets the press pass on.
"""

from __future__ import annotations

import enum
import math
from typing import TYPE_CHECKING

import pyqtgraph as pg
import shiboken6
from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainterPath, QPolygonF, QStaticText, QTransform
from PySide6.QtWidgets import QGraphicsItem

from attn_desktop.geometry.label_layout import (
    LabelRequest,
    Obstacle,
    Placement,
    convex_obstacle,
    leader_start,
    segment_obstacle,
)
from attn_desktop.ui.canvas.arrow_drawing import (
    HANDLE_RADIUS_PX,
    HEAD_HALF_WIDTH_PX,
    HEAD_LENGTH_PX,
    LABEL_GAP_PX,
    LABEL_PADDING_PX,
    ArrowDrawing,
    direction_on_screen,
)

if TYPE_CHECKING:
    from attn_desktop.ui.canvas.arrow_layer import ArrowLayer

SHAFT_CLEARANCE_PX = 1.0  # labels keep this far off a shaft's edge ...
HEAD_CLEARANCE_PX = 1.5  # ... and off a head and its tip
DOT_RADIUS_PX = 4.0  # an arrow of no length is a dot
EMPHASIS_STEPS = 20


class DragPhase(enum.Enum):
    IDLE = enum.auto()
    DRAGGING = enum.auto()  # the tip follows the mouse
    CANCELLED = enum.auto()  # put back (Escape, a right-click) while the button is still held: moves are ignored


def _fade(color: QColor, emphasis: float) -> QColor:
    """The colour at this strength over a white background, as an opaque colour."""
    keep = emphasis
    return QColor(
        round(255 + (color.red() - 255) * keep),
        round(255 + (color.green() - 255) * keep),
        round(255 + (color.blue() - 255) * keep),
    )


class ArrowItem(ArrowDrawing, pg.GraphicsObject):
    drag_started = Signal()
    drag_moved = Signal(QPointF)  # where the mouse would put the tip, in data units
    drag_finished = Signal(QPointF)  # the same, at the release
    drag_cancelled = Signal()  # Escape or a right-click: the drag's start is to be restored
    clicked = Signal()  # only from an arrow made clickable
    double_clicked = Signal()  # only from a draggable arrow: asks to type exact coordinates

    def __init__(self, label: str, color: QColor, draggable: bool = True, clickable: bool = False) -> None:
        super().__init__()
        self._tip = QPointF(0.0, 0.0)
        self._base = QPointF(0.0, 0.0)  # where the arrow starts: the origin, except on a number line
        self._label = label
        self._role_color = QColor(color)
        self._color = QColor(color)
        self._text_color = self._role_color.darker(125)
        self._emphasis = 1.0
        self._width = 2.0
        self._dashed = False
        self._make_pens()
        self._highlighted = False  # pointed at elsewhere (a table row): a halo
        self._hovered = False  # under the mouse: show the grab handle
        self._focused = False  # chosen for the arrow keys (Tab cycles): show the grab handle
        self._draggable = draggable
        self._font = QFont()
        self._font.setPointSizeF(10.0)
        self._font.setBold(True)
        self._label_size = self._measure(label)
        self._label_text: QStaticText | None = None  # the label laid out once, not on every paint
        # Where the canvas put the label (see label_layout): its top-left corner from the tip in data units,
        # so a picture exported at twice the size keeps it as near; None: the usual spot beyond the tip.
        self._label_offset: tuple[float, float] | None = None
        self._label_offset_view_px: tuple[float, float] | None = None  # the same as the canvas chose it
        self._leader_to: QPointF | None = None  # in data units: the tip, or where the arrow leaves the view
        self._pointer = False  # the tip is out of view: the leader ends in a pointer at the plot's edge
        self._label_hidden = False  # no room for it (a minor label); pointing at the arrow still names it
        self._obstacle_cache: tuple[tuple, list[Obstacle]] | None = None
        # Counts changes of the shaft and head as drawn: the canvas re-reads an arrow's shapes for
        # label placement only when this has moved on (cheaper than a signal from every arrow per move).
        self.shape_version = 0
        self._pixel_size_cache: tuple[float, float] | None = None
        self._bounds: QRectF | None = None
        self._layer: ArrowLayer | None = None  # the item that draws this arrow with the others of its plot
        self._drag_start_tip = QPointF()
        self._drag_phase = DragPhase.IDLE
        self._clickable = clickable
        # Set by the canvas at each press: whether a click or a drag from there is this arrow's to take.
        self._takes_clicks = True
        self._takes_drags = True
        self.head_shape = "triangle"  # "open" or "diamond" when roles are shown by shape as well as colour
        self.setAcceptHoverEvents(draggable)
        if draggable:
            self.setCursor(Qt.CursorShape.OpenHandCursor)

    # ----- state the canvas sets ---------------------------------------
    @property
    def tip(self) -> QPointF:
        return QPointF(self._tip)

    @property
    def label(self) -> str:
        return self._label

    def set_tip(self, x: float, y: float) -> bool:
        """Move the tip; returns whether it moved."""
        if x == self._tip.x() and y == self._tip.y():
            return False
        self.prepareGeometryChange()
        self._tip = QPointF(x, y)
        self._forget_obstacles()
        self.update()
        return True

    def set_base(self, x: float, y: float) -> None:
        if x != self._base.x() or y != self._base.y():
            self.prepareGeometryChange()
            self._base = QPointF(x, y)
            self._forget_obstacles()
            self.update()

    def set_label(self, label: str) -> None:
        if label != self._label:
            self.prepareGeometryChange()
            self._label = label
            self._label_size = self._measure(label)
            self._label_text = None
            self.update()

    @property
    def emphasis(self) -> float:
        """How strongly the arrow is drawn, 0 (faded into the background) to 1."""
        return self._emphasis

    def set_style(self, width: float, emphasis: float, dashed: bool = False) -> None:
        """Thicker and stronger for more weight; dashed for a masked key.

        Emphasis fades the colour towards the white background instead of
        making it translucent: the raster engine draws translucent shapes
        5 to 20 times slower than opaque ones, and a drag redraws every key
        and value. Both are rounded to steps a viewer can tell apart, so a
        small change of weight does not repaint an arrow.
        """
        width = round(width * 4) / 4
        emphasis = round(min(max(emphasis, 0.0), 1.0) * EMPHASIS_STEPS) / EMPHASIS_STEPS
        if width == self._width and dashed == self._dashed and emphasis == self._emphasis:
            return
        self._width = width
        self._dashed = dashed
        self._emphasis = emphasis
        self._forget_obstacles()  # the head grows with the width
        self._color = _fade(self._role_color, emphasis)
        self._text_color = _fade(self._role_color.darker(125), min(1.0, 0.3 + emphasis))  # labels stay readable
        self._make_pens()
        self.update()

    def set_head_shape(self, shape: str) -> None:
        if shape != self.head_shape:
            self.head_shape = shape
            self._forget_obstacles()
            self.update()

    def set_keyboard_focus(self, on: bool) -> None:
        """The arrow the arrow keys move: drawn with its grab ring."""
        if on != self._focused:
            self._focused = on
            self.update()

    def set_highlighted(self, on: bool) -> None:
        if on != self._highlighted:
            self._highlighted = on
            self.update()

    def set_label_hidden(self, hidden: bool) -> None:
        if hidden != self._label_hidden:
            self._label_hidden = hidden
            self.update()

    @property
    def label_shown(self) -> bool:
        return bool(self._label) and not self._label_hidden

    def set_label_placement(self, placement: Placement, to_device: QTransform) -> None:
        """Put the label where `placement` (in the pixels of the view `to_device` maps to) says."""
        self.place_label(placement, (to_device.m11(), to_device.m22(), to_device.m31(), to_device.m32()))

    def place_label(self, placement: Placement, scale_and_offset: tuple[float, float, float, float]) -> None:
        """The same, with the plot's mapping as plain numbers (m11, m22, m31, m32), read once for all arrows.

        A plot's transform only scales and translates, so a pixel is 1 / m11 data units across.
        """
        m11, m22, m31, m32 = scale_and_offset
        if not (m11 and m22):
            return  # a plot of no size yet
        offset = (placement.dx / m11, placement.dy / m22)
        leader_to = None
        if placement.leader_to is not None:
            x, y = placement.leader_to
            leader_to = QPointF((x - m31) / m11, (y - m32) / m22)
        self._label_offset_view_px = (placement.dx, placement.dy)
        if (offset, leader_to, placement.pointer) != (self._label_offset, self._leader_to, self._pointer):
            self.prepareGeometryChange()  # the bounding rect reaches as far as the label and its leader
            self._label_offset, self._leader_to, self._pointer = offset, leader_to, placement.pointer
            self.update()

    def label_request(self, scale_and_offset: tuple[float, float, float, float],
                      minor: bool = False) -> LabelRequest | None:
        """What the label needs, in view pixels (the plot's mapping as for `obstacles`); None if unlabelled."""
        if not self._label:
            return None
        m11, m22, m31, m32 = scale_and_offset
        ox, oy = self._base.x() * m11 + m31, self._base.y() * m22 + m32
        tx, ty = self._tip.x() * m11 + m31, self._tip.y() * m22 + m32
        ux, uy, _ = direction_on_screen(ox, oy, tx, ty)
        previous = None if self._label_hidden else self._label_offset_view_px
        width, height = self._label_size.width(), self._label_size.height()
        return LabelRequest(width, height, (tx, ty), (ux, uy), (ox, oy), minor, previous)

    def obstacles(self, scale_and_offset: tuple[float, float, float, float]) -> list[Obstacle]:
        """The shaft and head as drawn, in view pixels, for the labels of every arrow to keep off.

        `scale_and_offset` is the plot's data-to-view mapping (m11, m22, m31, m32 of its transform) as
        plain numbers, read once for all arrows. Cached until the arrow or the view changes: a drag moves
        only one or two arrows.
        """
        cache = self._obstacle_cache
        if cache is not None and cache[0] == scale_and_offset:
            return cache[1]
        m11, m22, m31, m32 = key = scale_and_offset
        ox, oy = self._base.x() * m11 + m31, self._base.y() * m22 + m32
        tx, ty = self._tip.x() * m11 + m31, self._tip.y() * m22 + m32
        ux, uy, length = direction_on_screen(ox, oy, tx, ty)
        if length < 1.0:
            shapes = [segment_obstacle(tx, ty, tx, ty, DOT_RADIUS_PX + HEAD_CLEARANCE_PX)]
        else:
            head, (bx, by) = self._head_points(tx, ty, ux, uy, length)
            shapes = [convex_obstacle(head, HEAD_CLEARANCE_PX)]
            if math.hypot(bx - ox, by - oy) > 0.5:
                shapes.append(segment_obstacle(ox, oy, bx, by, self._width / 2 + SHAFT_CLEARANCE_PX))
        self._obstacle_cache = (key, shapes)
        return shapes

    def _forget_obstacles(self) -> None:
        self._obstacle_cache = None
        self.shape_version += 1

    # ----- geometry as painted, in the pixels `to_device` maps to (for checking what a viewer sees) -----
    def tip_position(self, to_device: QTransform) -> QPointF:
        return to_device.map(self._tip)

    def shaft_line(self, to_device: QTransform) -> QLineF | None:
        """The shaft from its base to where the head begins; None for an arrow drawn as a dot."""
        (ox, oy), (tx, ty) = to_device.map(self._base.x(), self._base.y()), to_device.map(self._tip.x(), self._tip.y())
        ux, uy, length = direction_on_screen(ox, oy, tx, ty)
        if length < 1.0:
            return None
        _, (bx, by) = self._head_points(tx, ty, ux, uy, length)
        return QLineF(ox, oy, bx, by)

    def head_polygon(self, to_device: QTransform) -> QPolygonF:
        """The head (or, for an arrow of no length, the dot's square) as painted."""
        (ox, oy), (tx, ty) = to_device.map(self._base.x(), self._base.y()), to_device.map(self._tip.x(), self._tip.y())
        ux, uy, length = direction_on_screen(ox, oy, tx, ty)
        if length < 1.0:
            r = DOT_RADIUS_PX
            return QPolygonF([QPointF(tx - r, ty - r), QPointF(tx + r, ty - r), QPointF(tx + r, ty + r), QPointF(tx - r, ty + r)])
        points, _ = self._head_points(tx, ty, ux, uy, length)
        return QPolygonF([QPointF(x, y) for x, y in points])

    def shown_label_box(self, to_device: QTransform) -> QRectF | None:
        """Where the label (with its backdrop) is drawn; None when it is not drawn."""
        if not self.label_shown:
            return None
        (ox, oy), (tx, ty) = to_device.map(self._base.x(), self._base.y()), to_device.map(self._tip.x(), self._tip.y())
        return self._label_rect(to_device, ox, oy, tx, ty)

    def leader_line(self, to_device: QTransform) -> QLineF | None:
        """The thin line from the label to its tip (or to the plot's edge, for a tip out of view); None if none."""
        box = self.shown_label_box(to_device)
        if box is None or self._leader_to is None:
            return None
        target = to_device.map(self._leader_to)
        x, y = leader_start((box.left(), box.top(), box.right(), box.bottom()), (target.x(), target.y()))
        return QLineF(x, y, target.x(), target.y())

    @property
    def has_pointer(self) -> bool:
        """The label stands at the plot's edge for a tip out of view."""
        return self.label_shown and self._pointer and self._leader_to is not None

    def _label_rect(self, to_device: QTransform, ox: float, oy: float, tx: float, ty: float) -> QRectF:
        width, height = self._label_size.width(), self._label_size.height()
        if self._label_offset is None:
            ux, uy, _ = direction_on_screen(ox, oy, tx, ty)
            # The usual spot until the canvas places it: beyond the tip, clear of the head whichever way it points.
            reach = LABEL_GAP_PX + HEAD_HALF_WIDTH_PX + abs(ux) * width / 2 + abs(uy) * height / 2
            return QRectF(tx + ux * reach - width / 2, ty + uy * reach - height / 2, width, height)
        dx, dy = self._label_offset[0] * to_device.m11(), self._label_offset[1] * to_device.m22()
        return QRectF(tx + dx, ty + dy, width, height)

    def set_font_size(self, points: float) -> None:
        self.prepareGeometryChange()
        self._font.setPointSizeF(points)
        self._label_size = self._measure(self._label)
        self._label_text = None
        self.update()

    def _measure(self, text: str):
        """The label's size with its backdrop."""
        size = QFontMetricsF(self._font).size(0, text)
        size.setWidth(size.width() + 2 * LABEL_PADDING_PX)
        return size

    # ----- geometry -----------------------------------------------------
    def _pixel_size(self) -> tuple[float, float]:
        """Data units per screen pixel along x and y (1.0 before the item is in a view).

        Cached: Qt asks for the bounding rect many times per frame, and
        pixelVectors() is costly. viewTransformChanged() clears it on zoom.
        """
        if self._pixel_size_cache is None:
            px, py = self.pixelVectors()
            if px is None or py is None:
                return 1.0, 1.0
            self._pixel_size_cache = max(abs(px.x()), 1e-12), max(abs(py.y()), 1e-12)
        return self._pixel_size_cache

    def boundingRect(self) -> QRectF:
        # Qt asks for this several times per frame for every arrow; keep it
        # until the tip, the label or the zoom changes.
        if self._bounds is None:
            sx, sy = self._pixel_size()
            reach_px = max(HANDLE_RADIUS_PX, HEAD_LENGTH_PX + self._width) + 4
            rect = QRectF(self._base, self._tip).normalized()
            if self._label_offset is None:  # the usual spot beyond the tip
                reach_px += LABEL_GAP_PX + HEAD_HALF_WIDTH_PX + self._label_size.width()
            else:
                # The label's box relative to the tip, in data units (a pixel is sx by sy of them; y may
                # point either way, so take both corners).
                dx, dy = self._label_offset
                ex, ey = math.copysign(self._label_size.width() * sx, dx or 1.0), self._label_size.height() * sy
                corner = QPointF(self._tip.x() + dx, self._tip.y() + dy)
                label = QRectF(corner, QPointF(corner.x() + ex, corner.y() + ey)).normalized()
                label = label.united(QRectF(corner, QPointF(corner.x() + ex, corner.y() - ey)).normalized())
                label = label.united(QRectF(corner, QPointF(corner.x() - ex, corner.y() + ey)).normalized())
                rect = rect.united(label)
                if self._leader_to is not None:
                    rect = rect.united(QRectF(self._leader_to, self._leader_to))
            self._bounds = rect.adjusted(-reach_px * sx, -reach_px * sy, reach_px * sx, reach_px * sy)
        return QRectF(self._bounds)

    def prepareGeometryChange(self) -> None:
        self._bounds = None
        super().prepareGeometryChange()
        if self._layer_alive():
            self._layer.update()

    # ----- drawn by a layer -------------------------------------------------
    def join_layer(self, layer: ArrowLayer | None) -> None:
        """Be drawn by `layer` with the other arrows of its plot (see arrow_layer.py), or alone again."""
        self._layer = layer
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, layer is not None)
        super().update()

    def update(self, *args) -> None:
        """Ask for a repaint: of the layer that draws this arrow, if it has one."""
        if self._layer_alive():
            self._layer.update()
        else:
            super().update(*args)

    def _layer_alive(self) -> bool:
        # While a window is torn down, Qt may delete the layer before the arrows that still report to it.
        return self._layer is not None and shiboken6.isValid(self._layer)

    def shape(self) -> QPainterPath:
        """What the mouse can grab: a disc around the tip only.

        Shafts cross each other and other arrows' tips near the origin; letting
        only tips be grabbed means a press on a tip always takes that arrow.
        """
        sx, sy = self._pixel_size()
        path = QPainterPath()
        path.addEllipse(self._tip, HANDLE_RADIUS_PX * sx, HANDLE_RADIUS_PX * sy)
        return path

    def contains(self, point: QPointF) -> bool:
        # The plot clips its items, and Qt then asks contains() rather than
        # shape() whether the mouse is over an item; answer with the handle.
        return self.shape().contains(point)

    def viewTransformChanged(self) -> None:
        # Zooming changes how many data units a pixel is, so the pixel-sized
        # head, handle and label need a new bounding box.
        self._pixel_size_cache = None
        self._forget_obstacles()
        self.prepareGeometryChange()

    # ----- mouse --------------------------------------------------------
    def hoverEnterEvent(self, event) -> None:
        self._hovered = True
        self.update()

    def hoverLeaveEvent(self, event) -> None:
        self._hovered = False
        self.update()

    def set_press_rights(self, clicks: bool, drags: bool) -> None:
        """Whether a click, and a drag, from the press just made are this arrow's to take (the canvas
        decides at each press); one it may not take passes to the next arrow under the pointer."""
        self._takes_clicks, self._takes_drags = clicks, drags

    def mouseClickEvent(self, event) -> None:
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

    def mouseDragEvent(self, event) -> None:
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


__all__ = ["ArrowItem", "DragPhase"]
