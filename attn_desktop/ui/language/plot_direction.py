"""Plots keep mathematics' orientation in a right-to-left window."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt


def keep_left_to_right(view: pg.GraphicsView) -> None:
    """In Arabic the window mirrors, but a plot's x still grows to the right and its y axis stays on the left:
    VIEW and its plot (or layout) stay left to right. Plots added to a layout later: plot_left_to_right."""
    view.setLayoutDirection(Qt.LayoutDirection.LeftToRight)
    central = getattr(view, "centralWidget", None)  # pyqtgraph's plot item or layout, the root of its items
    if central is not None:
        central.setLayoutDirection(Qt.LayoutDirection.LeftToRight)


def plot_left_to_right(plot: pg.PlotItem) -> pg.PlotItem:
    """A plot added later to a layout: Qt gives a new graphics item the application's direction and does not
    change it when the item joins a left-to-right layout, so each plot is told itself."""
    plot.setLayoutDirection(Qt.LayoutDirection.LeftToRight)
    return plot
