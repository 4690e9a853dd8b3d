"""A window that holds still while a class uses it: steps that are not about layout (a guess, Reveal, a drag,
Undo, Start afresh) leave every panel where it was, and round trips (F11 twice, lesson A → B → A, Reset
Layout) give back the arrangement the lesson opened with. Driven by real mouse and key events on the real
window at a projector's 1024 × 768 (and 1280 × 720), comparing the panels' geometry before and after."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QAbstractButton

from attn_desktop.model import Role
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.window.layout.hand_sizes import in_sight

from tests.support.in_the_window import drag_arrow, type_into_first_cell, wait_until_arranged
from tests.ui.test_predict_then_see_in_the_window import drag_guess_bar

pytestmark = pytest.mark.slow

SCREENS = {"1024x768": (1024, 768), "1280x720": (1280, 720)}
STILL_PX = 4  # "as it was": within a few pixels


def on_a_screen(window, monkeypatch, size: tuple[int, int]) -> None:
    """The window filling a classroom screen of SIZE. Going full screen and back (F11) keeps the window at that
    size, as on a projector: the offscreen platform's own screen is another size, and would change the window."""
    width, height = size
    monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, width, height))
    monkeypatch.setattr(window, "showFullScreen", lambda: None)
    monkeypatch.setattr(window, "showNormal", lambda: None)
    monkeypatch.setattr(window, "showMaximized", lambda: None)
    window.resize(width, height)


def settled(qtbot, window) -> None:
    wait_until_arranged(qtbot, window)
    qtbot.wait(150)


def panel_geometry(window) -> dict[str, tuple[int, int, int, int]]:
    """Each panel in sight (shown, the front one of its tabs): [x, y, w, h] in window pixels."""
    return {str(name): dock.geometry().getRect() for name, dock in window.docks.items() if in_sight(dock)}


def moved_panels(before: dict, after: dict) -> dict:
    """The panels that appeared, went or moved by more than STILL_PX: name → (before, after)."""
    return {name: (before.get(name), after.get(name)) for name in before.keys() | after.keys()
            if name not in before or name not in after
            or any(abs(a - b) > STILL_PX for a, b in zip(before[name], after[name]))}


def open_lesson(qtbot, window, lesson_id: str) -> None:
    window.open_lesson(lesson_id)
    settled(qtbot, window)


