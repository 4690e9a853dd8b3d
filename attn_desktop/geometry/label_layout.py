"""Where arrow labels go: next to their own tip, clear of every arrow and of each other.

Each arrow names itself with a label at its tip. Six keys around the origin put
their tips close together and their shafts across one another's labels, and a tip
near the plot's edge pushes its label out of sight. The canvas asks this module,
after every change, where each label goes. The essential labels (the chosen
query, the output, the keys and values with the most weight) choose first, then
the others, then the minor ones. Each label tries spots around its own tip,
nearest first and starting beyond the tip (where the arrow points), sliding
along each side of the tip too, and takes the first one that is inside the plot
and covers no arrow (shaft, head or tip) and no label already placed. A label
pushed from its usual spot keeps last time's spot while that is free and still
near its tip, so labels do not swap places from one frame of a drag to the next.

Near means within NEAR_LINES line heights of the tip: further off, a label reads
as another arrow's. Beyond one line a thin leader line joins it to its tip. A
label that finds no free spot that near is left out, unless it is essential. An
essential label then takes the near spot that hides the least of the arrows'
shafts, over no head, tip or label (two tips that meet among other shafts leave
no free spot by them; a label over a thin shaft still reads as its own arrow's,
one led lines away reads as another's). Only with no such spot does it go
further out, anywhere in the plot, joined by its leader, rather than vanish. A
tip dragged out of the plot keeps its label at the edge where the arrow leaves
the view, with a pointer there. A label left out still names its arrow when the
arrow is pointed at.

Plain geometry in view pixels, no Qt (it runs on every drag move): boxes are
(left, top, right, bottom) tuples; arrows are convex shapes (see `convex_obstacle`).
A crowded plot (a 64-token scene has hundreds of shafts and heads) tests each spot
against only the shapes whose bounding boxes touch it, found with NumPy.
"""

from __future__ import annotations

import math
from itertools import islice
from typing import NamedTuple

import numpy as np

from attn_desktop.geometry.label_obstacles import (
    Box,
    Obstacle,
    Point,
    ShapeIndex,
    box_hits,
    convex_obstacle,
    segment_obstacle,
)

MARGIN_PX = 1.0  # labels this close to each other count as touching
EDGE_INSET_PX = 1.0  # labels keep this far inside the plot
NEAR_GAP_PX = 3.0  # the first ring of spots: this far from the tip
TOUCH_PX = 1.5  # as a last resort, labels come this much nearer heads (their clearance) and their own tip
NEAR_LINES = 2.0  # a label further than this many line heights from its tip is not shown, unless essential
SLIDE_STEPS = 4  # along each side of the tip, a label is tried at this many places (and against the plot's edges)
LEADER_WIDTH_PX = 1.0


# Named tuples rather than dataclasses: a drag move makes a few dozen of each, and a tuple is the
# cheapest immutable record to build.
class LabelRequest(NamedTuple):
    width: float
    height: float  # one line height: labels nearer their tip than this need no leader line
    tip: Point
    direction: Point  # the way the arrow points on screen (unit vector): the label's first choice
    base: Point | None = None  # where the arrow starts: a tip out of view gets its label where the arrow leaves it
    minor: bool = False  # chooses after every other label: it only takes what is left
    previous: Point | None = None  # last time's offset of the label's top-left from the tip: kept while free and near
    essential: bool = False  # shown even with no room near its tip: further out, with a leader


class Placement(NamedTuple):
    dx: float  # the label's top-left corner, relative to the tip, in pixels
    dy: float
    leader_to: Point | None = None  # a leader line runs from the label to this point (tip, or the plot's edge)
    pointer: bool = False  # the tip is out of view: the leader ends in a pointer at the edge


HIDDEN = None  # what place_labels gives a label that found no room

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


def _spots_towards(ux: float, uy: float) -> tuple[tuple[float, float, float, float], ...]:
    """The spots nearest in angle to the arrow's direction first (cached per 5° of direction)."""
    key = round(math.degrees(math.atan2(uy, ux)) / 5) % 72
    order = _ORDER_CACHE.get(key)
    if order is None:
        angle = key * 5
        ranked = sorted(_SPOTS, key=lambda spot: abs((spot[0] - angle + 180) % 360 - 180))
        order = _ORDER_CACHE[key] = tuple(spot[1:] for spot in ranked)
    return order


