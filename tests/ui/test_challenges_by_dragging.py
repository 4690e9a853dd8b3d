"""Each of the four challenges goes from unmet to met by real drags on the canvas."""

from PySide6.QtCore import Qt

from attn_desktop.model import Role

from tests.support.in_the_window import drag_arrow_to


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
