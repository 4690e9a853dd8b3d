"""Loss and accuracy against the training step: two small plots, one above the other.

The curves grow as steps arrive, but the axes do not follow every new point (auto-range
would make the plots twitch 30 times a second): the step axis is widened only when a step
passes its end, by doubling it, and the loss axis only when a loss rises above its top.
Accuracy always runs from 0 to 100 %. Long runs stay cheap to draw: only the points in view
are drawn, thinned to about one per pixel column.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QSize
from PySide6.QtGui import QColor, QFontMetricsF
from PySide6.QtWidgets import QWidget

from attn_desktop.language import tr
from attn_desktop.ui.language.plot_direction import keep_left_to_right, plot_left_to_right
from attn_desktop.ui.plot_style import cache_axes_and_grid

LOSS_COLOR = QColor("#CC3311")
ACCURACY_COLOR = QColor("#0077BB")
FIRST_STEP_SPAN = 100  # the step axis's length before the task says how long it usually trains
# The least drawing area of each plot. At ~140 × 100 px the curves could not be read from a desk. The width is
# in pixels, not lines of the (presenting: larger) font: presenting on a 1024 screen the left column has about
# 245 px, and more would take the canvas's plots under the 200 px they need.
PLOT_LEAST_WIDTH_PX = 155
PLOT_LEAST_LINES_HIGH = 8  # about 110 px in the everyday font, more presenting
# The loss axis runs this far above the highest loss: a free strip over the curve, two lines of text high in a
# plot of the least height, for the marks' words (LossDropMarks).
LOSS_HEADROOM = 1.6


class GrowingSeries:
    """Steps, losses and accuracies in arrays that grow by doubling (appending stays cheap)."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self._data = np.zeros((3, 256))
        self.count = 0

    def extend(self, metrics: list[Any]) -> None:
        needed = self.count + len(metrics)
        if needed > self._data.shape[1]:
            grown = np.zeros((3, max(needed, 2 * self._data.shape[1])))
            grown[:, :self.count] = self._data[:, :self.count]
            self._data = grown
        for offset, item in enumerate(metrics):
            self._data[:, self.count + offset] = (item.step, item.loss, 100.0 * item.accuracy)
        self.count = needed

    @property
    def steps(self) -> np.ndarray:
        return self._data[0, :self.count]

    @property
    def losses(self) -> np.ndarray:
        return self._data[1, :self.count]

    @property
    def accuracies(self) -> np.ndarray:
        """In percent."""
        return self._data[2, :self.count]


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 1.5, 2, 3, 5, 7 (times a power of ten) that is at least `value`."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for factor in (1, 1.5, 2, 3, 5, 7, 10):
        if factor * power >= value * (1 - 1e-9):
            return factor * power
    return 10 * power


