"""Arrow labels: by their own tip, over no arrow and no other label, inside the plot (attn_desktop/geometry/label_layout.py)."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_desktop.geometry.label_layout import (
    HIDDEN,
    NEAR_LINES,
    LabelRequest,
    ShapeIndex,
    box_hits,
    convex_obstacle,
    place_labels,
    segment_obstacle,
)

BOUNDS = (0.0, 0.0, 400.0, 300.0)
ORIGIN = (200.0, 150.0)
LINE = 16.0


def _arrow(angle_degrees: float, length: float, minor: bool = False, width: float = 60.0, origin=ORIGIN):
    """A label request and the arrow's shaft, for an arrow from `origin` at this angle (screen y points down)."""
    ux, uy = math.cos(math.radians(angle_degrees)), -math.sin(math.radians(angle_degrees))
    tip = (origin[0] + ux * length, origin[1] + uy * length)
    request = LabelRequest(width, LINE, tip, (ux, uy), origin, minor)
    return request, segment_obstacle(*origin, *tip, 2.0)


def _box(request, placement):
    left, top = request.tip[0] + placement.dx, request.tip[1] + placement.dy
    return left, top, left + request.width, top + request.height


def _overlap(first, second):
    return first[0] < second[2] and second[0] < first[2] and first[1] < second[3] and second[1] < first[3]


def _gap(request, box):
    x, y = request.tip
    return math.hypot(max(box[0] - x, 0.0, x - box[2]), max(box[1] - y, 0.0, y - box[3]))


def _assert_readable(requests, obstacles, placements):
    shown = [(request, _box(request, placement), placement)
             for request, placement in zip(requests, placements) if placement is not HIDDEN]
    for index, (request, box, placement) in enumerate(shown):
        assert BOUNDS[0] <= box[0] and box[2] <= BOUNDS[2] and BOUNDS[1] <= box[1] and box[3] <= BOUNDS[3]
        assert not any(_overlap(box, other) for _, other, _ in shown[:index])
        assert not any(box_hits(box, obstacle) for obstacle in obstacles)
        assert placement.leader_to is not None or _gap(request, box) <= LINE  # near its tip, or joined to it


def test_a_lone_label_sits_just_beyond_its_tip():
    request, shaft = _arrow(0, 100)
    (placement,) = place_labels([request], [shaft], BOUNDS)
    box = _box(request, placement)
    assert placement.leader_to is None and box[0] > request.tip[0] and _gap(request, box) < 5


def test_a_label_moves_off_a_shaft_that_crosses_its_usual_place_and_stays_near_its_tip():
    request, shaft = _arrow(0, 100)
    crossing = segment_obstacle(330, 100, 330, 200, 2.0)  # a vertical arrow right through the spot beyond the tip
    (placement,) = place_labels([request], [shaft, crossing], BOUNDS)
    box = _box(request, placement)
    assert not box_hits(box, crossing) and not box_hits(box, shaft)
    assert placement.leader_to is None and _gap(request, box) <= LINE


def test_six_arrows_round_the_origin_each_get_a_label_by_their_tip():
    arrows = [_arrow(angle, 70) for angle in (10, 25, 80, 100, 200, 300)]
    requests, obstacles = [request for request, _ in arrows], [shaft for _, shaft in arrows]
    placements = place_labels(requests, obstacles, BOUNDS)
    assert HIDDEN not in placements
    _assert_readable(requests, obstacles, placements)
    assert all(placement.leader_to is None for placement in placements)


def test_crowded_tips_keep_every_shown_label_within_two_lines_and_hide_the_rest():
    # Nine arrows whose tips stand a few pixels apart: not every label fits near its tip. Those that do not
    # are left out rather than led across the plot, where a class would read them as another arrow's.
    arrows = [_arrow(angle, 80) for angle in range(40, 58, 2)]
    requests, obstacles = [request for request, _ in arrows], [shaft for _, shaft in arrows]
    placements = place_labels(requests, obstacles, BOUNDS)
    _assert_readable(requests, obstacles, placements)
    shown = [(request, placement) for request, placement in zip(requests, placements) if placement is not HIDDEN]
    assert HIDDEN in placements and len(shown) >= 4
    assert all(_gap(request, _box(request, placement)) <= NEAR_LINES * LINE for request, placement in shown)
    assert all(placement.leader_to == request.tip for request, placement in shown if placement.leader_to is not None)


