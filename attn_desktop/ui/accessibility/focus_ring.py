"""A ring round the control that has the keys, wide and dark enough to be seen from the back of a classroom.

Fusion, the style the app runs in, marks a focused button not at all until Tab has been pressed in that window,
and a focused field with a 1-pixel line of a pale blue; WCAG 2.2's focus appearance asks for an outline at least
2 px wide with a contrast of at least 3:1. One ring per window follows the keys from control to control: a
child of the focused control, drawn on top of it just inside its edge (so a scroll area's edge never cuts it),
and it lets the mouse through. As browsers do with :focus-visible, it shows while the keys move by the keyboard
(Tab, a shortcut, and the program's moves after them) and not after a click: a mouse user sees where they
clicked. The canvas's chosen arrow, the matrix's chosen row and the head grid's current head keep rings of
their own inside this one.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QApplication, QWidget

RING_COLOR = QColor(0, 84, 166)  # 7.5:1 on white, 6.4:1 on Fusion's grey buttons: ≥ 3:1 on every light control
RING_WIDTH_PX = 3


class FocusRing(QWidget):
    """The ring itself: a see-through child laid over the focused control."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("focusRing")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def ring(self, control: QWidget) -> None:
        """Lay the ring over CONTROL, and keep it its size."""
        if self.parentWidget() is not control:
            previous = self.parentWidget()
            if previous is not None:
                previous.removeEventFilter(self)
            self.setParent(control)
            control.installEventFilter(self)
        self.setGeometry(control.rect())
        self.show()
        self.raise_()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        control = self.parentWidget()
        if watched is control and control is not None and event.type() == QEvent.Type.Resize:
            self.setGeometry(control.rect())
        return False

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        half = RING_WIDTH_PX / 2
        painter.setPen(QPen(RING_COLOR, RING_WIDTH_PX))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(self.rect()).adjusted(half, half, -half, -half))


class FocusRings(QObject):
    """Follows the keys in WINDOW and rings the control that has them (see the module's note)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._ring: FocusRing | None = None
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._follow)

    @property
    def ring(self) -> FocusRing | None:
        """The ring, while it exists (it goes with the control it was laid over, when that control goes)."""
        ring = self._ring
        return ring if ring is not None and shiboken6.isValid(ring) else None

    def _follow(self, old: QWidget | None, new: QWidget | None) -> None:
        ring = self.ring
        if new is None or new.window() is not self._window or \
                not self._window.testAttribute(Qt.WidgetAttribute.WA_KeyboardFocusChange):
            if ring is not None and (new is None or new.window() is self._window):
                ring.hide()  # a click gave the keys: no ring (the window's own, or none left)
            return
        if ring is None:
            ring = self._ring = FocusRing()
        ring.ring(new)
