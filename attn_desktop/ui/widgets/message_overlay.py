"""A message shown over a panel, just under the field it is about, that moves nothing when it appears.

A message line in the panel's layout pushed the field down as it appeared (the sentence field's clear button
made the model refuse an empty sentence, and the field jumped from under the pointer). This one is no part
of the layout: it lies over what is under the field, as wide as the panel, as tall as its wrapped text, and
follows the field when the panel is resized.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint
from PySide6.QtWidgets import QFrame, QLabel, QWidget

GAP_PX = 2  # between the field and the message
SIDE_MARGIN_PX = 6  # the panel's own margins: the message lines up with its texts


class MessageOverlay(QLabel):
    def __init__(self, under: QWidget, panel: QWidget) -> None:
        super().__init__(panel)
        self.under = under
        self.setWordWrap(True)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)  # over other texts: on a ground of its own, as a tooltip is
        self.setBackgroundRole(self.palette().ColorRole.ToolTipBase)
        self.setForegroundRole(self.palette().ColorRole.ToolTipText)
        self.setMargin(4)
        self.hide()
        panel.installEventFilter(self)
        under.installEventFilter(self)

    def say(self, text: str) -> None:
        """Show TEXT (an empty text hides the message)."""
        self.setText(text)
        self.setVisible(bool(text))
        if text:
            self.place()

    def place(self) -> None:
        panel = self.parentWidget()
        if panel is None:
            return
        width = max(1, panel.width() - 2 * SIDE_MARGIN_PX)
        top_left = self.under.mapTo(panel, QPoint(0, self.under.height() + GAP_PX))
        self.setGeometry(SIDE_MARGIN_PX, top_left.y(), width, self.heightForWidth(width))
        self.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.isVisible() and event.type() in (QEvent.Type.Resize, QEvent.Type.Move, QEvent.Type.LayoutRequest):
            self.place()
        return super().eventFilter(watched, event)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and self.isVisible():
            self.place()


__all__ = ["MessageOverlay"]
