"""A maximised or full-screen window that grew past the screen fits it again once it can.

While the panels change (another lesson, the heads taking the middle, a language's longer texts), their
minimum sizes can for a moment add up to more than the screen: Qt then makes the window larger than the
screen, and nothing shrinks it back when the minimum falls again, so a 1024 × 768 projector shows part of
the window for the rest of the lesson. Growing also ends a window's full-screen state (Qt keeps only the
maximised one): a presenting window is made full screen again. A window that is neither maximised nor
presenting is the user's to size.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QRect, QSize, QTimer
from PySide6.QtWidgets import QWidget

WATCHED_EVENTS = (QEvent.Type.Resize, QEvent.Type.LayoutRequest)


def fit_to_screen(window: QWidget, width: int, height: int) -> None:
    """The preferred size, but never bigger than the screen (classroom laptops can be 1024 × 768)."""
    screen = window.screen().availableGeometry() if window.screen() else None
    if screen is not None and screen.width() > 0:
        width, height = min(width, int(screen.width() * 0.95)), min(height, int(screen.height() * 0.92))
    window.resize(width, height)


def screen_size(window: QWidget) -> QSize:
    """The size of the screen WINDOW is on (0 × 0 without one)."""
    screen = window.screen()
    return screen.size() if screen is not None else QSize(0, 0)


class ScreenFit(QObject):
    def __init__(self, window: QWidget, presenting: Callable[[], bool] = lambda: False) -> None:
        super().__init__(window)
        self.window = window
        self.presenting = presenting  # the window should be full screen
        self._timer = QTimer(self, singleShot=True, interval=0)  # once the panels' change has run its course
        self._timer.timeout.connect(self.fit)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in WATCHED_EVENTS:
            self._timer.start()
        return False

    def fit(self) -> None:
        window = self.window
        screen = self._room()
        if screen is None or (window.width() <= screen.width() and window.height() <= screen.height()):
            return
        least = window.minimumSizeHint()
        if least.width() > screen.width() or least.height() > screen.height():
            return  # still too wide to fit: a panel's texts ask for more than the screen has
        if self.presenting() and not window.isFullScreen():
            window.showFullScreen()
        else:
            window.setGeometry(screen)

    def _room(self) -> QRect | None:
        """The screen's room for this window, if the window should fill it (maximised or full screen: all of it
        when full screen). A normal window, presenting or not, is the user's (or a test's) to size."""
        window, screen = self.window, self.window.screen()
        if screen is None or not (window.isMaximized() or window.isFullScreen()):
            return None
        return screen.geometry() if window.isFullScreen() else screen.availableGeometry()