class TrainingCurves(pg.GraphicsLayoutWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        keep_left_to_right(self)  # x to the right and the y axis on the left, in Arabic too
        self.series = GrowingSeries()
        self.step_span = FIRST_STEP_SPAN
        self.exact_match = False  # the second curve is translate's exact match, not an accuracy
        self.loss_top = 1.0
        self.loss_plot = self._add_plot(0)
        self.accuracy_plot = self._add_plot(1)
        self.accuracy_plot.setXLink(self.loss_plot)
        self.loss_plot.getAxis("bottom").setStyle(showValues=False)  # the plot below names the steps
        self.reword()
        self.accuracy_plot.setYRange(-8, 108, padding=0)  # room for the "0" and "100" labels
        self.accuracy_plot.getAxis("left").setTicks([[(0, "0"), (50, "50"), (100, "100")]])
        self.loss_curve = self._add_curve(self.loss_plot, LOSS_COLOR)
        self.accuracy_curve = self._add_curve(self.accuracy_plot, ACCURACY_COLOR)
        self.ci.layout.setSpacing(2)
        self.ci.setContentsMargins(2, 2, 4, 2)
        self._apply_ranges()
        self._follow_font()

    def reword(self) -> None:
        """The axes' names in the current language."""
        # Translators: the Training panel's plots' axes: the loss, the accuracy in percent, the training step.
        self.loss_plot.setLabel("left", tr("loss"))
        # Translators: the second curve's axis on translate: the share of sentences written word for word, in percent.
        self.accuracy_plot.setLabel("left", tr("exact match %") if self.exact_match else tr("accuracy %"))
        self.accuracy_plot.setLabel("bottom", tr("step"))

    def name_accuracy(self, exact_match: bool) -> None:
        """Name the second curve "exact match" (translate: a sentence is right only if every word is) or "accuracy"."""
        self.exact_match = exact_match
        self.reword()

    def _add_plot(self, row: int) -> pg.PlotItem:
        plot = plot_left_to_right(self.addPlot(row=row, col=0))
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.setMouseEnabled(x=False, y=False)  # the axes are the curves' own; a stray drag must not move them
        plot.disableAutoRange()
        plot.showGrid(x=True, y=True, alpha=0.2)
        cache_axes_and_grid(plot)
        return plot

    @staticmethod
    def _add_curve(plot: pg.PlotItem, color: QColor) -> pg.PlotDataItem:
        curve = plot.plot(pen=pg.mkPen(color, width=2))
        curve.setClipToView(True)
        curve.setDownsampling(auto=True, method="peak")
        curve.setSkipFiniteCheck(True)
        return curve

    # ----- data --------------------------------------------------------------
    def start(self, expected_steps: int) -> None:
        """Empty curves for a new run that usually lasts about `expected_steps` steps."""
        self.series.clear()
        self.step_span = max(int(expected_steps), 10)
        self.loss_top = 1.0
        self.loss_curve.setData([], [])
        self.accuracy_curve.setData([], [])
        self._apply_ranges()

    def extend(self, metrics: Iterable[Any]) -> None:
        """Add the steps' losses and accuracies (StepMetrics, oldest first) and redraw once."""
        metrics = list(metrics)
        if not metrics:
            return
        self.series.extend(metrics)
        steps = self.series.steps
        self.loss_curve.setData(steps, self.series.losses)
        self.accuracy_curve.setData(steps, self.series.accuracies)
        widened = False
        while steps[-1] > self.step_span:
            self.step_span *= 2
            widened = True
        highest_loss = float(np.nanmax(self.series.losses[-len(metrics):]))
        if math.isfinite(highest_loss) and highest_loss > self.loss_top:
            self.loss_top = nice_ceiling(highest_loss)
            widened = True
        if widened:
            self._apply_ranges()

    def _apply_ranges(self) -> None:
        self.loss_plot.setXRange(0, self.step_span, padding=0.02)
        self.loss_plot.setYRange(-0.08 * self.loss_top, LOSS_HEADROOM * self.loss_top, padding=0)

    # ----- what is shown (also what the tests read) ---------------------------
    def shown_points(self) -> int:
        return self.series.count

    def shown_steps(self) -> np.ndarray:
        data = self.loss_curve.xData
        return np.zeros(0) if data is None else np.asarray(data)

    def shown_losses(self) -> np.ndarray:
        data = self.loss_curve.yData
        return np.zeros(0) if data is None else np.asarray(data)

    def shown_accuracies(self) -> np.ndarray:
        data = self.accuracy_curve.yData
        return np.zeros(0) if data is None else np.asarray(data)

    # ----- size and font -------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._follow_font()
        super().changeEvent(event)

    def _follow_font(self) -> None:
        """Ticks and labels in the widget's font, which presentation mode enlarges."""
        for plot in (self.loss_plot, self.accuracy_plot):
            for name in ("left", "bottom"):
                axis = plot.getAxis(name)
                axis.setStyle(tickFont=self.font())
                axis.label.setFont(self.font())
        # Both plots' left axes equally wide, so their step axes line up.
        line = QFontMetricsF(self.font()).height()
        for plot in (self.loss_plot, self.accuracy_plot):
            plot.getAxis("left").setWidth(self._left_axis_width())
            # Each drawing area at least as large as it reads: the plot with the step axis under it is not the
            # one that shrinks (the layout would otherwise share the height out with the axis counted in).
            plot.getViewBox().setMinimumSize(PLOT_LEAST_WIDTH_PX, PLOT_LEAST_LINES_HIGH * line)
        self.updateGeometry()

    def _left_axis_width(self) -> int:
        """Room for a tick's number ("0.5", "100") and the axis's name beside it."""
        metrics = QFontMetricsF(self.font())
        return int(metrics.horizontalAdvance("100") + 2 * metrics.height())

    def minimumSizeHint(self) -> QSize:
        """Room for both plots' drawing areas at their least, beside the left axis and over the step axis."""
        line = QFontMetricsF(self.font()).height()
        axis = self._left_axis_width()
        return QSize(int(axis + PLOT_LEAST_WIDTH_PX + 6), int((2 * PLOT_LEAST_LINES_HIGH + 4) * line))

    def sizeHint(self) -> QSize:
        line = QFontMetricsF(self.font()).height()
        least = self.minimumSizeHint()
        return QSize(max(least.width(), int(18 * line)), max(least.height(), int(16 * line)))
