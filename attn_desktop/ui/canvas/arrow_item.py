"""One vector drawn as an arrow from the origin, draggable by its tip.

The arrow lives in data coordinates (the plot's units) but draws its line
width, head and label in screen pixels, so it stays crisp and readable at
any zoom. This module holds the arrow's state, which the canvas sets (tip,
label, style), and what Qt asks of an item (its bounds, what the mouse can
grab); the rest is by job: arrow_geometry.py (where its parts lie on screen),
arrow_drawing.py (painting them) and arrow_gestures.py (the mouse: clicks
and drags, which it reports and never writes to the scene itself).
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import shiboken6
from PySide6.QtCore import QPointF, QRectF, QSizeF
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainterPath, QStaticText
from PySide6.QtWidgets import QGraphicsItem

from attn_desktop.geometry.colour_difference import least_strength
from attn_desktop.geometry.colour_vision import GRAPHICS_CONTRAST, TEXT_CONTRAST
from attn_desktop.geometry.label_layout import LabelRequest, Obstacle
from attn_desktop.ui.canvas.arrow_drawing import ArrowDrawing
from attn_desktop.ui.canvas.arrow_geometry import (
    HANDLE_RADIUS_PX,
    HEAD_HALF_WIDTH_PX,
    HEAD_LENGTH_PX,
    LABEL_GAP_PX,
    LABEL_PADDING_PX,
)
from attn_desktop.ui.canvas.arrow_gestures import ArrowGestures


class DrawingLayer(Protocol):
    """What draws an arrow with the others of its plot (ArrowLayer, arrow_layer.py), as an arrow sees it."""

    def arrow_changed(self, arrow: ArrowItem, looks_changed: bool = True) -> None: ...

    def update(self) -> None: ...

EMPHASIS_STEPS = 20
MEASURED_TEXTS = 256  # an arrow's label texts whose sizes are kept: every percentage of a long and a short name
WHITE_RGB = (255, 255, 255)  # the labels' backdrop (arrow_drawing's LABEL_BACKDROP)


def _fade(color: QColor, emphasis: float) -> QColor:
    """The colour at this strength over a white background, as an opaque colour."""
    keep = emphasis
    return QColor(
        round(255 + (color.red() - 255) * keep),
        round(255 + (color.green() - 255) * keep),
        round(255 + (color.blue() - 255) * keep),
    )


def label_color(role_color: QColor, emphasis: float) -> QColor:
    """A label's colour: the role's, darker, and fainter with the arrow, but never under WCAG's 4.5 : 1 for text on
    the label's white backdrop (a label tells the weight in words too, so it must stay readable when the arrow's
    faintness says "little weight")."""
    text = role_color.darker(125)
    floor = least_strength((text.red(), text.green(), text.blue()), WHITE_RGB, TEXT_CONTRAST)
    return _fade(text, max(min(1.0, 0.3 + emphasis), floor))


def head_outline_color(role_color: QColor, emphasis: float) -> QColor:
    """The colour a head's edge is drawn in: the arrow's own, but never under WCAG's 3 : 1 for a user-interface
    component on the white plot (1.4.11). The head is the handle a student drags, so it must be found however
    faint its weight draws the arrow; the shaft and the head's fill keep fading, which is what says "little weight"
    (a floor on the whole arrow would need 0.69 to 0.89 of the strength and leave little to fade)."""
    floor = least_strength((role_color.red(), role_color.green(), role_color.blue()), WHITE_RGB, GRAPHICS_CONTRAST)
    return _fade(role_color, max(emphasis, floor))


_COLOURS: dict[tuple[int, float], tuple[QColor, QColor, QColor]] = {}


def _colours_at(role_color: QColor, emphasis: float) -> tuple[QColor, QColor, QColor]:
    """An arrow's colour, its head's outline and its label's at this strength (rounded to EMPHASIS_STEPS): worked
    out once for each role's colour and strength, as a drag restyles keys and values on most moves. The colours
    are only read (pens and painters copy them)."""
    key = (role_color.rgba(), emphasis)
    colours = _COLOURS.get(key)
    if colours is None:
        colours = _COLOURS[key] = (_fade(role_color, emphasis), head_outline_color(role_color, emphasis),
                                   label_color(role_color, emphasis))
    return colours


class ArrowItem(ArrowDrawing, ArrowGestures):
    def __init__(self, label: str, color: QColor, draggable: bool = True, clickable: bool = False) -> None:
        super().__init__()
        # PySide's attribute write on a QObject first looks for a Qt property or signal of that name: 0.3 µs, ten
        # times a plain object's. What a drag move changes (some 90 writes a move: tips, labels, styles, caches)
        # is written straight into the instance's dict, which attribute reads find as ever.
        self._fields: dict[str, Any] = self.__dict__
        self._tip = QPointF(0.0, 0.0)
        self._base = QPointF(0.0, 0.0)  # where the arrow starts: the origin, except on a number line
        # The same as plain numbers: label placement reads every arrow's tip and base on every drag move.
        self._tip_xy = (0.0, 0.0)
        self._base_xy = (0.0, 0.0)
        self._label = label
        self._role_color = QColor(color)
        self._color = QColor(color)
        self._outline_color = head_outline_color(self._role_color, 1.0)
        self._text_color = self._role_color.darker(125)
        self._emphasis = 1.0
        self._width = 2.0
        self._dashed = False
        self._make_pens()
        self._highlighted = False  # pointed at elsewhere (a table row): a halo
        self._focused = False  # chosen for the arrow keys (Tab cycles): show the grab handle
        self._ring_shown = True  # off while the canvas is painted into a picture (see set_grab_ring_shown)
        self._font = QFont()
        self._font.setPointSizeF(10.0)
        self._font.setBold(True)
        # Each text's size in this font, as measured: a drag move gives a key's label a new percentage and its
        # short name again, and an arrow's labels come back to the same few texts (see _measure).
        self._sizes: dict[str, QSizeF] = {}
        # A shorter name ("k·cat" for "k·cat 76%"), shown where the whole label finds no room by its tip
        # (see label_layout): "" for none. Shortened: the canvas placed the short one.
        self._short_label = ""
        self._short_width: float | None = None
        self._short_names_it = False  # the short name still says which arrow it is ("k·cat", not a bare "q")
        self._label_shortened = False
        self._label_size = self._measure(label)  # the shown label's size, with its backdrop
        self._whole_width = self._label_size.width()  # the whole label's width, shown or not
        self._label_text: QStaticText | None = None  # the label laid out once, not on every paint
        # Where the canvas put the label (see label_layout): its top-left corner from the tip in data units,
        # so a picture exported at twice the size keeps it as near; None: the usual spot beyond the tip.
        self._label_offset: tuple[float, float] | None = None
        self._label_offset_view_px: tuple[float, float] | None = None  # the same as the canvas chose it
        self._leader_to: QPointF | None = None  # in data units: the tip, or where the arrow leaves the view
        self._pointer = False  # the tip is out of view: the leader ends in a pointer at the plot's edge
        self._label_hidden = False  # no room for it (a minor label); pointing at the arrow still names it
        self._obstacle_cache: tuple[tuple[float, float, float, float], list[Obstacle]] | None = None
        self._request_cache: tuple[tuple[object, ...], LabelRequest] | None = None
        # Counts changes of the shaft and head as drawn: the canvas re-reads an arrow's shapes for
        # label placement only when this has moved on (cheaper than a signal from every arrow per move).
        self.shape_version = 0
        # Counts changes to how the arrow itself is drawn (shape, style, halo, grab ring), not its label: a
        # layer keeps unchanged arrows as a picture and draws only those whose count moved (layer_picture.py).
        self.look_version = 0
        # Counts changes to where the arrow or its label paints (see painted_area): its layer works out the area
        # again only when this has moved on (a label given a new percentage in the same width paints where it did).
        self.area_version = 0
        # Counts changes to what the label asks of placement (the tip and base, the label's sizes and short name,
        # whether it is hidden, where it was put): label_request's answer is kept while this stays.
        self.request_version = 0
        self._screen_shapes = None
        self._pixel_size_cache: tuple[float, float] | None = None
        self._bounds: QRectF | None = None
        # The item that draws this arrow with the others of its plot (an ArrowLayer, see arrow_layer.py).
        self._layer: DrawingLayer | None = None
        self.head_shape = "triangle"  # "open" or "diamond" when roles are shown by shape as well as colour
        self._take_gestures(draggable, clickable)

    # ----- state the canvas sets ---------------------------------------
    @property
    def tip(self) -> QPointF:
        return QPointF(self._tip)

    @property
    def label(self) -> str:
        return self._label

    def set_tip(self, x: float, y: float) -> bool:
        """Move the tip; returns whether it moved."""
        if x == self._tip_xy[0] and y == self._tip_xy[1]:
            return False
        self.prepareGeometryChange()
        fields, tip = self._fields, QPointF(x, y)
        fields["_tip"], fields["_tip_xy"] = tip, (tip.x(), tip.y())
        self._forget_obstacles()
        self.update()
        return True

    def set_base(self, x: float, y: float) -> None:
        if x != self._base_xy[0] or y != self._base_xy[1]:
            self.prepareGeometryChange()
            self._base = QPointF(x, y)
            self._base_xy = (self._base.x(), self._base.y())
            self._forget_obstacles()
            self.update()

    def set_label(self, label: str, short: str = "", short_names_it: bool = False) -> None:
        """The arrow's label, and SHORT, a shorter one for a plot with no room for the whole ("": none);
        SHORT_NAMES_IT when the short one still says which arrow it is ("k·cat" for "k·cat 76%", not "q"):
        then it is shown where the whole has no room even if the label is not one the class must read."""
        short = short if label and short != label else ""
        fields = self._fields
        if (short_names_it and bool(short)) != self._short_names_it:
            fields["_short_names_it"] = short_names_it and bool(short)
            fields["request_version"] = self.request_version + 1
        if (label, short) != (self._label, self._short_label):
            whole, short_size = self._measure(label), self._measure(short) if short else None
            shown = short_size if short_size is not None and self._label_shortened else whole
            # A new percentage in the same width ("k·cat 76%" to "k·cat 77%", on every drag move) keeps the label's
            # box: the arrow's bounds and painted area stay as they are, and Qt need not hear of a change.
            if bool(label) != bool(self._label) or \
                    (shown.width(), shown.height()) != (self._label_size.width(), self._label_size.height()):
                self.prepareGeometryChange()
            fields["_label"], fields["_short_label"] = label, short
            self._take_sizes(whole, short_size)

    def _measure_label(self) -> None:
        self._take_sizes(self._measure(self._label), self._measure(self._short_label) if self._short_label else None)

    def _take_sizes(self, whole: QSizeF, short: QSizeF | None) -> None:
        """The label's sizes as measured: the whole one's and the short one's (None: it has none)."""
        fields = self._fields
        fields["_whole_width"] = whole.width()
        fields["_short_width"] = short.width() if short is not None else None
        fields["_label_size"] = short if short is not None and self._label_shortened else whole
        fields["_label_text"] = None
        fields["request_version"] = self.request_version + 1
        self.update_label()

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
        if width != self._width:
            self._forget_obstacles()  # the head grows with the width; a fainter colour or a dash changes no shape
        fields = self._fields
        fields["_width"], fields["_dashed"], fields["_emphasis"] = width, dashed, emphasis
        fields["_color"], fields["_outline_color"], fields["_text_color"] = _colours_at(self._role_color, emphasis)
        self._make_pens((self._role_color.rgba(), emphasis, width, dashed))  # the colours' own key, and the rest
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

    def set_grab_ring_shown(self, shown: bool) -> None:
        """Draw the grab ring when the pointer, the keys or a drag call for it, or never, as an exported
        picture does: those belong to the screen, not to the scene. Hovered, focused and dragged are kept."""
        if shown != self._ring_shown:
            self._ring_shown = shown
            if self._hovered or self._focused or self.is_dragging:
                self.update()

    def set_highlighted(self, on: bool) -> None:
        if on != self._highlighted:
            self._highlighted = on
            self.update()

    def set_label_hidden(self, hidden: bool) -> None:
        if hidden != self._label_hidden:
            self._label_hidden = hidden
            self.area_version += 1  # a hidden label paints nothing
            self.request_version += 1
            self.update_label()

    def set_font_size(self, points: float) -> None:
        self.prepareGeometryChange()
        self._font.setPointSizeF(points)
        self._sizes.clear()
        self._measure_label()

    def _measure(self, text: str) -> QSizeF:
        """The label's size with its backdrop, as measured once (never changed: the caller may keep it)."""
        size = self._sizes.get(text)
        if size is None:
            if len(self._sizes) >= MEASURED_TEXTS:
                self._sizes.clear()
            size = QFontMetricsF(self._font).size(0, text)
            size.setWidth(size.width() + 2 * LABEL_PADDING_PX)
            self._sizes[text] = size
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
        # The repaint is asked for by the update() or update_label() that follows, for the area that changed.
        fields = self._fields
        fields["_bounds"] = None
        fields["area_version"] = self.area_version + 1
        super().prepareGeometryChange()

    # ----- drawn by a layer -------------------------------------------------
    def join_layer(self, layer: DrawingLayer | None) -> None:
        """Be drawn by `layer` with the other arrows of its plot (see arrow_layer.py), or alone again."""
        self._layer = layer
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, layer is not None)
        super().update()

    def update(self, *args: object) -> None:
        """The arrow looks different: ask for a repaint (of the layer that draws it, if it has one)."""
        self._fields["look_version"] = self.look_version + 1
        self._ask_for_repaint(looks_changed=True)

    def update_label(self) -> None:
        """Only the label changed (its text, size or place): a repaint that leaves the arrow's picture alone."""
        self._ask_for_repaint(looks_changed=False)

    def _ask_for_repaint(self, looks_changed: bool) -> None:
        layer = self._live_layer()
        if layer is not None:
            layer.arrow_changed(self, looks_changed)
        else:
            super().update()

    def _live_layer(self) -> DrawingLayer | None:
        # While a window is torn down, Qt may delete the layer before the arrows that still report to it.
        layer = self._layer
        return layer if layer is not None and shiboken6.isValid(layer) else None

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
        self.update()
