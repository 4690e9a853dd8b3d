"""The canvas alone on a bare scene: drags, clicks and keys become live moves and one command each.

No main window and no edit history: what the canvas announces is collected, and
a command is undone on the scene itself, as the history would.
"""

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from attn_desktop.model import Role
from attn_desktop.model.commands import MoveArrow
from attn_desktop.model.scene_files import open_reading
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.canvas.arrow_gestures import DragPhase
from attn_desktop.ui.canvas.canvas import AttentionCanvas
from attn_desktop.ui.tools.synthetic_mouse import click, double_click, move_holding, press, release
from attn_desktop.ui.view_state.key_highlight import KeyHighlight
from attn_desktop.ui.window.startup.app import configure_pyqtgraph

from tests.support.in_the_window import drag_on_canvas, tip_on_canvas

K_CAT, Q_SAT, Q_MAT = (Role.KEY, 1), (Role.QUERY, 2), (Role.QUERY, 5)


@pytest.fixture
def reading():
    """The demo's scene looked at with the query its file chose ("sat"), as a window shows it."""
    return open_reading(scene_path(DEFAULT_SCENE))


@pytest.fixture
def scene(reading):
    return reading.scene


@pytest.fixture
def highlight():
    return KeyHighlight()


@pytest.fixture
def canvas(qtbot, reading, highlight):
    configure_pyqtgraph()
    view = AttentionCanvas(reading, highlight=highlight)
    qtbot.addWidget(view)
    view.resize(900, 520)
    view.show()
    qtbot.waitExposed(view)
    previous = None
    for _ in range(50):  # until the plots stop re-framing: the test presses on pixels
        qtbot.wait(10)
        now = (view.size(), view.qk_plot.viewRange())
        if now == previous:
            break
        previous = now
    view.moves = []  # every MoveArrow it announced
    view.arrow_moved.connect(view.moves.append)
    view.said = []  # what the status bar would show
    view.drag_moved.connect(view.said.append)
    return view


def test_a_drag_moves_the_arrow_live_and_announces_one_move_on_release(canvas, reading, scene):
    seen = []
    drag_on_canvas(canvas, *K_CAT, QPointF(-60, -40), steps=6, after_each_move=lambda step: seen.append(tuple(reading.vectors(Role.KEY)[1])))
    assert len(set(seen)) == 6  # the scene followed every move ...
    assert canvas.moves[:-1] == [] and len(canvas.moves) == 1  # ... and one command came, at the release
    move = canvas.moves[0]
    assert isinstance(move, MoveArrow) and move.text == "Move k·cat" and not move.nudge
    assert move.before == (2.2, 1.0) and move.after == tuple(reading.vectors(Role.KEY)[1]) == seen[-1]
    assert canvas.said[-1].startswith("k·cat = (")
    move.undo(scene, reading.view)
    assert reading.vectors(Role.KEY)[1].tolist() == [2.2, 1.0]
    assert canvas.arrows[Role.KEY][1].tip.toTuple() == (2.2, 1.0)  # the canvas follows the undo


def test_once_a_drag_is_over_pointing_at_the_arrow_tells_where_it_now_is(qtbot, canvas, reading):
    arrow = canvas.arrows[Role.KEY][1]
    assert arrow.toolTip() == "k·cat = (2.20, 1.00)"
    drag_on_canvas(canvas, *K_CAT, QPointF(-60, -40), steps=6)
    x, y = reading.vectors(Role.KEY)[1]
    assert (x, y) != (2.2, 1.0) and arrow.toolTip() == f"k·cat = ({x:.2f}, {y:.2f})" == canvas.said[-1]
    # Put back with Escape mid-drag: it says where it was put back to.
    viewport = canvas.viewport()
    start = tip_on_canvas(canvas, *K_CAT)
    press(viewport, start)
    for step in range(1, 4):
        move_holding(viewport, start + QPointF(20 * step, 10 * step))
    qtbot.keyClick(canvas, Qt.Key.Key_Escape)
    release(viewport, start + QPointF(60, 30))
    assert arrow.toolTip() == f"k·cat = ({x:.2f}, {y:.2f})"


def test_dragging_a_query_chooses_it_and_its_move_remembers_the_query_chosen_before(canvas, reading, scene):
    drag_on_canvas(canvas, *Q_MAT, QPointF(30, 30))
    assert reading.selected_token == "mat"
    (move,) = canvas.moves
    assert (move.chosen_before, move.chosen_after) == (2, 5)
    move.undo(scene, reading.view)
    assert reading.selected_token == "sat" and reading.vectors(Role.QUERY)[5].tolist() == [-0.5, 2.0]


def test_escape_puts_the_arrow_back_and_announces_nothing(qtbot, canvas, reading, scene):
    arrow = canvas.arrows[Role.KEY][1]
    viewport = canvas.viewport()
    start = tip_on_canvas(canvas, *K_CAT)
    press(viewport, start)
    for step in range(1, 5):
        move_holding(viewport, start + QPointF(-15 * step, 10 * step))
    assert arrow.drag_phase is DragPhase.DRAGGING and canvas.drags.dragged_arrow() is arrow
    qtbot.keyClick(canvas, Qt.Key.Key_Escape)
    assert reading.vectors(Role.KEY)[1].tolist() == [2.2, 1.0]
    assert arrow.drag_phase is DragPhase.CANCELLED and canvas.drags.dragged_arrow() is None
    assert canvas.said[-1] == "Put back: k·cat = (2.20, 1.00)"
    move_holding(viewport, start + QPointF(-90, 60))  # the button is still held: the arrow stays put
    release(viewport, start + QPointF(-90, 60))
    assert reading.vectors(Role.KEY)[1].tolist() == [2.2, 1.0]
    assert arrow.drag_phase is DragPhase.IDLE
    assert canvas.moves == []


