"""A label is left out only where there is truly no free room near its tip (issue: presenting at 1024 × 768,
labels vanished beside free room the spots tried had stepped over, and a key's label whose weight made it
too wide vanished although its name alone fitted)."""

import math

import numpy as np

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
LINE = 27.0  # a presenting label's line
TIP = (200.0, 150.0)
CLEARANCE = 3.0  # a free spot counted here is free with this much to spare on every side


def _free_spot_near(request: LabelRequest, shapes: list) -> tuple[float, float, float, float] | None:
    """A free box near the tip found by trying every other pixel: inside the plot, within NEAR_LINES lines
    of the tip (a few pixels off it), clear of every shape with CLEARANCE to spare."""
    tx, ty = request.tip
    width, height = request.width, request.height
    for left in np.arange(tx - width - NEAR_LINES * LINE, tx + NEAR_LINES * LINE, 2.0):
        for top in np.arange(ty - height - NEAR_LINES * LINE, ty + NEAR_LINES * LINE, 2.0):
            box = (left, top, left + width, top + height)
            near_x, near_y = min(max(tx, box[0]), box[2]), min(max(ty, box[1]), box[3])
            distance = math.hypot(near_x - tx, near_y - ty)
            if not 3 + CLEARANCE <= distance <= NEAR_LINES * LINE - CLEARANCE:
                continue
            grown = (box[0] - CLEARANCE, box[1] - CLEARANCE, box[2] + CLEARANCE, box[3] + CLEARANCE)
            if grown[0] < 1 or grown[1] < 1 or grown[2] > BOUNDS[2] - 1 or grown[3] > BOUNDS[3] - 1:
                continue
            if not any(box_hits(grown, shape) for shape in shapes):
                return box
    return None


def _walls_round(hole: tuple[float, float, float, float]) -> list:
    """The whole plot filled with four blocks, but for one free hole."""
    left, top, right, bottom = hole
    blocks = [(0, 0, left, 300), (right, 0, 400, 300), (left, 0, right, top), (left, bottom, right, 300)]
    return [convex_obstacle([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]) for x0, y0, x1, y1 in blocks]


HOLES = [(angle, gap) for angle in range(0, 360, 30) for gap in (0.3, 0.75, 1.2, 1.7)]


def test_a_label_takes_the_one_free_spot_near_its_tip_wherever_it_lies():
    """Free room between the spots the rings and slides try (the label's room plus 4 px each way, somewhere
    within two lines of the tip): the label takes it, rather than being left out."""
    width, height = 120.0, LINE
    request = LabelRequest(width, height, TIP, (1.0, 0.0), (100.0, 150.0))
    missed = []
    for angle, gap in HOLES:
        # The hole's centre, GAP lines beyond the box's edge in this direction from the tip.
        ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        cx = TIP[0] + ux * (width / 2 + gap * LINE + 4) if abs(ux) > 0.3 else TIP[0] + ux * 20
        cy = TIP[1] + uy * (height / 2 + gap * LINE + 4) if abs(uy) > 0.3 else TIP[1] + uy * 5
        hole = (cx - width / 2 - 4, cy - height / 2 - 4, cx + width / 2 + 4, cy + height / 2 + 4)
        if _free_spot_near(request, _walls_round(hole)) is None:
            continue  # not near enough after all
        if place_labels([request], ShapeIndex.of(_walls_round(hole)), BOUNDS)[0] is HIDDEN:
            missed.append((angle, gap))
    assert missed == [], f"free room by the tip, label left out: {missed}"


def test_a_key_with_room_for_its_name_alone_shows_its_name():
    """k·sat 7% has no room by its tip; k·sat has: the name is shown, not nothing."""
    wall = segment_obstacle(TIP[0] + 75, 0, TIP[0] + 75, 300, 2.0)  # room right of the tip for 70 px, not 115
    above = segment_obstacle(0, TIP[1] - 20, 400, TIP[1] - 20, 2.0)
    below = segment_obstacle(0, TIP[1] + 20, 400, TIP[1] + 20, 2.0)
    left = [segment_obstacle(x, 0, x, 300, 2.0) for x in np.arange(TIP[0] - 3, 0, -40)]  # no room on the left
    request = LabelRequest(115.0, 16.0, TIP, (1.0, 0.0), (100.0, 150.0), short_width=66.0, short_names_it=True)
    placement = place_labels([request], ShapeIndex.of([wall, above, below, *left]), BOUNDS)[0]
    assert placement is not HIDDEN and placement.short
    unnamed = request._replace(short_names_it=False)  # a bare letter ("q") says nothing: that one stays out
    assert place_labels([unnamed], ShapeIndex.of([wall, above, below, *left]), BOUNDS)[0] is HIDDEN
