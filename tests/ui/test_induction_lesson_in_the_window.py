"""Lesson 9 in the window, as a student works through it: Ctrl+9, the stripe read off the matrices, a row
clicked, the exercises answered with real clicks, and Show me."""

import numpy as np
from PySide6.QtCore import QPointF, Qt

from attn_desktop.model.teaching.progress import ProgressStore


def open_lesson_9(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_9, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.central_stack.currentWidget() is window.heads_view)
    qtbot.wait(20)
    return window.heads_view.columns


def strongest_key(column, query: int) -> str:
    n = column.matrix.reading.n_tokens
    shown = [float(column.matrix.cell_text(query, key) or 0) for key in range(query + 1)]  # later keys masked
    assert len(shown) <= n
    return column.matrix.reading.tokens[int(np.argmax(shown))]


def test_ctrl_9_opens_two_layers_on_the_second_d_and_its_stripe(qtbot, window):
    columns = open_lesson_9(qtbot, window)
    assert window.lesson_panel.picker.currentText() == "9. Heads that work together"
    assert [column.title_button.text().split(" · ")[0] for column in columns] == ["Layer 1", "Layer 2"]
    assert window.query_picker.currentText() == "14:D"
    assert strongest_key(columns[0], 14) == "13:M"  # layer 1: the letter before
    assert [strongest_key(columns[1], query) for query in range(14, 20)] == ["2:K", "3:W", "4:N", "5:R", "6:H", "7:B"]


def test_clicking_a_row_of_layer_2_chooses_that_letter_in_both_layers(qtbot, window):
    columns = open_lesson_9(qtbot, window)
    matrix = columns[1].matrix
    grid = matrix.grid_rect()
    row_height = grid.height() / window.scene.n_queries
    qtbot.mouseClick(matrix, Qt.MouseButton.LeftButton, pos=QPointF(grid.left() + 5, grid.top() + 17.5 * row_height).toPoint())
    assert window.query_picker.currentText() == "17:N" and columns[0].reading.selected == 17


def test_the_lesson_s_exercises_are_checked_and_show_me_chooses_the_second_r(qtbot, window, private_data_dir):
    open_lesson_9(qtbot, window)
    widgets = {w.exercise.id: w for w in window.lesson_panel.exercise_widgets}
    assert {"induction-next-letter", "induction-needs-layer-1"} <= set(widgets)
    next_letter = widgets["induction-next-letter"]
    wrong = next_letter.choice_buttons[1]
    qtbot.mouseClick(wrong, Qt.MouseButton.LeftButton, pos=wrong.rect().center())
    qtbot.mouseClick(next_letter.check_button, Qt.MouseButton.LeftButton)
    assert next_letter.result_label.text().startswith("✗")
    qtbot.mouseClick(next_letter.show_me_button, Qt.MouseButton.LeftButton)
    assert window.query_picker.currentText() == "18:R"
    assert strongest_key(window.heads_view.columns[1], 18) == "6:H"
    right = next_letter.choice_buttons[next_letter.exercise.correct_choice]
    qtbot.mouseClick(right, Qt.MouseButton.LeftButton, pos=right.rect().center())
    qtbot.mouseClick(next_letter.check_button, Qt.MouseButton.LeftButton)
    assert next_letter.result_label.text().startswith("✓") and "6:H" in next_letter.result_label.text()
    knock_out = widgets["induction-needs-layer-1"]
    right = knock_out.choice_buttons[knock_out.exercise.correct_choice]
    qtbot.mouseClick(right, Qt.MouseButton.LeftButton, pos=right.rect().center())
    qtbot.mouseClick(knock_out.check_button, Qt.MouseButton.LeftButton)
    assert knock_out.result_label.text().startswith("✓")
    assert ProgressStore().is_done("exercises", "induction-next-letter")


def test_on_a_small_screen_lesson_9_shows_layer_2_s_stripe_first_and_layer_1_a_click_away(qtbot, window, monkeypatch):
    from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged

    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    columns = open_lesson_9(qtbot, window)
    wait_until_arranged(qtbot, window)
    shown = [column.matrix.isVisible() for column in columns]
    assert shown == [False, True]  # one matrix at a time at 1024 × 768: the one the first step reads
    qtbot.mouseClick(columns[0].title_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: columns[0].matrix.isVisible() and not columns[1].matrix.isVisible())
    qtbot.keyClick(window, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)  # another lesson, then back
    qtbot.keyClick(window, Qt.Key.Key_9, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.heads_view.columns[1].matrix.isVisible())
