"""The induction loss's plateau and drop, marked on the training curves as they happen.

While the loss still sits near ln V (the model guesses among the letters), a shaded band covers the
plateau so far; once the loss (a mean of the last few steps) falls below half of ln V, the band ends
where the plateau ended and a vertical line marks the drop, labelled "drop at step N", on both plots.
The places are model/training/induction_circuit.loss_drop's, worked out from the losses shown so far.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor

from attn_desktop.language import tr
from attn_desktop.model.training.induction_circuit import loss_drop

PLATEAU_COLOR = QColor(120, 120, 120, 50)
PLATEAU_TEXT_COLOR = QColor("#444444")
DROP_COLOR = QColor("#117733")
LOWER_THAN_ANY_LOSS = -1e12  # (a loss is never negative)
LABEL_HEIGHT = 0.99  # up the plot, where the words hang from: the top of the free strip over the curve
# Where a word sits against its point (pyqtgraph's anchors: (0, 0) puts the text's top left corner there, y -1
# one text's height lower): "plateau" hangs from the top, the drop's words a line under it.
FIRST_LINE, SECOND_LINE = (0, 0), -1


class LossDropMarks:
    """A band for the plateau and a line for the drop, on LOSS_PLOT (the line also on OTHER_PLOTS)."""

    def __init__(self, loss_plot: pg.PlotItem, other_plots: Sequence[pg.PlotItem] = ()) -> None:
        self.plateau = pg.LinearRegionItem(movable=False, brush=pg.mkBrush(PLATEAU_COLOR),
                                           pen=pg.mkPen(None))
        self.plateau.setZValue(-10)  # under the curve and the grid's labels
        # Both words in the free strip over the curve (the loss axis's headroom, TrainingCurves), one line each:
        # "plateau" from the band's start, "drop at step N" under it beside its line. Low in the band, "plateau"
        # lay over the curve falling through it in a narrow plot.
        self.plateau_label = pg.InfLineLabel(self.plateau.lines[0], "", position=LABEL_HEIGHT,
                                             anchors=[FIRST_LINE, FIRST_LINE], color=PLATEAU_TEXT_COLOR)
        self.drop_lines = [pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen(DROP_COLOR, width=2))
                           for _ in range(1 + len(other_plots))]
        self.drop_label = pg.InfLineLabel(self.drop_lines[0], "", position=LABEL_HEIGHT,
                                          anchors=[(0, SECOND_LINE), (0, SECOND_LINE)], color=DROP_COLOR)
        self.loss_view = loss_plot.getViewBox()
        self.loss_view.sigXRangeChanged.connect(self._place_drop_label)
        self.loss_view.sigResized.connect(self._place_drop_label)
        loss_plot.addItem(self.plateau)
        for plot, line in zip((loss_plot, *other_plots), self.drop_lines, strict=True):
            plot.addItem(line)
        self.plateau_steps: tuple[float, float] | None = None  # (first, last) step of the plateau, as shown
        self.drop_step: float | None = None
        self.clear()
        self.reword()

    def reword(self) -> None:
        """The band's and the line's words in the current language."""
        # Translators: the shaded band on the Training panel's loss curve where the loss stays flat (induction).
        self.plateau_label.setFormat(tr("plateau"))
        self.drop_label.setFormat("" if self.drop_step is None else drop_text(self.drop_step))

    def clear(self) -> None:
        self.plateau_steps, self.drop_step = None, None
        self.plateau.setVisible(False)
        for line in self.drop_lines:
            line.setVisible(False)

    def follow(self, steps: np.ndarray, losses: np.ndarray, vocab_size: int) -> None:
        """Mark the plateau and the drop of LOSSES (one per step of STEPS, oldest first)."""
        if not len(steps):
            self.clear()
            return
        plateau_end, drop = loss_drop(losses.tolist(), vocab_size)
        if drop is None:
            plateau_end = plateau_so_far(losses, vocab_size)
        self._show_plateau(None if plateau_end is None else (float(steps[0]), float(steps[plateau_end])))
        self._show_drop(None if drop is None else float(steps[drop]))

    def _show_plateau(self, span: tuple[float, float] | None) -> None:
        if span == self.plateau_steps:
            return
        self.plateau_steps = span
        self.plateau.setVisible(span is not None)
        if span is not None:
            self.plateau.setRegion(span)
            self.plateau_label.updateTransform(force=True)  # (as the drop's words, _place_drop_label)

    def _show_drop(self, step: float | None) -> None:
        if step == self.drop_step:
            return
        self.drop_step = step
        for line in self.drop_lines:
            line.setVisible(step is not None)
            if step is not None:
                line.setValue(step)
        self.drop_label.setFormat("" if step is None else drop_text(step))
        self._place_drop_label()

    def _place_drop_label(self) -> None:
        """The drop's words beside its line, on the side with room for them, or slid along it as far as they must
        be to stay inside the plot (a longer language's words may be wider than either side): never cut."""
        if self.drop_step is None:
            return
        plot = self.loss_view.sceneBoundingRect()
        line_x = self.loss_view.mapViewToScene(QPointF(self.drop_step, 0)).x()
        width = self.drop_label.textItem.boundingRect().width()
        share = _share_left_of_line(line_x, width, plot.left(), plot.right())
        self.drop_label.anchors = [(share, SECOND_LINE), (share, SECOND_LINE)]
        self.drop_label.updatePosition()
        # Turned and sized for the view now: a text keeps the view's transform of when it was last shown (the
        # line was hidden since), and drawn with it the words stood far off the plot, where nothing repaints them.
        self.drop_label.updateTransform(force=True)


def _share_left_of_line(line_x: float, width: float, left: float, right: float) -> float:
    """How much of a text WIDTH wide goes left of its line at LINE_X (0: all right of it, 1: all left) for it to
    lie between LEFT and RIGHT: right of the line where it fits, else left, else as far right as it can."""
    if width <= 0 or line_x + width <= right:
        return 0.0
    if line_x - width >= left:
        return 1.0
    return min(1.0, max(0.0, (line_x + width - right) / width))


def drop_text(step: float) -> str:
    # Translators: on the line where the induction loss drops, on the Training panel's curves.
    return tr("drop at step {step}").format(step=f"{step:.0f}")


def plateau_so_far(losses: np.ndarray, vocab_size: int) -> int | None:
    """Before the drop: the last step still on the plateau, by loss_drop's own rule (its smoothing included).

    loss_drop ends a plateau only at a drop; one step more whose loss is far below anything real is
    such a drop, and changes nothing about the steps before it (each step's mean reads only earlier ones).
    """
    plateau_end, _drop = loss_drop([*np.asarray(losses).tolist(), LOWER_THAN_ANY_LOSS], vocab_size)
    return plateau_end
