"""A teacher's window is never fresh: presentation mode, other lessons and Reset Layout in a row must
land on the same arrangement as a fresh window would show, never on what came before."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from attn_desktop.model.teaching.dock_id import DockId

from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged

ONE_HEAD_PANELS = (DockId.SCORE, DockId.MATRIX, DockId.WEIGHTS, DockId.OUTPUT, DockId.SHAPES, DockId.GRIDS)
ACTIVITY_PANELS = (DockId.TRAINING, DockId.MODEL_HEADS, DockId.SCALING_LAB, DockId.POSITIONS_LAB)

pytestmark = pytest.mark.slow


def shown_panels(window) -> set[str]:
    return {name for name, dock in window.docks.items() if dock.isVisible()}


def press_f11(qtbot, window) -> None:
    qtbot.keyClick(window, Qt.Key.Key_F11)
    wait_until_arranged(qtbot, window)


def open_lesson_by_key(qtbot, window, number: int) -> None:
    qtbot.keyClick(window, getattr(Qt.Key, f"Key_{number}"), Qt.KeyboardModifier.ControlModifier)
    wait_until_arranged(qtbot, window)


def test_presenting_lesson_4_then_opening_lesson_7_and_leaving_shows_the_heads_alone(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    open_lesson_by_key(qtbot, window, 4)
    press_f11(qtbot, window)
    open_lesson_by_key(qtbot, window, 7)
    press_f11(qtbot, window)
    assert window.showing_heads and not window.isFullScreen()
    assert not shown_panels(window) & set(ONE_HEAD_PANELS), "the one-head panels came back beside the heads"
    assert DockId.LESSON in shown_panels(window)


def test_a_lessons_lab_closes_when_another_lesson_opens_and_presenting_shows_no_stray_panel(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    open_lesson_by_key(qtbot, window, 6)  # "Why √d_k?" opens the lab beside its text
    assert DockId.SCALING_LAB in shown_panels(window)
    for number in (1, 5, 7, 8):
        open_lesson_by_key(qtbot, window, number)
        press_f11(qtbot, window)
        assert not shown_panels(window) & set(ACTIVITY_PANELS), f"lesson {number}, presenting"
        assert not shown_panels(window) & {DockId.LESSON, DockId.CHALLENGES, DockId.CODE, DockId.SENTENCE}
        press_f11(qtbot, window)
        assert not window.isFullScreen()


def test_reset_layout_with_two_heads_shows_the_heads_and_the_reading_only(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    open_lesson_by_key(qtbot, window, 7)
    window.docks[DockId.SCORE].show()  # the View menu can show one head's panel beside the heads
    window.menu_actions["reset_layout_action"].trigger()
    QApplication.processEvents()
    assert window.showing_heads and not shown_panels(window) & set(ONE_HEAD_PANELS)
    assert DockId.LESSON in shown_panels(window)


def test_a_restart_after_several_lessons_opens_on_what_a_fresh_window_shows(qtbot, window, monkeypatch):
    from attn_desktop.model.scene_files import open_scene
    from attn_desktop.paths import DEFAULT_SCENE, scene_path
    from attn_desktop.ui.window.main_window import MainWindow

    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    for number in (2, 4, 7, 4):
        open_lesson_by_key(qtbot, window, number)
    fresh_panels = shown_panels(window)
    window.save_window_state()
    again = MainWindow(open_scene(scene_path(DEFAULT_SCENE)))
    qtbot.addWidget(again)
    again.show()
    again.restore_window_state()
    again.open_lesson("scaled-attention")
    wait_until_arranged(qtbot, again)
    assert shown_panels(again) == fresh_panels
    assert not shown_panels(again) & set(ACTIVITY_PANELS)


@pytest.mark.parametrize("lab_lesson", [6, 10])
def test_a_restart_in_a_labs_lesson_keeps_no_panel_the_lab_made_way_for_closed(qtbot, window, monkeypatch, lab_lesson):
    """The lab hides the weights and shapes while it is open; nobody closed them, so after a restart the next
    lesson shows them as a fresh window does."""
    from attn_desktop.model.scene_files import open_scene
    from attn_desktop.paths import DEFAULT_SCENE, scene_path
    from attn_desktop.ui.window.main_window import MainWindow

    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    open_lesson_by_key(qtbot, window, 4)
    fresh_panels = shown_panels(window)
    window.open_lesson("why-sqrt-dk" if lab_lesson == 6 else "positions")
    wait_until_arranged(qtbot, window)
    assert DockId.WEIGHTS not in shown_panels(window)
    window.save_window_state()
    again = MainWindow(open_scene(scene_path(DEFAULT_SCENE)))
    qtbot.addWidget(again)
    again.show()
    again.restore_window_state()
    again.open_lesson("scaled-attention")
    wait_until_arranged(qtbot, again)
    assert shown_panels(again) == fresh_panels and again.docks[DockId.WEIGHTS].width() > 100


def test_the_labs_lesson_shows_its_text_and_the_lab_together_with_the_output_whole(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    open_lesson_by_key(qtbot, window, 6)
    lesson, lab = window.docks[DockId.LESSON], window.docks[DockId.SCALING_LAB]
    assert lesson.isVisible() and lab.isVisible() and window.tabifiedDockWidgets(lesson).count(lab) == 0
    assert lab.geometry().top() >= lesson.geometry().bottom()  # under the text, not a tab behind it
    for plot in (window.scaling_lab.spread_plot, window.scaling_lab.entropy_plot):
        assert plot.isVisible() and plot.height() >= 90
    assert window.height() <= 768
    values = window.output_panel.findChildren(type(window.output_panel.query_label))
    assert all(label.width() >= label.sizeHint().width() for label in values if label.isVisible() and label.text())


def bottom_row_height(window) -> int:
    return window.docks[DockId.OUTPUT].height()


def test_leaving_presentation_gives_lesson_4_its_fresh_bottom_row_with_no_empty_grids_tab(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    open_lesson_by_key(qtbot, window, 4)  # no grids: its vectors are typed, not projected
    fresh = bottom_row_height(window)
    press_f11(qtbot, window)
    window.menu_actions["reset_layout_action"].trigger()
    wait_until_arranged(qtbot, window)
    press_f11(qtbot, window)
    assert window.docks[DockId.GRIDS].isHidden()  # an empty Grids tab took the bottom row's height
    assert window.docks[DockId.SHAPES] not in window.tabifiedDockWidgets(window.docks[DockId.WEIGHTS])
    assert abs(bottom_row_height(window) - fresh) <= 4


def test_reset_layout_while_presenting_keeps_presentations_design(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    open_lesson_by_key(qtbot, window, 4)
    press_f11(qtbot, window)
    matrix, scores = window.docks[DockId.MATRIX], window.docks[DockId.SCORE]
    designed = (matrix.geometry(), scores.geometry())
    window.menu_actions["reset_layout_action"].trigger()
    wait_until_arranged(qtbot, window)
    assert shown_panels(window) == {DockId.SCORE, DockId.MATRIX, DockId.OUTPUT}  # (the weights: the score table's bars)
    assert scores.geometry().top() > matrix.geometry().bottom()  # the scores under the matrix, as presenting puts them
    assert (matrix.geometry(), scores.geometry()) == designed


def test_a_window_never_used_on_a_projector_starts_maximised_there(qtbot, window, monkeypatch):
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QScreen

    from attn_desktop.ui.window.startup.app import show_as_started

    monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, 1024, 768))
    show_as_started(window)  # no layout kept for a 1024 × 768 screen yet
    qtbot.waitUntil(window.isMaximized, timeout=2000)


def test_a_window_used_before_starts_as_it_was_left(qtbot, window, monkeypatch):
    from attn_desktop.model import ViewState
    from attn_desktop.model.scene_files import contents_as_seen, new_scene
    from attn_desktop.ui.window.main_window import MainWindow
    from attn_desktop.ui.window.startup.app import show_as_started

    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    window.resize(900, 700)
    qtbot.wait(50)
    left = window.size().toTuple()
    window.save_window_state()
    view = ViewState()  # the new window's own, with the query the first one had chosen
    again = MainWindow(new_scene(contents_as_seen(window.scene, window.view_state), view), view=view)
    qtbot.addWidget(again)
    show_as_started(again)
    qtbot.wait(50)
    assert not again.isMaximized() and again.height() == left[1]  # (the offscreen platform moves its width a little)
