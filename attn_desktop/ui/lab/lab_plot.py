"""A small still plot of the Positions lab: a curve or two against a whole-number axis, and a dot on each.

The lab's plots are read, not explored: no mouse zoom, no menu, the axes cached (plot_style.py).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor

from attn_desktop.ui.plot_style import cache_axes_and_grid

PLOT_MIN_HEIGHT = 100  # px: the layout audit's smallest plot a person reads
PLOT_HEIGHT = 130  # px: a page's plots keep this height and the page scrolls, rather than squeeze them


class LabPlot(pg.PlotWidget):
    def __init__(self, x_label: str, y_label: str, parent=None) -> None:
        super().__init__(parent)
        plot = self.getPlotItem()
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.setMouseEnabled(x=False, y=False)
        plot.setLabel("bottom", x_label)
        plot.setLabel("left", y_label)
        plot.showGrid(x=True, y=True, alpha=0.2)
        cache_axes_and_grid(plot)
        self.setFixedHeight(PLOT_HEIGHT)
        self.curves: list[pg.PlotDataItem] = []
        self.dots: list[pg.PlotDataItem] = []

    def add_curve(self, color: QColor, name: str) -> int:
        """A curve and its dot, in COLOR; returns its index for set_curve and mark."""
        plot = self.getPlotItem()
        self.curves.append(plot.plot(pen=pg.mkPen(color, width=2), name=name))
        self.dots.append(plot.plot(pen=None, symbol="o", symbolSize=9, symbolBrush=color, symbolPen="w"))
        return len(self.curves) - 1

    def set_curve(self, index: int, x: np.ndarray, y: np.ndarray) -> None:
        y = np.asarray(y, dtype=float)
        self.curves[index].setData(np.asarray(x, dtype=float), y)
        low, high = float(y.min()), float(y.max())
        if high - low < 1e-6 * max(1.0, abs(high)):  # a flat line: room above and below, not ticks 1e-15 apart
            self.getPlotItem().setYRange(low - 1, high + 1, padding=0)
        else:
            self.getPlotItem().enableAutoRange(axis="y")

    def mark(self, index: int, x: float, y: float) -> None:
        self.dots[index].setData([float(x)], [float(y)])

    def curve_data(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        x, y = self.curves[index].getData()
        return np.asarray(x), np.asarray(y)
