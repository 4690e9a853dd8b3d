"""Ctrl+C in the terminal the app was started from closes its windows as File → Quit does: each window's
layout saved, training and model threads ended, and unsaved work kept as its recovery copy, offered back at
the next start (nobody may be at the window to answer a question).

Python runs a signal handler only when the interpreter has control, and Qt's event loop is C++: a timer
wakes Python a few times a second so the handler runs at once. The handler only posts the closing to the
event loop; a question already on screen (a modal dialog) is answered first, then the windows close.
"""

from __future__ import annotations

import signal
from types import FrameType

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

WAKE_EVERY_MS = 200  # how soon after Ctrl+C the windows start closing


def close_windows_on_interrupt(app: QApplication) -> None:
    """From now on Ctrl+C (SIGINT) closes APP's windows, keeping their work."""
    waker = QTimer(app, interval=WAKE_EVERY_MS)
    waker.timeout.connect(lambda: None)  # returns to Python: a pending signal's handler runs
    waker.start()

    def on_interrupt(_signal: int, _frame: FrameType | None) -> None:
        QTimer.singleShot(0, app, close_windows_keeping_work)

    signal.signal(signal.SIGINT, on_interrupt)


def close_windows_keeping_work() -> None:
    if QApplication.activeModalWidget() is not None:  # its answer may delete or keep work: never guess it
        QTimer.singleShot(WAKE_EVERY_MS, close_windows_keeping_work)
        return
    for widget in QApplication.topLevelWidgets():
        if widget.isVisible() and hasattr(widget, "close_keeping_work"):
            widget.close_keeping_work()
