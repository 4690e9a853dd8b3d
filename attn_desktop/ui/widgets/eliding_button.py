"""A push button that may be narrower than its text: the text elided, and whole in the tip.

The heads' titles ("Capa 1 · cabeza 1 · L1H1", 225 px in Spanish) are a switch in the heads view's top row,
beside which panels each head shows; at their full width that row took two lines on a 1024 screen, or
the window grew past the screen to hold it. text() stays whole: only the drawing is shortened.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QPushButton, QSizePolicy, QStyle, QStyleOptionButton, QStylePainter, QWidget

SHORTEST_CHARACTERS = 14  # the most a title is elided to: "Layer 1 · head…", "Head 1 · posit…"
ELLIPSIS = "…"


class ElidingButton(QPushButton):
    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self._tip = ""
        self.setSizePolicy(QSizePolicy.Policy.Preferred, self.sizePolicy().verticalPolicy())  # may shrink

    def minimumSizeHint(self) -> QSize:
        whole = self.sizeHint()
        shortest = self._padding() + self.fontMetrics().horizontalAdvance(self.text()[:SHORTEST_CHARACTERS] + ELLIPSIS)
        return QSize(min(whole.width(), shortest), whole.height())

    def set_tip(self, tip: str) -> None:
        """TIP, after the whole title when the title is elided."""
        self._tip = tip
        self._show_tip()

    def elided(self) -> bool:
        return self.width() < self.sizeHint().width()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._show_tip()

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.elided():
            super().paintEvent(event)
            return
        option = QStyleOptionButton()
        self.initStyleOption(option)
        option.text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                                    max(0, self.width() - self._padding()))
        QStylePainter(self).drawControl(QStyle.ControlElement.CE_PushButton, option)

    def _padding(self) -> int:
        """The button's width round its text (frame and margins), as the style sizes it."""
        return self.sizeHint().width() - self.fontMetrics().horizontalAdvance(self.text())

    def _show_tip(self) -> None:
        tip = "\n".join(part for part in (self.text(), self._tip) if part) if self.elided() else self._tip
        if self.toolTip() != tip:
            self.setToolTip(tip)
