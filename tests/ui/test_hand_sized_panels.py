"""A panel's edge dragged by hand: kept for that activity on that kind of screen, given back after other
activities, presentation mode and a restart; forgotten by View → Reset Layout."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.window.layout.hand_sizes import screen_class

from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged

pytestmark = pytest.mark.slow
WIDER_BY_PX = 90


def lesson_column_width(window) -> int:
    return window.docks[DockId.LESSON].width()


def drag_lesson_column_edge(qtbot, window, by_px: int) -> None:
    """Press on the edge between the lesson's column and the canvas, move right by BY_PX, release."""
    lesson, central = window.docks[DockId.LESSON].geometry(), window.centralWidget().geometry()
    start = QPoint((lesson.right() + central.left()) // 2, lesson.center().y())
    assert window.childAt(start) is None, "not on the edge between the panels"
    QTest.mousePress(window, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for step in range(1, 7):
        QTest.mouseMove(window, start + QPoint(by_px * step // 6, 0))
        qtbot.wait(5)
    QTest.mouseRelease(window, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start + QPoint(by_px, 0))
    qtbot.wait(50)


def open_lesson(qtbot, window, lesson_id: str) -> None:
    assert window.open_lesson(lesson_id)
    wait_until_arranged(qtbot, window)


@pytest.fixture
def widened(qtbot, window, monkeypatch):
    """A 1024 × 768 window in lesson 2 whose lesson column the user widened by hand."""
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    open_lesson(qtbot, window, "projections")
    designed = lesson_column_width(window)
    drag_lesson_column_edge(qtbot, window, WIDER_BY_PX)
    widened = lesson_column_width(window)
    assert widened >= designed + WIDER_BY_PX * 0.8
    return designed, widened


def test_the_width_given_by_hand_comes_back_after_two_heads_and_presentation(qtbot, window, widened):
    _designed, by_hand = widened
    open_lesson(qtbot, window, "two-heads")  # another activity: its own design
    open_lesson(qtbot, window, "scaled-attention")
    assert abs(lesson_column_width(window) - by_hand) <= 4
    window.presentation_action.setChecked(True)
    wait_until_arranged(qtbot, window)
    window.presentation_action.setChecked(False)
    wait_until_arranged(qtbot, window)
    assert abs(lesson_column_width(window) - by_hand) <= 4


def test_reset_layout_forgets_what_the_hand_did(qtbot, window, widened):
    designed, _by_hand = widened
    window.menu_actions["reset_layout_action"].trigger()
    wait_until_arranged(qtbot, window)
    assert abs(lesson_column_width(window) - designed) <= 4
    open_lesson(qtbot, window, "soft-lookup")
    assert abs(lesson_column_width(window) - designed) <= 4


def test_sizes_the_window_gives_itself_are_not_remembered(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    open_lesson(qtbot, window, "projections")
    window.dock_layout.show_wide(DockId.SENTENCE)  # the window widens the column itself, no hand involved
    assert window.dock_layout.hand_sizes.sizes == {}


def test_the_hand_sizes_are_kept_per_kind_of_screen_and_survive_a_restart(qtbot, window, widened):
    from attn_desktop.model import ViewState
    from attn_desktop.model.scene_files import contents_as_seen, new_scene
    from attn_desktop.ui.window.main_window import MainWindow

    _designed, by_hand = widened
    kept = window.dock_layout.hand_sizes.sizes
    assert list(kept) == [f"one head @ {screen_class(1024)}"]
    assert kept[f"one head @ {screen_class(1024)}"][DockId.LESSON][0] == by_hand
    window.save_window_state()
    view = ViewState()  # the new window's own, with the query the first one had chosen
    again = MainWindow(new_scene(contents_as_seen(window.scene, window.view_state), view), view=view)
    qtbot.addWidget(again)
    again.restore_window_state()
    assert again.dock_layout.hand_sizes.sizes == kept
    assert screen_class(1920) != screen_class(1024)  # a desktop keeps its own (none yet): the design