def press(qtbot, window, key: Qt.Key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(window, key, modifier)
    settled(qtbot, window)


def reveal(qtbot, window) -> None:
    qtbot.mouseClick(window.weights_panel.predict_bar.reveal_button, Qt.MouseButton.LeftButton)
    settled(qtbot, window)


# ----- a step that is not about layout leaves every panel where it was ------------------------------------
@pytest.mark.parametrize("presenting", [False, True], ids=["window", "presenting"])
@pytest.mark.parametrize("screen", SCREENS)
def test_a_guess_and_reveal_in_lesson_8_leave_every_panel_where_it_was(qtbot, window, monkeypatch, screen, presenting):
    on_a_screen(window, monkeypatch, SCREENS[screen])
    window.presentation_action.setChecked(presenting)
    open_lesson(qtbot, window, "predict-then-see")
    opened = panel_geometry(window)
    chart_height = window.weights_chart.height()
    drag_guess_bar(window.weights_chart, 1, 0.6)
    settled(qtbot, window)
    assert moved_panels(opened, panel_geometry(window)) == {}, "the guess moved panels"
    reveal(qtbot, window)
    assert "Off by" in window.weights_panel.predict_bar.message_label.text()
    assert moved_panels(opened, panel_geometry(window)) == {}, "Reveal moved panels"
    assert abs(window.weights_chart.height() - chart_height) <= STILL_PX  # the chart's bars did not jump either
    window.reset_layout()
    settled(qtbot, window)
    assert moved_panels(opened, panel_geometry(window)) == {}, "Reset Layout is not the design the lesson opened with"


def test_a_round_of_lesson_8_undo_and_start_afresh_leave_every_panel_where_it_was(qtbot, window, monkeypatch):
    """A drag of an arrow (veiling the weights), a guess, Reveal, a second round, Undo and Start afresh."""
    on_a_screen(window, monkeypatch, SCREENS["1024x768"])
    open_lesson(qtbot, window, "predict-then-see")
    opened = panel_geometry(window)
    steps = {
        "guess": lambda: drag_guess_bar(window.weights_chart, 0, 0.5),
        "reveal": lambda: reveal(qtbot, window),
        "drag an arrow": lambda: drag_arrow(window, Role.KEY, 1, QPointF(-50, 40)),
        "guess again": lambda: drag_guess_bar(window.weights_chart, 2, 0.7),
        "reveal again": lambda: reveal(qtbot, window),
        "drag another arrow": lambda: drag_arrow(window, Role.KEY, 2, QPointF(40, -30)),
        "undo": lambda: press(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier),
        "reopen the changed lesson": lambda: (open_lesson(qtbot, window, "soft-lookup"),
                                              open_lesson(qtbot, window, "predict-then-see")),
        "start afresh": lambda: qtbot.mouseClick(window.lesson_panel.fresh_button, Qt.MouseButton.LeftButton),
    }
    for step, do in steps.items():
        if step == "start afresh":
            assert window.lesson_panel.fresh_button.isVisible()
        do()
        settled(qtbot, window)
        assert moved_panels(opened, panel_geometry(window)) == {}, f"{step} moved panels"


# ----- round trips give back the arrangement the lesson opened with -------------------------------------
@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("lesson", ["projections", "why-sqrt-dk", "positions", "predict-then-see"])
def test_f11_twice_another_lesson_and_back_and_reset_layout_give_back_the_lessons_arrangement(
        qtbot, window, monkeypatch, lesson, screen):
    on_a_screen(window, monkeypatch, SCREENS[screen])
    open_lesson(qtbot, window, lesson)
    opened = panel_geometry(window)
    press(qtbot, window, Qt.Key.Key_F11)
    assert window.presentation_action.isChecked()
    press(qtbot, window, Qt.Key.Key_F11)
    assert moved_panels(opened, panel_geometry(window)) == {}, "F11 twice"
    open_lesson(qtbot, window, "scaled-attention")
    open_lesson(qtbot, window, lesson)
    assert moved_panels(opened, panel_geometry(window)) == {}, "another lesson and back"
    window.reset_layout()
    settled(qtbot, window)
    assert moved_panels(opened, panel_geometry(window)) == {}, "Reset Layout"


def test_lesson_6s_lab_keeps_its_axis_titles_whole_after_f11_twice(qtbot, window, monkeypatch):
    on_a_screen(window, monkeypatch, SCREENS["1024x768"])
    open_lesson(qtbot, window, "why-sqrt-dk")
    width = window.docks[DockId.SCALING_LAB].width()
    press(qtbot, window, Qt.Key.Key_F11)
    press(qtbot, window, Qt.Key.Key_F11)
    assert window.docks[DockId.SCALING_LAB].width() >= width - STILL_PX  # not the 220-pixel column that cut them


# ----- presenting ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("lesson", ["soft-lookup", "predict-then-see"])
def test_presenting_puts_the_scores_right_under_the_matrix(qtbot, window, monkeypatch, screen, lesson):
    on_a_screen(window, monkeypatch, SCREENS[screen])
    window.presentation_action.setChecked(True)
    open_lesson(qtbot, window, lesson)
    matrix, scores = window.matrix_view, window.docks[DockId.SCORE]
    grid_bottom = matrix.mapTo(window, QPoint(0, int(matrix.grid_rect().bottom()))).y()
    line = window.fontMetrics().lineSpacing()
    assert scores.isVisible() and scores.geometry().top() >= grid_bottom  # nothing of the matrix under them
    assert scores.geometry().top() - grid_bottom <= 2 * line, "an empty gap between the matrix and the scores"
    table = window.score_panel.table  # and none inside the scores: the formula right under the last row
    last_row = table.visualRect(table.model().index(table.model().rowCount() - 1, 0))
    rows_bottom = table.viewport().mapTo(window, last_row.bottomLeft()).y()
    formula_top = window.score_panel.formula_label.mapTo(window, QPoint(0, 0)).y()
    assert 0 <= formula_top - rows_bottom <= line, "an empty table between the score rows and the formula"


@pytest.mark.parametrize("screen", SCREENS)
def test_presenting_lesson_2_shows_its_subject_the_grids(qtbot, window, monkeypatch, screen):
    on_a_screen(window, monkeypatch, SCREENS[screen])
    open_lesson(qtbot, window, "projections")
    press(qtbot, window, Qt.Key.Key_F11)
    grids = window.docks[DockId.GRIDS]
    assert in_sight(grids), "lesson 2's W_Q, W_K and W_V are not in sight presenting"
    editor = window.grid_editor
    for name, table in editor.tables.items():
        assert table.isVisible() and not table.visibleRegion().isEmpty(), name
        cell = table.visualRect(table.model().index(1, 1))
        assert table.viewport().rect().contains(cell), f"{name}'s numbers cut"
    canvas = window.canvas
    assert canvas.height() >= 0.4 * window.height()  # the plots keep their room
    press(qtbot, window, Qt.Key.Key_F11)
    open_lesson(qtbot, window, "soft-lookup")  # a lesson whose subject is not the grids: presenting shows the numbers
    press(qtbot, window, Qt.Key.Key_F11)
    assert not in_sight(grids)


@pytest.mark.parametrize("presenting, typing", [
    pytest.param(False, True, id="window-typing"), pytest.param(False, False, id="window"),
    pytest.param(True, True, id="presenting-typing")])
def test_lesson_2s_steps_leave_every_panel_where_it_was(qtbot, window, monkeypatch, presenting, typing):
    """A drag of a word vector, a number typed into W_Q, a refused number (its message shown), Undo, and the
    query chosen with the keyboard: none of them is a layout step."""
    on_a_screen(window, monkeypatch, SCREENS["1024x768"])
    window.presentation_action.setChecked(presenting)
    open_lesson(qtbot, window, "projections")
    opened = panel_geometry(window)
    w_q = next(iter(window.grid_editor.tables.values()))
    steps = {
        "drag x": lambda: drag_arrow(window, Role.EMBEDDING, 2, QPointF(30, -40)),
        "type into W_Q": lambda: type_into_first_cell(qtbot, w_q, "1.5"),
        "a refused number": lambda: type_into_first_cell(qtbot, w_q, "abc"),
        "undo": lambda: press(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier),
        "another query": lambda: qtbot.keyClick(window.canvas, Qt.Key.Key_Down),
    }
    for step, do in steps.items():
        if not typing and step in ("type into W_Q", "a refused number"):
            continue
        do()
        settled(qtbot, window)
        assert moved_panels(opened, panel_geometry(window)) == {}, f"{step} moved panels"


@pytest.mark.parametrize("language", ["es", "ar"])
@pytest.mark.parametrize("lesson", ["why-sqrt-dk", "predict-then-see"])
def test_a_language_switch_and_back_gives_back_the_lessons_arrangement(qtbot, window, monkeypatch, lesson, language):
    on_a_screen(window, monkeypatch, SCREENS["1024x768"])
    open_lesson(qtbot, window, lesson)
    opened = panel_geometry(window)
    window.switch_language(language)
    settled(qtbot, window)
    window.switch_language("en")
    settled(qtbot, window)
    assert moved_panels(opened, panel_geometry(window)) == {}, f"English, {language}, English"


@pytest.mark.parametrize("companion", [DockId.TRAINING, DockId.MODEL_HEADS])
def test_training_or_model_heads_opened_then_closed_give_back_the_lessons_arrangement(
        qtbot, window, monkeypatch, companion):
    on_a_screen(window, monkeypatch, SCREENS["1024x768"])
    open_lesson(qtbot, window, "scaled-attention")
    opened = panel_geometry(window)
    window.dock_layout.show_wide(companion)  # as Lessons → Train a Head… or the model's heads open it
    settled(qtbot, window)
    assert in_sight(window.docks[companion])
    dock = window.docks[companion]
    close_button = next(button for button in dock.findChildren(QAbstractButton) if button.isVisible()
                        and "close" in (button.objectName() + button.accessibleName() + button.toolTip()).lower())
    qtbot.mouseClick(close_button, Qt.MouseButton.LeftButton)  # its ×
    settled(qtbot, window)
    assert moved_panels(opened, panel_geometry(window)) == {}, "the lesson's text is not back in front"