def test_in_a_crowd_the_essential_labels_are_all_shown_and_win_the_spots_by_their_tips():
    arrows = [_arrow(angle, 80) for angle in range(40, 58, 2)]
    obstacles = [shaft for _, shaft in arrows]
    # The last two are what a class reads the answer from: essential, though asked for after the others.
    requests = [request._replace(essential=index >= 7) for index, (request, _) in enumerate(arrows)]
    placements = place_labels(requests, obstacles, BOUNDS)
    _assert_readable(requests, obstacles, placements)
    for request, placement in zip(requests[7:], placements[7:]):
        assert placement is not HIDDEN and _gap(request, _box(request, placement)) <= LINE


def test_a_label_by_a_stem_near_the_plots_edge_slides_over_to_the_free_room_above_its_tip():
    # A stem rising to a tip 30 px from the right edge, another just left of it (the values' number line):
    # beside the tip there is no room, and above it only a label pushed against the edge clears both.
    request = LabelRequest(50, LINE, (370.0, 150.0), (0.0, -1.0), (370.0, 280.0))
    stems = [segment_obstacle(370, 280, 370, 150, 2.0), segment_obstacle(345, 280, 345, 40, 2.0)]
    (placement,) = place_labels([request], stems, BOUNDS)
    box = _box(request, placement)
    assert not any(box_hits(box, stem) for stem in stems) and box[2] <= BOUNDS[2]
    assert placement.leader_to is None and _gap(request, box) <= LINE


def test_a_label_led_far_away_last_time_comes_back_beside_its_tip_once_there_is_room():
    """After an undo the arrows are back, but last time's spot is still a leader's length off: it is not kept."""
    first = LabelRequest(60, LINE, (100, 100), (1.0, 0.0))  # takes the usual spot, beyond the tip
    far = LabelRequest(60, LINE, (100, 100), (1.0, 0.0), previous=(-80.0, 90.0))
    _, placement = place_labels([first, far], [], BOUNDS)
    assert placement.leader_to is None and _gap(far, _box(far, placement)) <= LINE


def test_a_tip_out_of_view_gets_its_label_at_the_edge_where_the_arrow_leaves_with_a_pointer():
    request, shaft = _arrow(0, 400)  # tip at x = 600, the plot ends at 400
    (placement,) = place_labels([request], [shaft], BOUNDS)
    box = _box(request, placement)
    assert placement.pointer and placement.leader_to is not None
    assert placement.leader_to[0] > 395 and abs(placement.leader_to[1] - ORIGIN[1]) < 1  # on the edge, on the shaft
    assert box[2] <= 400 and box[0] > 400 - request.width - 2 * LINE


def test_a_minor_label_gives_way_to_a_major_one_after_it_and_hides_when_there_is_no_room():
    # A tiny plot with room for a single label beside the tip.
    bounds = (0.0, 0.0, 90.0, 40.0)
    minor = LabelRequest(60, LINE, (20, 20), (1.0, 0.0), minor=True)
    major = LabelRequest(60, LINE, (20, 20), (1.0, 0.0))
    placements = place_labels([minor, major], [], bounds)
    assert placements[0] is HIDDEN and placements[1] is not HIDDEN


def test_a_pushed_label_keeps_last_times_spot_while_its_usual_place_is_taken_and_returns_when_free():
    """No swapping mid-drag: a label pushed off its usual place stays where it went while that is free."""
    first = LabelRequest(60, LINE, (100, 100), (1.0, 0.0))
    second = LabelRequest(60, LINE, (100, 100), (1.0, 0.0), previous=(3.0, 12.0))
    _, placement = place_labels([first, second], [], BOUNDS)
    assert (placement.dx, placement.dy) == (3.0, 12.0)
    alone = place_labels([second], [], BOUNDS)[0]
    assert (alone.dx, alone.dy) != (3.0, 12.0)  # its usual place is free again: back there


arrows = st.lists(st.tuples(st.floats(0, 360), st.floats(5, 180), st.floats(20, 90)), max_size=14)


@settings(max_examples=150, deadline=None)
@given(arrows)
def test_shown_minor_labels_never_cover_an_arrow_or_each_other_and_stay_in_view(specs):
    made = [_arrow(angle, length, minor=True, width=width) for angle, length, width in specs]
    requests, obstacles = [request for request, _ in made], [shaft for _, shaft in made]
    _assert_readable(requests, obstacles, place_labels(requests, obstacles, BOUNDS))


