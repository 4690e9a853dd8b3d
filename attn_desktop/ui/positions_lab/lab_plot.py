"""A small still plot of the Positions lab: a curve or two against a whole-number axis, and a dot on each.

The lab's plots are read, not explored: no mouse zoom, no menu, the axes cached (plot_style.py).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from attn_desktop.ui.language.plot_direction import keep_left_to_right
from attn_desktop.ui.plot_style import cache_axes_and_grid

PLOT_MIN_HEIGHT = 100  # px: the layout audit's smallest plot a person reads
PLOT_HEIGHT = 130  # px: a page's plots keep this height and the page scrolls, rather than squeeze them


class LabPlot(pg.PlotWidget):
    def __init__(self, x_label: str, y_label: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        keep_left_to_right(self)  # x to the right and the y axis on the left, in Arabic too
        plot = self.getPlotItem()
        make_still(plot)
        plot.setLabel("bottom", x_label)
        plot.setLabel("left", y_label)
        plot.showGrid(x=True, y=True, alpha=0.2)
        cache_axes_and_grid(plot)
        self.setFixedHeight(PLOT_HEIGHT)
        self.curves: list[pg.PlotDataItem] = []
        self.dots: list[pg.PlotDataItem] = []
        self._y_range: tuple[float, float] | None = None  # as last set: unchanged, the axes are not redrawn

    def add_curve(self, color: QColor, name: str) -> int:
        """A curve and its dot, in COLOR; returns its index for set_curve and mark."""
        plot = self.getPlotItem()
        self.curves.append(plot.plot(pen=pg.mkPen(color, width=2), name=name))
        self.dots.append(plot.plot(pen=None, symbol="o", symbolSize=9, symbolBrush=color, symbolPen="w"))
        return len(self.curves) - 1

    def set_curve(self, index: int, x: np.ndarray, y: np.ndarray) -> None:
        """The curve, in a range symmetric about 0 and rounded up to a round number: a drag that moves the
        curve a little keeps the axes as they were (redrawing them costs more than the rest of a move), a
        flat line sits at its height with room around it, and the sign of q·k reads at a glance."""
        y = np.asarray(y, dtype=float)
        self.curves[index].setData(np.asarray(x, dtype=float), y)
        bound = round_up(float(np.abs(y).max()) * 1.1) if len(y) else 1.0
        if (bound, -bound) != self._y_range:
            self._y_range = (bound, -bound)
            self.getPlotItem().setYRange(-bound, bound, padding=0)

    def mark(self, index: int, x: float, y: float) -> None:
        self.dots[index].setData([float(x)], [float(y)])

    def curve_data(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        x, y = self.curves[index].getData()
        return np.asarray(x), np.asarray(y)


def make_still(plot: pg.PlotItem) -> None:
    """A plot to read, not to explore: no menu, no buttons, no zoom or pan under the mouse."""
    plot.setMenuEnabled(False)
    plot.hideButtons()
    plot.setMouseEnabled(x=False, y=False)


ROUND_STEPS = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)


def round_up(value: float) -> float:
    """The least of 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 (times a power of ten) at or above VALUE; 1 for 0 or less."""
    if not np.isfinite(value) or value <= 0:
        return 1.0
    scale = 10.0 ** np.floor(np.log10(value))
    return float(next(step * scale for step in ROUND_STEPS if step * scale >= value * (1 - 1e-12)))
