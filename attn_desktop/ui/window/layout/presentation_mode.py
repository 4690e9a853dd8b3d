"""Presentation mode, for a projector: full screen, large type, only the canvas and the numbers.

Entering keeps what leaving gives back (the font, a maximised window, the everyday window's state for the
layout store); the panels take presentation's design (see DockLayout and presentation_design.py). A window
manager resizes the window a moment after it goes full screen or back, and the font's new sizes reach the
panels' layouts later too, so the panels are arranged again after each resize until then.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from PySide6.QtCore import QByteArray, QObject, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QMainWindow

from attn_desktop.ui.qt_app import gui_app
from attn_desktop.ui.window.layout.dock_layout import DockLayout
from attn_desktop.ui.window.layout.hand_sizes import in_sight
from attn_desktop.ui.window.layout.presentation_font import presentation_font_scale
from attn_desktop.ui.window.layout.screen_fit import screen_size

ARRANGE_WINDOW_MS = 600  # after entering or leaving presentation mode, resizes this soon are the window manager's


class PresentationMode(QObject):
    """Turns presentation mode on and off for WINDOW, whose panels DOCKS arranges."""

    def __init__(self, window: QMainWindow, docks: DockLayout) -> None:
        super().__init__(window)
        self.window, self.docks = window, docks
        self._normal_font: QFont | None = None
        self._was_maximized = False
        self.layout_before_presentation: QByteArray | None = None
        self.geometry_before_presentation: QByteArray | None = None
        self.arranging: Literal["presentation", "restore"] | None = None  # while the window settles
        # An arrangement under way: the window's resize it makes itself (DockLayout keeps the window's size) must
        # not start another inside it. With a cross-attention scene beside the Training panel at 1024 × 768, the
        # docks' minimums midway grew the window, keeping its size resized it back, and each resize arranged
        # again: the window's event handlers nested until the stack overflowed (a crash on leaving presentation).
        self._arranging_now = False
        self._arrange_timer = QTimer(self, singleShot=True, interval=ARRANGE_WINDOW_MS)
        self._arrange_timer.timeout.connect(self._stop_arranging)

    @property
    def presenting(self) -> bool:
        return self.docks.presenting

    @property
    def settling(self) -> bool:
        """Whether the window is still being arranged after entering or leaving presentation mode."""
        return self.arranging is not None

    def set_presentation(self, on: bool, after_font_change: Callable[[bool], object] | None = None) -> None:
        """Full screen with large type and only the canvas and the numbers, for a projector; off
        restores everything, the panels' layout included."""
        if on == self.presenting:
            return
        self.docks.presenting = on
        app, window = gui_app(), self.window
        if on:
            self._normal_font = app.font()
            self.layout_before_presentation = window.saveState()
            self.docks.in_front_before_presentation = [name for name, dock in self.docks.docks.items() if in_sight(dock)]
            self.geometry_before_presentation = window.saveGeometry()
            big = app.font()
            big.setPointSizeF(big.pointSizeF() * presentation_font_scale(screen_size(self.window).height()))
            app.setFont(big)
            self.docks.show_declared_panels()
            self._was_maximized = window.isMaximized()
            window.showFullScreen()
        else:
            if self._normal_font is not None:
                app.setFont(self._normal_font)
            window.showMaximized() if self._was_maximized else window.showNormal()
        if after_font_change is not None:
            after_font_change(on)
        self.arranging = "presentation" if on else "restore"
        self.arrange()
        # A window manager resizes the window a moment later, and the font's new sizes reach the panels'
        # layouts later too: the panels are arranged again after each resize until then (see the window's
        # resizeEvent), and once more at the end. Resizes after that are the user's own.
        self._arrange_timer.start()

    def arrange(self) -> None:
        """While the window settles: presentation's design, or the activity's everyday design built afresh for
        the window as it is now (DockLayout.rebuild; the sizes the user gave the panels by hand come back with it)."""
        if self._arranging_now:
            return
        self._arranging_now = True
        try:
            if self.arranging == "presentation":
                self.docks.arrange_for_presentation()
            elif self.arranging == "restore":
                self.docks.rebuild()
        finally:
            self._arranging_now = False

    def _stop_arranging(self) -> None:
        self.arrange()
        if self.arranging == "restore":
            self.layout_before_presentation = None
            self._keep_on_screen()
        self.arranging = None

    def _keep_on_screen(self) -> None:
        """Leaving presentation, a window laid out for the big font can be left taller than the screen: fit it."""
        window = self.window
        screen = window.screen().availableGeometry() if window.screen() else None
        if screen is None or window.isFullScreen():
            return
        if window.width() > screen.width() or window.height() > screen.height():
            if window.isMaximized():
                window.showNormal()  # maximising again makes the window the screen's size, now that it can be
                window.showMaximized()
            else:
                window.resize(min(window.width(), screen.width()), min(window.height(), screen.height()))
            self.docks.share_out()
