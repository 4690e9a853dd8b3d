"""Where the weights chart's percentages go, so that no two touch: each centred over its bar, or just inside
the bar's top when there is no room above it; one that would touch a percentage already placed is left out.
The highest bars go first, so the weights a student is looking for keep theirs (every bar's tooltip still
has its number). A label wider than the edge bar's room slides inwards rather than off the chart.

This runs on nearly every drag move, so the boxes are plain numbers, kept as QRectF keeps a rectangle (left,
top, width, height) and compared as QRectF.intersects compares them: the same places as with QRectF, without
a Qt call per comparison.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

from attn_desktop.ui.panels.bar_labels import BarLabel

LABEL_GAP_PX = 2.0  # percentages closer than this count as touching

Box = tuple[float, float, float, float]  # left, top, width, height, in pixels of the view box (y down)


@dataclass(frozen=True)
class ViewInPixels:
    """The plot's view as the labels see it: pixels per data unit, and its top, left and right edges in pixels
    (the view box's own, whose origin is the data's origin, y growing downwards)."""

    x_scale: float
    y_scale: float
    top: float
    left: float
    right: float


def place_labels(labels: list[BarLabel], view: ViewInPixels) -> None:
    """Show each of LABELS, anchored over or just inside its bar's top, unless it would touch one already shown."""
    shown: list[Box] = []
    for label in sorted(labels, key=attrgetter("y"), reverse=True):  # the highest bars first (ties: in order)
        width, height = label.box_size()
        left, bottom = label.x * view.x_scale - width / 2, -label.y * view.y_scale
        above = (left, bottom - height, width, height)
        inside = (left, above[1] + height, width, height)  # just under the bar's top (QRectF.translated's sum)
        # A label with no room above its bar (a weight near 1) goes inside; so does one that would touch a
        # neighbour's, if its bar is tall enough to hold it (lesson 4's 33 % beside 50 %).
        places = [inside] if above[1] < view.top else [above]
        if places[0] is above and inside[1] + height <= 0.0:
            places.append(inside)
        keep = False
        for place in places:
            shift = _inwards(place, view)
            box = (place[0] + shift, place[1], width, height)
            keep = not any(_touch(_grown(box), other) for other in shown)
            if keep or place is places[-1]:
                label.setAnchor((0.5 - shift / width, 0.0 if place is inside else 1.0))
            if keep:
                shown.append(box)
                break
        label.setVisible(keep)


def _inwards(box: Box, view: ViewInPixels) -> float:
    """How far BOX must slide sideways to stay within the view (0 when it is)."""
    left, _, width, _ = box
    return max(view.left - left, 0.0) + min(view.right - (left + width), 0.0)


def _grown(box: Box) -> Box:
    """BOX grown by the gap on every side (QRectF.adjusted's sums)."""
    left, top, width, height = box
    return left - LABEL_GAP_PX, top - LABEL_GAP_PX, width + LABEL_GAP_PX + LABEL_GAP_PX, height + LABEL_GAP_PX + LABEL_GAP_PX


def _touch(first: Box, second: Box) -> bool:
    """Whether two boxes of positive size overlap (touching edges do not), as QRectF.intersects decides."""
    return (first[0] < second[0] + second[2] and second[0] < first[0] + first[2]
            and first[1] < second[1] + second[3] and second[1] < first[1] + first[3])
