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
one led lines away reads as another's). With none, its shorter form, if it has
one ("k·cat" for "k·cat 76%"), tries the same near its tip. Only then does it go
further out, anywhere in the plot, joined by its leader, rather than vanish; it
keeps that far spot from one move to the next while the spot stays free. A
tip dragged out of the plot keeps its label at the edge where the arrow leaves
the view, with a pointer there. A label left out still names its arrow when the
arrow is pointed at.

The spots tried, in order, are label_spots.py's; this module tests them and chooses.
After a drag move, label_update.py places again only the labels round what changed.

Plain geometry in view pixels, no Qt (it runs on every drag move): boxes are
(left, top, right, bottom) tuples; arrows are convex shapes (see `convex_obstacle`).
A crowded plot (a 64-token scene has hundreds of shafts and heads) tests each spot
against only the shapes whose bounding boxes touch it, found with NumPy.
"""

from __future__ import annotations

from collections.abc import Iterable
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
from attn_desktop.geometry.label_spots import (
    NEAR_GAP_PX,
    NEAR_LINES,
    SLIDE_STEPS,
    LabelRequest,
    Spot,
    anchor_of,
    anywhere_in,
    far_rings,
    near_candidates,
    near_grid,
    previous_spot,
)

MARGIN_PX = 1.0  # labels this close to each other count as touching
EDGE_INSET_PX = 1.0  # labels keep this far inside the plot
TOUCH_PX = 1.5  # as a last resort, labels come this much nearer heads (their clearance) and their own tip
LEADER_WIDTH_PX = 1.0


# Named tuples rather than dataclasses: a drag move makes a few dozen of each, and a tuple is the
# cheapest immutable record to build (LabelRequest too: see label_spots.py).
class Placement(NamedTuple):
    dx: float  # the label's top-left corner, relative to the tip, in pixels
    dy: float
    leader_to: Point | None = None  # a leader line runs from the label to this point (tip, or the plot's edge)
    pointer: bool = False  # the tip is out of view: the leader ends in a pointer at the edge
    short: bool = False  # the label's shorter form is shown (see LabelRequest.short_width)


HIDDEN = None  # what place_labels gives a label that found no room

def place_labels(requests: list[LabelRequest], obstacles: list[Obstacle] | ShapeIndex,
                 bounds: Box) -> list[Placement | None]:
    """A placement for each label, or HIDDEN, in the order given: the order of importance.

    `obstacles` are the plot's arrows (every shaft and head, labelled or not), as a list or as a
    ShapeIndex kept from frame to frame; `bounds` the plot's area.
    """
    shapes = obstacles if isinstance(obstacles, ShapeIndex) else ShapeIndex.of(obstacles)
    return full_layout(requests, shapes, bounds).placements


def full_layout(requests: list[LabelRequest], shapes: ShapeIndex, bounds: Box) -> LabelLayout:
    """place_labels's layout, with each label's box and how it was placed (see label_update.py)."""
    essential = [index for index, request in enumerate(requests) if request.essential]
    best = latest = LabelLayout(len(requests)).near(requests, essential, shapes, bounds)
    for _ in range(RETRIES):
        # An essential label kept from its tip by other labels (not by arrows, which stay where they are)
        # chooses before the ones that took its room: they often had other spots. The layout that hides the
        # fewest, then leads the fewest far off, then strands the fewest, wins.
        first = [index for index in latest.stranded if index in latest.crowded_out]
        if not first or essential[:len(first)] == first:
            break
        essential = [*first, *(index for index in essential if index not in first)]
        latest = LabelLayout(len(requests)).near(requests, essential, shapes, bounds)
        if latest.shortfall() < best.shortfall():
            best = latest
    # Then the others, the minor ones last: near their tip, or not at all.
    others = [index for index, request in enumerate(requests) if not request.essential and not request.minor]
    others += [index for index, request in enumerate(requests) if not request.essential and request.minor]
    return best.near(requests, others, shapes, bounds)


RETRIES = 3  # how many times the essential labels left without a near spot choose first instead


class LabelLayout:
    """The labels placed so far: their placements, boxes and leader lines, and the essential ones stranded."""

    def __init__(self, count: int) -> None:
        self.placements: list[Placement | None] = [HIDDEN] * count
        self.boxes: list[Box | None] = [None] * count  # each label's box, where it is shown
        self.order: list[int] = []  # the labels in the order they chose
        self.taken: list[Box] = []  # labels placed so far
        self.leaders: list[Obstacle] = []  # and their leader lines, which later labels keep off too
        self.stranded: list[int] = []  # essential labels with no free spot near their tip
        self.crowded_out: set[int] = set()  # those of them with a spot near their tip that other labels took
        self.led_far: list[int] = []  # those of them led further than two lines, with a leader

    def near(self, requests: list[LabelRequest], order: list[int], shapes: ShapeIndex, bounds: Box) -> LabelLayout:
        """Each label in ORDER at the first free spot near its tip. None there: hidden, or if essential, stranded
        and put further out at once, joined by its leader (before the labels after it fill the plot)."""
        for index in order:
            self.place_one(index, requests[index], shapes, bounds)
        return self

    def place_one(self, index: int, request: LabelRequest, shapes: ShapeIndex, bounds: Box) -> None:
        """One label at the first free spot near its tip; else hidden, or if essential, stranded: over shafts
        by its tip, or further out."""
        placement, box = _place(request, shapes, self.leaders, self.taken, bounds, near=True)
        # (In a crowd of shafts a minor label is left out without a second search: a 64-token scene hides
        # most of its labels on every move, and a search for each one's shorter form cost a quarter of a drag.)
        if placement is None and not request.essential and request.short_names_it and not shapes.crowded:
            placement, box = _shortened_free(request, shapes, self.leaders, self.taken, bounds)
        if placement is None and request.essential:
            self.stranded.append(index)
            if box != _NO_BOX:  # a spot clear of arrows: other labels took it
                self.crowded_out.add(index)
            placement, box = _over_shafts(request, shapes, self.leaders, self.taken, bounds)
            if placement is None:
                if _over_shafts(request, shapes, [], [], bounds)[0] is not None:
                    self.crowded_out.add(index)  # room by its tip over shafts, which other labels took
                placement, box = _shortened(request, shapes, self.leaders, self.taken, bounds)
            if placement is None:
                self.led_far.append(index)
                placement, box = _place(request, shapes, self.leaders, self.taken, bounds, near=False)
        self.take(index, placement, box)

    def place_stranded_again(self, index: int, request: LabelRequest, shapes: ShapeIndex, bounds: Box) -> bool:
        """For an essential label stranded last time (over shafts, or far) whose tip moved in a crowded plot:
        its usual spot if that is free now, else last time's spot while it is as good as it was (near: over no
        head, label or leader; far: free), without searching every spot near the tip (see label_update.py).
        False if neither: then the label is not placed."""
        anchor, at_tip = anchor_of(request, bounds)
        inside = _inset(bounds)
        usual = next(near_candidates(request, anchor, at_tip, inside, 1))
        placement, box = _first_free([usual], request, shapes, self.leaders, self.taken, inside, anchor)
        if placement is None and request.previous is not None:
            near = previous_spot(request, anchor, at_tip)
            if near is not None:
                placement, box = self._as_good_over_shafts(near, request, shapes, inside, anchor)
            else:
                far = (request.tip[0] + request.previous[0], request.tip[1] + request.previous[1], True)
                placement, box = _first_free([far], request, shapes, self.leaders, self.taken, inside, anchor)
            if placement is not None:
                self.stranded.append(index)
        if placement is not None:
            self.take(index, placement, box)
        return placement is not None

    def _as_good_over_shafts(self, spot: tuple[float, float, bool], request: LabelRequest, shapes: ShapeIndex,
                             inside: Box, anchor: Point) -> tuple[Placement | None, Box]:
        """The spot if it is still what _over_shafts accepts: over no head (see TOUCH_PX), label or leader,
        inside the plot. One spot, tested shape by shape: cheaper than _least_covered's arrays."""
        left, top, _ = spot
        touching = (left + TOUCH_PX, top + TOUCH_PX, left + request.width - TOUCH_PX, top + request.height - TOUCH_PX)
        if shapes.hits_a_head(touching):
            return None, _NO_BOX
        return _first_free([spot], request, _NO_SHAPES, self.leaders, self.taken, inside, anchor)

    def shortfall(self) -> tuple[int, int, int]:
        """How many essential labels are hidden (no room anywhere), led far from their tip, and not at a free
        spot near it (over shafts, or far)."""
        hidden = sum(self.placements[index] is HIDDEN for index in self.stranded)
        return hidden, len(self.led_far), len(self.stranded)

    def take(self, index: int, placement: Placement | None, box: Box) -> None:
        self.order.append(index)
        if placement is None:
            return  # no free spot in the whole plot (a tiny plot): left out rather than printed over an arrow
        self.boxes[index] = box
        self.taken.append(box)
        if placement.leader_to is not None:
            self.leaders.append(_leader_obstacle(box, placement.leader_to))
        self.placements[index] = placement


