"""The status bar's standing hint, as much of it as the bar has room for beside the labels that stay.

Beside a trained head's accuracy ("Accuracy on reverse: 100.0 % of 1,000 fresh sequences") the whole
hint does not fit a 1024-pixel window; cut at the bar's edge it read "...to choose the q". A shorter
hint, whole, reads better: the longest of the hints below that fits, and the whole one in the tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy

STATUS_HINTS = (  # longest first; each says the most useful part of the one before
    ("Drag an arrow tip (double-click it to type exact numbers). "
     "Click a query arrow or a matrix row to choose the query. Esc cancels a drag."),
    ("Drag an arrow tip (double-click it to type exact numbers). "
     "Click a query arrow or a matrix row to choose the query."),
    "Drag an arrow tip; click a query arrow or a matrix row to choose the query.",
    "Drag an arrow tip, or click a query arrow to choose it.",
    "Drag an arrow tip.",
)


class StatusHint(QLabel):
    def __init__(self) -> None:
        super().__init__(STATUS_HINTS[0])
        self.setToolTip(STATUS_HINTS[0])
        # Any width the bar can spare: the labels that stay keep theirs, the hint makes do with the rest.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(1)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        room = self.contentsRect().width()
        metrics = self.fontMetrics()
        fitting = next((hint for hint in STATUS_HINTS if metrics.horizontalAdvance(hint) <= room), None)
        text = fitting if fitting is not None else metrics.elidedText(STATUS_HINTS[-1], Qt.TextElideMode.ElideRight, room)
        if text != self.text():
            self.setText(text)
