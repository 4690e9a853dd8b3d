"""How the canvas lays out its plots: how many in a row, so the arrows are drawn largest, and how much
room round the arrows a fitted view leaves. Plain numbers, no Qt: the canvas's plots
(ui/canvas/canvas_plots.py) follow these rules.
"""

from __future__ import annotations

import math

import numpy as np

PLOT_FRAME_PX = (45, 60)  # a plot's axes and title take about this much of its width and height
LABEL_ROOM_LINES = 1.4  # fitting the view leaves this many label heights round the arrows
MIN_PLOT_WIDTH_PX = 110  # three plots fit a canvas a 1024-pixel screen leaves
PLOT_SPACING_PX = 6  # between plots in the canvas's layout, and its margins, shared out
CANVAS_MARGIN_PX = 3  # round the plots, inside the canvas
CLEAR_GAIN = 1.1  # another number of columns must draw the arrows this much larger to be taken
MIN_PLOT_SIDE_PX = 200  # a plot's drawing area, on its shorter side, that a class can drag in and read


def columns_that_draw_largest(width: float, height: float, count: int, tips: np.ndarray, label_height: float,
                              current: int) -> int:
    """How many columns of COUNT plots show the arrows largest on a canvas WIDTH by HEIGHT pixels, the
    arrows' TIPS (and the origin) an (n, 2) array in data units; CURRENT is kept unless another is
    clearly better, so a canvas near the balance does not flip back and forth."""
    span_x, span_y = (max(float(extent), 0.5) for extent in tips.max(axis=0) - tips.min(axis=0))
    margin = 2 * LABEL_ROOM_LINES * label_height

    def scale(columns: int) -> float:
        plot_width, plot_height = width / columns, height / math.ceil(count / columns)
        return min((plot_width - PLOT_FRAME_PX[0] - margin) / span_x,
                   (plot_height - PLOT_FRAME_PX[1] - margin) / span_y)

    # Plots are never narrower than MIN_PLOT_WIDTH_PX: more columns than fit would push the last plot
    # past the canvas's edge (a head's canvas beside another is narrow).
    fitting = [columns for columns in range(1, count + 1) if width / columns >= MIN_PLOT_WIDTH_PX + PLOT_SPACING_PX]

    def readable(columns: int) -> bool:  # every plot at least MIN_PLOT_SIDE_PX each way, whatever the arrows
        rows = math.ceil(count / columns)
        return min(width / columns - PLOT_FRAME_PX[0], height / rows - PLOT_FRAME_PX[1]) >= MIN_PLOT_SIDE_PX

    # Arrows drawn largest in a plot too flat to drag in help nobody: readable plots come first.
    fitting = [columns for columns in fitting if readable(columns)] or fitting
    best = max(fitting or [1], key=scale)
    current = min(current, count)
    if current not in fitting:
        return best
    return best if scale(best) > CLEAR_GAIN * scale(current) else current


def grid_places(count: int, columns: int) -> list[tuple[int, int]]:
    """Each of COUNT plots' (row, column) in reading order."""
    return [(place // columns, place % columns) for place in range(count)]


def number_line_range(numbers: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
    """The x and y range of a number line showing NUMBERS (and 0): stems up to a weight of 1, the
    answer's marker above them, and a quarter of the spread (at least 0.25) either side."""
    low, high = float(numbers.min()), float(numbers.max())
    pad = 0.25 * max(high - low, 1.0)
    return (low - pad, high + pad), (-0.05, 1.25)
