"""Labels placed again after a drag move, only where something changed (attn_desktop/geometry/label_update.py):
the same spots a full placement gives, labels away from the drag kept still, a stranded label kept put."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from attn_desktop.geometry.label_layout import (
    HIDDEN,
    LabelRequest,
    ShapeIndex,
    box_hits,
    place_labels,
    segment_obstacle,
)
from attn_desktop.geometry.label_spots import NEAR_GAP_PX
from attn_desktop.geometry.label_update import update_labels

BOUNDS = (0.0, 0.0, 400.0, 300.0)
ORIGIN = (200.0, 150.0)
LINE = 16.0


def _arrow(angle_degrees: float, length: float, width: float = 60.0, minor: bool = False, essential: bool = False):
    """A label request and the arrow's shaft, for an arrow from the origin at this angle (screen y points down)."""
    ux, uy = math.cos(math.radians(angle_degrees)), -math.sin(math.radians(angle_degrees))
    tip = (ORIGIN[0] + ux * length, ORIGIN[1] + uy * length)
    return LabelRequest(width, LINE, tip, (ux, uy), ORIGIN, minor, essential=essential), \
        segment_obstacle(*ORIGIN, *tip, 2.0)


def _as_last_shown(requests, placements):
    """The requests again, each with its label's spot as shown (what an arrow asks with: see label_request)."""
    return [request._replace(previous=None if placement is HIDDEN else (placement.dx, placement.dy))
            for request, placement in zip(requests, placements)]


def _box(request, placement):
    left, top = request.tip[0] + placement.dx, request.tip[1] + placement.dy
    return left, top, left + request.width, top + request.height


def _overlap(first, second):
    return first[0] < second[2] and second[0] < first[2] and first[1] < second[3] and second[1] < first[3]


def _drag(made, dragged, angle, length):
    """The arrows with one of them moved: new requests, new shapes, and the shapes that changed (old and new)."""
    moved = list(made)
    moved[dragged] = _arrow(angle, length, made[dragged][0].width, made[dragged][0].minor, made[dragged][0].essential)
    return moved, [made[dragged][1], moved[dragged][1]]


arrows = st.lists(st.tuples(st.floats(0, 360), st.floats(5, 180), st.floats(20, 90), st.booleans()),
                  min_size=1, max_size=14)


@settings(max_examples=150, deadline=None)
@given(arrows, st.integers(0, 13), st.floats(0, 360), st.floats(5, 180))
def test_after_a_drag_move_the_labels_are_where_a_full_placement_puts_them(specs, dragged, angle, length):
    made = [_arrow(a, size, width, minor) for a, size, width, minor in specs]
    dragged %= len(made)
    keys = list(range(len(made)))
    requests = [request for request, _ in made]
    placements, memory = update_labels(requests, keys, ShapeIndex.of([s for _, s in made]), BOUNDS, None, [])
    moved, changed = _drag(made, dragged, angle, length)
    requests = _as_last_shown([request for request, _ in moved], placements)
    shapes = [shaft for _, shaft in moved]
    again, _ = update_labels(requests, keys, ShapeIndex.of(shapes), BOUNDS, memory, changed)
    assert again == place_labels(requests, shapes, BOUNDS)


def test_labels_away_from_a_dragged_arrow_keep_still_and_the_dragged_ones_follow():
    # Three arrows up and to the left, and one to the right dragged round below the origin.
    made = [_arrow(angle, 120) for angle in (100, 130, 160)] + [_arrow(0, 120)]
    keys = ["a", "b", "c", "dragged"]
    requests = [request for request, _ in made]
    placements, memory = update_labels(requests, keys, ShapeIndex.of([s for _, s in made]), BOUNDS, None, [])
    for angle in (-10, -20, -30, -40):
        moved, changed = _drag(made, 3, angle, 120)
        requests = _as_last_shown([request for request, _ in moved], placements)
        again, memory = update_labels(requests, keys, ShapeIndex.of([s for _, s in moved]), BOUNDS, memory, changed)
        assert again[:3] == placements[:3]  # not a pixel's move for the labels the drag never came near
        assert again[3] is not HIDDEN and math.dist(_box(requests[3], again[3])[:2], requests[3].tip) < 2 * LINE
        made, placements = moved, again


def _boxed_in_tip():
    """An essential label whose tip sits in a cage of shafts, with no free spot within two lines of it; and an
    arrow across the plot from it."""
    tip = (100.0, 100.0)
    cage = [segment_obstacle(tip[0] - 80, tip[1] + offset, tip[0] + 80, tip[1] + offset, 2.0)
            for offset in range(-48, 49, 8)]
    essential = LabelRequest(60, LINE, tip, (1.0, 0.0), (tip[0] - 60, tip[1]), essential=True)
    other, shaft = _arrow(-30, 150)
    return [essential, other], [*cage, shaft]


def test_a_label_stranded_far_from_its_tip_keeps_its_spot_while_an_arrow_far_from_it_is_dragged():
    requests, shapes = _boxed_in_tip()
    placements, memory = update_labels(requests, ["stranded", "other"], ShapeIndex.of(shapes), BOUNDS, None, [])
    far = placements[0]
    assert far is not HIDDEN and far.leader_to is not None  # shown, led from its tip
    assert not any(box_hits(_box(requests[0], far), shape) for shape in shapes)
    for angle in (-35, -40, -45, -50):
        other, shaft = _arrow(angle, 150)
        moved = [requests[0]._replace(previous=(far.dx, far.dy)), other]
        placements, memory = update_labels(moved, ["stranded", "other"], ShapeIndex.of([*shapes[:-1], shaft]),
                                           BOUNDS, memory, [shapes[-1], shaft])
        assert placements[0] == far
        assert not _overlap(_box(moved[0], placements[0]), _box(moved[1], placements[1]))
        shapes = [*shapes[:-1], shaft]


