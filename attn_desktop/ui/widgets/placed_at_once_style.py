"""Panels placed in one step, never slid into place.

Qt's main window moves a dock panel through a property animation whenever the style animates widgets (Fusion
does, for 200 ms), even with animation turned off: a zero-length animation that lands at the next pass of the
event loop. Two such moves of one panel in one pass (a lesson opened right after presentation mode) can land in
the wrong order: the Scores panel kept the 216-px height of lesson 6 while the matrix under it had already moved
up to where a 196-px panel ends, so the two overlapped, and F11 and back "changed" the panel. Without the
animation Qt sets each panel's geometry at once, where the layout says.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleFactory


class PlacedAtOnceStyle(QProxyStyle):
    """The application's style, with widget animations lasting no time (Qt then moves panels directly)."""

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create(QApplication.style().name()))

    def styleHint(self, hint: QStyle.StyleHint, option: Any = None, widget: Any = None,
                  returnData: Any = None) -> int:
        if hint == QStyle.StyleHint.SH_Widget_Animation_Duration:
            return 0
        return super().styleHint(hint, option, widget, returnData)
