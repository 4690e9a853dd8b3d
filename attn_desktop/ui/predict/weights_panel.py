"""The Weights dock: the weights chart, with the Predict, then see strip over it while that is on."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget

from attn_desktop.ui.panels.weights_chart import WeightsChart
from attn_desktop.ui.predict.predict_bar import PredictBar


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