def place_labels(requests: list[LabelRequest], obstacles: list[Obstacle] | ShapeIndex,
                 bounds: Box) -> list[Placement | None]:
    """A placement for each label, or HIDDEN, in the order given: the order of importance.

    `obstacles` are the plot's arrows (every shaft and head, labelled or not), as a list or as a
    ShapeIndex kept from frame to frame; `bounds` the plot's area.
    """
    shapes = obstacles if isinstance(obstacles, ShapeIndex) else ShapeIndex.of(obstacles)
    essential = [index for index, request in enumerate(requests) if request.essential]
    best = latest = _Layout(len(requests)).near(requests, essential, shapes, bounds)
    for _ in range(RETRIES):
        # An essential label kept from its tip by other labels (not by arrows, which stay where they are)
        # chooses before the ones that took its room: they often had other spots. The layout that hides the
        # fewest, then leads the fewest far off, then strands the fewest, wins.
        first = [index for index in latest.stranded if index in latest.crowded_out]
        if not first or essential[:len(first)] == first:
            break
        essential = [*first, *(index for index in essential if index not in first)]
        latest = _Layout(len(requests)).near(requests, essential, shapes, bounds)
        if latest.shortfall() < best.shortfall():
            best = latest
    # Then the others, the minor ones last: near their tip, or not at all.
    others = [index for index, request in enumerate(requests) if not request.essential and not request.minor]
    others += [index for index, request in enumerate(requests) if not request.essential and request.minor]
    return best.near(requests, others, shapes, bounds).placements


RETRIES = 3  # how many times the essential labels left without a near spot choose first instead


class _Layout:
    """The labels placed so far: their placements, boxes and leader lines, and the essential ones stranded."""

    def __init__(self, count: int) -> None:
        self.placements: list[Placement | None] = [HIDDEN] * count
        self.taken: list[Box] = []  # labels placed so far
        self.leaders: list[Obstacle] = []  # and their leader lines, which later labels keep off too
        self.stranded: list[int] = []  # essential labels with no free spot near their tip
        self.crowded_out: set[int] = set()  # those of them with a spot near their tip that other labels took
        self.led_far: list[int] = []  # those of them led further than two lines, with a leader

    def near(self, requests: list[LabelRequest], order: list[int], shapes: ShapeIndex, bounds: Box) -> _Layout:
        """Each label in ORDER at the first free spot near its tip. None there: hidden, or if essential, stranded
        and put further out at once, joined by its leader (before the labels after it fill the plot)."""
        for index in order:
            placement, box = _place(requests[index], shapes, self.leaders, self.taken, bounds, near=True)
            if placement is None and requests[index].essential:
                self.stranded.append(index)
                if box != _NO_BOX:  # a spot clear of arrows: other labels took it
                    self.crowded_out.add(index)
                placement, box = _over_shafts(requests[index], shapes, self.leaders, self.taken, bounds)
                if placement is None:
                    if _over_shafts(requests[index], shapes, [], [], bounds)[0] is not None:
                        self.crowded_out.add(index)  # room by its tip over shafts, which other labels took
                    self.led_far.append(index)
                    placement, box = _place(requests[index], shapes, self.leaders, self.taken, bounds, near=False)
            self.take(index, placement, box)
        return self

    def shortfall(self) -> tuple[int, int, int]:
        """How many essential labels are hidden (no room anywhere), led far from their tip, and not at a free
        spot near it (over shafts, or far)."""
        hidden = sum(self.placements[index] is HIDDEN for index in self.stranded)
        return hidden, len(self.led_far), len(self.stranded)

    def take(self, index: int, placement: Placement | None, box: Box) -> None:
        if placement is None:
            return  # no free spot in the whole plot (a tiny plot): left out rather than printed over an arrow
        self.taken.append(box)
        if placement.leader_to is not None:
            self.leaders.append(_leader_obstacle(box, placement.leader_to))
        self.placements[index] = placement