def _place(request: LabelRequest, shapes: ShapeIndex, leaders: list[Obstacle], taken: list[Box], bounds: Box,
           near: bool) -> tuple[Placement | None, Box]:
    """The first free spot (None if there is none) and its box: NEAR the tip, or further out."""
    anchor, at_tip = anchor_of(request, bounds)
    inside = _inset(bounds)
    if not near:
        # Last time's spot first while it is still free: a label stranded far from its tip keeps still, and
        # needs no search of the whole plot on every move.
        if request.previous is not None:
            left, top = request.tip[0] + request.previous[0], request.tip[1] + request.previous[1]
            kept = _first_free([(left, top, True)], request, shapes, leaders, taken, inside, anchor)
            if kept[0] is not None:
                return kept
        found = _first_free_of_many(list(far_rings(request, anchor)), request, shapes, leaders, taken, inside, anchor)
        if found[0] is not None:
            return found
        spots = anywhere_in(inside, request.width, request.height, anchor)
        return _first_free(spots, request, shapes, leaders, taken, inside, anchor)
    # In a crowd of shafts a label slid a little finds no gap its rings missed: there it only tries the ends.
    spots = near_candidates(request, anchor, at_tip, inside, 1 if shapes.crowded else SLIDE_STEPS)
    # Most labels take one of the first few spots, tested one by one; a label still without one tests the
    # rest (a few hundred) against the shapes all at once.
    found = _first_free(islice(spots, FIRST_SPOTS), request, shapes, leaders, taken, inside, anchor)
    if found[0] is not None or shapes.crowded and not request.essential:
        return found  # in a crowd of shafts a minor label without a first-ring spot is hidden: no search, every move
    found = _first_free_of_many(list(spots), request, shapes, leaders, taken, inside, anchor)
    if found[0] is not None:
        return found
    # The rings and slides step a good part of a label at a time: free room between two of their spots
    # (beside a short neighbour, between two shafts) is found on a finer grid before the label gives up.
    fine = _first_free_of_many(near_grid(request, anchor, at_tip, inside), request, shapes, leaders, taken, inside,
                               anchor)
    return fine if fine[0] is not None else found


