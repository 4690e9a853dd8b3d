"""A 1024 × 768 or 1280 × 720 projector: the side columns take only the room they read in, so every plot of a lesson of
three plots is at least 200 px each way, with the grids the lesson edits in sight."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect

from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.tools.walk_audit import audit_walk

from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged

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
    # "Guess: drag the grey bars, or" whole, in the strip's room kept for its longest message (three lines)
    assert message.isVisible() and message.heightForWidth(message.width()) <= message.height() <= 3 * line + 8
    assert window.weights_chart.height() >= 6 * line  # bars a hand can drag, not 20-pixel stubs
    assert audit_walk(window)["plots_too_small"] == []


def press(qtbot, window, key, modifier=None) -> None:
    from PySide6.QtCore import Qt

    qtbot.keyClick(window, key, modifier or Qt.KeyboardModifier.NoModifier)
    wait_until_arranged(qtbot, window)


def test_presenting_three_plots_at_1024_x_768_the_output_takes_the_bottom_row_and_the_plots_stay_readable(
        qtbot, window, monkeypatch):
    """The score table shows the weights as bars: presenting on a projector, the weights chart's row goes to the
    plots, the output's sum and blend each read on one line, and Predict, then See brings the chart back."""
    from PySide6.QtCore import Qt

    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    assert window.open_lesson("trained-heads")
    press(qtbot, window, Qt.Key.Key_F11)
    docks = window.dock_layout.docks
    assert docks[DockId.WEIGHTS].isHidden() and docks[DockId.OUTPUT].isVisible()
    assert audit_walk(window)["plots_too_small"] == []
    output = window.output_panel
    line = output.formula_label.fontMetrics().lineSpacing()
    assert output.formula_label.height() < 2 * line and output.blend_label.height() < 2 * line
    assert "output = Σ weight × v = (" in output.formula_label.text()

    press(qtbot, window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)  # Predict, then See
    qtbot.waitUntil(lambda: docks[DockId.WEIGHTS].isVisible(), timeout=3000)
    assert window.weights_panel.predict_bar.isVisible()
    press(qtbot, window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: docks[DockId.WEIGHTS].isHidden(), timeout=3000)

    press(qtbot, window, Qt.Key.Key_F11)  # back in the window: the chart, and the sum on two lines where narrow
    assert docks[DockId.WEIGHTS].isVisible()


def test_training_at_1280_x_720_gives_the_matrix_column_back_when_five_digits_follow_six_words(
        qtbot, window, monkeypatch):
    """The matrix's column is as narrow as its numbers on a projector: a shorter scene narrows it again."""
    on_a_screen(window, monkeypatch, 1280, 720)
    wait_until_arranged(qtbot, window)
    matrix = window.dock_layout.docks[DockId.MATRIX]
    six_words = matrix.width()
    window.menu_actions["training_action"].trigger()
    window.training_panel.train_button.click()  # the canvas follows the training example: five digits
    qtbot.waitUntil(lambda: window.scene.n_tokens == 5, timeout=5000)
    window.training_panel.pause_button.click()
    wait_until_arranged(qtbot, window)
    qtbot.waitUntil(lambda: matrix.width() < six_words, timeout=3000)
    assert audit_walk(window)["plots_too_small"] == []


def test_a_window_that_grows_while_its_panels_are_shared_out_keeps_a_bottom_row_of_its_new_size(
        qtbot, window, monkeypatch):
    """A restored window is shared out at its first size and again once it has its last (maximised after it is shown).
    At 1480 × 920 beside lesson 10's lab, the bottom row is as low as the output reads, measured again a moment later;
    that second measure, landing after the window had grown to 1920 × 1080, squeezed the bottom row to the output's
    least height there too (130 px where the design gives 237), on a busy machine and at every restart after it."""
    on_a_screen(window, monkeypatch, 1920, 1080)
    assert window.open_lesson("positions")
    wait_until_arranged(qtbot, window)
    window.resize(1480, 920)
    window.dock_layout.share_out()  # squeezed: the bottom row to be measured again once the event loop passes
    window.resize(1920, 1080)
    window.dock_layout.share_out()  # the last size, before that measure runs
    wait_until_arranged(qtbot, window)
    output = window.dock_layout.docks[DockId.OUTPUT]
    qtbot.wait(50)
    assert abs(output.height() - int(window.height() * 0.22)) <= 4, (output.height(), window.height())