def test_a_drag_that_ends_where_it_began_is_no_move(canvas, reading, scene):
    canvas.snap_step = 0.1  # so the way back lands exactly on (2.2, 1.0)
    viewport = canvas.viewport()
    start = tip_on_canvas(canvas, *K_CAT)
    press(viewport, start)
    for offset in (QPointF(-20, 0), QPointF(-40, 10), QPointF(-20, 5), QPointF(0, 0)):
        move_holding(viewport, start + offset)
    release(viewport, start)
    assert reading.vectors(Role.KEY)[1].tolist() == [2.2, 1.0]
    assert canvas.moves == []


def test_clicking_a_query_arrow_chooses_it_without_an_edit(canvas, reading, scene):
    click(canvas.viewport(), tip_on_canvas(canvas, Role.QUERY, 1))
    assert reading.selected_token == "cat"
    assert canvas.output_arrow.label == "out·cat"
    assert canvas.moves == []


def test_double_clicking_a_tip_asks_to_type_its_coordinates(canvas):
    asked = []
    canvas.edit_requested.connect(lambda role, index: asked.append((role, index)))
    double_click(canvas.viewport(), tip_on_canvas(canvas, Role.KEY, 4))
    assert asked == [(Role.KEY, 4)]
    assert canvas.moves == []


def test_each_nudge_is_announced_as_a_move_that_merges_with_the_last_nudge_of_that_arrow(qtbot, canvas, reading, scene):
    canvas.setFocus()
    qtbot.keyClick(canvas, Qt.Key.Key_Tab)
    qtbot.keyClick(canvas, Qt.Key.Key_Tab)
    assert canvas.drags.focused_arrow == (Role.QUERY, 1)
    qtbot.keyClick(canvas, Qt.Key.Key_Right)
    qtbot.keyClick(canvas, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)  # a big step
    np.testing.assert_allclose(reading.vectors(Role.QUERY)[1], [0.4, 2.5])  # moved at once
    first, second = canvas.moves
    assert first.nudge and second.nudge and first.text == second.text == "Move q·cat"
    merged = first.merged_with(second)
    assert merged is not None and merged.before == (0.3, 2.0) and merged.after == second.after
    qtbot.keyClick(canvas, Qt.Key.Key_Tab)
    qtbot.keyClick(canvas, Qt.Key.Key_Left)
    assert first.merged_with(canvas.moves[-1]) is None  # another arrow: a step of its own
    assert canvas.said[-1].startswith("q·sat = (")


def test_snapping_and_the_drawn_dimensions_decide_the_vector_a_tip_stands_for(qtbot, canvas, reading, scene):
    canvas.snap_step = 0.5
    drag_on_canvas(canvas, *K_CAT, QPointF(-37, 23))
    x, y = reading.vectors(Role.KEY)[1]
    assert (x * 2).is_integer() and (y * 2).is_integer()
    with pytest.raises(ValueError, match="two different dimensions"):
        canvas.set_dims(0, 2)  # these vectors have two numbers
    assert canvas.dims == (0, 1)


def test_tips_at_one_point_take_turns(canvas, reading, scene):
    """k·cat put exactly under q·sat: the first drag from there takes q·sat (on top), the next k·cat."""
    scene.set_vector(*K_CAT, [2.4, 0.6])  # q·sat's tip
    QApplication.processEvents()
    drag_on_canvas(canvas, *Q_SAT, QPointF(0, -50))
    assert reading.vectors(Role.QUERY)[2].tolist() != [2.4, 0.6] and reading.vectors(Role.KEY)[1].tolist() == [2.4, 0.6]
    assert "k·cat stayed: undo, then drag from there again to move it instead" in canvas.said[-1]
    canvas.moves[-1].undo(scene, reading.view)
    QApplication.processEvents()
    drag_on_canvas(canvas, *Q_SAT, QPointF(0, -50))  # the same press point again
    assert reading.vectors(Role.QUERY)[2].tolist() == [2.4, 0.6] and reading.vectors(Role.KEY)[1].tolist() != [2.4, 0.6]
    assert canvas.moves[-1].text == "Move k·cat"


def test_of_two_close_tips_the_nearer_one_takes_the_drag_even_from_underneath(canvas, reading, scene):
    """k·cat a few pixels from q·sat, whose arrow is drawn on top: a press nearer k·cat drags k·cat."""
    units_per_pixel = abs(canvas.arrows[Role.QUERY][2].pixelVectors()[0].x())
    scene.set_vector(*K_CAT, [2.4 + 6 * units_per_pixel, 0.6])  # six pixels to the right of q·sat's tip
    QApplication.processEvents()
    viewport = canvas.viewport()
    start = tip_on_canvas(canvas, *K_CAT) - QPointF(1, 0)  # inside both handles, nearer k·cat
    press(viewport, start)
    for step in range(1, 5):
        move_holding(viewport, start + QPointF(0, -10 * step))
    release(viewport, start + QPointF(0, -40))
    assert [move.text for move in canvas.moves] == ["Move k·cat"]
    assert reading.vectors(Role.QUERY)[2].tolist() == [2.4, 0.6]


def test_a_key_pointed_at_elsewhere_is_lit_on_the_canvas_without_touching_the_scene(canvas, scene, highlight):
    changes = []
    scene.subscribe(changes.append)
    highlight.set_key(5)
    assert canvas.arrows[Role.KEY][5]._highlighted and canvas.arrows[Role.VALUE][5]._highlighted
    assert not canvas.arrows[Role.KEY][1]._highlighted
    highlight.clear()
    assert not canvas.arrows[Role.KEY][5]._highlighted
    assert changes == []