def _first_free_of_many(spots: list[Spot] | np.ndarray, request: LabelRequest, shapes: ShapeIndex, leaders: list[Obstacle],
                        taken: list[Box], inside: Box, anchor: Point) -> tuple[Placement | None, Box]:
    """The same as _first_free, with the spots tested against the arrows all at once. With no free spot,
    the box says whether other labels (a box) or the arrows (none) left none."""
    rest, boxes = _as_arrays(spots, request)
    clear = _inside_of(boxes, inside)
    if clear.any():
        clear[clear] = ~shapes.hits_many(boxes[clear])  # inside the plot and clear of every arrow
    free = clear & _clear_of_labels(boxes, taken)
    if leaders and free.any():  # the leaders placed so far, all at once too: a fine grid has thousands of spots
        free[free] = ~ShapeIndex.of(leaders).hits_many(boxes[free])
    spots_left = (rest[index].tolist() for index in np.flatnonzero(free))
    placement, box = _first_free(spots_left, request, _NO_SHAPES, [], taken, inside, anchor)
    return placement, box if placement is not None or not clear.any() else tuple(boxes[np.argmax(clear)].tolist())


def _shortened(request: LabelRequest, shapes: ShapeIndex, leaders: list[Obstacle], taken: list[Box],
               bounds: Box) -> tuple[Placement | None, Box]:
    """For an essential label with no room by its tip, not even over shafts: its shorter form there, free or
    over shafts. "k·cat" by its own tip reads better than "k·cat 76%" led lines away (the weight is in the
    Scores panel), and on a projector's small plots the whole label often fits nowhere near."""
    if request.short_width is None or request.short_width >= request.width:
        return None, _NO_BOX
    short = request._replace(width=request.short_width)
    placement, box = _place(short, shapes, leaders, taken, bounds, near=True)
    if placement is None:
        placement, box = _over_shafts(short, shapes, leaders, taken, bounds)
    return (placement._replace(short=True), box) if placement is not None else (None, _NO_BOX)


