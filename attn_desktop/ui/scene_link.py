"""Views follow the scene for as long as they exist, and not a moment longer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QObject

from attn_desktop.model import Change, HeadReading, Scene


class Followable(Protocol):
    """A scene, or a reading of one of its heads: anything a view can follow."""

    def subscribe(self, subscriber: Callable[[Change], None]) -> Callable[[], None]: ...


def follow_scene(view: QObject, scene: Followable, on_change: Callable[[Change], None]) -> Callable[[], None]:
    """Call `on_change` after every change of `scene` until `view` is destroyed.

    The scene holds a view's method weakly, but a closed widget can outlive its C++
    half (a test or a dialog may still hold it): calling it then would raise. So the
    view's `destroyed` signal unsubscribes it. Returns the unsubscribe function.
    """
    unsubscribe = scene.subscribe(on_change)
    view.destroyed.connect(lambda *_: unsubscribe())
    return unsubscribe


def head_reading(source: Scene | HeadReading) -> HeadReading:
    """What a panel that shows one head reads: the reading it was handed, or a bare scene's first head
    (a panel built alone on a one-head scene, as the tests and scripts do)."""
    return source.reading() if isinstance(source, Scene) else source
