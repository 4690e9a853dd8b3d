"""The weights chart's bars of the real weights: one rectangle from 0 up to each weight, in one fill and edge.

pyqtgraph's BarGraphItem drew them. On each drag move it worked the new heights through its options with
NumPy, told the view box its bounds had changed, and measured itself again in pixels twice (its area maps a
pixel through the view): about a tenth of a millisecond of Python for six rectangles. Here the heights
become the rectangles at once and the item's area is the plot's view (view_area_item.py). The paint is
BarGraphItem's own for bars of one colour: the same pen and brush, and drawRects of the same rectangles in
data units (left = centre − width / 2, width = right − left, as it worked them out), so the same pixels.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from attn_desktop.ui.panels.view_area_item import ViewAreaItem


class WeightBars(ViewAreaItem):
    def __init__(self, view_box: pg.ViewBox, fill: QColor, edge: QPen) -> None:
        super().__init__(view_box)
        self._brush, self._pen = QBrush(fill), QPen(edge)
        self._heights: list[float] = []
        self._rects: list[QRectF] = []  # each bar's, in data units

    def set_places(self, centres: np.ndarray, width: float) -> None:
        """The bars' centres and their common width, in data units: BarGraphItem's sums, in NumPy as there."""
        lefts = np.asarray(centres, dtype=np.float64) - width / 2.0
        widths = (lefts + width) - lefts
        heights = self._heights + [0.0] * (len(lefts) - len(self._heights))
        self._rects = [QRectF(left, 0.0, bar_width, height)
                       for left, bar_width, height in zip(lefts.tolist(), widths.tolist(), heights)]
        self._heights = heights[:len(lefts)]
        self.update()

    def set_heights(self, heights: np.ndarray) -> None:
        """Each bar's height (the bars' count stays what set_places made it); nothing to do if none changed,
        as when a value vector moved."""
        new = np.asarray(heights, dtype=np.float64).tolist()
        if new == self._heights:
            return
        for rect, height in zip(self._rects, new):
            rect.setHeight(height)
        self._heights = new
        self.update()

    def heights(self) -> np.ndarray:
        return np.array(self._heights)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setPen(self._pen)
        painter.setBrush(self._brush)
        painter.drawRects(self._rects)
