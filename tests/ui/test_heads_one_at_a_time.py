"""Lesson 7's heads on a classroom projector and on a wide screen, driven with real clicks and keys.

Where every head's three plots do not fit side by side at a size a class can drag in, the heads' titles
are a switch and one head's canvas shows at a time, over every head's matrix; on a wide screen the heads
stand side by side.
"""

import json

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QScreen

from attn_desktop.model import Role
from attn_desktop.ui.tools.layout_audit import audit_window
from attn_desktop.ui.tools.walk_audit import MIN_PLOT_SIDE_PX, audit_walk, key_labels_missing, lesson_text
from attn_desktop.ui.window.startup.app import settle

from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged
from tests.support.two_layers_scene import TWO_LAYERS_WITH_W_O


def open_two_heads(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.central_stack.currentWidget() is window.heads_view)
    wait_until_arranged(qtbot, window)
    settle(window)
    return window.heads_view.columns


def on_a_wide_screen(window, monkeypatch, presenting: bool) -> None:
    monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, 1920, 1080))
    window.presentation_action.setChecked(presenting)
    window.showNormal()
    window.resize(1920, 1080)


def shown_plot_sides(column) -> list[int]:
    """The shorter side of each of the head's plots, as its canvas draws them."""
    canvas = column.canvas
    boxes = [canvas.mapFromScene(plot.getViewBox().sceneBoundingRect()).boundingRect()
             for plot in canvas.plots.shown_plots()]
    return [min(box.width(), box.height()) for box in boxes]


def test_the_heads_titles_switch_which_heads_canvas_shows(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    first, second = open_two_heads(qtbot, window)
    assert window.heads_view.one_at_a_time
    assert first.canvas.isVisible() and not second.canvas.isVisible()
    qtbot.mouseClick(second.title_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(second.canvas.isVisible)
    assert not first.canvas.isVisible() and second.title_button.isChecked() and not first.title_button.isChecked()
    assert first.matrix.isVisible() and second.matrix.isVisible()  # every head's pattern stays in view
    wait_until_arranged(qtbot, window)
    assert min(shown_plot_sides(second)) >= MIN_PLOT_SIDE_PX
    # From the keyboard: the title takes the focus and Space chooses it.
    first.title_button.setFocus()
    qtbot.keyClick(first.title_button, Qt.Key.Key_Space)
    qtbot.waitUntil(first.canvas.isVisible)
    assert not second.canvas.isVisible() and first.title_button.isChecked()
    # A click on the head shown leaves it shown.
    qtbot.mouseClick(first.title_button, Qt.MouseButton.LeftButton)
    assert first.title_button.isChecked() and first.canvas.isVisible()


@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
def test_on_a_1024_by_768_projector_every_plot_shown_is_large_enough_and_k_because_is_labelled(
        qtbot, window, monkeypatch, presenting):
    on_a_1024_by_768_screen(window, monkeypatch, presenting)
    columns = open_two_heads(qtbot, window)
    shown = [column for column in columns if column.canvas.isVisible()]
    assert [column.head for column in shown] == [0]
    assert min(shown_plot_sides(shown[0])) >= MIN_PLOT_SIDE_PX
    k_because = next(label for label in (arrow.label for arrow in shown[0].canvas.arrows[Role.KEY])
                     if label.startswith("k·because"))
    assert k_because == "k·because 83%"
    assert k_because not in key_labels_missing(shown[0].canvas, lesson_text(window))
    assert all(column.matrix.cell_font() is not None for column in columns)  # every matrix shows its numbers
    audit = {**audit_window(window), **audit_walk(window)}
    assert audit["panels_cut"] == [] and audit["plots_too_small"] == [] and audit["texts_elided"] == []
    window.presentation_action.setChecked(False)


@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
def test_on_a_wide_screen_every_head_stands_side_by_side(qtbot, window, monkeypatch, presenting):
    on_a_wide_screen(window, monkeypatch, presenting)
    columns = open_two_heads(qtbot, window)
    assert not window.heads_view.one_at_a_time
    assert all(column.canvas.isVisible() for column in columns)
    first, second = (column.canvas.mapTo(window, column.canvas.rect().topLeft()) for column in columns)
    assert first.y() == second.y() and second.x() > first.x() + columns[0].canvas.width() // 2  # side by side
    for column in columns:
        assert min(shown_plot_sides(column)) >= MIN_PLOT_SIDE_PX, column.head
    settle(window)  # the labels placed on the plots' last size
    audit = {**audit_window(window), **audit_walk(window)}
    assert audit["panels_cut"] == [] and audit["plots_too_small"] == [] and audit["key_labels_missing"] == []
    assert audit["matrix_numbers_shown"] and audit["score_rows_visible"] == audit["score_rows"]
    window.presentation_action.setChecked(False)


def test_the_head_chosen_stays_shown_through_presentation_mode(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    first, second = open_two_heads(qtbot, window)
    qtbot.mouseClick(second.title_button, Qt.MouseButton.LeftButton)
    for presenting in (True, False):
        qtbot.keyClick(window, Qt.Key.Key_F11)
        qtbot.waitUntil(lambda on=presenting: window.presentation_action.isChecked() == on)
        window.showNormal()
        window.resize(1024, 768)
        wait_until_arranged(qtbot, window)
        assert second.canvas.isVisible() and not first.canvas.isVisible()
        assert min(shown_plot_sides(second)) >= MIN_PLOT_SIDE_PX


def test_score_tables_left_unticked_are_not_counted_as_cut(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    columns = open_two_heads(qtbot, window)
    box = window.heads_view.part_boxes["Scores"]
    if box.isChecked():
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    audit = audit_window(window)
    assert audit["score_rows"] == audit["score_rows_visible"] == 0
    assert not any("formula" in cut for cut in audit["panels_cut"])  # the heads' tables show no formula
    assert all(not column.scores.isVisible() for column in columns)


@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
def test_three_heads_on_a_1024_by_768_projector_keep_the_window_on_the_screen(
        qtbot, window, monkeypatch, tmp_path, presenting):
    """Three heads' titles and the 'Each head shows' boxes do not fit one line here: two lines, and the
    window stays as wide as the screen, every matrix and W_O whole."""
    path = tmp_path / "two layers.json"
    path.write_text(json.dumps(TWO_LAYERS_WITH_W_O), encoding="utf-8")
    on_a_1024_by_768_screen(window, monkeypatch, presenting)
    monkeypatch.setattr(window.dialogs, "ask_open_path", lambda folder: path)
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(window.heads_view.columns) == 3)
    wait_until_arranged(qtbot, window)
    settle(window)
    assert window.width() == 1024 and window.heads_view.one_at_a_time
    audit = audit_window(window)
    assert audit["panels_cut"] == [] and audit["matrix_numbers_shown"]
    window.presentation_action.setChecked(False)
