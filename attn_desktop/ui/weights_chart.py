"""Bar chart of the selected query's softmax weights, one bar per key.

Every name and percentage stays apart at any size: the names are laid out by
TokenAxis, and a percentage that would touch another is left out (the larger
weight keeps its label). Pointing at a bar names it whole with its weight.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QRectF, QSize
from PySide6.QtGui import QColor, QFontMetricsF
from PySide6.QtWidgets import QToolTip

from ..model import Change, Role, Scene, explain
from .palette import ROLE_COLORS
from .plot_style import cache_axes_and_grid
from .scene_link import follow_scene
from .token_axis import TokenAxis

MAX_VALUE_LABELS = 16
LABEL_MOVE_THRESHOLD = 0.002  # in weight: about a pixel on a chart 500 pixels tall, less on any smaller one
LABEL_GAP_PX = 2.0  # percentages closer than this count as touching
MAX_SIZED_TOKENS = 8


class WeightsChart(pg.PlotWidget):
    def __init__(self, scene: Scene, parent=None) -> None:
        self.token_axis = TokenAxis()
        super().__init__(parent, axisItems={"bottom": self.token_axis})
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
        self._label_order: list[int] = []  # the percentages by weight, largest first, when last placed
        plot.getViewBox().sigResized.connect(self._place_value_labels)
        follow_scene(self, scene, self._on_scene_changed)
        self._rebuild()
        self._follow_font()

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._follow_font()
        super().changeEvent(event)

    def _follow_font(self) -> None:
        """Ticks and value labels in the widget's font, which presentation mode enlarges."""
        plot = self.getPlotItem()
        if plot is None:  # closed: pyqtgraph has let go of the plot
            return
        for name in ("left", "bottom"):
            plot.getAxis(name).setStyle(tickFont=self.font())
        for label in self.value_labels:
            label.setFont(self.font())
        self.updateGeometry()
        self._place_value_labels()

    def _rebuild(self) -> None:
        plot = self.getPlotItem()
        for label in self.value_labels:
            plot.removeItem(label)
        self.value_labels = []
        n = self.attn_scene.n_tokens
        self.bars.setOpts(x=np.arange(n), height=np.zeros(n))
        self.token_axis.set_tokens(self.attn_scene.tokens)
        plot.setXRange(-0.6, n - 0.4, padding=0)
        if n <= MAX_VALUE_LABELS:
            for index in range(n):
                label = pg.TextItem("", anchor=(0.5, 1.0), color=(40, 40, 40))
                label.textItem.document().setDocumentMargin(1)  # its box is its text: apart means apart
                label.setFont(self.font())
                label.setPos(index, 0)
                plot.addItem(label)
                self.value_labels.append(label)
        self.updateGeometry()
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
        moved = False
        for index, label in enumerate(self.value_labels):
            text = explain.percent(weights[index]) if visible[index] else "masked"
            if text != label.toPlainText():  # re-laying out text is the costly part of a move
                label.setText(text)
                moved = True
            # Moving a text item is the next costliest; most bars barely change on a drag move.
            if abs(label.pos().y() - weights[index]) > LABEL_MOVE_THRESHOLD:
                label.setPos(index, float(weights[index]))
                moved = True
        # Which percentages show depends only on their boxes and on which weights are largest.
        order = sorted(range(len(self.value_labels)), key=lambda i: -weights[i])
        if moved or order != self._label_order:
            self._label_order = order
            self._place_value_labels()

    # ----- keeping the percentages apart --------------------------------
    def _predicted_label_rect(self, index: int, label: pg.TextItem, weight: float, x_scale: float,
                              y_scale: float) -> QRectF:
        """Where a percentage sits, in pixels of the view box: centred on its bar, just above it."""
        size = label.textItem.boundingRect().size()  # the text's box in pixels, as drawn
        width, height = size.width(), size.height()
        centre, bottom = index * x_scale, -weight * y_scale
        return QRectF(centre - width / 2, bottom - height, width, height)

    def _place_value_labels(self, *_) -> None:
        """Show each percentage unless it would touch one already shown; the larger weights go first, so
        the weights a student is looking for keep theirs (every bar's tooltip still has its number)."""
        if not self.value_labels:
            return
        box = self.getPlotItem().getViewBox()
        (x0, x1), (y0, y1) = box.viewRange()
        x_scale = box.width() / max(x1 - x0, 1e-9)
        y_scale = box.height() / max(y1 - y0, 1e-9)
        weights = self.attn_scene.selected_weights
        view_top, view_left, view_right = -y1 * y_scale, x0 * x_scale, x1 * x_scale
        shown: list[QRectF] = []
        for index in sorted(range(len(self.value_labels)), key=lambda i: -weights[i]):
            label = self.value_labels[index]
            rect = self._predicted_label_rect(index, label, float(label.pos().y()), x_scale, y_scale)
            # A label with no room above its bar (a weight near 1) goes just inside the bar's top.
            inside = rect.top() < view_top
            if inside:
                rect.translate(0, rect.height())
            # A label wider than the edge bar's room slides inwards rather than off the chart.
            shift = max(view_left - rect.left(), 0.0) + min(view_right - rect.right(), 0.0)
            rect.translate(shift, 0)
            anchor = (0.5 - shift / rect.width(), 0.0 if inside else 1.0)
            if (label.anchor.x(), label.anchor.y()) != anchor:
                label.setAnchor(anchor)
            apart = rect.adjusted(-LABEL_GAP_PX, -LABEL_GAP_PX, LABEL_GAP_PX, LABEL_GAP_PX)
            keep = not any(apart.intersects(other) for other in shown)
            if keep:
                shown.append(rect)
            if label.isVisible() != keep:
                label.setVisible(keep)

    # ----- what is shown (also what the tests and the audit read) -------
    def _to_widget(self, item, rect: QRectF) -> QRectF:
        return QRectF(self.mapFromScene(item.mapRectToScene(rect)).boundingRect())

    def tick_label_rects(self) -> list[QRectF]:
        """The bar names as drawn, in this widget's coordinates."""
        return [self._to_widget(self.token_axis, label.rect) for label in self.token_axis.label_layout()]

    def tick_label_texts(self) -> list[str]:
        return [label.text for label in self.token_axis.label_layout()]

    def value_label_rects(self) -> list[QRectF]:
        """The percentages shown above the bars, as drawn, in this widget's coordinates."""
        return [self._to_widget(label, label.boundingRect()) for label in self.value_labels if label.isVisible()]

    def cut_parts(self) -> list[str]:
        """Text shown cut that a reader needs whole; elided names (whole in the tooltip) do not count."""
        view = QRectF(self.viewport().rect())
        cut = [f"value: {label.toPlainText()}" for label, rect in zip(
            [label for label in self.value_labels if label.isVisible()], self.value_label_rects())
            if not view.contains(rect)]
        return cut + [f"name: {text}" for text, rect in zip(self.tick_label_texts(), self.tick_label_rects())
                      if not view.contains(rect)]

    def bar_at(self, point: QPointF) -> int | None:
        """The bar under a point of the widget (anywhere in its column, names included)."""
        box = self.getPlotItem().getViewBox()
        x = box.mapSceneToView(self.mapToScene(point.toPoint())).x()
        index = round(x)
        if 0 <= index < self.attn_scene.n_tokens and abs(x - index) <= 0.5:
            return index
        return None

    def viewportEvent(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            index = self.bar_at(QPointF(event.pos()))
            if index is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), self.bar_tooltip(index), self)
            return True
        return super().viewportEvent(event)

    def bar_tooltip(self, index: int) -> str:
        scene = self.attn_scene
        if not scene.result.mask[scene.selected, index]:
            return f"{scene.tokens[index]}: masked"
        return f"{scene.tokens[index]}: {explain.percent(scene.selected_weights[index])}"

    def minimumSizeHint(self) -> QSize:
        """Room for up to MAX_SIZED_TOKENS bars, each at least a line of text wide (names stand upright
        when they do not fit side by side), and bars tall enough to compare."""
        metrics = QFontMetricsF(self.font())
        bars = min(max(self.attn_scene.n_tokens, 1), MAX_SIZED_TOKENS)
        left_axis = self.getPlotItem().getAxis("left").width()
        width = left_axis + (bars + 0.2) * (metrics.height() + 4) + 8
        height = self.token_axis.height() + 6 * metrics.height()
        return QSize(int(width), int(height))

    def shown_heights(self) -> np.ndarray:
        """The bar heights as drawn (what a student reads off the chart)."""
        return np.asarray(self.bars.opts["height"], dtype=float)
