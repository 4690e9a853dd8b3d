"""Where an arrow's parts lie on screen, in view pixels: the shapes other labels keep off, what its own
label needs and where the canvas put it, and the arrow as painted (for checking what a viewer sees).

A mixin of ArrowItem (arrow_item.py), which holds the state these methods read; ArrowDrawing
(arrow_drawing.py) paints the same shapes. The sizes of the parts are in pixels, so an arrow reads
the same at any zoom.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QLineF, QPointF, QRectF, QSizeF
from PySide6.QtGui import QPolygonF, QTransform

from attn_desktop.geometry.label_layout import (
    LabelRequest,
    Obstacle,
    Placement,
    convex_obstacle,
    leader_start,
    segment_obstacle,
)

HEAD_LENGTH_PX = 12.0
HEAD_HALF_WIDTH_PX = 5.5
HANDLE_RADIUS_PX = 11.0
LABEL_GAP_PX = 6.0
LABEL_PADDING_PX = 2.0  # the label's pale backdrop reaches this far beyond its text on either side
SHAFT_CLEARANCE_PX = 1.0  # labels keep this far off a shaft's edge ...
HEAD_CLEARANCE_PX = 1.5  # ... and off a head and its tip
DOT_RADIUS_PX = 4.0  # an arrow of no length is a dot
SHAFT_SLOT = 1  # obstacles() gives the head (or the dot) first, then the shaft


def direction_on_screen(ox: float, oy: float, tx: float, ty: float) -> tuple[float, float, float]:
    """The unit vector from base to tip on screen, and the length; a dot points up and to the right."""
    dx, dy = tx - ox, ty - oy
    length = (dx * dx + dy * dy) ** 0.5
    return (dx / length, dy / length, length) if length >= 1.0 else (0.7, -0.7, length)


def in_pixels(to_screen: QTransform, point: QPointF) -> tuple[float, float]:
    """Where a point in data units lands, in pixels, as two plain floats."""
    return cast(tuple[float, float], to_screen.map(point.x(), point.y()))


class ArrowGeometry:
    """The arrow's shapes and label box in the pixels a plot's mapping puts them at."""

    # The state ArrowItem keeps and these methods read.
    _base: QPointF
    _tip: QPointF
    _base_xy: tuple[float, float]  # the same as plain numbers
    _tip_xy: tuple[float, float]
    _width: float
    _label: str
    _short_label: str
    _short_width: float | None
    _short_names_it: bool
    _whole_width: float
    _label_shortened: bool
    _label_size: QSizeF
    _label_hidden: bool
    _label_offset: tuple[float, float] | None
    _label_offset_view_px: tuple[float, float] | None
    _leader_to: QPointF | None
    _pointer: bool
    _obstacle_cache: tuple[tuple[float, float, float, float], list[Obstacle]] | None
    _request_cache: tuple[tuple[object, ...], LabelRequest] | None  # the last label request, and what made it
    shape_version: int
    area_version: int
    request_version: int
    head_shape: str
    _fields: dict[str, Any]  # the instance's own dict: what a drag move changes is written there (see ArrowItem)

    if TYPE_CHECKING:  # ArrowItem's, through its Qt base (declared here only for the type checker)
        def prepareGeometryChange(self) -> None: ...

        def update(self) -> None: ...

        def update_label(self) -> None: ...

        def _measure_label(self) -> None: ...

    @property
    def label_shown(self) -> bool:
        return bool(self._label) and not self._label_hidden

    @property
    def shown_label(self) -> str:
        """The label as drawn: the whole one, or where the canvas had room only for it, the short one."""
        return self._short_label if self._label_shortened and self._short_label else self._label

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
        fields = self._fields
        if (placement.dx, placement.dy) != self._label_offset_view_px:
            fields["_label_offset_view_px"] = (placement.dx, placement.dy)
            fields["request_version"] = self.request_version + 1
        if placement.short != self._label_shortened:
            self.prepareGeometryChange()
            fields["_label_shortened"] = placement.short
            self._measure_label()  # its size, and so its box, is the shown label's
        if (offset, leader_to, placement.pointer) != (self._label_offset, self._leader_to, self._pointer):
            self.prepareGeometryChange()  # the bounding rect reaches as far as the label and its leader
            fields["_label_offset"], fields["_leader_to"], fields["_pointer"] = offset, leader_to, placement.pointer
            self.update_label()

    def label_request(self, scale_and_offset: tuple[float, float, float, float],
                      minor: bool = False, essential: bool = False) -> LabelRequest | None:
        """What the label needs, in view pixels (the plot's mapping as for `obstacles`); None if unlabelled.
        MINOR and ESSENTIAL say how it ranks (see LabelRequest)."""
        if not self._label:
            return None
        # The same request as last time while nothing it is made of changed (see request_version): most arrows, on a
        # drag move.
        key = (scale_and_offset, minor, essential, self.request_version)
        cached = self._request_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        previous = None if self._label_hidden else self._label_offset_view_px
        height = self._label_size.height()
        m11, m22, m31, m32 = scale_and_offset
        (base_x, base_y), (tip_x, tip_y) = self._base_xy, self._tip_xy
        ox, oy, tx, ty = base_x * m11 + m31, base_y * m22 + m32, tip_x * m11 + m31, tip_y * m22 + m32
        ux, uy, _ = direction_on_screen(ox, oy, tx, ty)
        request = LabelRequest(self._whole_width, height, (tx, ty), (ux, uy), (ox, oy), minor, previous, essential,
                               short_width=self._short_width, short_names_it=self._short_names_it)
        self._fields["_request_cache"] = (key, request)
        return request

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
        (base_x, base_y), (tip_x, tip_y) = self._base_xy, self._tip_xy
        ox, oy, tx, ty = base_x * m11 + m31, base_y * m22 + m32, tip_x * m11 + m31, tip_y * m22 + m32
        ux, uy, length = direction_on_screen(ox, oy, tx, ty)
        if length < 1.0:
            shapes = [segment_obstacle(tx, ty, tx, ty, DOT_RADIUS_PX + HEAD_CLEARANCE_PX)]
        else:
            head, (bx, by) = self._head_points(tx, ty, ux, uy, length)
            shapes = [convex_obstacle(head, HEAD_CLEARANCE_PX)]
            if math.hypot(bx - ox, by - oy) > 0.5:
                shapes.append(segment_obstacle(ox, oy, bx, by, self._width / 2 + SHAFT_CLEARANCE_PX))
        self._fields["_obstacle_cache"] = (key, shapes)
        return shapes

    def _forget_obstacles(self) -> None:
        fields = self._fields
        fields["_obstacle_cache"] = None
        fields["shape_version"] = self.shape_version + 1
        fields["area_version"] = self.area_version + 1
        fields["request_version"] = self.request_version + 1  # the tip or the base moved

    # ----- geometry as painted, in the pixels `to_device` maps to (for checking what a viewer sees) -----
    def tip_position(self, to_device: QTransform) -> QPointF:
        return to_device.map(self._tip)

    def shaft_line(self, to_device: QTransform) -> QLineF | None:
        """The shaft from its base to where the head begins; None for an arrow drawn as a dot."""
        (ox, oy), (tx, ty) = in_pixels(to_device, self._base), in_pixels(to_device, self._tip)
        ux, uy, length = direction_on_screen(ox, oy, tx, ty)
        if length < 1.0:
            return None
        _, (bx, by) = self._head_points(tx, ty, ux, uy, length)
        return QLineF(ox, oy, bx, by)

    def head_polygon(self, to_device: QTransform) -> QPolygonF:
        """The head (or, for an arrow of no length, the dot's square) as painted."""
        (ox, oy), (tx, ty) = in_pixels(to_device, self._base), in_pixels(to_device, self._tip)
        ux, uy, length = direction_on_screen(ox, oy, tx, ty)
        if length < 1.0:
            r = DOT_RADIUS_PX
            return QPolygonF([QPointF(tx - r, ty - r), QPointF(tx + r, ty - r),
                              QPointF(tx + r, ty + r), QPointF(tx - r, ty + r)])
        points, _ = self._head_points(tx, ty, ux, uy, length)
        return QPolygonF([QPointF(x, y) for x, y in points])

    def shown_label_box(self, to_device: QTransform) -> QRectF | None:
        """Where the label (with its backdrop) is drawn; None when it is not drawn."""
        if not self.label_shown:
            return None
        (ox, oy), (tx, ty) = in_pixels(to_device, self._base), in_pixels(to_device, self._tip)
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

    def _label_corners(self, to_device: QTransform, ox: float, oy: float, tx: float,
                       ty: float) -> tuple[float, float, float, float]:
        """_label_rect's box as plain numbers (left, top, right, bottom), the same sums: for the area a changed arrow
        repaints, worked out on every drag move without making a rectangle to read back."""
        width, height = self._label_size.width(), self._label_size.height()
        if self._label_offset is None:
            ux, uy, _ = direction_on_screen(ox, oy, tx, ty)
            reach = LABEL_GAP_PX + HEAD_HALF_WIDTH_PX + abs(ux) * width / 2 + abs(uy) * height / 2
            left, top = tx + ux * reach - width / 2, ty + uy * reach - height / 2
        else:
            left, top = tx + self._label_offset[0] * to_device.m11(), ty + self._label_offset[1] * to_device.m22()
        return left, top, left + width, top + height

    def _head_points(self, tx: float, ty: float, ux: float, uy: float,
                     length: float) -> tuple[list[tuple[float, float]], tuple[float, float]]:
        """The head's corners in pixels, and where it meets the shaft."""
        head_length = min(HEAD_LENGTH_PX + self._width, length)
        bx, by = tx - ux * head_length, ty - uy * head_length
        half = HEAD_HALF_WIDTH_PX + self._width / 2
        if self.head_shape == "diamond":  # values: a diamond, tells roles apart without colour
            mx, my = (tx + bx) / 2, (ty + by) / 2
            return [(tx, ty), (mx - uy * half, my + ux * half), (bx, by), (mx + uy * half, my - ux * half)], (bx, by)
        return [(tx, ty), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)], (bx, by)
