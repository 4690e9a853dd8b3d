"""A line of text over something the pointer aims at (a grid of heads) that never changes height.

A word-wrapped label that grows by a line when its text grows moves everything under it: a class that aimed
at one thumbnail clicks the one above it. This label is as tall as the longest of the texts it may show, at
its width, from the start; a new text only changes the words.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QEvent, QRect, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

MEASURED_TEXTS = 12  # the longest texts by characters are the ones measured: the tallest is among them


class ReservedLinesLabel(QLabel):
    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self._possible_texts: Callable[[], Iterable[str]] = lambda: ()

    def set_possible_texts(self, texts: Callable[[], Iterable[str]]) -> None:
        """What the label may say (asked again whenever its width or font changes, or by reserve())."""
        self._possible_texts = texts
        self.reserve()

    def setText(self, text: str) -> None:
        super().setText(text)
        self.reserve()  # a text no one foresaw still shows whole

    def reserve(self) -> None:
        """The height of the tallest possible text at the width the label has now."""
        margins = self.contentsMargins()
        width = self.width() - margins.left() - margins.right() - 2 * self.margin()
        if width <= 0:
            return
        texts = sorted({self.text(), *self._possible_texts()}, key=len, reverse=True)[:MEASURED_TEXTS]
        metrics = self.fontMetrics()
        tallest = max(metrics.boundingRect(QRect(0, 0, width, 1 << 20), Qt.TextFlag.TextWordWrap, text).height()
                      for text in texts)
        height = max(tallest, metrics.height()) + margins.top() + margins.bottom() + 2 * self.margin()
        if height != self.height() or self.minimumHeight() != height:
            self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.reserve()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.reserve()
