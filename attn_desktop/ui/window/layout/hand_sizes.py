"""The sizes a user gives the panels by hand, kept for the activity and the screen class they were given in.

The window's arrangement is declared (model/teaching/panel_sets.py and DockLayout): every change of activity
builds it afresh. A teacher who widens the lesson's column by dragging its edge expects to find it wide
again after F11, another lesson or a restart — but only in that activity on that kind of screen: a
width chosen for the √d_k lab on a 1024-pixel projector would cramp the two-head view on a desktop.

Only the user's own drags are kept (a press on the window's own area between panels, where Qt's dock
separators are, then its release); sizes the window gives itself are never remembered, so a squeezed
arrangement cannot stick. View → Reset Layout forgets them all.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QSettings, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow

from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.panel_sets import Activity
from attn_desktop.ui.settings_reader import read_setting

NARROW_SCREEN_PX = 1100  # a projector's 1024 × 768 and the like
MEDIUM_SCREEN_PX = 1500  # a 1280 × 720 projector or a 1366 × 768 laptop
MAX_PANEL_SIDE_PX = 32_767  # Qt's largest widget side (QWIDGETSIZE_MAX is larger, no screen is)
HORIZONTAL, VERTICAL = Qt.Orientation.Horizontal, Qt.Orientation.Vertical


def screen_class(width: int) -> str:
    """The kind of screen a window WIDTH pixels wide is on: "narrow", "medium" or "wide"."""
    if width <= NARROW_SCREEN_PX:
        return "narrow"
    return "medium" if width <= MEDIUM_SCREEN_PX else "wide"


def activity_key(activity: Activity, presenting: bool) -> str:
    """What the user is doing, as hand sizes are kept for it: "one head", "presenting, several heads", …"""
    return ", ".join(filter(None, ["presenting" if presenting else "",
                                   "several heads" if activity.several_heads else "one head", activity.companion]))


def in_sight(dock: QDockWidget) -> bool:
    """Shown in the window, and the front one of its tabs: a tab behind another has no size of its own (the
    group's size is its front tab's, and sizing a hidden tab would undo the front one's)."""
    return dock.isVisible() and not dock.isFloating() and not dock.visibleRegion().isEmpty()


class HandSizes(QObject):
    """Watches the window for drags of its panels' edges; remembers and gives back the panels' sizes."""

    def __init__(self, window: QMainWindow, docks: dict[DockId, QDockWidget], activity_key: Callable[[], str]) -> None:
        super().__init__(window)
        self.window = window
        self.docks = docks
        self.activity_key = activity_key  # what the user is doing now, e.g. "one head" or "presenting, two heads"
        self.sizes: dict[str, dict[str, list[int]]] = {}  # "activity @ screen class" → dock → [width, height]
        self._dragging_edge = False
        window.installEventFilter(self)

    def key(self) -> str:
        return f"{self.activity_key()} @ {screen_class(self.window.width())}"

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.MouseButtonPress:
            # Between the panels no child widget is hit: that is a dock separator, which the window drags itself.
            position = event.position().toPoint()  # type: ignore[attr-defined]
            self._dragging_edge = self.window.childAt(position) is None
        elif watched is self.window and event.type() == QEvent.Type.MouseButtonRelease and self._dragging_edge:
            self._dragging_edge = False
            self.remember()
        return False

    def remember(self) -> None:
        """The shown panels' sizes now, as the user left them, for this activity and screen class."""
        self.sizes[self.key()] = {name: [dock.width(), dock.height()] for name, dock in self.docks.items()
                                  if in_sight(dock)}

    def give_back(self) -> bool:
        """Size the shown panels as the user last left them in this activity on this kind of screen; False if never."""
        kept = self.sizes.get(self.key())
        if not kept:
            return False
        shown = [(self.docks[DockId(name)], size) for name, size in kept.items()
                 if name in self.docks and in_sight(self.docks[DockId(name)])]
        if shown:
            self.window.resizeDocks([dock for dock, _ in shown], [max(1, size[0]) for _, size in shown], HORIZONTAL)
            self.window.resizeDocks([dock for dock, _ in shown], [max(1, size[1]) for _, size in shown], VERTICAL)
        return True

    def forget(self) -> None:
        self.sizes.clear()

    # ----- kept between sessions ---------------------------------------------
    def save(self, settings: QSettings) -> None:
        settings.setValue("hand_sizes", json.dumps(self.sizes))

    def load(self, settings: QSettings) -> None:
        """The sizes of the last session; anything unusable is left out (the design stands)."""
        loaded = read_setting(settings, "hand_sizes")
        if isinstance(loaded, dict):
            self.sizes = {str(key): kept_sizes(docks) for key, docks in loaded.items() if isinstance(docks, dict)}


def kept_sizes(docks: dict) -> dict[str, list[int]]:
    """The [width, height] of each panel in DOCKS that is two whole numbers a screen could show."""
    return {str(name): [size[0], size[1]] for name, size in docks.items()
            if isinstance(size, list) and len(size) == 2 and all(_a_side(side) for side in size)}


def _a_side(side: object) -> bool:
    return isinstance(side, int) and not isinstance(side, bool) and 0 <= side <= MAX_PANEL_SIDE_PX
