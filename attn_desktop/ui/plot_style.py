"""Shared set-up for the app's pyqtgraph plots."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsItem


def cache_axes_and_grid(plot: pg.PlotItem) -> None:
    """Keep each axis (which also draws its grid lines) as a ready-made pixmap.

    A drag repaints most of the plot, and replaying the axes' and grid's
    drawing each time cost more than everything else in a frame together.
    The view does not move during a drag, so the pixmaps stay valid; a zoom
    updates the axes, which refreshes them.
    """
    for name in ("left", "bottom", "right", "top"):
        plot.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
