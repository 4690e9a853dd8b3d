"""The Weights dock: the weights chart, with the Predict, then see strip over it while that is on."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QVBoxLayout, QWidget

from attn_desktop.ui.panels.weights_chart import WeightsChart
from attn_desktop.ui.predict.predict_bar import PredictBar

GUESS_CHART_LINES = 8  # the bars a class drags to its guess: this many text lines tall at least
GUESS_MESSAGE_CHARS = 36  # "Guess: drag the grey bars, or" on one line beside the winner box and Reveal


class WeightsPanel(QWidget):
    def __init__(self, chart: WeightsChart, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.chart = chart
        self.predict_bar = PredictBar(self)
        self.predict_bar.hide()  # until Predict, then see is turned on
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)  # off, the dock looks as it always did
        layout.setSpacing(0)
        layout.addWidget(self.predict_bar)
        layout.addWidget(chart, 1)

    @property
    def guessing(self) -> bool:
        """Predict, then See is on: the class guesses on this chart (presenting, the window keeps it in view)."""
        return not self.predict_bar.isHidden()

    def minimumSizeHint(self) -> QSize:
        """Predicting, room to guess in: the strip's message on a line or two and bars a class can drag (a
        1024 × 768 window gave the chart 20-pixel bars and the message two letters a line); off, the chart's."""
        base = super().minimumSizeHint()
        if self.predict_bar.isHidden():
            return base
        line = self.fontMetrics().lineSpacing()
        strip = self.predict_bar.sizeHint()
        width = self.fontMetrics().averageCharWidth() * GUESS_MESSAGE_CHARS + strip.width() // 2
        return QSize(max(base.width(), width), max(base.height(), strip.height() + GUESS_CHART_LINES * line))
