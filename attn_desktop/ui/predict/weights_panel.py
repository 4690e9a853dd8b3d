"""The Weights dock: the weights chart, with the Predict, then see strip over it while that is on."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize
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
        self.predict_bar.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.predict_bar and event.type() in (QEvent.Type.ShowToParent, QEvent.Type.HideToParent):
            self.updateGeometry()  # Predict, then see on or off: the dock asks for the room of the new activity
        return False

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:  # the font, the strip's winner box: what the room is counted in
            self.updateGeometry()  # (the dock keeps the room it last asked for until told: the room is this hint's)
        return super().event(event)

    @property
    def guessing(self) -> bool:
        """Predict, then See is on: the class guesses on this chart (presenting, the window keeps it in view)."""
        return not self.predict_bar.isHidden()

    def minimumSizeHint(self) -> QSize:
        """Predicting, room to guess in: the strip's message on a line or two and bars a class can drag (a
        1024 × 768 window gave the chart 20-pixel bars and the message two letters a line); off, the chart's.
        The same whatever the strip says: the room is the activity's, given when Predict, then see is turned
        on, never taken by a message arriving (Reveal's result once made the panel twice as tall)."""
        if self.predict_bar.isHidden():
            return super().minimumSizeHint()
        # Counted in lines of text, not from the chart's own hint: that one changes as the chart's width makes
        # its names stand upright or lie, and a room that follows it would move the panels on a guess.
        line = self.fontMetrics().lineSpacing()
        bar = self.predict_bar
        width = self.fontMetrics().averageCharWidth() * GUESS_MESSAGE_CHARS + bar.controls_width() // 2
        return QSize(max(self.chart.minimumSizeHint().width(), width), bar.reserved_height() + GUESS_CHART_LINES * line)