def test_a_full_placement_keeps_a_stranded_labels_far_spot_while_it_is_free():
    requests, shapes = _boxed_in_tip()
    far = place_labels(requests, shapes, BOUNDS)[0]
    # Last time it went further out (another label was in the way then): it stays there, not searched for afresh.
    further = (far.dx, far.dy + 3 * LINE)
    kept = place_labels([requests[0]._replace(previous=further), requests[1]], shapes, BOUNDS)[0]
    assert (kept.dx, kept.dy) == further and kept.leader_to is not None
    # Once an arrow crosses that spot, the label finds another free one.
    box = _box(requests[0], kept)
    crossing = segment_obstacle(box[0] - 5, (box[1] + box[3]) / 2, box[2] + 5, (box[1] + box[3]) / 2, 2.0)
    moved = place_labels([requests[0]._replace(previous=further), requests[1]], [*shapes, crossing], BOUNDS)[0]
    assert (moved.dx, moved.dy) != further and not box_hits(_box(requests[0], moved), crossing)


def _shafts(made, widths):
    """Each arrow's shaft as drawn at its width (a key's width follows its weight, which every move changes)."""
    return [segment_obstacle(*request.base, *request.tip, width / 2) for (request, _), width in zip(made, widths)]


@settings(max_examples=150, deadline=None)
@given(arrows, st.integers(0, 13),
       st.lists(st.tuples(st.floats(0, 360), st.floats(5, 180), st.lists(st.floats(1, 8), min_size=14, max_size=14)),
                min_size=1, max_size=5))
def test_over_a_whole_drag_whose_moves_change_other_arrows_widths_the_labels_are_where_a_full_placement_puts_them(
        specs, dragged, moves):
    made = [_arrow(a, size, width, minor) for a, size, width, minor in specs]
    dragged %= len(made)
    keys = list(range(len(made)))
    widths = [4.0] * len(made)
    shapes = _shafts(made, widths)
    placements, memory = update_labels([request for request, _ in made], keys, ShapeIndex.of(shapes), BOUNDS, None, [])
    for angle, length, new_widths in moves:
        made, _ = _drag(made, dragged, angle, length)
        new_shapes = _shafts(made, new_widths)
        changed = [shape for old, new in zip(shapes, new_shapes) if old != new for shape in (old, new)]
        requests = _as_last_shown([request for request, _ in made], placements)
        placements, memory = update_labels(requests, keys, ShapeIndex.of(new_shapes), BOUNDS, memory, changed)
        assert placements == place_labels(requests, new_shapes, BOUNDS)
        shapes = new_shapes


def test_a_label_pushed_from_its_usual_spot_takes_it_back_once_the_arrow_in_the_way_is_dragged_off():
    # A label to the right of its tip, where an upright shaft crosses its usual spot; the shaft is dragged away.
    label, _ = _arrow(0, 100)
    crossing, crossing_shaft = LabelRequest(40, LINE, (330.0, 60.0), (0.0, -1.0), (330.0, 250.0)), \
        segment_obstacle(330.0, 250.0, 330.0, 60.0, 2.0)
    own_shaft = segment_obstacle(*ORIGIN, *label.tip, 2.0)
    keys = ["label", "crossing"]
    placements, memory = update_labels([label, crossing], keys, ShapeIndex.of([own_shaft, crossing_shaft]), BOUNDS,
                                       None, [])
    usual = (NEAR_GAP_PX, -LINE / 2)  # beyond its tip, where the arrow points
    assert (placements[0].dx, placements[0].dy) != usual
    away, away_shaft = crossing._replace(tip=(100.0, 60.0), base=(100.0, 250.0)), \
        segment_obstacle(100.0, 250.0, 100.0, 60.0, 2.0)
    requests = _as_last_shown([label, away], placements)
    shapes = [own_shaft, away_shaft]
    again, _ = update_labels(requests, keys, ShapeIndex.of(shapes), BOUNDS, memory, [crossing_shaft, away_shaft])
    assert again == place_labels(requests, shapes, BOUNDS)
    assert (again[0].dx, again[0].dy) == usual  # back beyond its tip, though the drag never came near the label


@settings(max_examples=120, deadline=None)
@given(arrows, st.integers(0, 13), st.integers(0, 13), st.floats(0, 360), st.floats(5, 180))
def test_after_a_label_goes_and_an_arrow_is_dragged_the_labels_are_where_a_full_placement_puts_them(
        specs, gone, dragged, angle, length):
    # An arrow that loses its label (a key whose weight falls under the crowd's threshold) leaves room that the
    # labels round it may take: the labels kept from the last placement must be the full placement's.
    made = [_arrow(a, size, width, minor) for a, size, width, minor in specs]
    gone, dragged = gone % len(made), dragged % len(made)
    keys = list(range(len(made)))
    requests = [request for request, _ in made]
    placements, memory = update_labels(requests, keys, ShapeIndex.of([s for _, s in made]), BOUNDS, None, [])
    moved, changed = _drag(made, dragged, angle, length)
    requests = _as_last_shown([request for request, _ in moved], placements)
    shapes = [shaft for _, shaft in moved]  # the arrow keeps its shape: only its label goes
    labelled = [index for index in keys if index != gone]
    again, _ = update_labels([requests[index] for index in labelled], labelled, ShapeIndex.of(shapes), BOUNDS,
                             memory, changed)
    assert again == place_labels([requests[index] for index in labelled], shapes, BOUNDS)
