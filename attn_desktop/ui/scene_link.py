"""Views follow the scene for as long as they exist, and not a moment longer."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject

from attn_desktop.model import Change, Scene


def follow_scene(view: QObject, scene: Scene, on_change: Callable[[Change], None]) -> Callable[[], None]:
    """Call `on_change` after every change of `scene` until `view` is destroyed.

    The scene holds a view's method weakly, but a closed widget can outlive its C++
    half (a test or a dialog may still hold it): calling it then would raise. So the
    view's `destroyed` signal unsubscribes it. Returns the unsubscribe function.
    """
    unsubscribe = scene.subscribe(on_change)
    view.destroyed.connect(lambda *_: unsubscribe())
    return unsubscribe
