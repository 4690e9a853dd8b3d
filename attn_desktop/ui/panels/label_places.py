"""Where the weights chart's percentages go, so that no two touch: each centred over its bar, or just inside
the bar's top when there is no room above it; one that would touch a percentage already placed is left out.
The highest bars go first, so the weights a student is looking for keep theirs (every bar's tooltip still
has its number). A label wider than the edge bar's room slides inwards rather than off the chart.

This runs on nearly every drag move, so the boxes are plain numbers, kept as QRectF keeps a rectangle (left,
top, width, height) and compared as QRectF.intersects compares them: the same places as with QRectF, without
a Qt call per comparison.
"""

from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

from attn_desktop.ui.panels.bar_labels import BarLabel

LABEL_GAP_PX = 2.0  # percentages closer than this count as touching

Edges = tuple[float, float, float, float]  # a label's box: left, top, right, bottom, in pixels of the view box


class ViewInPixels(NamedTuple):
    """The plot's view as the labels see it: pixels per data unit, and its top, left and right edges in pixels
    (the view box's own, whose origin is the data's origin, y growing downwards)."""

    x_scale: float
    y_scale: float
    top: float
    left: float
    right: float


def place_labels(labels: list[BarLabel], view: ViewInPixels) -> None:
    """Show each of LABELS, anchored over or just inside its bar's top, unless it would touch one already shown."""
    shown: list[Edges] = []
    for label in sorted(labels, key=attrgetter("y"), reverse=True):  # the highest bars first (ties: in order)
        width, height = label.width, label.height
        left, bottom = label.x * view.x_scale - width / 2, -label.y * view.y_scale
        above = bottom - height  # the box's top, over the bar
        inside = above + height  # or just under the bar's top (QRectF.translated's sum: the same rounding)
        # A label with no room above its bar (a weight near 1) goes inside; so does one that would touch a
        # neighbour's, if its bar is tall enough to hold it (lesson 4's 33 % beside 50 %).
        if above < view.top:
            places = [(inside, True)]
        else:
            places = [(above, False), (inside, True)] if inside + height <= 0.0 else [(above, False)]
        shift = max(view.left - left, 0.0) + min(view.right - (left + width), 0.0)  # inwards, off the chart's sides
        keep = False
        for place in places:
            top, is_inside = place
            keep = _apart(shown, left + shift, top, width, height)
            if keep or place is places[-1]:  # kept, or left out where it would have gone last
                label.setAnchor((0.5 - shift / width, 0.0 if is_inside else 1.0))
            if keep:
                shown.append((left + shift, top, left + shift + width, top + height))
                break
        label.setVisible(keep)


def _apart(shown: list[Edges], left: float, top: float, width: float, height: float) -> bool:
    """Whether the box, grown by the gap on every side, overlaps none of SHOWN (touching edges do not): what
    QRectF.adjusted and QRectF.intersects decide, with their sums, for boxes of positive size."""
    grown_left, grown_top = left - LABEL_GAP_PX, top - LABEL_GAP_PX
    grown_right = grown_left + (width + LABEL_GAP_PX + LABEL_GAP_PX)
    grown_bottom = grown_top + (height + LABEL_GAP_PX + LABEL_GAP_PX)
    for other_left, other_top, other_right, other_bottom in shown:
        if grown_left < other_right and other_left < grown_right and grown_top < other_bottom and other_top < grown_bottom:
            return False
    return True
