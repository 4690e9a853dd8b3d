"""Views that word a text themselves follow the language, as they follow the scene (see scene_link.py).

When the language changes, the window re-translates every plain text it shows (labels, buttons, menus,
tabs, tooltips: see ui/window/language_switch.py) and notifies the scene's followers with Change.ALL, so
every text a view rewrites on a change is rewritten. A view with a text of its own making that neither
touches (built with .format() once, at construction) calls follow_language to re-word it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from shiboken6 import isValid

from attn_desktop.language import on_language_changed


def follow_language(view: QObject, reword: Callable[[], None]) -> Callable[[], None]:
    """Call REWORD after every change of language until VIEW is destroyed; returns what stops it."""

    def on_change(_code: str) -> None:
        # A closed plot (pyqtgraph drops its items on close) or a view whose C++ half is gone has nothing to word.
        if isValid(view) and not getattr(view, "closed", False):
            reword()

    stop = on_language_changed(on_change)
    view.destroyed.connect(lambda *_: stop())
    return stop
