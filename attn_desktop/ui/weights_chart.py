"""Bar chart of the selected query's softmax weights, one bar per key."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent
from PySide6.QtGui import QColor

from ..model import Change, Role, Scene, explain
from .palette import ROLE_COLORS
from .plot_style import cache_axes_and_grid

MAX_VALUE_LABELS = 16
LABEL_MOVE_THRESHOLD = 0.002  # in weight: about a pixel on a chart 500 pixels tall, less on any smaller one


class WeightsChart(pg.PlotWidget):
    def __init__(self, scene: Scene, parent=None) -> None:
        super().__init__(parent)
        # Not "self.scene": QGraphicsView.scene() would be shadowed.
        self.attn_scene = scene
        plot = self.getPlotItem()
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.setMouseEnabled(x=False, y=False)
        plot.setLabel("left", "weight")
        plot.setYRange(0, 1.12, padding=0)
        plot.showGrid(y=True, alpha=0.2)
        cache_axes_and_grid(plot)
        color = QColor(ROLE_COLORS[Role.KEY])
        self.bars = pg.BarGraphItem(x=[0], height=[0], width=0.7, brush=color, pen=pg.mkPen(color.darker(130)))
        plot.addItem(self.bars)
        self.value_labels: list[pg.TextItem] = []
        scene.subscribe(self._on_scene_changed)
        self._rebuild()
        self._follow_font()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._follow_font()
        super().changeEvent(event)

    def _follow_font(self) -> None:
        """Ticks and value labels in the widget's font, which presentation mode enlarges."""
        plot = self.getPlotItem()
        for name in ("left", "bottom"):
            plot.getAxis(name).setStyle(tickFont=self.font())
        for label in self.value_labels:
            label.setFont(self.font())

    def _rebuild(self) -> None:
        plot = self.getPlotItem()
        for label in self.value_labels:
            plot.removeItem(label)
        self.value_labels = []
        n = self.attn_scene.n_tokens
        self.bars.setOpts(x=np.arange(n), height=np.zeros(n))
        plot.getAxis("bottom").setTicks([list(enumerate(self.attn_scene.tokens))] if n <= 32 else None)
        plot.setXRange(-0.6, n - 0.4, padding=0)
        if n <= MAX_VALUE_LABELS:
            for index in range(n):
                label = pg.TextItem("", anchor=(0.5, 1.0), color=(40, 40, 40))
                label.setFont(self.font())
                label.setPos(index, 0)
                plot.addItem(label)
                self.value_labels.append(label)
        self.refresh()

    def _on_scene_changed(self, change: Change) -> None:
        if change & Change.STRUCTURE:
            self._rebuild()
        elif change & (Change.NUMBERS | Change.SELECTION):
            self.refresh()

    def refresh(self) -> None:
        weights = self.attn_scene.selected_weights
        visible = self.attn_scene.result.mask[self.attn_scene.selected]
        self.bars.setOpts(height=weights)
        for index, label in enumerate(self.value_labels):
            text = explain.percent(weights[index]) if visible[index] else "masked"
            if text != label.toPlainText():  # re-laying out text is the costly part of a move
                label.setText(text)
            # Moving a text item is the next costliest; most bars barely change on a drag move.
            if abs(label.pos().y() - weights[index]) > LABEL_MOVE_THRESHOLD:
                label.setPos(index, float(weights[index]))

    def shown_heights(self) -> np.ndarray:
        """The bar heights as drawn (what a student reads off the chart)."""
        return np.asarray(self.bars.opts["height"], dtype=float)
