"""Scene changes a part can take when a drag's hand rests or lets go, rather than at every move of it.

A drag move's frame is the arrow and the four panels' numbers, which the student watches; a part that says
in words what is true (the challenges, the screen's description) can catch up once the hand stops: after
it has rested REST_DURING_DRAG_MS, or at once when it lets go, where the arrow was let go. Outside a drag,
every change reaches the part at once, as before.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from attn_desktop.model import Change

REST_DURING_DRAG_MS = 100  # a hand still this long mid-drag has stopped: the part catches up


class CheckedAtRest(QObject):
    """Hands each change to ON_CHANGE now, or, while held (a drag), merged once the hand rests or lets go."""

    def __init__(self, parent: QObject, on_change: Callable[[Change], None]) -> None:
        super().__init__(parent)
        self._on_change = on_change
        self._held = False
        self._waiting = Change(0)
        self._rest_timer = QTimer(self)
        self._rest_timer.setSingleShot(True)
        self._rest_timer.setInterval(REST_DURING_DRAG_MS)
        self._rest_timer.timeout.connect(self.catch_up)

    def hold(self, dragging: bool) -> None:
        """A drag began (True) or ended in any way (False: the part catches up now)."""
        self._held = dragging
        if not dragging:
            self.catch_up()

    def change(self, change: Change) -> None:
        if self._held and not change & Change.STRUCTURE:
            self._waiting |= change
            self._rest_timer.start()  # (re)started by every move: it fires once the hand rests
            return
        change |= self._waiting
        self._waiting = Change(0)
        self._rest_timer.stop()
        self._on_change(change)

    def catch_up(self) -> None:
        self._rest_timer.stop()
        change, self._waiting = self._waiting, Change(0)
        if change:
            self._on_change(change)
