"""Plots keep mathematics' orientation in a right-to-left window."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt


def keep_left_to_right(view: pg.GraphicsView) -> None:
    """In Arabic the window mirrors, but a plot's x still grows to the right and its y axis stays on the left:
    VIEW and its plot's layout (the items added to it later inherit it) stay left to right."""
    view.setLayoutDirection(Qt.LayoutDirection.LeftToRight)
    central = getattr(view, "centralWidget", None)  # pyqtgraph's plot item or layout, the root of its items
    if central is not None:
        central.setLayoutDirection(Qt.LayoutDirection.LeftToRight)
