"""Each of the four challenges goes from unmet to met by real drags on the canvas."""

from PySide6.QtCore import QPointF, Qt

from attn_desktop.model import Role
from attn_desktop.ui.tools.synthetic_mouse import move_holding, press, release, viewport_pos_of
from attn_desktop.ui.view_state.checked_at_rest import REST_DURING_DRAG_MS

from tests.support.in_the_window import drag_arrow_to, tip_on_screen


def row(window, challenge_id):
    return next(r for r in window.challenges_panel.rows if r.challenge.id == challenge_id)


def turn_on_snap(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    assert window.canvas.snap_step == 0.1


def test_scaled_focus_by_lengthening_k_cat(window):
    assert row(window, "scaled-focus").tick_label.text() == "○"
    drag_arrow_to(window, Role.KEY, 1, 4.5, 1.2)
    assert max(window.reading().selected_weights) >= 0.95
    assert row(window, "scaled-focus").tick_label.text() == "✓"
    assert window.challenges_panel.summary_label.text() == "1 of 4 complete"


def test_even_spread_by_putting_the_query_at_the_origin(qtbot, window):
    turn_on_snap(qtbot, window)
    drag_arrow_to(window, Role.QUERY, 2, 0.0, 0.0)
    assert window.reading().vectors(Role.QUERY)[2].tolist() == [0.0, 0.0]
    assert row(window, "even-spread").tick_label.text() == "✓"


def test_twin_keys_by_snapping_one_key_onto_another(qtbot, window):
    turn_on_snap(qtbot, window)
    note_before = row(window, "twin-keys").status_label.text()
    drag_arrow_to(window, Role.KEY, 4, -1.2, 0.6)  # k·the onto k·The
    keys = window.reading().vectors(Role.KEY)
    assert keys[4].tolist() == keys[0].tolist() == [-1.2, 0.6]
    assert row(window, "twin-keys").tick_label.text() == "✓", note_before


def test_sat_down_right_by_moving_values_only(window):
    status = row(window, "sat-down-right")
    drag_arrow_to(window, Role.VALUE, 1, 1.8, -1.5)  # v·cat, which sat weighs 76%
    x, y = window.reading().selected_output
    assert x > 0 > y
    assert status.tick_label.text() == "✓"


def test_moving_a_key_first_is_named_in_the_status(window):
    drag_arrow_to(window, Role.KEY, 5, 1.0, 1.0)  # move k·mat
    drag_arrow_to(window, Role.VALUE, 1, 1.8, -1.5)
    status = row(window, "sat-down-right")
    assert status.tick_label.text() == "○"
    assert "moved" in status.status_label.text() and "k·mat" in status.status_label.text()



def test_a_drag_is_checked_where_the_hand_rests_or_lets_go_not_at_every_move(qtbot, window):
    """The challenges are worked out off the drag's frames: each move shows the arrow and the four panels'
    numbers, and the challenges catch up where the hand rests or lets go (so a completion is said once)."""
    focus = row(window, "scaled-focus")
    viewport = window.canvas.viewport()
    start = tip_on_screen(window, Role.KEY, 1)
    target = viewport_pos_of(window.canvas.arrows[Role.KEY][1], QPointF(4.5, 1.2))  # sat then puts 95 % on cat
    press(viewport, start)
    along = [start + (target - start) * (step / 6) for step in range(1, 7)]
    move_holding(viewport, along[0])
    qtbot.wait(1)
    first = focus.status_label.text()
    move_holding(viewport, along[1])  # sat's weight on cat changes at every move
    qtbot.wait(1)
    assert focus.status_label.text() == first
    qtbot.wait(3 * REST_DURING_DRAG_MS)  # the hand rests, the button still down: the status catches up
    resting = focus.status_label.text()
    assert resting != first
    for point in along[2:]:
        move_holding(viewport, point)
        qtbot.wait(1)
        assert focus.status_label.text() == resting and focus.tick_label.text() == "○"
    release(viewport, target)
    qtbot.wait(1)  # less than a rest: the release itself checks where the arrow was let go
    assert max(window.reading().selected_weights) >= 0.95
    assert focus.tick_label.text() == "✓" and window.challenges_panel.summary_label.text() == "1 of 4 complete"
