"""A layer's unchanged arrows kept as pictures, so a drag move draws only the arrows it changed.

Every arrow starts at the origin, so a move that changes one of them repaints the whole plot; but a
move changes about two arrows of 193 at 64 tokens (the dragged one and the output, now and then one
whose weight crossed a style step). The layer's other arrows are drawn once into pictures the size
of the plot, and each paint lays those down and draws only the changed ("live") arrows by hand.

Order is kept: a full paint draws each z level's shafts, then its heads, then the next level
(queries over keys). At a level with live arrows the unchanged arrows are split there: a picture up
to the level's unchanged shafts, the live shafts, a picture of the level's unchanged heads and on,
the live heads. So the pixels are a full paint's, but for two things: an edge's antialiasing, rounded
a little differently when laid over the plot; and where shafts of one level cross (near the origin),
a live one lies on top, where a full paint (which draws a level's shafts grouped by pen) may have
put it under: the arrow being dragged shows over its neighbours. Labels are never in a picture: the
layer draws them all on top.

The pictures are drawn again when the view's mapping, the plot's area, the set of arrows shown, or
the set of changed arrows is new (an arrow that was unchanged changed); when many arrows change at
once (training moves them all), or a plot has only a few, they are all drawn directly and no picture
is kept.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QTransform

from attn_desktop.ui.canvas.shape_batch import Parts

if TYPE_CHECKING:
    from attn_desktop.ui.canvas.arrow_item import ArrowItem

MAX_LIVE_SHARE = 0.25  # more of the arrows changed at once than this: drawing them all directly is as quick
# Fewer arrows than this are drawn directly: at six tokens a move restyles most of them, and their pictures'
# upkeep (and memory: 0.8 MB per picture of a plot) would cost more than it saves.
MIN_ARROWS_FOR_PICTURES = 32
DrawArrows = Callable[[QPainter, QTransform, Sequence["ArrowItem"], Parts], None]
Stroke = tuple[list[int], Parts]  # arrows (indices into those shown) and the parts of them drawn


class LayerPicture:
    """The pictures of one layer's unchanged arrows, and which arrows are drawn live between them."""

    def __init__(self) -> None:
        self._drawn_for: tuple | None = None  # the mapping, area and arrows the pictures were drawn for
        self._painted_versions: list[int] = []  # each shown arrow's look_version as last painted
        self._live: set[int] = set()  # indices (into the arrows shown) of those drawn live
        # In drawing order: a picture (its top-left corner in pixels) or live arrows drawn between pictures.
        self._steps: list[tuple[QImage, QPointF] | Stroke] = []
        self.pictures_drawn = 0  # how often the pictures were drawn anew

    def forget(self) -> None:
        """Draw the pictures anew at the next paint."""
        self._drawn_for = None
        self._steps = []

    def live_indices(self) -> set[int]:
        """The arrows (indices into those shown) drawn live over the pictures at the last paint: none when no
        picture is kept (every arrow drawn directly, in its place)."""
        return self._live if self._drawn_for is not None else set()

    def paint(self, painter: QPainter, to_screen: QTransform, area: QRectF, shown: list[ArrowItem],
              draw_arrows: DrawArrows) -> None:
        """Draw SHOWN (in drawing order) as DRAW_ARROWS would, within AREA (the plot's view, in pixels)."""
        if len(shown) < MIN_ARROWS_FOR_PICTURES:  # drawn directly, before working out what a picture would need
            self.forget()
            draw_arrows(painter, to_screen, shown, Parts.ALL)
            return
        ratio = painter.device().devicePixelRatioF()
        pixels = _whole_pixels(area)
        drawn_for = (to_screen.m11(), to_screen.m22(), to_screen.dx(), to_screen.dy(),
                     pixels.getRect(), ratio, tuple(map(id, shown)))
        versions = [arrow.look_version for arrow in shown]
        changed = None
        if drawn_for == self._drawn_for:
            changed = {index for index, (now, then) in enumerate(zip(versions, self._painted_versions)) if now != then}
        self._painted_versions = versions
        if changed is not None and changed <= self._live:
            self._lay_down(painter, to_screen, shown, draw_arrows)
            return
        live = changed or set()
        if len(live) > MAX_LIVE_SHARE * len(shown) or ratio != math.floor(ratio) or pixels.isEmpty():
            self.forget()  # many changed, or a fractional pixel ratio a picture would blur: draw them all
            draw_arrows(painter, to_screen, shown, Parts.ALL)
            return
        self._draw_pictures(to_screen, pixels, ratio, shown, live, draw_arrows)
        self._drawn_for = drawn_for
        self._lay_down(painter, to_screen, shown, draw_arrows)

    def _lay_down(self, painter: QPainter, to_screen: QTransform, shown: list[ArrowItem],
                  draw_arrows: DrawArrows) -> None:
        for step in self._steps:
            if isinstance(step[0], QImage):
                image, corner = step
                painter.drawImage(corner, image)
            else:
                indices, parts = step
                draw_arrows(painter, to_screen, [shown[index] for index in indices], parts)

    def _draw_pictures(self, to_screen: QTransform, pixels: QRectF, ratio: float, shown: list[ArrowItem],
                       live: set[int], draw_arrows: DrawArrows) -> None:
        """The unchanged arrows in pictures, split at each z level with live arrows (see the module's note)."""
        self._live = live
        self._steps = []
        unchanged: list[Stroke] = []  # what the next picture holds
        for level in _levels(shown):
            kept = [index for index in level if index not in live]
            live_here = [index for index in level if index in live]
            if not live_here:
                unchanged.append((kept, Parts.ALL))
                continue
            self._add_picture(to_screen, pixels, ratio, shown, [*unchanged, (kept, Parts.SHAFTS)], draw_arrows)
            self._steps.append((live_here, Parts.SHAFTS))
            self._add_picture(to_screen, pixels, ratio, shown, [(kept, Parts.HEADS)], draw_arrows)
            self._steps.append((live_here, Parts.HEADS))
            unchanged = []
        self._add_picture(to_screen, pixels, ratio, shown, unchanged, draw_arrows)
        self.pictures_drawn += 1

    def _add_picture(self, to_screen: QTransform, pixels: QRectF, ratio: float, shown: list[ArrowItem],
                     strokes: list[Stroke], draw_arrows: DrawArrows) -> None:
        strokes = [(indices, parts) for indices, parts in strokes if indices]
        if not strokes:
            return
        image = QImage(round(pixels.width() * ratio), round(pixels.height() * ratio),
                       QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(ratio)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.translate(-pixels.left(), -pixels.top())  # the arrows draw in the view's pixels
        for indices, parts in strokes:
            draw_arrows(painter, to_screen, [shown[index] for index in indices], parts)
        painter.end()
        self._steps.append((image, pixels.topLeft()))


def _whole_pixels(area: QRectF) -> QRectF:
    """AREA grown to whole pixels, so a picture's pixels fall exactly on the screen's."""
    left, top = math.floor(area.left()), math.floor(area.top())
    return QRectF(left, top, math.ceil(area.right()) - left, math.ceil(area.bottom()) - top)


def _levels(shown: list[ArrowItem]) -> list[list[int]]:
    """The indices of SHOWN (sorted by z) grouped by z level, lowest first."""
    levels: list[list[int]] = []
    last_z = None
    for index, arrow in enumerate(shown):
        z = arrow.zValue()
        if z != last_z:
            levels.append([])
            last_z = z
        levels[-1].append(index)
    return levels
