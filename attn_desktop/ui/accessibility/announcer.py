"""One place every announcement goes through: said to a screen reader, and kept in a log a teacher can read.

A screen reader hears an announcement as a polite `QAccessibleAnnouncementEvent` from the widget it concerns
(Qt ≥ 6.8); the Description panel shows the same texts in order, so a teacher sees what a blind student hears,
and a test reads them there. Texts are built by the caller from the model's numbers, in the interface's
language, once per step (a key press, a released drag, a verdict), never once per painted frame.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent

LOG_LENGTH = 200  # the announcements kept: a lesson's worth, not a day's


class Announcer(QObject):
    announced = Signal(str)  # every announcement's text, as it is said

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.log: list[str] = []  # the last LOG_LENGTH announcements, oldest first

    def announce(self, text: str, source: QObject | None = None, assertive: bool = False) -> None:
        """Say TEXT, about SOURCE (the widget or accessible item it concerns; the announcer's parent if None).
        Polite unless ASSERTIVE: a newer announcement does not cut the one being read."""
        text = text.strip()
        if not text:
            return
        self.log.append(text)
        del self.log[:-LOG_LENGTH]
        self._send(text, source if source is not None else self.parent(), assertive)
        self.announced.emit(text)

    @staticmethod
    def _send(text: str, source: QObject | None, assertive: bool) -> None:
        if source is None or not QAccessible.isActive():
            return  # no screen reader listening: nothing to build
        event = QAccessibleAnnouncementEvent(source, text)
        event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive if assertive
                            else QAccessible.AnnouncementPoliteness.Polite)
        QAccessible.updateAccessibility(event)
