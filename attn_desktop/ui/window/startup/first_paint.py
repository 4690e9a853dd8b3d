"""Report the moment the window is first painted, then quit (used to time start-up)."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget


class _FirstPaintWatcher(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            # The timer fires once this paint pass has finished.
            QTimer.singleShot(0, self._report)
        return False

    def _report(self) -> None:
        print(f"first-paint {time.time():.6f}", flush=True)
        QApplication.quit()


def quit_after_first_paint(widget: QWidget) -> None:
    watcher = _FirstPaintWatcher(widget)
    widget.installEventFilter(watcher)