spots = st.lists(st.tuples(st.floats(-20, 420), st.floats(-20, 320), st.floats(4, 120), st.floats(4, 30)),
                 min_size=1, max_size=40)


@settings(max_examples=100, deadline=None)
@given(arrows, spots)
def test_many_spots_tested_at_once_meet_the_same_arrows_as_one_by_one(specs, boxes):
    """A label with no room by its tip tests its other spots all at once: the answer must not change."""
    obstacles = [_arrow(angle, length)[1] for angle, length, _ in specs]
    obstacles += [convex_obstacle([(x, y), (x + 9, y + 4), (x + 2, y + 11)], 1.5) for x, y, _, _ in boxes[:5]]
    boxes = [(left, top, left + width, top + height) for left, top, width, height in boxes]
    at_once = ShapeIndex.of(obstacles).hits_many(np.array(boxes, dtype=float))
    assert at_once.tolist() == [any(box_hits(box, obstacle) for obstacle in obstacles) for box in boxes]



def _fan_with_two_tips_meeting():
    """Lesson 7's knot: a query and the key it matches point the same way, their tips at one point 28 px from
    the plot's left edge; two arrows rise past it on the right, one goes off below. Each arrow is a head and
    a shaft; the query's and the key's labels, first, are what a class reads: essential."""
    specs = [(150, 120, 30.0), (150, 120, 110.0), (110, 110, 60.0), (105, 105, 60.0), (190, 110, 40.0)]
    requests, owners, heads = [], [], []
    for index, (angle, length, width) in enumerate(specs):
        request, shaft = _arrow(angle, length, width=width)
        (tx, ty), (ux, uy) = request.tip, request.direction
        corners = [(tx, ty), (tx - ux * 12 - uy * 6, ty - uy * 12 + ux * 6), (tx - ux * 12 + uy * 6, ty - uy * 12 - ux * 6)]
        requests.append(request._replace(essential=index < 2))
        owners.append([convex_obstacle(corners, 1.5), shaft])  # labels keep 1.5 px off a head ...
        heads.append(convex_obstacle(corners))  # ... and, in the last resort, may touch it, never cover it
    return requests, owners, heads


def test_two_essential_labels_whose_tips_meet_inside_a_fan_of_shafts_both_stay_within_two_lines():
    """No spot within two lines of the shared tip is free of every shaft: the key's label lies over another
    arrow's thin shaft (never a head, a tip or a label) rather than six lines off, where it reads as another's."""
    requests, owners, heads = _fan_with_two_tips_meeting()
    bounds = (68.0, 20.0, 380.0, 280.0)
    placements = place_labels(requests, ShapeIndex.of_owners(owners, 2, shaft_slot=1), bounds)
    query, key = (_box(request, placement) for request, placement in zip(requests, placements[:2]))
    assert _gap(requests[0], query) <= NEAR_LINES * LINE and _gap(requests[1], key) <= NEAR_LINES * LINE
    assert not _overlap(query, key)
    assert not any(box_hits(box, head) for box in (query, key) for head in heads)
    assert all(bounds[0] <= box[0] and box[2] <= bounds[2] for box in (query, key))


def test_an_essential_label_too_long_for_the_room_by_its_tip_shows_its_short_form_there():
    """A projector's small plot: "k·cat 76%" fits nowhere, "k·cat" fits beside the tip, and the arrow is named."""
    bounds = (0.0, 0.0, 120.0, 60.0)
    whole = LabelRequest(150.0, LINE, (60.0, 30.0), (1.0, 0.0), (20.0, 30.0), essential=True)
    shaft = segment_obstacle(20.0, 30.0, 60.0, 30.0, 2.0)
    assert place_labels([whole], [shaft], bounds) == [HIDDEN]  # without a short form, no room anywhere
    with_short = whole._replace(short_width=40.0)
    (placement,) = place_labels([with_short], [shaft], bounds)
    assert placement is not HIDDEN and placement.short
    box = _box(with_short._replace(width=40.0), placement)
    assert bounds[0] <= box[0] and box[2] <= bounds[2] and not box_hits(box, shaft)
    assert _gap(with_short, box) <= LINE


def test_a_label_with_room_by_its_tip_keeps_its_whole_text():
    request, shaft = _arrow(0, 100)
    (placement,) = place_labels([request._replace(essential=True, short_width=20.0)], [shaft], BOUNDS)
    assert not placement.short
