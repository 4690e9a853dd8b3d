"""The status bar's standing hint, as much of it as the bar has room for beside the labels that stay.

Beside a trained head's accuracy ("Accuracy on reverse: 100.0 % of 1,000 fresh sequences") the whole
hint does not fit a 1024-pixel window; cut at the bar's edge it read "...to choose the q". A shorter
hint, whole, reads better: the longest of the hints below that fits, and the whole one in the tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy

from attn_desktop.language import N_, tr
from attn_desktop.ui.language_link import follow_language

STATUS_HINTS = (  # longest first; each says the most useful part of the one before (each shown with tr())
    N_("Drag an arrow tip (double-click it to type exact numbers). "
       "Click a query arrow or a matrix row to choose the query. Esc cancels a drag."),
    N_("Drag an arrow tip (double-click it to type exact numbers). "
       "Click a query arrow or a matrix row to choose the query."),
    N_("Drag an arrow tip; click a query arrow or a matrix row to choose the query."),
    N_("Drag an arrow tip, or click a query arrow to choose it."),
    N_("Drag an arrow tip."),
)


class StatusHint(QLabel):
    def __init__(self) -> None:
        super().__init__(tr(STATUS_HINTS[0]))
        self.setToolTip(tr(STATUS_HINTS[0]))
        follow_language(self, self._reword)
        # Any width the bar can spare: the labels that stay keep theirs, the hint makes do with the rest.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(1)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _reword(self) -> None:
        self.setToolTip(tr(STATUS_HINTS[0]))
        self._fit()

    def _fit(self) -> None:
        room = self.contentsRect().width()
        metrics = self.fontMetrics()
        hints = [tr(hint) for hint in STATUS_HINTS]
        fitting = next((hint for hint in hints if metrics.horizontalAdvance(hint) <= room), None)
        text = fitting if fitting is not None else metrics.elidedText(hints[-1], Qt.TextElideMode.ElideRight, room)
        if text != self.text():
            self.setText(text)
