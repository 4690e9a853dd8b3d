"""Framing a plot's arrows: every tip and the origin in view, as large as the plot allows."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg


def frame_tips(plot: pg.PlotItem, tips: list[tuple[float, float]], margin_px: float) -> None:
    """Frame these tips and the origin tightly: `margin_px` of room round them for the labels.

    The plot keeps one unit the same length across and up, so one direction is filled and the other
    centred; setting both ranges to the plot's own proportions keeps the aspect lock from widening them.
    """
    points = np.array([*tips, (0.0, 0.0)])
    low, high = points.min(axis=0), points.max(axis=0)
    span_x, span_y = max(float(high[0] - low[0]), 0.5), max(float(high[1] - low[1]), 0.5)
    centre_x, centre_y = float(low[0] + high[0]) / 2, float(low[1] + high[1]) / 2
    view_box = plot.getViewBox()
    width, height = view_box.width(), view_box.height()
    if min(width - 2 * margin_px, height - 2 * margin_px) < 20:  # not laid out yet: framed again when it is
        pad = 0.2 * max(span_x, span_y, 1.0)
        plot.setRange(xRange=(low[0] - pad, high[0] + pad), yRange=(low[1] - pad, high[1] + pad), padding=0)
        return
    pixels_per_unit = min((width - 2 * margin_px) / span_x, (height - 2 * margin_px) / span_y)
    half_x, half_y = width / 2 / pixels_per_unit, height / 2 / pixels_per_unit
    plot.setRange(xRange=(centre_x - half_x, centre_x + half_x), yRange=(centre_y - half_y, centre_y + half_y),
                  padding=0)
