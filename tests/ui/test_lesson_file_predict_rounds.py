"""A lesson file's Predict, then see rounds, played by keys: the class guesses the first round's query's weights,
reveals them with Enter, goes on to the next round with Enter, and another lesson puts the option back."""

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from attn_desktop.model import commands
from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
from attn_desktop.model.teaching.lesson_file import PredictRound
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file
from attn_desktop.ui.predict.prediction_controller import Phase

from tests.support.in_the_window import choose_from_menu_bar

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support grabbing the keyboard")  # the menus, offscreen


def open_lesson_with_rounds(qtbot, window, monkeypatch, tmp_path, rounds) -> None:
    path = tmp_path / "rounds.attn-lesson"
    lesson = builtin_lesson_file("self-attention")  # cat sat it
    write_lesson_file(replace(lesson, title="Guess first", predict_rounds=tuple(map(PredictRound, rounds))), path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(path), ""))
    choose_from_menu_bar(qtbot, window, ["File", "Open Lesson…"])
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    assert window.shown_errors == []


def test_predict_rounds_by_keys_guess_reveal_next(qtbot, window, monkeypatch, tmp_path):
    assert not window.predict_action.isChecked()
    open_lesson_with_rounds(qtbot, window, monkeypatch, tmp_path, ["it", "cat"])
    predictions, chart, bar = window.predictions, window.weights_chart, window.weights_panel.predict_bar
    assert window.predict_action.isChecked() and predictions.phase is Phase.GUESSING
    assert window.view_state.query == 2  # it: the first round's query, its weights hidden from the start
    assert window.veil.on
    qtbot.waitUntil(chart.isVisible)
    assert bar.reveal_button.isVisible() and not bar.next_round_button.isVisible()

    chart.setFocus()
    qtbot.keyClick(chart, Qt.Key.Key_Right)  # the bar of sat
    for _ in range(3):
        qtbot.keyClick(chart, Qt.Key.Key_Up)  # the class thinks it looks at sat more
    qtbot.keyClick(chart, Qt.Key.Key_Return)
    assert predictions.phase is Phase.REVEALED and not window.veil.on
    assert "score" in bar.message_label.text()
    qtbot.waitUntil(bar.next_round_button.isVisible)
    assert bar.next_round_button.text() == "Next Round (2 of 2)"
    assert QApplication.focusWidget() is bar.next_round_button  # Enter again goes on

    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    assert window.view_state.query == 0  # cat
    assert predictions.phase is Phase.GUESSING and window.veil.on and not bar.next_round_button.isVisible()
    chart.setFocus()
    qtbot.keyClick(chart, Qt.Key.Key_Down)
    qtbot.keyClick(chart, Qt.Key.Key_Return)
    assert predictions.phase is Phase.REVEALED and predictions.session.rounds == 2
    qtbot.wait(10)
    assert not bar.next_round_button.isVisible()  # the last round: nothing after it

    window.open_lesson("soft-lookup")  # another lesson: the option as it was before the lesson file
    assert not window.predict_action.isChecked() and predictions.phase is Phase.OFF


def test_a_round_about_a_word_the_sentence_lost_is_passed_over(qtbot, window, monkeypatch, tmp_path):
    open_lesson_with_rounds(qtbot, window, monkeypatch, tmp_path, ["sat", "it"])
    assert window.view_state.query == 1
    window.history.do(commands.rename_token(window.scene, 2, "he"))  # renamed as the Sentence panel does: no "it"
    qtbot.keyClick(window.weights_chart, Qt.Key.Key_Return)
    assert window.predictions.phase is Phase.REVEALED
    assert not window.weights_panel.predict_bar.next_round_button.isVisible()
