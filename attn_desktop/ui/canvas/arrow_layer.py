"""One item that draws every arrow of a plot, in a single paint.

All arrows start at the origin, so a drag move that changes any of them leaves a dirty region
every other arrow crosses, and Qt repaints them all anyway. As separate items, each costs Qt
a bounding-rect query, a painter set-up and a call into Python for its paint: at 64 tokens
(192 arrows) that overhead was about half of the canvas's paint time. The layer pays it once:
the arrows stay items of their own for everything else (the mouse, hover, tooltips, label
placement), but draw nothing themselves (ItemHasNoContents); a change to one asks the layer to
repaint, and the layer draws them all, in their z order, the shafts and heads of each z level
in a few batched calls (shape_batch.py), then every label on top, where a shaft can no longer
cross one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem

from attn_desktop.ui.canvas.shape_batch import ShapeBatch

if TYPE_CHECKING:
    from attn_desktop.ui.canvas.arrow_item import ArrowItem

ANTIALIASING = QPainter.RenderHint.Antialiasing


class ArrowLayer(QGraphicsItem):
    """Draws the arrows it is given; its area is the plot's view (what lies outside is clipped anyway,
    and a label for a tip out of view is drawn at the view's edge), so no arrow's change changes it."""

    def __init__(self, view_box: pg.ViewBox) -> None:
        super().__init__()
        self._arrows: list[ArrowItem] = []  # in drawing order: by z value, then as added
        self._view_box = view_box
        self._bounds = QRectF(view_box.viewRect())
        view_box.sigTransformChanged.connect(self.view_changed)

    def add(self, arrow: ArrowItem) -> None:
        self._arrows.append(arrow)
        self._arrows.sort(key=lambda item: item.zValue())  # a stable sort: equal z keeps the order added
        arrow.join_layer(self)
        self.update()

    def remove(self, arrow: ArrowItem) -> None:
        if arrow in self._arrows:
            self._arrows.remove(arrow)
            arrow.join_layer(None)
            self.update()

    def tips_outside(self) -> bool:
        """Whether an arrow's tip lies out of the plot's view (training or an undo moved it there)."""
        view = self._view_box.viewRect()
        return any(arrow.isVisible() and not view.contains(arrow.tip) for arrow in self._arrows)

    def view_changed(self, *_) -> None:
        """A zoom, a pan or a resize: the layer covers the new view."""
        view = QRectF(self._view_box.viewRect())
        if view != self._bounds:
            self.prepareGeometryChange()
            self._bounds = view

    def boundingRect(self) -> QRectF:
        return QRectF(self._bounds)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        to_screen = painter.transform()
        painter.resetTransform()  # the arrows draw in pixels
        painter.setRenderHint(ANTIALIASING)
        shown = [arrow for arrow in self._arrows if arrow.isVisible()]
        batch = ShapeBatch()
        rings: list[tuple[ArrowItem, QPointF]] = []
        for index, arrow in enumerate(shown):
            tip = arrow.draw_arrow(painter, to_screen, batch)
            if tip is not None:
                rings.append((arrow, tip))
            last_of_its_level = index + 1 == len(shown) or shown[index + 1].zValue() != arrow.zValue()
            if last_of_its_level:  # one batch per z level: queries stay above keys
                batch.flush(painter)
                for ringed, ring_tip in rings:
                    ringed.draw_ring(painter, ring_tip)
                rings.clear()
        for arrow in shown:
            arrow.draw_label(painter, to_screen)
