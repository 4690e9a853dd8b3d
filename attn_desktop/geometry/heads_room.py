"""How much room the heads view needs, in plain numbers (no Qt): the heads view (ui/heads/heads_view.py) asks.

A head's canvas draws three plots in a row; each must be at least MIN_PLOT_SIDE_PX on its shorter side
to drag in before a class. The room round a plot's drawing area (its title, its axes' tick labels) grows
with the type, which presentation mode enlarges by LINE_SCALE.
"""

from __future__ import annotations

from attn_desktop.geometry.plot_arrangement import MIN_PLOT_SIDE_PX  # one threshold for every canvas (the walk audit's)

PLOTS_IN_A_ROW = 3  # words x; queries and keys; values and output
AXIS_WIDTH_PX = (26, 18)  # a plot's left axis, at everyday size and per unit of LINE_SCALE beyond it
TITLE_AND_AXIS_HEIGHT_PX = (36, 10)  # a plot's title and bottom axis, likewise (measured: 45 px, 52 px presenting)
CANVAS_MARGINS_PX = 18  # the canvas's own margins and the spacing between its plots (measured: 17 px)


def canvas_width_for_plots(line_scale: float) -> int:
    """The narrowest canvas whose three plots in a row are each MIN_PLOT_SIDE_PX wide."""
    axis = AXIS_WIDTH_PX[0] + AXIS_WIDTH_PX[1] * (line_scale - 1.0)
    return int(PLOTS_IN_A_ROW * (MIN_PLOT_SIDE_PX + axis) + CANVAS_MARGINS_PX)


def canvas_height_for_plots(line_scale: float) -> int:
    """The lowest canvas whose plots in a row are each MIN_PLOT_SIDE_PX high (title and axis included)."""
    frame = TITLE_AND_AXIS_HEIGHT_PX[0] + TITLE_AND_AXIS_HEIGHT_PX[1] * line_scale
    return int(MIN_PLOT_SIDE_PX + frame + CANVAS_MARGINS_PX)


def side_by_side_fits(width: int, heads: int, spacing: int, line_scale: float) -> bool:
    """Whether WIDTH pixels hold every one of HEADS canvases side by side, SPACING apart, plots large enough;
    otherwise the heads view shows one head's canvas at a time."""
    return heads * canvas_width_for_plots(line_scale) + (heads - 1) * spacing <= width


def mixing_fits_beside(width: int, matrices_width: int, mixing_width: int, spacing: int) -> bool:
    """Whether the mixing box (W_O and the output line, MIXING_WIDTH wide at least) fits right of the matrices
    (MATRICES_WIDTH together) in WIDTH pixels; otherwise it goes under them, taking height from the plots."""
    return matrices_width + spacing + mixing_width <= width


PLANE_WIDTH = 2  # the numbers of a vector a canvas's plot draws


def plots_show_heads_whole(head_widths: list[int]) -> bool:
    """Whether every head's queries, keys and values are PLANE_WIDTH numbers, which its canvas draws whole.
    Wider ones (a trained induction model's 16) are drawn as a slice of two of their numbers: there the
    attention matrices tell what the heads do, and the heads view shows them first (see ui/heads/heads_view.py)."""
    return all(width <= PLANE_WIDTH for width in head_widths)


def matrices_fit_side_by_side(width: int, numbers_widths: list[int], spacing: int) -> bool:
    """Whether WIDTH pixels hold every head's matrix side by side, each NUMBERS_WIDTHS wide at least (the
    width at which its cells show numbers), SPACING apart; otherwise one head's matrix shows at a time."""
    return sum(numbers_widths) + spacing * max(len(numbers_widths) - 1, 0) <= width
