"""How an arrow is drawn: shaft, head, halo, grab ring and label, in screen pixels.

A mixin of ArrowItem (arrow_item.py), which holds the state these methods read: the base and
tip in data units, the pens made from the colour and emphasis, the label and where the canvas
placed it. An ArrowLayer (arrow_layer.py) draws every arrow of a plot through draw_arrow and
draw_label; paint() is for an arrow drawn alone. Where each part lies is ArrowGeometry's
(arrow_geometry.py), which this builds on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QPolygonF, QStaticText, QTextOption, QTransform
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from attn_desktop.geometry.label_layout import leader_start
from attn_desktop.ui.canvas.arrow_geometry import (
    DOT_RADIUS_PX,
    HANDLE_RADIUS_PX,
    LABEL_PADDING_PX,
    ArrowGeometry,
    direction_on_screen,
    in_pixels,
)
from attn_desktop.ui.canvas.shape_batch import Parts, ShapeBatch

POINTER_PX = 7.0  # the pointer at the plot's edge towards a tip out of view
LABEL_BACKDROP = QColor(255, 255, 255)
HALO_COLOR = QColor(255, 200, 0, 170)
ANTIALIASING = QPainter.RenderHint.Antialiasing
NO_PEN = Qt.PenStyle.NoPen
NO_BRUSH = Qt.BrushStyle.NoBrush
WHITE = QColor(255, 255, 255)
# The ring round the tip the arrow keys move: dark and wide enough to be found at a glance on the white canvas
# (WCAG's 3:1 for a focus indicator, by far), whatever the arrow's own colour or how faded its weight draws it.
# The pointer's and the drag's ring keep the arrow's colour.
FOCUS_RING_COLOR = QColor(26, 26, 26)
FOCUS_RING_WIDTH_PX = 3.0
FOCUS_RING_PEN = QPen(FOCUS_RING_COLOR, FOCUS_RING_WIDTH_PX)
# A faint arrow's head is outlined in its role's colour at 3 : 1 (arrow_item.head_outline_color), this wide: a
# line of 2 px covers whole pixels along every edge, which antialiasing would otherwise leave paler than its pen.
HEAD_OUTLINE_WIDTH_PX = 2.0
OPEN_HEAD_WIDTH_PX = 2.0
NO_OUTLINE = QPen(NO_PEN)
# The pens of each style an arrow was given (see ArrowDrawing._make_pens), at most this many, then made afresh.
STYLES_KEPT = 1024
_PENS: dict[tuple, dict[str, Any]] = {}

# A label is mathematics' notation, "k·قط 54%", in every language: laid out left to right even in Arabic
# (where the application's direction would put the word before the "k·").
LEFT_TO_RIGHT = QTextOption()
LEFT_TO_RIGHT.setTextDirection(Qt.LayoutDirection.LeftToRight)


# Labels laid out, by text and font: a drag move changes the percentages of several labels, and a drag goes
# back and forth over the same few dozen (laying a label out again cost a move's paint 10 µs a label).
PREPARED_TEXTS = 1024  # at most, then laid out afresh
_prepared_texts: dict[tuple[str, str], QStaticText] = {}


def prepared_text(text: str, font: QFont) -> QStaticText:
    """TEXT laid out in FONT, left to right, as a label is drawn."""
    key = (text, font.key())
    prepared = _prepared_texts.get(key)
    if prepared is None:
        if len(_prepared_texts) >= PREPARED_TEXTS:
            _prepared_texts.clear()
        prepared = QStaticText(text)
        prepared.setTextFormat(Qt.TextFormat.PlainText)
        prepared.setTextOption(LEFT_TO_RIGHT)
        prepared.prepare(QTransform(), font)
        _prepared_texts[key] = prepared
    return prepared


class ScreenShapes(NamedTuple):
    """An arrow's parts in screen pixels: no shaft and no head for one shorter than a pixel (a dot)."""

    base: QPointF
    tip: QPointF
    shaft: QLineF | None
    head: QPolygonF | None


