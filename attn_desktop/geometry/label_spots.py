"""The spots a label may take round its arrow's tip, in order of preference (see label_layout.py).

Near spots first: round the tip ring by ring up to NEAR_LINES line heights, each ring starting where the
arrow points, then sliding along each side of the tip; last time's spot early, so labels keep still. Then,
for an essential label with no room near its tip, further rings and at last every spot of the plot. Plain
numbers in view pixels, no Qt, like label_layout.py, which tests these spots against the arrows.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from attn_desktop.geometry.label_obstacles import Box, Point

NEAR_GAP_PX = 3.0  # the first ring of spots: this far from the tip
NEAR_LINES = 2.0  # a label further than this many line heights from its tip is not shown, unless essential
SLIDE_STEPS = 4  # along each side of the tip, a label is tried at this many places (and against the plot's edges)

Spot = tuple[float, float, bool]  # a label's top-left corner (left, top) and whether it needs a leader line there


class LabelRequest(NamedTuple):
    width: float
    height: float  # one line height: labels nearer their tip than this need no leader line
    tip: Point
    direction: Point  # the way the arrow points on screen (unit vector): the label's first choice
    base: Point | None = None  # where the arrow starts: a tip out of view gets its label where the arrow leaves it
    minor: bool = False  # chooses after every other label: it only takes what is left
    previous: Point | None = None  # last time's offset of the label's top-left from the tip: kept while free and near
    essential: bool = False  # shown even with no room near its tip: further out, with a leader
    # One line of the label's font, when the box is taller than that (Arabic or Chinese letters come from a
    # fallback font with taller lines): the rings round the tip are counted in it, so "near" means as near
    # in every language. None: the box's height.
    line_height: float | None = None
    # The width of the label's shorter form ("k·cat" for "k·cat 76%"): an essential label with no room by
    # its tip for the whole tries it there before going further out. None: it has none.
    short_width: float | None = None
    # Whether the shorter form still names the arrow ("k·cat", not a bare "q"): then any label, not only an
    # essential one, shows it by its tip rather than being left out where the whole has no room.
    short_names_it: bool = False

    @property
    def line(self) -> float:
        """The unit of the rings round the tip, and the distance a label goes without a leader."""
        return self.height if self.line_height is None else min(self.line_height, self.height)



# Spots around the tip: the label's centre is at (fa * half width + fg * gap, ga * half height + gg * gap)
# from the tip, so the box clears the tip by `gap`. Each with the angle (in screen degrees, y down) it lies at.
_SPOTS = (
    (0, 1.0, 1.0, 0.0, 0.0),  # right
    (45, 1.0, 0.7, 1.0, 0.7),  # below right
    (70, 0.5, 0.0, 1.0, 1.0),  # below, shifted right
    (90, 0.0, 0.0, 1.0, 1.0),  # below
    (110, -0.5, 0.0, 1.0, 1.0),
    (135, -1.0, -0.7, 1.0, 0.7),
    (180, -1.0, -1.0, 0.0, 0.0),  # left
    (-135, -1.0, -0.7, -1.0, -0.7),
    (-110, -0.5, 0.0, -1.0, -1.0),
    (-90, 0.0, 0.0, -1.0, -1.0),  # above
    (-70, 0.5, 0.0, -1.0, -1.0),
    (-45, 1.0, 0.7, -1.0, -0.7),
)
# Gaps from the tip, in line heights, each with whether a label there needs a leader: within one line (the
# first only a few pixels off) none; then, up to NEAR_LINES, a short one. Only an essential label goes further.
_NEAR_RINGS = ((0.0, False), (0.5, False), (0.97, False), (1.45, True), (NEAR_LINES - 0.05, True))
_FAR_RINGS = (2.6, 3.4, 4.8, 6.5)
_ORDER_CACHE: dict[int, tuple[tuple[float, float, float, float], ...]] = {}


def spots_towards(ux: float, uy: float) -> tuple[tuple[float, float, float, float], ...]:
    """The spots nearest in angle to the arrow's direction first (cached per 5° of direction)."""
    key = round(math.degrees(math.atan2(uy, ux)) / 5) % 72
    order = _ORDER_CACHE.get(key)
    if order is None:
        angle = key * 5
        ranked = sorted(_SPOTS, key=lambda spot: abs((spot[0] - angle + 180) % 360 - 180))
        order = _ORDER_CACHE[key] = tuple(spot[1:] for spot in ranked)
    return order