def _anchor(request: LabelRequest, bounds: Box) -> tuple[Point, bool]:
    """The point the label stays near, and whether it is the tip itself (else the tip is out of view and
    this is where the arrow leaves the plot, or the nearest point of the plot's edge)."""
    tx, ty = request.tip
    min_x, min_y, max_x, max_y = bounds
    if min_x <= tx <= max_x and min_y <= ty <= max_y:
        return (tx, ty), True
    inset = (min_x + 2, min_y + 2, max_x - 2, max_y - 2)
    if request.base is not None:
        exit_point = _last_point_inside(request.base, request.tip, inset)
        if exit_point is not None:
            return exit_point, False
    return (min(max(tx, inset[0]), inset[2]), min(max(ty, inset[1]), inset[3])), False


def _last_point_inside(start: Point, end: Point, box: Box) -> Point | None:
    """Where the segment start → end leaves the box (Liang–Barsky); None if it never is inside."""
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
    return x0 + dx * high, y0 + dy * high


def _near_candidates(request: LabelRequest, anchor: Point, at_tip: bool, bounds: Box, slide_steps: int,
                     near_gap: float = NEAR_GAP_PX):
    """(left, top, needs a leader) for each spot to try, in order of preference: the usual spot, last time's
    (if it is still near), then ring by ring outwards up to NEAR_LINES, each ring starting where the arrow
    points and then sliding along each side of the tip in SLIDE_STEPS."""
    width, height = request.width, request.height
    half_w, half_h = width / 2, height / 2
    ax, ay = anchor
    ux, uy = request.direction
    spots = _spots_towards(ux, uy)
    fa, fg, ga, gg = spots[0]
    yield ax + fa * half_w + fg * near_gap - half_w, ay + ga * half_h + gg * near_gap - half_h, not at_tip
    previous = _previous_spot(request, anchor, at_tip)
    if previous is not None:
        yield previous
    for ring, leader in _NEAR_RINGS:
        gap = max(near_gap, ring * height)
        for fa, fg, ga, gg in spots:
            yield ax + fa * half_w + fg * gap - half_w, ay + ga * half_h + gg * gap - half_h, leader or not at_tip
        yield from _slides(anchor, width, height, gap, request.direction, bounds, leader or not at_tip, slide_steps)


def _previous_spot(request: LabelRequest, anchor: Point, at_tip: bool) -> tuple[float, float, bool] | None:
    """Last time's spot (left, top, needs a leader), only while it is near: after an undo, a zoom or a new
    layout, a spot that was the best one far away is no reason to stay far."""
    if request.previous is None or not at_tip:
        return None
    (ax, ay), (dx, dy) = anchor, request.previous
    left, top = ax + dx, ay + dy
    nearest_x, nearest_y = min(max(ax, left), left + request.width), min(max(ay, top), top + request.height)
    distance = math.hypot(nearest_x - ax, nearest_y - ay)
    return (left, top, distance > request.height) if distance <= NEAR_LINES * request.height else None


def _far_rings(request: LabelRequest, anchor: Point):
    """For an essential label with no room near its tip: the spots of further rings round it, each joined
    to the tip by a leader. After them, every spot of the plot (_anywhere_in): a small plot on a projector
    can have no room near a tip."""
    width, height = request.width, request.height
    half_w, half_h = width / 2, height / 2
    ax, ay = anchor
    spots = _spots_towards(*request.direction)
    for ring in _FAR_RINGS:
        gap = ring * height
        for fa, fg, ga, gg in spots:
            yield ax + fa * half_w + fg * gap - half_w, ay + ga * half_h + gg * gap - half_h, True


def _slides(anchor: Point, width: float, height: float, gap: float, direction: Point, bounds: Box, leader: bool,
            steps: int):
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


def _anywhere_in(bounds: Box, width: float, height: float, anchor: Point):
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