class ArrowDrawing(ArrowGeometry):
    """Drawing for ArrowItem. A drag repaints every arrow (they all meet at the origin), so painting is
    kept lean: geometry in plain floats, pens made when the style changes, Qt enum members looked up
    once at import."""

    # The state ArrowItem keeps and these methods read (besides ArrowGeometry's).
    _dashed: bool
    _emphasis: float
    _color: QColor
    _outline_color: QColor
    _text_color: QColor
    _highlighted: bool
    _hovered: bool
    _focused: bool
    _ring_shown: bool
    _font: QFont
    _label_text: QStaticText | None
    _screen_shapes: tuple[tuple, ScreenShapes] | None  # see _shapes_on_screen
    # Made by _make_pens from the colours, width and dash.
    _shaft_pen: QPen
    _halo_pen: QPen
    _ring_pen: QPen
    _leader_pen: QPen
    _head_pen: QPen
    _open_head_pen: QPen
    _color_rgba: int
    _shaft_key: tuple[int, float, bool]
    _head_key: tuple[float, int, int]
    _open_head_key: tuple[float, int]

    if TYPE_CHECKING:  # ArrowGestures' (arrow_gestures.py), declared here only for the type checker
        @property
        def is_dragging(self) -> bool: ...

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        # Only for an arrow not in a layer (a layer draws its arrows itself: they have no contents).
        to_screen = painter.transform()
        painter.resetTransform()  # draw in pixels; Qt restores the item transform afterwards
        painter.setRenderHint(ANTIALIASING)
        self.draw_arrow(painter, to_screen)
        self.draw_label(painter, to_screen)

    def draw_arrow(self, painter: QPainter, to_screen: QTransform, batch: ShapeBatch | None = None,
                   parts: Parts = Parts.ALL) -> QPointF | None:
        """The shaft and head (a dot when shorter than a pixel), with the halo and grab ring; in pixels,
        `to_screen` mapping data units to them. Given a batch, the shaft and head join it (its owner
        draws it, or the PARTS of it asked for: the halo and the dot are drawn now with the shafts), and
        the tip is returned when the grab ring is to be drawn over them afterwards."""
        shapes = self._shapes_on_screen(to_screen)
        tip = shapes.tip
        with_shafts = Parts.SHAFTS in parts
        if self._highlighted and with_shafts:
            painter.setPen(self._halo_pen)
            painter.drawLine(QLineF(shapes.base, tip))
        if shapes.head is None or shapes.shaft is None:
            if with_shafts:
                painter.setPen(self._head_pen)  # a faint dot outlined as a faint head is
                painter.setBrush(self._color)
                painter.drawEllipse(tip, DOT_RADIUS_PX, DOT_RADIUS_PX)
        else:
            collected = ShapeBatch() if batch is None else batch
            self._add_shaft_and_head(collected, shapes.shaft, shapes.head)
            if batch is None:
                collected.flush(painter, parts)
        ringed = self._ring_shown and (self._hovered or self._focused or self.is_dragging)
        if ringed and batch is None and Parts.HEADS in parts:
            self.draw_ring(painter, tip)
        return tip if ringed else None

    def _shapes_on_screen(self, to_screen: QTransform) -> ScreenShapes:
        """The arrow's shapes in the pixels `to_screen` maps to; kept until the arrow or the mapping changes
        (a layer redrawn after a drag move would otherwise work out all 193 arrows of 64 tokens again)."""
        key = (to_screen.m11(), to_screen.m22(), to_screen.dx(), to_screen.dy(), self.shape_version)
        cached = self._screen_shapes
        if cached is not None and cached[0] == key:
            return cached[1]
        ox, oy = in_pixels(to_screen, self._base)
        tx, ty = in_pixels(to_screen, self._tip)
        ux, uy, length = direction_on_screen(ox, oy, tx, ty)
        shapes = ScreenShapes(QPointF(ox, oy), QPointF(tx, ty), None, None)
        if length >= 1.0:
            head, (bx, by) = self._head_points(tx, ty, ux, uy, length)
            # The shaft overlaps the head by half a pixel: no seam.
            shapes = shapes._replace(shaft=QLineF(ox, oy, bx + ux * 0.5, by + uy * 0.5),
                                     head=QPolygonF([QPointF(x, y) for x, y in head]))
        self._fields["_screen_shapes"] = (key, shapes)
        return shapes

    def painted_area(self, to_screen: QTransform) -> QRectF:
        """Every pixel the arrow and its label touch when drawn for TO_SCREEN: repainting this redraws them.

        In plain numbers, as it is asked for on every change of a dragged arrow: the shaft's box grown by the
        halo's or grab ring's reach (which also covers the head, drawn along the shaft), the label's box,
        and for a leader line the point it leads to with the pointer drawn there."""
        shapes = self._shapes_on_screen(to_screen)
        base, tip = shapes.base, shapes.tip
        bx, by, tx, ty = base.x(), base.y(), tip.x(), tip.y()
        reach = max(self._width + 7, 2 * HANDLE_RADIUS_PX, 2 * DOT_RADIUS_PX) / 2 + 1  # and a pixel of antialiasing
        left, top, right, bottom = min(bx, tx) - reach, min(by, ty) - reach, max(bx, tx) + reach, max(by, ty) + reach
        if self._label and not self._label_hidden:
            box_left, box_top, box_right, box_bottom = self._label_corners(to_screen, bx, by, tx, ty)
            left, top = min(left, box_left - 1), min(top, box_top - 1)
            right, bottom = max(right, box_right + 1), max(bottom, box_bottom + 1)
            if self._leader_to is not None:
                lx, ly = in_pixels(to_screen, self._leader_to)
                near = POINTER_PX + 1
                left, top, right, bottom = min(left, lx - near), min(top, ly - near), max(right, lx + near), max(bottom, ly + near)
        return QRectF(left, top, right - left, bottom - top)

    def ring_pen(self) -> QPen | None:
        """The pen the ring round the tip is drawn with now: the keys' focus ring's when the arrow is chosen for
        the arrow keys, else the arrow's own colour (under the pointer, being dragged); None when no ring is
        drawn (none asked for, or the canvas is painted into a picture)."""
        if not self._ring_shown or not (self._hovered or self._focused or self.is_dragging):
            return None
        return FOCUS_RING_PEN if self._focused else self._ring_pen

    def draw_ring(self, painter: QPainter, tip: QPointF) -> None:
        """The grab handle round the tip: under the mouse, chosen for the keys, or being dragged."""
        painter.setPen(FOCUS_RING_PEN if self._focused else self._ring_pen)
        painter.setBrush(NO_BRUSH)
        painter.drawEllipse(tip, HANDLE_RADIUS_PX - 1, HANDLE_RADIUS_PX - 1)

    def draw_label(self, painter: QPainter, to_screen: QTransform) -> None:
        """The label on its backdrop, with its leader line, where the canvas placed it."""
        if self._label and not self._label_hidden:
            ox, oy = in_pixels(to_screen, self._base)
            tx, ty = in_pixels(to_screen, self._tip)
            self._paint_label(painter, to_screen, self._label_rect(to_screen, ox, oy, tx, ty))

    def _add_shaft_and_head(self, batch: ShapeBatch, shaft: QLineF, head: QPolygonF) -> None:
        batch.add_shaft(self._shaft_key, self._shaft_pen, shaft)
        if self.head_shape == "open":  # an outlined head: tells keys apart without colour
            batch.add_open_head(self._open_head_key, self._open_head_pen, head)
        else:
            batch.add_filled_head(self._head_key, self._head_pen, self._color, head)

    def _paint_label(self, painter: QPainter, to_screen: QTransform, box: QRectF) -> None:
        if self._leader_to is not None:
            tx, ty = in_pixels(to_screen, self._leader_to)
            sx, sy = leader_start((box.left(), box.top(), box.right(), box.bottom()), (tx, ty))
            painter.setPen(self._leader_pen)
            painter.drawLine(QLineF(sx, sy, tx, ty))
            if self._pointer:
                self._paint_pointer(painter, to_screen, tx, ty)
        # A pale box behind the text keeps it legible over grid lines.
        painter.fillRect(box, LABEL_BACKDROP)
        painter.setFont(self._font)
        painter.setPen(self._text_color)
        # Where drawText(box, AlignCenter) would put it (the box is the text's size plus the padding either
        # side), without laying the text out again on every paint.
        painter.drawStaticText(QPointF(box.left() + LABEL_PADDING_PX, box.top()), self._prepared_label())

    def _prepared_label(self) -> QStaticText:
        if self._label_text is None:
            self._label_text = prepared_text(self.shown_label, self._font)
        return self._label_text

    def _paint_pointer(self, painter: QPainter, to_screen: QTransform, ex: float, ey: float) -> None:
        """A small head at the plot's edge, pointing on towards the tip out of view."""
        tx, ty = in_pixels(to_screen, self._tip)
        ux, uy, length = direction_on_screen(ex, ey, tx, ty)
        if length < 1.0:
            return
        bx, by = ex - ux * POINTER_PX, ey - uy * POINTER_PX
        half = POINTER_PX / 2
        painter.setPen(NO_PEN)
        painter.setBrush(self._text_color)
        painter.drawPolygon(QPolygonF([QPointF(ex, ey), QPointF(bx - uy * half, by + ux * half),
                                       QPointF(bx + uy * half, by - ux * half)]))

    def _make_pens(self, style: tuple | None = None) -> None:
        """The pens and batch keys of the arrow's colours, width and dash. STYLE, when given, names them all (the
        role's colour, the strength, the width and the dash: see ArrowItem.set_style): pens made for it once are
        shared by every arrow of that style (a pen is never changed once made), as a drag restyles a few keys
        and values on most moves, back and forth between the same few styles."""
        made = _PENS.get(style) if style is not None else None
        if made is None:
            made = self._pens_for_style()
            if style is not None:
                if len(_PENS) >= STYLES_KEPT:
                    _PENS.clear()
                _PENS[style] = made
        self._fields.update(made)  # (written straight into the instance's dict: see ArrowItem)

    def _pens_for_style(self) -> dict[str, Any]:
        """_make_pens's pens and keys, made afresh, by the attribute each is kept in."""
        style = Qt.PenStyle.DashLine if self._dashed else Qt.PenStyle.SolidLine
        color_rgba = self._color.rgba()
        # The head: filled with the arrow's colour, and outlined where that alone stands out less than 3 : 1 (a
        # strong arrow's head is drawn as it always was, with no pen). Pen and fill go in one call.
        outline_rgba = self._outline_color.rgba()
        outlined = outline_rgba != color_rgba
        return {"_shaft_pen": QPen(self._color, self._width, style, Qt.PenCapStyle.FlatCap),
                "_halo_pen": QPen(HALO_COLOR, self._width + 7, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap),
                "_ring_pen": QPen(self._color, 2.0),
                "_leader_pen": QPen(self._text_color, 1.0),
                "_color_rgba": color_rgba,
                "_shaft_key": (color_rgba, self._width, self._dashed),  # arrows alike share a batch's pen
                "_head_pen": QPen(self._outline_color, HEAD_OUTLINE_WIDTH_PX) if outlined else NO_OUTLINE,
                # Heads are drawn by strength, the faintest first (see ShapeBatch): the key starts with it.
                "_head_key": (self._emphasis, color_rgba, outline_rgba if outlined else 0),
                "_open_head_pen": QPen(self._outline_color, OPEN_HEAD_WIDTH_PX),
                "_open_head_key": (self._emphasis, outline_rgba)}

    # ----- the colours drawn (for checking what a viewer sees) -------------------------------------------
    @property
    def shaft_color(self) -> QColor:
        """The shaft's colour: the role's, faded by the weight."""
        return QColor(self._color)

    @property
    def head_fill_color(self) -> QColor:
        """Inside the head: the shaft's colour, or white for an open head."""
        return QColor(WHITE if self.head_shape == "open" else self._color)

    @property
    def head_edge_color(self) -> QColor:
        """The head's edge: its outline's colour, or its fill's where that stands out 3 : 1 alone (the same)."""
        return QColor(self._outline_color)
