"""A message lying over the foot of a panel, clear of the place the student is typing into, that moves nothing.

The Grids panel's message was a line under the grids: as it appeared, the panel asked for its height and the
window's bottom row grew under the class; keeping that line's room empty cost a lesson's plots their height on
a 768-line projector. This one is no part of the layout: it lies over the panel's foot (over its top if the
foot is where the student types), on a ground of its own, and a click puts it away.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRect, QTimer
from PySide6.QtGui import QMouseEvent, QShowEvent
from PySide6.QtWidgets import QWidget

from attn_desktop.ui.widgets.message_overlay import SIDE_MARGIN_PX, MessageOverlay


class PanelFootMessage(MessageOverlay):
    def __init__(self, panel: QWidget, keep_clear: Callable[[], QRect | None]) -> None:
        """KEEP_CLEAR: the place in PANEL the message must not cover (the cell typed into), or None."""
        super().__init__(under=panel, panel=panel)
        self.keep_clear = keep_clear
        self.fading = QTimer(self)  # a notice goes by itself; a refusal stays until the next edit or a click
        self.fading.setSingleShot(True)
        self.fading.timeout.connect(self.hide)

    def say_for(self, text: str, milliseconds: int) -> None:
        """Show TEXT for a while: a notice that something worked, over numbers the student wants to see."""
        self.say(text)
        self.fading.start(milliseconds)

    def say(self, text: str) -> None:
        self.fading.stop()
        super().say(text)

    def place(self) -> None:
        panel = self.parentWidget()
        if panel is None:
            return
        width = max(1, panel.width() - 2 * SIDE_MARGIN_PX)
        height = self.heightForWidth(width)
        at_foot = QRect(SIDE_MARGIN_PX, panel.height() - SIDE_MARGIN_PX - height, width, height)
        at_top = QRect(SIDE_MARGIN_PX, SIDE_MARGIN_PX, width, height)
        clear = self.keep_clear()
        self.setGeometry(at_top if clear is not None and at_foot.intersects(clear) and not at_top.intersects(clear)
                         else at_foot)
        self.raise_()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.place()  # the panel may have had its size before the message was shown

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """A click puts the message away: it never keeps the student from the numbers under it."""
        self.hide()
        event.accept()


__all__ = ["PanelFootMessage"]
