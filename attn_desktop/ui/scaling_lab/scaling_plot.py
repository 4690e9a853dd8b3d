"""One plot of the √d_k lab: a number against the key width d_k, with and without the division.

The width runs on a log scale (2 to 512: each doubling the same distance apart), the two curves
are drawn once, and a dot on each curve and a vertical line mark the width the slider has chosen.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from attn_desktop.language import tr
from attn_desktop.model import Role
from attn_desktop.model.teaching.scaling_lab import D_K_MAX, D_K_MIN
from attn_desktop.ui.language.plot_direction import keep_left_to_right
from attn_desktop.ui.palette import ROLE_COLORS
from attn_desktop.ui.plot_style import cache_axes_and_grid

RAW_COLOR = ROLE_COLORS[Role.KEY]  # scores as they are: orange
SCALED_COLOR = ROLE_COLORS[Role.QUERY]  # divided by √d_k: blue
# Every other power of two is named first; the others are named where there is room (pyqtgraph leaves
# out a lower level's text that would overlap), so a narrow presentation-mode plot stays legible.
NAMED_FIRST = [2, 8, 32, 128, 512]
NAMED_IF_ROOM = [4, 16, 64, 256]


class ScalingPlot(pg.PlotWidget):
    def __init__(self, y_label: str, parent: QWidget | None = None) -> None:
        """Y_LABEL: the vertical axis's name, in English (marked N_ where it is written): shown translated."""
        super().__init__(parent)
        keep_left_to_right(self)  # x to the right and the y axis on the left, in Arabic too
        self.y_label = y_label
        plot = self.getPlotItem()
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.setMouseEnabled(x=False, y=False)
        plot.setLogMode(x=True, y=False)
        plot.setLabel("left", tr(y_label))
        plot.setLabel("bottom", "d_k")
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.getAxis("bottom").setTicks([[(np.log10(width), str(width)) for width in widths]
                                         for widths in (NAMED_FIRST, NAMED_IF_ROOM)])
        plot.setXRange(np.log10(D_K_MIN), np.log10(D_K_MAX), padding=0.05)  # room for the 512 under the end
        cache_axes_and_grid(plot)
        self.raw_curve = plot.plot(pen=pg.mkPen(RAW_COLOR, width=2), name="q · k")
        self.scaled_curve = plot.plot(pen=pg.mkPen(SCALED_COLOR, width=2), name="q · k / √d_k")
        self.marker_line = pg.InfiniteLine(angle=90, pen=pg.mkPen(QColor(120, 120, 120), style=Qt.PenStyle.DashLine))
        plot.addItem(self.marker_line)
        # Data items, like the curves, so the plot's log scale applies to them the same way.
        self.raw_dot = plot.plot(pen=None, symbol="o", symbolSize=10, symbolBrush=RAW_COLOR, symbolPen="w")
        self.scaled_dot = plot.plot(pen=None, symbol="o", symbolSize=10, symbolBrush=SCALED_COLOR, symbolPen="w")

    def reword(self) -> None:
        """The axis's name in the language just chosen."""
        self.getPlotItem().setLabel("left", tr(self.y_label))

    def set_curves(self, widths: np.ndarray, raw: np.ndarray, scaled: np.ndarray, top: float) -> None:
        self.raw_curve.setData(widths, raw)
        self.scaled_curve.setData(widths, scaled)
        self.getPlotItem().setYRange(0, top, padding=0.02)

    def mark(self, d_k: int, raw: float, scaled: float) -> None:
        """The chosen width: a line across the plot (placed in the axis's log units) and a dot on each curve."""
        self.marker_line.setValue(float(np.log10(d_k)))
        self.raw_dot.setData([d_k], [raw])
        self.scaled_dot.setData([d_k], [scaled])
