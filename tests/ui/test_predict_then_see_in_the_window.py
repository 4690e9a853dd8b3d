"""Predict, then see in the window, driven by real mouse and key events as a student would.

Mid-move nothing may tell the new weights (table, matrix, output, chart, canvas labels); after the
release the student guesses on the weights chart, reveals, and reads the real weights beside the
guess, the difference, the score; the record is in the progress file for the next run.
"""

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from attn_desktop.model import Role, explain
from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.prediction import compare, winner_guess
from attn_desktop.model.teaching.progress import ProgressStore
from attn_desktop.ui.tools.synthetic_mouse import move_holding, press, release
from attn_desktop.ui.window.actions.menu_id import MenuId

from tests.support.in_the_window import (
    drag_arrow,
    matrix_cells,
    on_a_1024_by_768_screen,
    table_column,
    tip_on_screen,
    wait_until_arranged,
)

K_CAT = (Role.KEY, 1)  # the default scene's k·cat; sat (index 2) is the query


def turn_predict_on(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert window.predict_action.isChecked() and window.weights_panel.predict_bar.isVisible()


def percents(weights):
    return [explain.percent(w) for w in weights]


def nothing_tells_the_weights(window):
    """What a student could read off the window while the weights are veiled."""
    canvas = window.canvas
    key_labels = [arrow.label for arrow in canvas.arrows[Role.KEY]]
    return (table_column(window, 1) == table_column(window, 2) == table_column(window, 3) == ["?"] * 6
            and all(cell == "?" for row in matrix_cells(window) for cell in row)
            and window.output_panel.vector_label.text() == "?" and window.output_panel.attends_label.text() == "?"
            and all(label.endswith(" ?") for label in key_labels)
            and len({arrow.emphasis for arrow in canvas.arrows[Role.KEY]}) == 1  # no arrow bolder than another
            and not canvas.output_arrow.isVisible()
            and not window.weights_chart.bars.isVisible()
            and set(window.weights_chart.shown_value_texts()) <= {"?", ""})


def point_on_chart(chart, x, y):
    box = chart.getPlotItem().getViewBox()
    return QPointF(chart.mapFromScene(box.mapViewToScene(QPointF(x, y))))


def drag_guess_bar(chart, index, share):
    """Press in a bar's column and drag its top to SHARE, with the button held."""
    viewport = chart.viewport()
    start = point_on_chart(chart, index, 0.05)
    press(viewport, start)
    for step in (0.3, 0.7, 1.0):
        move_holding(viewport, start + (point_on_chart(chart, index, share) - start) * step)
        QApplication.processEvents()
    release(viewport, point_on_chart(chart, index, share))
    QApplication.processEvents()


def test_the_option_is_off_by_default_and_in_the_lessons_menu(window):
    lessons_menu = window.menus[MenuId.LESSONS]
    assert window.predict_action in lessons_menu.actions() and not window.predict_action.isChecked()
    assert not window.weights_panel.predict_bar.isVisible()
    drag_arrow(window, *K_CAT, QPointF(-60, -40))
    assert table_column(window, 3) == percents(window.reading().selected_weights)  # shown live, as always


def test_mid_drag_nothing_tells_the_new_weights(qtbot, window):
    turn_predict_on(qtbot, window)
    before = window.reading().selected_weights.copy()
    veiled_each_move = []
    drag_arrow(window, *K_CAT, QPointF(-60, -40),
               after_each_move=lambda step: veiled_each_move.append(nothing_tells_the_weights(window)))
    assert veiled_each_move == [True] * 8
    assert not np.allclose(window.reading().selected_weights, before)  # the weights did change underneath
    # The arrow itself moved live: the student sees what they changed.
    assert window.canvas.arrows[Role.KEY][1].tip.toTuple() == pytest.approx(tuple(window.reading().vectors(Role.KEY)[1]))
    qtbot.waitUntil(lambda: window.predictions.phase.value == "guessing")
    assert nothing_tells_the_weights(window)  # still veiled while the student guesses
    # The guess starts where the weights were before the move.
    assert window.weights_chart.guess_bars.isVisible()
    assert window.weights_chart.shown_guess_texts() == percents(before)


def test_guess_with_the_mouse_then_reveal_shows_the_difference_and_the_score(qtbot, window):
    turn_predict_on(qtbot, window)
    drag_arrow(window, *K_CAT, QPointF(-60, -40))
    qtbot.waitUntil(lambda: window.predictions.phase.value == "guessing")
    chart, bar = window.weights_chart, window.weights_panel.predict_bar
    drag_guess_bar(chart, 1, 0.6)  # cat to 60%: the others share the rest as they did
    guess = window.predictions.guess
    assert guess[1] == pytest.approx(0.6, abs=0.02) and guess.sum() == pytest.approx(1.0)
    assert chart.shown_guess_texts()[1] == explain.percent(guess[1])
    assert table_column(window, 3) == ["?"] * 6  # guessing is not seeing
    qtbot.mouseClick(bar.reveal_button, Qt.MouseButton.LeftButton)
    real = window.reading().selected_weights
    expected = compare(guess, real)
    # The real weights everywhere again, the guess beside them on the chart with each difference.
    assert table_column(window, 3) == percents(real)
    assert chart.bars.isVisible() and chart.guess_bars.isVisible()
    shown_values = [text for text in chart.shown_value_texts() if text]
    assert shown_values and set(shown_values) <= set(percents(real))
    differences = [f"{round(100 * d):+d}" for d in expected.differences]
    shown_differences = [text for text in chart.shown_guess_texts() if text]
    assert shown_differences and set(shown_differences) <= set(differences)
    message = bar.message_label.text()
    assert f"Off by <b>{round(expected.points_off)}</b> points" in message
    assert f"score <b>{round(expected.score)}</b>" in message
    assert "1 round, average" in message and f"winners {int(expected.winner_right)} of 1" in message
    assert all(f"{token} {d}" in bar.message_label.toolTip() for token, d in zip(window.scene.tokens, differences))
    # Remembered: a new store (the next run) reads the round.
    record = ProgressStore().prediction_record()
    assert record.rounds == 1 and record.best_score == pytest.approx(expected.score)


def test_a_round_with_the_keyboard_only(qtbot, window):
    turn_predict_on(qtbot, window)
    canvas = window.canvas
    canvas.setFocus()
    canvas.drags.focus_arrow(K_CAT)  # as Tab would choose it
    before = window.reading().selected_weights.copy()
    qtbot.keyClick(canvas, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)  # nudge k·cat up by 0.5
    assert nothing_tells_the_weights(window)
    qtbot.waitUntil(lambda: window.predictions.phase.value == "guessing")
    chart = window.weights_chart
    assert chart.hasFocus()  # the guess takes the keys at once
    qtbot.keyClick(chart, Qt.Key.Key_Right)  # bar 0 → bar 1 (cat)
    qtbot.keyClick(chart, Qt.Key.Key_Up)
    qtbot.keyClick(chart, Qt.Key.Key_Up)
    assert window.predictions.guess[1] == pytest.approx(before[1] + 0.10)
    qtbot.keyClick(chart, Qt.Key.Key_Return)
    assert window.predictions.phase.value == "revealed"
    assert table_column(window, 3) == percents(window.reading().selected_weights)
    assert window.predictions.session.rounds == 1


def test_naming_the_winner_is_a_guess(qtbot, window):
    turn_predict_on(qtbot, window)
    drag_arrow(window, *K_CAT, QPointF(-60, -40))
    qtbot.waitUntil(lambda: window.predictions.phase.value == "guessing")
    box = window.weights_panel.predict_bar.winner_box
    box.setFocus()
    qtbot.keyClicks(box, "c")  # typing a key's first letter picks it: cat
    assert box.currentText() == "cat"
    assert window.predictions.guess.tolist() == winner_guess(1, 6).tolist()
    qtbot.mouseClick(window.weights_panel.predict_bar.reveal_button, Qt.MouseButton.LeftButton)
    real = window.reading().selected_weights
    right = int(np.argmax(real)) == 1
    message = window.weights_panel.predict_bar.message_label.text()
    assert ("cat wins ✓" in message) if right else ("not cat ✗" in message)
    assert window.predictions.session.winners_right == int(right)


def test_moving_a_value_or_cancelling_leaves_nothing_to_guess(qtbot, window):
    turn_predict_on(qtbot, window)
    drag_arrow(window, Role.VALUE, 1, QPointF(40, 30))  # a value moves the output, not the weights
    qtbot.waitUntil(lambda: window.predictions.phase.value == "ready")
    assert "Nothing to guess" in window.weights_panel.predict_bar.message_label.text()
    assert table_column(window, 3) == percents(window.reading().selected_weights)
    # Esc mid-drag: the arrow goes back, the veil lifts, no round is counted.
    viewport = window.canvas.viewport()
    start = tip_on_screen(window, *K_CAT)
    press(viewport, start)
    move_holding(viewport, start + QPointF(-50, -30))
    QApplication.processEvents()
    assert nothing_tells_the_weights(window)
    qtbot.keyClick(window.canvas, Qt.Key.Key_Escape)
    release(viewport, start + QPointF(-50, -30))
    qtbot.waitUntil(lambda: window.predictions.phase.value == "ready")
    assert not window.veil.on and window.predictions.session.rounds == 0


def test_turning_it_off_mid_round_shows_everything(qtbot, window):
    turn_predict_on(qtbot, window)
    drag_arrow(window, *K_CAT, QPointF(-60, -40))
    qtbot.waitUntil(lambda: window.predictions.phase.value == "guessing")
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert not window.weights_panel.predict_bar.isVisible()
    assert table_column(window, 3) == percents(window.reading().selected_weights)
    assert window.canvas.output_arrow.isVisible()
    assert window.weights_chart.shown_heights().tolist() == window.reading().selected_weights.tolist()


# ----- the lesson ---------------------------------------------------------
LESSON_NUMBER = 1 + [lesson.id for lesson in lessons.LESSONS].index("predict-then-see")


def open_predict_lesson(qtbot, window):
    qtbot.keyClick(window, Qt.Key(Qt.Key.Key_0 + LESSON_NUMBER), Qt.KeyboardModifier.ControlModifier)
    qtbot.wait(20)


def test_the_lesson_opens_veiled_and_gives_back_the_choice_when_left(qtbot, window):
    open_predict_lesson(qtbot, window)
    assert window.lesson_panel.picker.currentText() == "8. Predict, then see"
    assert window.predict_action.isChecked() and window.predictions.phase.value == "guessing"
    assert table_column(window, 3) == ["?"] * 4 and matrix_cells(window)[3] == ["?"] * 4
    assert window.weights_chart.shown_guess_texts() == ["25%"] * 4  # an even guess: nothing seen yet
    qtbot.keyClick(window.weights_chart, Qt.Key.Key_Return)  # reveal the even guess
    assert table_column(window, 3) == percents(window.reading().selected_weights)
    window.open_lesson("self-attention")
    assert not window.predict_action.isChecked() and not window.veil.on  # the choice before the lesson: off
    turn_predict_on(qtbot, window)
    open_predict_lesson(qtbot, window)
    window.open_lesson("self-attention")
    assert window.predict_action.isChecked()  # on before the lesson: still on after it


def test_the_lessons_exercises_are_answered_with_real_input_and_counted(qtbot, window):
    open_predict_lesson(qtbot, window)
    widgets = {w.exercise.id: w for w in window.lesson_panel.exercise_widgets}
    assert set(widgets) == {"predict-winner", "predict-key-at-origin", "predict-score"}
    winner = widgets["predict-winner"]
    real_winner = int(np.argmax(window.reading().selected_weights))
    winner.choice_buttons[real_winner].click()
    qtbot.mouseClick(winner.check_button, Qt.MouseButton.LeftButton)
    assert winner.result_label.text().startswith("✓")
    score = widgets["predict-score"]
    qtbot.keyClicks(score.answer_edit, "30, 70")
    qtbot.keyClick(score.answer_edit, Qt.Key.Key_Return)
    assert score.result_label.text().startswith("✓")
    assert "2 of 3 answered" in window.lesson_panel.progress_label.text()
    assert ProgressStore().done_ids("exercises") >= {"predict-winner", "predict-score"}


def test_the_code_panel_scores_the_last_guess_as_the_app_does(qtbot, window):
    open_predict_lesson(qtbot, window)
    drag_guess_bar(window.weights_chart, 1, 0.7)
    qtbot.mouseClick(window.weights_panel.predict_bar.reveal_button, Qt.MouseButton.LeftButton)
    expected = window.predictions.last
    code = window.code_panel.code()
    assert "Predict, then see: how far a guess is" in code
    import contextlib
    import io
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code, {})  # noqa: S102 - the app's own generated script, as a student would run it
    assert f"off by {expected.points_off:.0f} points, score {expected.score:.0f}" in printed.getvalue()


@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
def test_the_lesson_fits_a_1024_by_768_projector_in_every_step(qtbot, window, monkeypatch, presenting):
    from attn_desktop.ui.tools.layout_audit import panels_cut, score_rows_visible

    on_a_1024_by_768_screen(window, monkeypatch, presenting)
    open_predict_lesson(qtbot, window)
    wait_until_arranged(qtbot, window)
    chart, bar = window.weights_chart, window.weights_panel.predict_bar
    for step in ("guessing", "revealed"):
        if step == "revealed":
            qtbot.mouseClick(bar.reveal_button, Qt.MouseButton.LeftButton)
            qtbot.wait(50)
        assert window.height() <= 768 and panels_cut(window) == [], step
        assert score_rows_visible(window) == 4 and window.matrix_view.cell_font() is not None
        plot_height = chart.getPlotItem().getViewBox().height()
        assert plot_height >= 50, (step, plot_height)  # bars tall enough to drag and to compare
        if step == "guessing":  # the controls are whole, inside the panel
            for control in (bar.winner_box, bar.reveal_button):
                assert control.isVisible() and bar.rect().contains(control.geometry())
        assert chart.cut_parts() == []
    window.presentation_action.setChecked(False)
