"""The Description panel (View → Description) and F1: the screen in four parts, said once by the window's
announcer and shown beside the lab, with every announcement logged below it, newest at the bottom. Closed until the
user asks for it; then a tab of the reading column that stays through another lesson, until closed or Reset Layout."""

import numpy as np
from PySide6.QtCore import QPointF, Qt

from attn_desktop.model.layers import Role
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.tools.synthetic_mouse import move_holding, press, release
from attn_desktop.ui.view_state.checked_at_rest import REST_DURING_DRAG_MS

from tests.support.in_the_window import settle_layout, tip_on_screen


def open_description(qtbot, window):
    window.docks[DockId.DESCRIPTION].toggleViewAction().trigger()  # as View → Description does
    settle_layout(qtbot, window)
    return window.description_panel


def heaviest_key(window):
    reading = window.shown
    weights = np.asarray(reading.result.weights[reading.selected])
    return reading.arrow_name(Role.KEY, int(np.argmax(weights))), f"{round(100 * weights.max())}%"


def test_the_panel_is_closed_until_opened_from_view_then_a_tab_beside_the_lesson(qtbot, window):
    dock = window.docks[DockId.DESCRIPTION]
    assert dock.isHidden()
    view_entries = [action.text() for action in window.menus[next(iter(window.menus)).__class__("view")].actions()]
    assert "Description" in view_entries
    panel = open_description(qtbot, window)
    assert dock.isVisible() and panel.isVisible()  # its tab in front
    assert dock in window.tabifiedDockWidgets(window.docks[DockId.LESSON])
    assert window.dockWidgetArea(dock) == Qt.DockWidgetArea.LeftDockWidgetArea


def test_its_state_follows_the_chosen_query(qtbot, window):
    window.open_lesson("self-attention")
    panel = open_description(qtbot, window)
    for query in (0, 2):
        window.shown.select_query(query)
        key, weight = heaviest_key(window)
        state = panel.part_labels[2].text()
        assert window.shown.arrow_name(Role.QUERY, query) in state and f"{key}, with {weight}" in state, state


def test_it_stays_open_through_another_lesson_and_closes_with_reset_layout(qtbot, window):
    open_description(qtbot, window)
    window.open_lesson("soft-lookup")
    settle_layout(qtbot, window)
    assert not window.docks[DockId.DESCRIPTION].isHidden()
    assert "1. Soft lookup" in window.description_panel.part_labels[0].text()
    window.reset_layout()
    assert window.docks[DockId.DESCRIPTION].isHidden()


def test_f1_says_the_description_once_and_the_log_shows_it_last(qtbot, window):
    window.open_lesson("soft-lookup")
    window.announcer.announce("an earlier announcement")
    panel = open_description(qtbot, window)
    before = len(window.announcer.log)
    qtbot.keyClick(window.canvas, Qt.Key.Key_F1)
    said = window.announcer.log[before:]
    assert said == [window.describe_screen().spoken()]
    assert "k·apple" in said[0] and "59%" in said[0]  # lesson 1's first step reads 59% on apple
    lines = panel.log_view.toPlainText().splitlines()
    assert lines[-2:] == ["an earlier announcement", said[0]]


def test_f1_speaks_the_interfaces_language(qtbot, window, speaking):
    window.open_lesson("soft-lookup")
    window.switch_language("es")
    before = len(window.announcer.log)
    qtbot.keyClick(window.canvas, Qt.Key.Key_F1)
    (said,) = window.announcer.log[before:]
    assert said.startswith("En pantalla:") and "3,49" in said, said


def test_on_a_1024_projector_opening_it_squeezes_no_plot_and_cuts_no_panel(qtbot, projector_window):
    from attn_desktop.ui.tools.layout_audit import audit_window

    window = projector_window
    window.open_lesson("self-attention")
    settle_layout(qtbot, window)
    canvas_before, column_before = window.canvas.size(), window.docks[DockId.LESSON].width()
    open_description(qtbot, window)
    qtbot.wait(50)
    assert window.docks[DockId.DESCRIPTION].width() == column_before  # the column as wide as the lesson had it
    assert window.canvas.size() == canvas_before
    audit = audit_window(window)
    assert audit["panels_cut"] == [] and audit["untranslated_texts"] == [] and audit["chart_label_overlaps"] == 0
    assert audit["score_rows_visible"] == audit["score_rows"]


