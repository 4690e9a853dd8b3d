"""One 2-D pair of a query and a key, drawn as arrows from the origin: turned for their positions, and faint
as they were before the turn."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QColor, QResizeEvent
from PySide6.QtWidgets import QWidget

from attn_desktop.model import Role
from attn_desktop.ui.language.plot_direction import keep_left_to_right
from attn_desktop.ui.palette import ROLE_COLORS
from attn_desktop.ui.plot_style import cache_axes_and_grid
from attn_desktop.ui.positions_lab.lab_plot import PLOT_HEIGHT, make_still, round_up

FAINT_ALPHA = 70
HEAD_PX = 12


class PairArrow:
    """A shaft from the origin and a head at the tip, in one plot."""

    def __init__(self, plot: pg.PlotItem, color: QColor, width: float) -> None:
        self.shaft = plot.plot(pen=pg.mkPen(color, width=width))
        self.head = pg.ArrowItem(headLen=HEAD_PX, tipAngle=30, pen=pg.mkPen(color), brush=color)
        plot.addItem(self.head)
        self.tip = np.zeros(2)

    def set_tip(self, tip: np.ndarray) -> None:
        self.tip = np.asarray(tip, dtype=float)
        self.shaft.setData([0.0, self.tip[0]], [0.0, self.tip[1]])
        # ArrowItem points left at angle 0 and turns clockwise on the screen: this points it along the tip.
        self.head.setStyle(angle=180.0 - math.degrees(math.atan2(self.tip[1], self.tip[0])))
        self.head.setPos(float(self.tip[0]), float(self.tip[1]))


class PairPlot(pg.PlotWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        keep_left_to_right(self)  # x to the right and the y axis on the left, in Arabic too
        plot = self.getPlotItem()
        make_still(plot)
        plot.setAspectLocked(True)
        plot.showGrid(x=True, y=True, alpha=0.2)
        cache_axes_and_grid(plot)
        query, key = ROLE_COLORS[Role.QUERY], ROLE_COLORS[Role.KEY]
        self.q_before = PairArrow(plot, _faint(query), 1.5)
        self.k_before = PairArrow(plot, _faint(key), 1.5)
        self.q_arrow = PairArrow(plot, query, 3)
        self.k_arrow = PairArrow(plot, key, 3)
        self.reach = 1.0  # the frame's half-width, a round number (see show_pair)
        self.setFixedHeight(int(PLOT_HEIGHT * 1.4))
        self._frame()

    def show_pair(self, q: np.ndarray, k: np.ndarray, q_turned: np.ndarray, k_turned: np.ndarray) -> None:
        for arrow, tip in ((self.q_before, q), (self.k_before, k), (self.q_arrow, q_turned), (self.k_arrow, k_turned)):
            arrow.set_tip(tip)
        reach = round_up(float(max(np.linalg.norm(q), np.linalg.norm(k))) * 1.15)
        if reach != self.reach:  # a round number: a small drag keeps the frame, and the axes are not redrawn
            self.reach = reach
            self._frame()

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        super().resizeEvent(event)
        if event is not None:  # (pyqtgraph calls it with None while the plot is being made)
            self._frame()

    def _frame(self) -> None:
        """The circle the arrows turn on, whole and centred, at any size (the aspect is locked: one unit is as
        long across as up)."""
        self.getPlotItem().getViewBox().setRange(xRange=(-self.reach, self.reach), yRange=(-self.reach, self.reach),
                                                 padding=0)


def _faint(color: QColor) -> QColor:
    faint = QColor(color)
    faint.setAlpha(FAINT_ALPHA)
    return faint