def anchor_of(request: LabelRequest, bounds: Box) -> tuple[Point, bool]:
    """The point the label stays near, and whether it is the tip itself (else the tip is out of view and
    this is where the arrow leaves the plot, or the nearest point of the plot's edge)."""
    tx, ty = request.tip
    min_x, min_y, max_x, max_y = bounds
    if min_x <= tx <= max_x and min_y <= ty <= max_y:
        return (tx, ty), True
    inset = (min_x + 2, min_y + 2, max_x - 2, max_y - 2)
    if request.base is not None:
        exit_point = last_point_inside(request.base, request.tip, inset)
        if exit_point is not None:
            return exit_point, False
    return (min(max(tx, inset[0]), inset[2]), min(max(ty, inset[1]), inset[3])), False


def last_point_inside(start: Point, end: Point, box: Box) -> Point | None:
    """Where the segment start → end leaves the box; None if it never is inside."""
    span = span_inside(start, end, box)
    if span is None:
        return None
    (x0, y0), (x1, y1) = start, end
    high = span[1]
    return x0 + (x1 - x0) * high, y0 + (y1 - y0) * high


def span_inside(start: Point, end: Point, box: Box) -> tuple[float, float] | None:
    """The part of the segment start → end inside the box (its edges included), as the fractions of the way
    where it enters and leaves (Liang–Barsky); None if no point of it is inside. The label placer leads a
    label to where an arrow leaves its plot, and the label audit checks a shaft against a label's box, with
    this one clipping."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return None
    return low, high


def near_candidates(request: LabelRequest, anchor: Point, at_tip: bool, bounds: Box, slide_steps: int,
                     near_gap: float = NEAR_GAP_PX) -> Iterator[Spot]:
    """(left, top, needs a leader) for each spot to try, in order of preference: the usual spot, last time's
    (if it is still near), then ring by ring outwards up to NEAR_LINES, each ring starting where the arrow
    points and then sliding along each side of the tip in SLIDE_STEPS."""
    width, height = request.width, request.height
    half_w, half_h = width / 2, height / 2
    ax, ay = anchor
    spots = spots_towards(*request.direction)
    yield usual_spot(request, anchor, at_tip, near_gap)
    previous = previous_spot(request, anchor, at_tip)
    if previous is not None:
        yield previous
    for ring, leader in _NEAR_RINGS:
        gap = max(near_gap, ring * request.line)
        for fa, fg, ga, gg in spots:
            yield ax + fa * half_w + fg * gap - half_w, ay + ga * half_h + gg * gap - half_h, leader or not at_tip
        yield from slides(anchor, width, height, gap, request.direction, bounds, leader or not at_tip, slide_steps)


def usual_spot(request: LabelRequest, anchor: Point, at_tip: bool, near_gap: float = NEAR_GAP_PX) -> Spot:
    """The first spot a label tries: just beyond its tip, where the arrow points."""
    half_w, half_h = request.width / 2, request.height / 2
    fa, fg, ga, gg = spots_towards(*request.direction)[0]
    return anchor[0] + fa * half_w + fg * near_gap - half_w, anchor[1] + ga * half_h + gg * near_gap - half_h, \
        not at_tip


def previous_spot(request: LabelRequest, anchor: Point, at_tip: bool) -> Spot | None:
    """Last time's spot (left, top, needs a leader), only while it is near: after an undo, a zoom or a new
    layout, a spot that was the best one far away is no reason to stay far."""
    if request.previous is None or not at_tip:
        return None
    return spot_at(request, anchor, request.previous)


def spot_at(request: LabelRequest, anchor: Point, offset: Point) -> Spot | None:
    """The spot OFFSET from the anchor (a tip in view), if it is near; whether it needs a leader."""
    (ax, ay), (dx, dy) = anchor, offset
    left, top = ax + dx, ay + dy
    nearest_x, nearest_y = min(max(ax, left), left + request.width), min(max(ay, top), top + request.height)
    distance = math.hypot(nearest_x - ax, nearest_y - ay)
    return (left, top, distance > request.line) if distance <= NEAR_LINES * request.line else None


NEAR_GRID_STEPS = 4  # the fine search near a tip tries a spot every 1/NEAR_GRID_STEPS of a line ...
NEAR_GRID_MIN_PX = 2.0  # ... and never closer together than this


def near_grid(request: LabelRequest, anchor: Point, at_tip: bool, bounds: Box,
              near_gap: float = NEAR_GAP_PX) -> np.ndarray:
    """Every spot near the anchor on a fine grid, nearest first, as rows (left, top, needs a leader): where the rings and slides of
    near_candidates found no room, a gap between two arrows or labels that lies between their spots often
    has some (a label then vanished with free room beside its tip). Inside BOUNDS, NEAR_GAP to NEAR_LINES
    lines from the anchor (the box's nearest point); beyond one line, with a leader."""
    width, height, line = request.width, request.height, request.line
    ax, ay = anchor
    reach = NEAR_LINES * line
    step = max(line / NEAR_GRID_STEPS, NEAR_GRID_MIN_PX)
    lefts = np.arange(max(ax - width - reach, bounds[0]), min(ax + reach, bounds[2] - width) + 1e-9, step)
    tops = np.arange(max(ay - height - reach, bounds[1]), min(ay + reach, bounds[3] - height) + 1e-9, step)
    if not len(lefts) or not len(tops):
        return np.empty((0, 3))
    grid_x, grid_y = np.meshgrid(lefts, tops)
    grid_x, grid_y = grid_x.ravel(), grid_y.ravel()
    distance = np.hypot(np.clip(ax, grid_x, grid_x + width) - ax, np.clip(ay, grid_y, grid_y + height) - ay)
    near = np.flatnonzero((distance >= near_gap - 1e-9) & (distance <= reach))
    near = near[np.argsort(distance[near], kind="stable")]
    return np.column_stack((grid_x[near], grid_y[near], (distance[near] > line) | (not at_tip)))


def far_rings(request: LabelRequest, anchor: Point) -> Iterator[Spot]:
    """For an essential label with no room near its tip: the spots of further rings round it, each joined
    to the tip by a leader. After them, every spot of the plot (anywhere_in): a small plot on a projector
    can have no room near a tip."""
    width, height = request.width, request.height
    half_w, half_h = width / 2, height / 2
    ax, ay = anchor
    spots = spots_towards(*request.direction)
    for ring in _FAR_RINGS:
        gap = ring * request.line
        for fa, fg, ga, gg in spots:
            yield ax + fa * half_w + fg * gap - half_w, ay + ga * half_h + gg * gap - half_h, True


def slides(anchor: Point, width: float, height: float, gap: float, direction: Point, bounds: Box, leader: bool,
            steps: int) -> Iterator[Spot]:
    """Spots `gap` from the anchor along each side of it, slid from end to end: the label above or below
    still spans the anchor's column, beside it its row. The side the arrow points to first; each slide
    in SLIDE_STEPS and up against the plot's edges (beside a stem near the edge, that is the free spot)."""
    ax, ay = anchor
    ux, uy = direction
    min_x, min_y, max_x, max_y = bounds
    sides = sorted(((-uy, True, ay - gap - height), (uy, True, ay + gap),
                    (-ux, False, ax - gap - width), (ux, False, ax + gap)), key=lambda side: -side[0])
    for _, across, fixed in sides:
        if across:  # above or below: the left edge slides
            low, high, size = max(ax - width, min_x), min(ax, max_x - width), width
        else:  # beside: the top edge slides
            low, high, size = max(ay - height, min_y), min(ay, max_y - height), height
        if low > high:
            continue
        step = size / steps
        for place in (low, high, *(low + step * index for index in range(1, math.ceil((high - low) / step)))):
            yield (place, fixed, leader) if across else (fixed, place, leader)


def anywhere_in(bounds: Box, width: float, height: float, anchor: Point) -> Iterator[Spot]:
    """Every spot of the plot (inside `bounds`) on a grid of half a line by a quarter label, nearest the anchor first."""
    lefts = np.arange(bounds[0], bounds[2] - width, max(width / 4, 4.0))
    tops = np.arange(bounds[1], bounds[3] - height, max(height / 2, 4.0))
    if not len(lefts) or not len(tops):
        return
    grid_x, grid_y = np.meshgrid(lefts, tops)
    grid_x, grid_y = grid_x.ravel(), grid_y.ravel()
    near_x = np.clip(anchor[0], grid_x, grid_x + width) - anchor[0]
    near_y = np.clip(anchor[1], grid_y, grid_y + height) - anchor[1]
    for index in np.argsort(near_x * near_x + near_y * near_y, kind="stable"):
        yield float(grid_x[index]), float(grid_y[index]), True