def _place(request, shapes: ShapeIndex, leaders, taken, bounds, near: bool) -> tuple[Placement | None, Box]:
    """The first free spot (None if there is none) and its box: NEAR the tip, or further out."""
    anchor, at_tip = _anchor(request, bounds)
    inside = _inset(bounds)
    if not near:
        found = _first_free_of_many(list(_far_rings(request, anchor)), request, shapes, leaders, taken, inside, anchor)
        if found[0] is not None:
            return found
        spots = _anywhere_in(inside, request.width, request.height, anchor)
        return _first_free(spots, request, shapes, leaders, taken, inside, anchor)
    # In a crowd of shafts a label slid a little finds no gap its rings missed: there it only tries the ends.
    spots = _near_candidates(request, anchor, at_tip, inside, 1 if shapes.crowded else SLIDE_STEPS)
    # Most labels take one of the first few spots, tested one by one; a label still without one tests the
    # rest (a few hundred) against the shapes all at once.
    found = _first_free(islice(spots, FIRST_SPOTS), request, shapes, leaders, taken, inside, anchor)
    if found[0] is not None or shapes.crowded and not request.essential:
        return found  # in a crowd of shafts a minor label without a first-ring spot is hidden: no search, every move
    return _first_free_of_many(list(spots), request, shapes, leaders, taken, inside, anchor)


def _first_free_of_many(spots: list, request: LabelRequest, shapes: ShapeIndex, leaders, taken, inside: Box,
                        anchor: Point) -> tuple[Placement | None, Box]:
    """The same as _first_free, with the spots tested against the arrows all at once. With no free spot,
    the box says whether other labels (a box) or the arrows (none) left none."""
    rest, boxes = _as_arrays(spots, request)
    clear = _inside_of(boxes, inside)
    if clear.any():
        clear[clear] = ~shapes.hits_many(boxes[clear])  # inside the plot and clear of every arrow
    free = clear & _clear_of_labels(boxes, taken)
    spots_left = (rest[index].tolist() for index in np.flatnonzero(free))
    placement, box = _first_free(spots_left, request, _NO_SHAPES, leaders, taken, inside, anchor)
    return placement, box if placement is not None or not clear.any() else tuple(boxes[np.argmax(clear)].tolist())


def _over_shafts(request: LabelRequest, shapes: ShapeIndex, leaders, taken, bounds: Box) -> tuple[Placement | None, Box]:
    """For an essential label with no free spot near its tip: the near spot that hides the least of the
    arrows' shafts, over no head or tip, no label and no leader; the nearest of those that hide as much.
    Two tips that meet among other shafts leave no free spot within two lines of them, and a label over a
    thin shaft still reads as its own arrow's, where one led several lines off reads as another's."""
    anchor, at_tip = _anchor(request, bounds)
    inside = _inset(bounds)
    previous = _previous_spot(request, anchor, at_tip)
    if previous is not None:
        # Last time's spot while it is still over no head: no jumps from one frame of a drag to the next,
        # and no search on every move.
        found = _least_covered([previous], request, shapes, leaders, taken, inside, anchor)
        if found[0] is not None:
            return found
    # Every clearance a little smaller (a narrow gap between two heads can be the only room by the tip):
    # the label may touch a head, not cover it, and comes a little nearer its own tip.
    candidates = _near_candidates(request, anchor, at_tip, inside, 1 if shapes.crowded else SLIDE_STEPS,
                                  NEAR_GAP_PX - TOUCH_PX)
    return _least_covered(list(candidates), request, shapes, leaders, taken, inside, anchor)


def _least_covered(spots: list, request: LabelRequest, shapes: ShapeIndex, leaders, taken, inside: Box,
                   anchor: Point) -> tuple[Placement | None, Box]:
    """Of SPOTS, the free one but for shafts (touching no head: see TOUCH_PX) that hides the least of them."""
    rows, boxes = _as_arrays(spots, request)
    usable = np.flatnonzero(_inside_of(boxes, inside) & _clear_of_labels(boxes, taken))
    if not len(usable):
        return None, _NO_BOX
    over_heads, covered = shapes.shafts_covered(boxes[usable] + (TOUCH_PX, TOUCH_PX, -TOUCH_PX, -TOUCH_PX))
    # Whole pixels of shaft: a spot nearer the tip wins over one that hides a hair less.
    order = np.argsort(np.round(covered), kind="stable")
    ranked = usable[order[~over_heads[order]]]
    return _first_free((rows[index].tolist() for index in ranked), request, _NO_SHAPES, leaders, taken, inside, anchor)


