"""Where arrow labels go so they do not cover each other or run off the plot.

Each arrow puts its label just beyond its tip. When tips crowd together (six keys
around the origin) the labels pile up into an unreadable smear, and a tip near a
plot's edge pushes its label out of sight. The canvas asks this module, after
every change, for a small shift of each label: the most important labels (the
chosen query, the output, the keys with the most weight) keep their place, and
each later one takes the first nearby spot that is free: above, below, or on
the other side of its tip. A label that cannot have its usual place keeps last
time's spot while that is free, so labels do not swap places from one frame of a
drag to the next. A minor label (a faded query, a key with almost no
weight) that finds no free spot is left out rather than printed over another;
its arrow still names itself when pointed at.

Plain geometry in pixels, no Qt: boxes are (left, top, right, bottom) tuples.
"""

from __future__ import annotations

from dataclasses import dataclass

Box = tuple[float, float, float, float]
MARGIN_PX = 1.0  # labels this close count as touching


@dataclass(frozen=True)
class LabelRequest:
    box: Box  # where the label would go without a shift
    tip_x: float  # the arrow's tip: the label flips to the other side of it
    minor: bool = False  # may be left out when there is no room
    previous: tuple[float, float] | None = None  # the shift it had last time: kept while still free


HIDDEN = None  # what place_labels gives a minor label that found no room


def place_labels(requests: list[LabelRequest], bounds: Box) -> list[tuple[float, float] | None]:
    """A shift (dx, dy) in pixels for each label, or HIDDEN, in the order given: the order of importance."""
    placed: list[Box] = []
    shifts: list[tuple[float, float] | None] = []
    for request in requests:
        shift = _first_free_spot(request, placed, bounds)
        if shift is None and request.minor:
            shifts.append(HIDDEN)
            continue
        shift = shift if shift is not None else _fallback(request, bounds)
        placed.append(_moved(request.box, shift))
        shifts.append(shift)
    return shifts


def _candidates(request: LabelRequest):
    """Shifts to try: the usual place, last time's spot, then nearest first: a label height (and the
    margin that keeps labels apart) up or down, the other side of the tip, and so on outwards."""
    left, top, right, bottom = request.box
    step = bottom - top + MARGIN_PX + 0.5  # the half pixel keeps rounding from making neighbours "touch"
    flip = 2 * request.tip_x - left - right  # mirrors the box to the other side of the tip
    yield 0.0, 0.0
    if request.previous is not None and request.previous != (0.0, 0.0):
        yield request.previous
    for rows in (0, 1, 2, 3):
        if rows:
            yield 0.0, -rows * step
            yield 0.0, rows * step
        yield flip, -rows * step
        if rows:
            yield flip, rows * step


def _first_free_spot(request: LabelRequest, placed: list[Box], bounds: Box) -> tuple[float, float] | None:
    # The innermost loop of every drag move: plain comparisons, no helper calls.
    left, top, right, bottom = request.box
    min_x, min_y, max_x, max_y = bounds
    for dx, dy in _candidates(request):
        x0, y0, x1, y1 = left + dx, top + dy, right + dx, bottom + dy
        if x0 < min_x or y0 < min_y or x1 > max_x or y1 > max_y:
            continue
        if all(x0 >= o2 + MARGIN_PX or o0 >= x1 + MARGIN_PX or y0 >= o3 + MARGIN_PX or o1 >= y1 + MARGIN_PX
               for o0, o1, o2, o3 in placed):
            return dx, dy
    return None


def _fallback(request: LabelRequest, bounds: Box) -> tuple[float, float]:
    """Nowhere free: stay in view if possible, as near the usual place as can be."""
    inside = [shift for shift in _candidates(request) if _within(_moved(request.box, shift), bounds)]
    return inside[0] if inside else (0.0, 0.0)


def _moved(box: Box, shift: tuple[float, float]) -> Box:
    dx, dy = shift
    return box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy


def _within(box: Box, bounds: Box) -> bool:
    return box[0] >= bounds[0] and box[1] >= bounds[1] and box[2] <= bounds[2] and box[3] <= bounds[3]