def test_the_teachers_guide_names_the_key_and_the_menu_entry_the_window_has(window):
    from tests.support.project_root import ROOT

    guide = (ROOT / "docs" / "teachers.md").read_text(encoding="utf-8")
    action = window.menu_actions["describe_action"]
    assert action.shortcut().toString() == "F1" and "| F1 | Say the Screen's Description" in guide
    assert action.text().replace("&", "") == "Say the Screen's Description"
    assert window.docks[DockId.DESCRIPTION].toggleViewAction().text() == "Description"
    assert "*View → Description*" in guide and "## Inclusive use" in guide


def test_opened_it_is_open_again_next_time_and_closed_it_stays_closed(qtbot, window):
    from attn_desktop.ui.window.main_window import MainWindow
    from attn_desktop.ui.window.startup.app import default_scene

    open_description(qtbot, window)
    window.close()  # (the window saves its state as it closes)
    again = MainWindow(default_scene())
    qtbot.addWidget(again)
    again.show()
    again.restore_window_state()
    settle_layout(qtbot, again)
    assert not again.docks[DockId.DESCRIPTION].isHidden() and DockId.DESCRIPTION in again.dock_layout.asked_for
    again.docks[DockId.DESCRIPTION].close()
    again.open_lesson("self-attention")  # the design shown again for another lesson: it stays closed
    settle_layout(qtbot, again)
    assert again.docks[DockId.DESCRIPTION].isHidden()
    again.history.reset()


def test_tab_reaches_the_button_and_the_log_and_leaves_the_log_again(qtbot, window):
    panel = open_description(qtbot, window)
    panel.say_button.setFocus()
    qtbot.keyClick(panel.say_button, Qt.Key.Key_Tab)
    assert panel.log_view.hasFocus()
    qtbot.keyClick(panel.log_view, Qt.Key.Key_Tab)
    assert not panel.log_view.hasFocus()  # no keyboard trap
    assert panel.log_view.accessibleName() == "Announcements"


def test_while_the_class_guesses_the_panel_tells_no_weight_and_after_the_reveal_it_does(qtbot, window):
    from PySide6.QtCore import QPointF

    from tests.support.in_the_window import drag_arrow

    panel = open_description(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    settle_layout(qtbot, window)  # the guess's strip over the chart has taken its room: k·cat where it is drawn
    drag_arrow(window, Role.KEY, 1, QPointF(-60, -40))
    qtbot.waitUntil(lambda: window.predictions.phase.value == "guessing")
    assert "%" not in panel.part_labels[2].text() and "hidden" in panel.part_labels[2].text()
    qtbot.keyClick(window.weights_chart, Qt.Key.Key_Return)  # reveal
    key, weight = heaviest_key(window)
    assert f"{key}, with {weight}" in panel.part_labels[2].text()


def test_a_drag_is_described_where_the_hand_rests_or_lets_go_not_at_every_move(qtbot, window):
    """Describing the screen is off the drag's frames: the four parts catch up where the hand rests or lets go."""
    panel = open_description(qtbot, window)
    viewport = window.canvas.viewport()
    start = tip_on_screen(window, Role.KEY, 1)
    press(viewport, start)
    said = []
    for step in range(1, 5):  # k·cat longer at each move: the heaviest key's weight changes
        move_holding(viewport, start + QPointF(15 * step, -5 * step))
        qtbot.wait(1)
        said.append(panel.part_labels[2].text())
    assert len(set(said)) == 1, said
    qtbot.wait(3 * REST_DURING_DRAG_MS)  # the hand rests, the button still down
    key, weight = heaviest_key(window)
    assert f"{key}, with {weight}" in panel.part_labels[2].text()
    move_holding(viewport, start + QPointF(80, -30))
    release(viewport, start + QPointF(80, -30))
    qtbot.wait(1)  # less than a rest: letting go describes where the arrow was let go
    key, weight = heaviest_key(window)
    assert f"{key}, with {weight}" in panel.part_labels[2].text()
