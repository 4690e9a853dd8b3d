"""Shared set-up for the app's pyqtgraph plots."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView

from attn_desktop.model.shown_numbers import localized


def fill_background_when_painted(view: pg.GraphicsView) -> None:
    """Fill the repainted part of VIEW with its background colour rather than copy it from a pixmap.

    pyqtgraph keeps a view's background as a pixmap (QGraphicsView.CacheBackground), which pays for a
    background that is costly to draw. The app's backgrounds are one plain colour: a fill paints the same
    pixels, and costs less than the copy (35 µs of a default-scene drag move, between the canvas and the
    weights chart).
    """
    view.setCacheMode(QGraphicsView.CacheModeFlag.CacheNone)


def cache_axes_and_grid(plot: pg.PlotItem) -> None:
    """Keep each axis (which also draws its grid lines) as a ready-made pixmap.

    A drag repaints most of the plot, and replaying the axes' and grid's
    drawing each time cost more than everything else in a frame together.
    The view does not move during a drag, so the pixmaps stay valid; a zoom
    updates the axes, which refreshes them.
    """
    for name in ("left", "bottom", "right", "top"):
        axis = plot.getAxis(name)
        axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        if type(axis) is pg.AxisItem:  # (an axis of names, such as the weights chart's tokens, keeps them as typed)
            write_ticks_in_the_language(axis)


def write_ticks_in_the_language(axis: pg.AxisItem) -> None:
    """The axis's numbers with the language's decimal mark: 0.5 in English, 0,5 in Spanish. Ticks are
    written when the view's range changes, never on a drag move (the view does not move then)."""
    written_by_pyqtgraph = axis.tickStrings

    def tick_strings(values: list[float], scale: float, spacing: float) -> list[str]:
        return [localized(text) for text in written_by_pyqtgraph(values, scale, spacing)]

    axis.tickStrings = tick_strings
