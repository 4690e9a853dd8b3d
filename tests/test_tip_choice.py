"""Which arrow a press takes when tips stand close together or at one point (attn_desktop/geometry/tip_choice.py).

No window: tips are plain pixel positions. `offered` plays pyqtgraph's part, offering the press to the
arrows under the pointer from the top one down until one may take it.
"""

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_desktop.geometry.tip_choice import SHARED_TIP_PX, Tip, TipTurns

from tests.support.project_root import ROOT

REACH = 11.0  # an arrow's grab handle, in pixels


def _taker(rights, offered, drag=True):
    """The first arrow, top one first, that may take the press; None if all let it pass."""
    allowed = rights.drags if drag else rights.clicks
    return next((key for key in offered if key in allowed), None)


def _drag_from(turns, point, tips, offered):
    """A whole drag from `point`: who took it; the turns then know it was dragged."""
    taker = _taker(turns.rights_at(point, tips, REACH), offered)
    if taker is not None:
        turns.started_dragging(taker, tips)
    return taker


def test_a_lone_tip_takes_clicks_and_drags():
    tips = [Tip("q·sat", 100.0, 50.0)]
    rights = TipTurns().rights_at((104.0, 53.0), tips, REACH)
    assert rights.clicks == rights.drags == {"q·sat"}


def test_of_two_close_tips_the_one_nearer_the_pointer_takes_the_press_whichever_is_on_top():
    tips = [Tip("q·sat", 100.0, 50.0), Tip("k·cat", 106.0, 50.0)]  # handles overlap
    turns = TipTurns()
    near_the_key = turns.rights_at((105.0, 50.0), tips, REACH)
    assert _taker(near_the_key, ["q·sat", "k·cat"]) == "k·cat"  # the query is drawn on top, yet yields
    assert _taker(near_the_key, ["q·sat", "k·cat"], drag=False) == "k·cat"
    near_the_query = turns.rights_at((101.0, 50.0), tips, REACH)
    assert _taker(near_the_query, ["k·cat", "q·sat"]) == "q·sat"


def test_tips_at_one_point_take_turns_for_drags_starting_with_the_one_on_top():
    """Lesson 3: k·cat lies exactly under q·sat. The first drag takes q·sat; from the same point again, k·cat."""
    tips = [Tip("q·sat", 200.0, 120.0), Tip("k·cat", 200.0, 120.0)]
    offered = ["q·sat", "k·cat"]  # the query is drawn on top
    turns = TipTurns()
    assert _drag_from(turns, (201.0, 119.0), tips, offered) == "q·sat"
    assert _drag_from(turns, (201.0, 119.0), tips, offered) == "k·cat"
    assert _drag_from(turns, (199.0, 121.0), tips, offered) == "q·sat"


def test_the_drag_says_which_arrows_it_left_behind():
    tips = [Tip("q·sat", 200.0, 120.0), Tip("k·cat", 200.0, 120.0), Tip("k·on", 260.0, 40.0)]
    turns = TipTurns()
    assert turns.started_dragging("q·sat", tips) == ["k·cat"]
    assert turns.started_dragging("k·on", tips) == []


def test_clicks_do_not_take_turns():
    tips = [Tip("q·sat", 200.0, 120.0), Tip("k·cat", 200.0, 120.0)]
    turns = TipTurns()
    turns.started_dragging("q·sat", tips)
    rights = turns.rights_at((200.0, 120.0), tips, REACH)
    assert rights.clicks == {"q·sat", "k·cat"}  # the top one takes a click, as with any overlap
    assert rights.drags == {"k·cat"}


def test_three_tips_at_one_point_each_get_a_turn_in_three_drags():
    tips = [Tip("q·2", 50.0, 50.0), Tip("k·3", 50.0, 50.0), Tip("k·4", 50.0, 50.0), Tip("k·0", 90.0, 90.0)]
    turns = TipTurns()
    taken = [_drag_from(turns, (52.0, 49.0), tips, ["q·2", "k·4", "k·3"]) for _ in range(3)]
    assert sorted(taken) == ["k·3", "k·4", "q·2"]
    assert _drag_from(turns, (52.0, 49.0), tips, ["q·2", "k·4", "k·3"]) == taken[0]  # and round again