def _as_arrays(spots: list, request: LabelRequest) -> tuple[np.ndarray, np.ndarray]:
    """The spots (left, top, needs a leader) as rows, and the label's box at each."""
    rows = np.array(spots, dtype=float).reshape(-1, 3)
    boxes = np.column_stack((rows[:, 0], rows[:, 1], rows[:, 0] + request.width, rows[:, 1] + request.height))
    return rows, boxes


def _inside_of(boxes: np.ndarray, inside: Box) -> np.ndarray:
    return (boxes[:, 0] >= inside[0]) & (boxes[:, 1] >= inside[1]) & (boxes[:, 2] <= inside[2]) & \
        (boxes[:, 3] <= inside[3])


def _clear_of_labels(boxes: np.ndarray, taken: list[Box]) -> np.ndarray:
    free = np.ones(len(boxes), dtype=bool)
    for o0, o1, o2, o3 in taken:
        free &= (boxes[:, 0] >= o2 + MARGIN_PX) | (boxes[:, 2] + MARGIN_PX <= o0) | \
            (boxes[:, 1] >= o3 + MARGIN_PX) | (boxes[:, 3] + MARGIN_PX <= o1)
    return free


def _inset(bounds: Box) -> Box:
    """The plot's area less EDGE_INSET_PX on every side: where labels go."""
    return bounds[0] + EDGE_INSET_PX, bounds[1] + EDGE_INSET_PX, bounds[2] - EDGE_INSET_PX, bounds[3] - EDGE_INSET_PX


_NO_SHAPES = ShapeIndex.of([])  # the arrows already tested: only the leader lines are left to test


FIRST_SPOTS = 14  # the usual spot, last time's and the first ring: tested one by one


def _first_free(spots, request: LabelRequest, shapes: ShapeIndex, leaders, taken, inside: Box,
                anchor: Point) -> tuple[Placement | None, Box]:
    """The first of SPOTS (left, top, needs a leader) inside the plot and free, as a placement, and its box."""
    # The innermost loop of every drag move: plain comparisons, few helper calls.
    width, height = request.width, request.height
    min_x, min_y, max_x, max_y = inside
    for left, top, leader in spots:
        x1, y1 = left + width, top + height
        if left < min_x or top < min_y or x1 > max_x or y1 > max_y:
            continue
        if not all(left >= o2 + MARGIN_PX or o0 >= x1 + MARGIN_PX or top >= o3 + MARGIN_PX or o1 >= y1 + MARGIN_PX
                   for o0, o1, o2, o3 in taken):
            continue
        box = (left, top, x1, y1)
        if shapes.hit(box, leaders):
            continue
        if leader:
            line = _leader_obstacle(box, anchor)
            if any(box_hits(other, line) for other in taken):
                continue
        placement = Placement(left - request.tip[0], top - request.tip[1], anchor if leader else None,
                              pointer=anchor != request.tip)
        return placement, box
    return None, _NO_BOX


_NO_BOX: Box = (0.0, 0.0, 0.0, 0.0)


def leader_start(box: Box, target: Point) -> Point:
    """Where a leader line leaves the label: the point of its box nearest the target."""
    return min(max(target[0], box[0]), box[2]), min(max(target[1], box[1]), box[3])


def _leader_obstacle(box: Box, target: Point) -> Obstacle:
    start = leader_start(box, target)
    return segment_obstacle(start[0], start[1], target[0], target[1], LEADER_WIDTH_PX)


__all__ = ["HIDDEN", "NEAR_LINES", "Box", "LabelRequest", "Obstacle", "Placement", "Point", "ShapeIndex", "box_hits",
           "convex_obstacle", "leader_start", "place_labels", "segment_obstacle"]
