"""A 1024 × 768 or 1280 × 720 projector: the side columns take only the room they read in, so every plot of a lesson of
three plots is at least 200 px each way, with the grids the lesson edits in sight."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect

from attn_desktop.ui.tools.walk_audit import audit_walk

from helpers import on_a_1024_by_768_screen, wait_until_arranged

pytestmark = pytest.mark.slow


def seen_on_screen(widget) -> bool:
    """Wholly inside the window and inside every scroll area it sits in."""
    rect = QRect(widget.mapTo(widget.window(), QPoint(0, 0)), widget.size())
    parent = widget.parentWidget()
    while parent is not None:
        if not QRect(parent.mapTo(widget.window(), QPoint(0, 0)), parent.size()).contains(rect):
            return False
        parent = parent.parentWidget()
    return widget.isVisible()


def on_a_screen(window, monkeypatch, width: int, height: int) -> None:
    from PySide6.QtGui import QScreen

    monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, width, height))
    window.showNormal()
    window.resize(width, height)


@pytest.mark.parametrize("screen", [(1024, 768), (1280, 720)])
@pytest.mark.parametrize("lesson", ["projections", "trained-heads", "scaled-attention"])
def test_every_plot_of_a_lesson_is_200_px_on_a_projector(qtbot, window, monkeypatch, lesson, screen):
    on_a_screen(window, monkeypatch, *screen)
    assert window.open_lesson(lesson)
    wait_until_arranged(qtbot, window)
    assert audit_walk(window)["plots_too_small"] == []


def test_lesson_2s_three_grids_and_its_no_grids_box_are_in_sight_at_1024_x_768(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    assert window.open_lesson("projections")  # "Change one number of W_Q in the Grids panel", "Tick No grids"
    wait_until_arranged(qtbot, window)
    editor = window.grid_editor
    assert all(seen_on_screen(table) for table in editor.tables.values())
    assert seen_on_screen(editor.no_grids_box)


@pytest.mark.parametrize("screen", [(1024, 768), (1280, 720)])
def test_lesson_8s_guess_chart_has_room_to_guess_in_on_a_projector(qtbot, window, monkeypatch, screen):
    on_a_screen(window, monkeypatch, *screen)
    assert window.open_lesson("predict-then-see")  # turns Predict, then see on
    wait_until_arranged(qtbot, window)
    panel = window.weights_panel
    line = panel.fontMetrics().lineSpacing()
    message = panel.predict_bar.message_label
    assert message.isVisible() and message.height() <= 2 * line + 8  # "Guess: drag the grey bars, or" whole
    assert window.weights_chart.height() >= 6 * line  # bars a hand can drag, not 20-pixel stubs
    assert audit_walk(window)["plots_too_small"] == []