def test_turns_start_only_from_a_shared_point():
    """q·sat dragged from open ground and dropped on k·cat: a new drag from there takes q·sat again (on top)."""
    tips = [Tip("q·sat", 200.0, 120.0), Tip("k·cat", 200.0, 120.0)]
    turns = TipTurns()
    turns.started_dragging("q·sat", [Tip("q·sat", 20.0, 20.0), Tip("k·cat", 200.0, 120.0)])
    assert turns.last_dragged is None
    assert _drag_from(turns, (200.0, 120.0), tips, ["q·sat", "k·cat"]) == "q·sat"


def test_a_drag_elsewhere_or_new_arrows_end_the_turns():
    shared = [Tip("q·sat", 200.0, 120.0), Tip("k·cat", 200.0, 120.0), Tip("v·mat", 20.0, 20.0)]
    turns = TipTurns()
    assert _drag_from(turns, (200.0, 120.0), shared, ["q·sat", "k·cat"]) == "q·sat"
    assert _drag_from(turns, (20.0, 20.0), shared, ["v·mat"]) == "v·mat"
    assert _drag_from(turns, (200.0, 120.0), shared, ["q·sat", "k·cat"]) == "q·sat"
    turns.started_dragging("q·sat", shared)
    turns.forget()
    assert _drag_from(turns, (200.0, 120.0), shared, ["q·sat", "k·cat"]) == "q·sat"


def test_an_arrow_that_cannot_be_dragged_never_takes_a_press_from_one_that_can():
    """The output's tip beside a value's: a press nearer the output still reaches the value."""
    tips = [Tip("out", 100.0, 100.0, draggable=False), Tip("v·cat", 104.0, 100.0)]
    rights = TipTurns().rights_at((101.0, 100.0), tips, REACH)
    assert "v·cat" in rights.drags and "v·cat" in rights.clicks
    nearer_the_value = TipTurns().rights_at((103.0, 100.0), tips, REACH)
    assert "out" not in nearer_the_value.clicks  # it yields to a draggable tip nearer the pointer


# Tips either at one point or clearly apart (two pixels or more), as arrows are on screen.
_grid = st.tuples(st.integers(0, 12), st.integers(0, 12)).map(lambda cell: (cell[0] * 2.5, cell[1] * 2.5))
_tip_sets = st.lists(st.tuples(_grid, st.booleans()), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(_tip_sets, st.tuples(st.floats(-5, 35), st.floats(-5, 35)), st.randoms(use_true_random=False))
def test_a_press_on_a_draggable_tip_is_always_taken_by_one_at_the_nearest_point(placed, point, random):
    tips = [Tip(number, x, y, draggable) for number, ((x, y), draggable) in enumerate(placed)]
    turns = TipTurns()
    if random.random() < 0.5:  # an earlier drag from a shared point, perhaps
        turns.started_dragging(random.choice(tips).key, tips)
    rights = turns.rights_at(point, tips, REACH)
    under = [tip for tip in tips if tip.draggable and ((tip.x - point[0]) ** 2 + (tip.y - point[1]) ** 2) ** 0.5 <= REACH]
    if not under:
        return
    nearest = min(((tip.x - point[0]) ** 2 + (tip.y - point[1]) ** 2) ** 0.5 for tip in under)
    takers = [tip for tip in under if tip.key in rights.drags]
    assert takers, "the press fell through every arrow under the pointer"
    for tip in takers:
        assert ((tip.x - point[0]) ** 2 + (tip.y - point[1]) ** 2) ** 0.5 <= nearest + SHARED_TIP_PX
    assert {tip.key for tip in under if tip.key in rights.clicks} >= {tip.key for tip in takers}


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 6), st.permutations(range(6)))
def test_k_tips_at_one_point_are_each_dragged_once_in_k_drags(count, stacking):
    tips = [Tip(number, 40.0, 40.0) for number in range(count)]
    offered = [number for number in stacking if number < count]  # any drawing order
    turns = TipTurns()
    assert sorted(_drag_from(turns, (41.0, 40.0), tips, offered) for _ in range(count)) == list(range(count))


@pytest.mark.slow
def test_the_choice_of_tip_needs_no_qt():
    code = (
        "import sys\n"
        "import attn_desktop.geometry.tip_choice\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
