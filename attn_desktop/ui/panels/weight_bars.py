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
    def __init__(self, view_box: pg.ViewBox, fill: QColor, edge: QPen, width: float) -> None:
        super().__init__(view_box)
        self._brush, self._pen = QBrush(fill), QPen(edge)
        self._lefts: list[float] = []
        self._widths: list[float] = []
        self._heights = np.zeros(0)
        self._rects: list[QRectF] = []
        self._bar_width = width

    def set_places(self, centres: np.ndarray, width: float) -> None:
        """The bars' centres and their common width, in data units."""
        lefts = np.asarray(centres, dtype=np.float64) - width / 2.0
        self._lefts = lefts.tolist()
        self._widths = ((lefts + width) - lefts).tolist()
        self._bar_width = width
        self._build_rects()

    def set_heights(self, heights: np.ndarray) -> None:
        self._heights = np.array(heights, dtype=np.float64)
        self._build_rects()

    def heights(self) -> np.ndarray:
        return self._heights

    def bar_width(self) -> float:
        return self._bar_width

    def _build_rects(self) -> None:
        self._rects = [QRectF(left, 0.0, width, height)
                       for left, width, height in zip(self._lefts, self._widths, self._heights.tolist())]
        self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setPen(self._pen)
        painter.setBrush(self._brush)
        painter.drawRects(self._rects)
