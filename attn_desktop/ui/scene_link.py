"""Views follow the scene for as long as they exist, and not a moment longer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget

from attn_desktop.model import Change, HeadReading, Scene, read


class Followable(Protocol):
    """A scene, or a reading of one of its heads: anything a view can follow."""

    def subscribe(self, subscriber: Callable[[Change], None], follows: Change = ...) -> Callable[[], None]: ...


def follow_scene(view: QObject, scene: Followable, on_change: Callable[[Change], None],
                 follows: Change = Change.ALL) -> Callable[[], None]:
    """Call `on_change` after every change of `scene` until `view` is destroyed.

    FOLLOWS: the kinds of change `on_change` acts on, for a view that has nothing to do on the others
    (a drag move's new numbers): it is not even called for those.

    The scene holds a view's method weakly, but a closed widget can outlive its C++
    half (a test or a dialog may still hold it): calling it then would raise. So the
    view's `destroyed` signal unsubscribes it. Returns the unsubscribe function.
    """
    unsubscribe = scene.subscribe(on_change, follows)
    view.destroyed.connect(lambda *_: unsubscribe())
    return unsubscribe


def head_reading(source: Scene | HeadReading) -> HeadReading:
    """What a panel that shows one head reads: the reading it was handed, or a bare scene's first head
    through a view of its own (a panel built alone on a one-head scene, as the tests and scripts do)."""
    return read(source) if isinstance(source, Scene) else source


def follow_scene_in_sight(view: QWidget, scene: Followable, on_change: Callable[[Change], None]) -> Callable[[], None]:
    """Like follow_scene, for a view that costs time to update (a canvas of sixty arrows, a grid of 512 numbers):
    while it is out of sight (its page behind another, its panel a tab at the back, its part unticked),
    the changes to its numbers wait, merged, and reach it at once when it is shown again. A new structure
    always reaches it (its items must match the scene's shape). Training that redraws a hidden canvas on
    every update takes the time the training needs."""
    waiting = _ChangesWhileHidden(view, on_change)
    return follow_scene(view, scene, waiting.on_change)


NOTHING_WAITING = Change(0)


class _ChangesWhileHidden(QObject):
    def __init__(self, view: QWidget, on_change: Callable[[Change], None]) -> None:
        super().__init__(view)
        self._view, self._on_change = view, on_change
        self._waiting = NOTHING_WAITING
        view.installEventFilter(self)

    def on_change(self, change: Change) -> None:
        if change & Change.STRUCTURE or self._view.isVisibleTo(self._view.window()):
            if self._waiting:  # (a flag's | and & each make a new flag: skipped on a drag move, when none wait)
                change, self._waiting = change | self._waiting, NOTHING_WAITING
            self._on_change(change)
        else:
            self._waiting |= change

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and self._waiting:
            waiting, self._waiting = self._waiting, NOTHING_WAITING
            self._on_change(waiting)
        return False
