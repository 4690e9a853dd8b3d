"""Labels placed again after a change: only those whose arrow or surroundings changed (see label_layout.py).

A drag move changes a few arrows: the dragged one, the output, those whose weight changed their width.
Placing every label afresh on every move costs most of the canvas's update in a crowded plot, and a label
that jumps while an unrelated arrow is dragged reads as a glitch. So a label keeps its spot when its own
request is the same as last time and nothing that changed since (an arrow's shape, old or new; another
label's box or leader, old or new, placed before it) touches the area its placement depends on: every
spot near its tip it could try, its own box and its leader. A full placement would then try the same spots
against the same shapes and labels, last time's spot early, and give it the same spot; keeping it gives
that answer without the search. The other labels are placed again, in order, around those kept.

A label shown whole at a free spot by its tip watches less: a full placement tries its usual spot first and
last time's second, so it keeps its spot while nothing changed over those two (and its leader). A dragged
key's shaft sweeps across the near areas of most labels of a six-token plot on every move, but seldom over
those two spots: watching every near spot re-placed two labels in three for nothing. An arrow's shape is
tested against those two spots exactly, as a full placement tests a spot (a key's shaft a quarter pixel
wider, as its weight grows, comes within a few pixels of its own label on most moves, and over it never).

An essential label stranded far from its tip keeps its far spot the same way, while nothing near its tip
changed (no room opened there) and nothing came over the spot itself. One whose own tip moves (the output,
mid-drag) in a crowded plot takes its usual spot if that is free, else keeps last time's spot (beside its
moving tip) while that is as good: the search of every spot near the tip costs a millisecond a move. When
the drag ends, the canvas has every label placed afresh.

Plain geometry in view pixels, no Qt, like label_layout.py.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

from attn_desktop.geometry.label_layout import (
    HIDDEN,
    MARGIN_PX,
    TOUCH_PX,
    LabelLayout,
    Placement,
    full_layout,
)
from attn_desktop.geometry.label_obstacles import Box, Obstacle, Point, ShapeIndex, box_hits
from attn_desktop.geometry.label_spots import (
    NEAR_GAP_PX,
    NEAR_LINES,
    LabelRequest,
    anchor_of,
    spot_at,
    usual_spot,
)

SLACK_PX = MARGIN_PX + TOUCH_PX + 2.0  # the watched area reaches this much beyond the furthest spot tried


class _Placed(NamedTuple):
    """A label as last placed: what it asked for, where it went, and the area whose changes may move it."""

    request: LabelRequest
    placement: Placement | None
    box: Box | None
    rank: int  # its place in the order the labels chose in
    stranded: bool  # an essential label with no free spot near its tip: over shafts by it, or further out
    watched: tuple[Box, ...]  # the areas whose changes may move it, grown by SLACK_PX
    # The spot (its offset from the tip) the label must ask to keep for WATCHED to be all that may move it, when
    # that is less than every spot near its tip (see _deciding_spots); None when it watches every spot.
    kept_at: Point | None
    reach: Box  # the box round every watched area
    # For a label that watches its two deciding spots (KEPT_AT set): those spots' boxes as they are. An arrow's
    # shape moves it only by coming over one of them (or leaving one), tested exactly as a full placement tests a
    # spot against the arrows; other labels, which keep a margin off it, are tested against WATCHED.
    spots: tuple[Box, ...] | None
    spots_reach: Box


class LabelMemory(NamedTuple):
    """A plot's labels as last placed, by key (the arrow each labels), and the plot's area then."""

    bounds: Box
    placed: dict[Hashable, _Placed]


def update_labels(requests: list[LabelRequest], keys: list[Hashable], shapes: ShapeIndex, bounds: Box,
                  memory: LabelMemory | None, changed: list[Obstacle]) -> tuple[list[Placement | None], LabelMemory]:
    """A placement for each label (or HIDDEN), as place_labels gives, and what to remember for next time.

    KEYS name the labels' arrows (the same arrow, the same key, from one call to the next); MEMORY is what
    the last call returned, or None for a full placement (a new view, a new scene, a zoom or a resize);
    CHANGED holds the arrow shapes that changed since, old and new.
    """
    if memory is None or memory.bounds != bounds:
        layout = full_layout(requests, shapes, bounds)
        return layout.placements, _remember(layout, requests, keys, bounds)
    placed = memory.placed
    # Labels gone since (their arrow lost its label) leave room: the labels round them may take it. (Only whether
    # a change touches a label is asked of MOVED, so its order does not matter.)
    moved = [_as_shape(box) for key in placed.keys() - keys for box in _shown(placed[key])]
    layout = LabelLayout(len(requests))
    remembered: dict[Hashable, _Placed] = {}
    for index in _order(requests, keys, placed):
        request, key = requests[index], keys[index]
        old = placed.get(key)
        if old is not None and (old.request is request or _same_request(old.request, request)) \
                and old.kept_at in (None, request.previous) \
                and not _touches_any(old, changed, moved):
            layout.take(index, old.placement, old.box if old.box is not None else _NOTHING)
            if old.stranded:
                layout.stranded.append(index)
            # What it watches follows from its request, spot and box, all as they were; so does all that is read
            # of the request it was placed for (see _same_request), which is kept.
            rank = len(layout.order) - 1
            remembered[key] = old if old.rank == rank else old._replace(rank=rank)
            continue
        # In a crowd, a stranded label whose tip moved (the output, mid-drag) tries only its usual spot before
        # keeping last time's: searching every spot by its tip costs a millisecond a move.
        if not (old is not None and old.stranded and shapes.crowded and _same_label(old.request, request)
                and layout.place_stranded_again(index, request, shapes, bounds)):
            layout.place_one(index, request, shapes, bounds)
        placement, box = layout.placements[index], layout.boxes[index]
        remembered[key] = _placed(request, placement, box, len(layout.order) - 1, index in layout.stranded, bounds)
        if old is None or (old.placement, old.box) != (placement, box):
            # Later labels round its old spot or its new one may have to move, or may take the room it left.
            before = _shown(old) if old is not None else ()
            moved.extend(_as_shape(shown) for shown in (*before, *_boxes_shown(box, placement)))
    return layout.placements, LabelMemory(bounds, remembered)


_NOTHING: Box = (0.0, 0.0, 0.0, 0.0)


def _order(requests: list[LabelRequest], keys: list[Hashable], placed: dict[Hashable, _Placed]) -> list[int]:
    """The order the labels choose in: the essential ones first, in last time's order (a full placement may
    have let one crowded out choose first), then the others, the minor ones last."""
    last = len(requests)
    essential = sorted((index for index, request in enumerate(requests) if request.essential),
                       key=lambda index: placed[keys[index]].rank if keys[index] in placed else last + index)
    others = [index for index, request in enumerate(requests) if not request.essential and not request.minor]
    minor = [index for index, request in enumerate(requests) if not request.essential and request.minor]
    return [*essential, *others, *minor]


def _remember(layout: LabelLayout, requests: list[LabelRequest], keys: list[Hashable], bounds: Box) -> LabelMemory:
    rank = {index: position for position, index in enumerate(layout.order)}
    stranded = set(layout.stranded)
    return LabelMemory(bounds, {key: _placed(request, layout.placements[index], layout.boxes[index],
                                             rank.get(index, index), index in stranded, bounds)
                                for index, (request, key) in enumerate(zip(requests, keys))})


def _placed(request: LabelRequest, placement: Placement | None, box: Box | None, rank: int, stranded: bool,
            bounds: Box) -> _Placed:
    """A label as placed, with the areas whose changes may move it (grown by SLACK_PX) and the box round them."""
    deciding = None if stranded else _deciding_spots(request, placement, box)
    kept_at = None if deciding is None else deciding[1]
    spots = (_near_area(request, bounds),) if deciding is None else deciding[0]
    areas = (*spots, *_boxes_shown(box, placement))
    watched = tuple((left - SLACK_PX, top - SLACK_PX, right + SLACK_PX, bottom + SLACK_PX)
                    for left, top, right, bottom in areas)
    exact = None if deciding is None or box is None else (*deciding[0], box)
    return _Placed(request, placement, box, rank, stranded, watched, kept_at, _reach(watched), exact,
                   _reach(exact or ()))


def _reach(areas: tuple[Box, ...]) -> Box:
    """The box round all the areas."""
    if not areas:
        return _NOTHING
    return (min(area[0] for area in areas), min(area[1] for area in areas), max(area[2] for area in areas),
            max(area[3] for area in areas))


def _deciding_spots(request: LabelRequest, placement: Placement | None,
                    box: Box | None) -> tuple[tuple[Box, ...], Point] | None:
    """For a label shown whole at a free spot by its tip, the spots that decide whether a full placement puts it
    there again when it asks to keep that spot (its `previous`, also returned): the usual spot, then that spot,
    are the first two it tries (see label_spots.near_candidates). It is put there again while the usual spot
    stays taken and its own stays free, so only changes over those two (and its leader) can move it: the usual
    spot's box, or nothing if the label is at the usual spot. None for any other label (hidden, shortened, led
    from a tip out of view, or its spot not one it would keep): every spot near its tip is watched then."""
    if placement is HIDDEN or box is None or placement.short or placement.pointer:
        return None
    anchor, offset = request.tip, (placement.dx, placement.dy)
    usual = usual_spot(request, anchor, True)
    led = placement.leader_to is not None
    if usual[:2] == box[:2] and usual[2] == led:
        return (), offset
    again = spot_at(request, anchor, offset)  # where its previous spot puts it
    if again is None or again[:2] != box[:2] or again[2] != led:
        return None  # a full placement would not try it second: it watches every spot near its tip
    return ((usual[0], usual[1], usual[0] + request.width, usual[1] + request.height),), offset


def _near_area(request: LabelRequest, bounds: Box) -> Box:
    """Every spot near the tip a label may try (see label_spots.near_candidates), and the leaders to them."""
    (ax, ay), _ = anchor_of(request, bounds)
    reach = NEAR_LINES * request.line + NEAR_GAP_PX + SLACK_PX
    return ax - request.width - reach, ay - request.height - reach, ax + request.width + reach, \
        ay + request.height + reach


def _boxes_shown(box: Box | None, placement: Placement | None) -> tuple[Box, ...]:
    """A shown label's box, and its leader line's bounding box (nothing for a hidden label)."""
    if box is None or placement is HIDDEN:
        return ()
    if placement.leader_to is None:
        return (box,)
    x, y = placement.leader_to
    return box, (min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y))


def _shown(placed: _Placed) -> tuple[Box, ...]:
    return _boxes_shown(placed.box, placed.placement)


def _same_request(old: LabelRequest, new: LabelRequest) -> bool:
    """The same label at the same tip, ranked the same, its spots counted in the same lines: all but last time's
    spot, which is where it is."""
    return old[:6] == new[:6] and old.essential == new.essential and old.line_height == new.line_height


def _same_label(old: LabelRequest, new: LabelRequest) -> bool:
    """The same label, ranked the same, wherever its tip is."""
    return old[:2] == new[:2] and old[5] == new[5] and old.essential == new.essential


def _touches_any(placed: _Placed, shapes: list[Obstacle], labels: list[Obstacle]) -> bool:
    """Whether a change touches what the label's placement depends on: an arrow's shape (old or new) over one of
    its deciding spots, or over any watched area for a label that watches every spot near its tip; another
    label's box or leader (old or new) over any watched area.

    Tested against the shapes themselves, not their bounding boxes, since a long slanting shaft's box covers much
    of the plot. Most changes are nowhere near the label: the box round all its areas rules them out first.
    (The innermost loop of a drag move's labels: one call per label.)"""
    spots = placed.spots
    for changes, areas, (left, top, right, bottom) in (
            (shapes, placed.watched, placed.reach) if spots is None else (shapes, spots, placed.spots_reach),
            (labels, placed.watched, placed.reach)):
        for change in changes:
            # box_hits's own first test, against the box round every area at once.
            if left >= change[2] or change[0] >= right or top >= change[3] or change[1] >= bottom:
                continue
            if any(box_hits(area, change) for area in areas):
                return True
    return False


def _as_shape(box: Box) -> Obstacle:
    """A label's box (or its leader's bounding box) as a change to test areas against."""
    return *box, ()