def _shortened_free(request: LabelRequest, shapes: ShapeIndex, leaders: list[Obstacle], taken: list[Box],
                    bounds: Box) -> tuple[Placement | None, Box]:
    """For a label that is not essential with no free room by its tip: its shorter form there, if that still
    names the arrow ("k·sat" for "k·sat 7%"; its weight is in the Scores panel), and only where it is free.
    Left out, a name a lesson's step asks about vanishes although there was room for it."""
    if request.short_width is None or request.short_width >= request.width:
        return None, _NO_BOX
    placement, box = _place(request._replace(width=request.short_width), shapes, leaders, taken, bounds, near=True)
    return (placement._replace(short=True), box) if placement is not None else (None, _NO_BOX)


def _over_shafts(request: LabelRequest, shapes: ShapeIndex, leaders: list[Obstacle], taken: list[Box],
                 bounds: Box) -> tuple[Placement | None, Box]:
    """For an essential label with no free spot near its tip: the near spot that hides the least of the
    arrows' shafts, over no head or tip, no label and no leader; the nearest of those that hide as much.
    Two tips that meet among other shafts leave no free spot within two lines of them, and a label over a
    thin shaft still reads as its own arrow's, where one led several lines off reads as another's."""
    anchor, at_tip = anchor_of(request, bounds)
    inside = _inset(bounds)
    previous = previous_spot(request, anchor, at_tip)
    if previous is not None:
        # Last time's spot while it is still over no head: no jumps from one frame of a drag to the next,
        # and no search on every move.
        found = _least_covered([previous], request, shapes, leaders, taken, inside, anchor)
        if found[0] is not None:
            return found
    # Every clearance a little smaller (a narrow gap between two heads can be the only room by the tip):
    # the label may touch a head, not cover it, and comes a little nearer its own tip.
    candidates = near_candidates(request, anchor, at_tip, inside, 1 if shapes.crowded else SLIDE_STEPS,
                                  NEAR_GAP_PX - TOUCH_PX)
    return _least_covered(list(candidates), request, shapes, leaders, taken, inside, anchor)


def _least_covered(spots: list[Spot], request: LabelRequest, shapes: ShapeIndex, leaders: list[Obstacle],
                   taken: list[Box], inside: Box, anchor: Point) -> tuple[Placement | None, Box]:
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


def _as_arrays(spots: list[Spot] | np.ndarray, request: LabelRequest) -> tuple[np.ndarray, np.ndarray]:
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


def _first_free(spots: Iterable[Spot], request: LabelRequest, shapes: ShapeIndex, leaders: list[Obstacle],
                taken: list[Box], inside: Box, anchor: Point) -> tuple[Placement | None, Box]:
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


__all__ = ["HIDDEN", "NEAR_LINES", "Box", "LabelLayout", "LabelRequest", "Obstacle", "Placement", "Point", "ShapeIndex",
           "box_hits", "convex_obstacle", "full_layout", "leader_start", "place_labels", "segment_obstacle"]
