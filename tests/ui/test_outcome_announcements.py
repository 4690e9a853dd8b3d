"""Verdicts and outcomes a sighted student sees are said to a screen reader too, once each, through the window's
announcer (whose log the Description panel shows): an exercise's verdict, a challenge completed, Predict's revealed
round, a real model loaded and a knock-out's effect; in English and in the interface's other languages. The texts
are the model's own (the exercise's check, the challenge's note, the round's comparison)."""

import pytest
from PySide6.QtCore import QPointF, Qt

from attn_desktop.language import tr
from attn_desktop.model import Role
from attn_desktop.model.teaching.challenges import CHALLENGES
from attn_desktop.model.teaching.prediction import compare

from tests.support.in_the_window import drag_arrow, settle_layout

K_CAT, MAT, CAT = (Role.KEY, 1), 5, 1  # the default scene's keys


def said_since(window, before):
    return window.announcer.log[before:]


def check_by_keys(qtbot, window, answer):
    """Lesson 1's first question answered in its box and checked with Enter, as a student without a mouse does."""
    widget = window.lesson_panel.exercise_widgets[0]
    box = widget.answer_edit
    box.setFocus()
    qtbot.keyClicks(box, answer)
    qtbot.keyClick(box, Qt.Key.Key_Return)
    return widget


@pytest.mark.parametrize("code", ["en", "es"])
def test_an_exercises_verdict_is_said_once_in_the_interfaces_language(qtbot, window, code):
    window.open_lesson("soft-lookup")
    window.switch_language(code)
    for answer in ("0", "4.51" if code == "en" else "4,51"):  # wrong, then right
        before = len(window.announcer.log)
        widget = check_by_keys(qtbot, window, answer)
        result = widget.exercise.check(answer)
        assert said_since(window, before) == [tr("Question {number}: {verdict}").format(number=1, verdict=result.message)]
        widget.answer_edit.clear()
    assert result.correct and said_since(window, before)[0].startswith("Question 1: Right." if code == "en"
                                                                       else "Pregunta 1:")


@pytest.mark.parametrize("code", ["en", "es"])
def test_a_completed_challenge_is_said_once_with_its_title(qtbot, window, code):
    window.switch_language(code)
    reading = window.shown
    before = len(window.announcer.log)
    twin = reading.vectors(Role.KEY)[CAT].copy()
    window.scene.set_vector(Role.KEY, MAT, twin)  # k·mat onto k·cat: the twin-keys challenge
    window.scene.set_vector(Role.KEY, MAT, twin)  # the same again: still met, not said again
    twins = next(challenge for challenge in CHALLENGES if challenge.id == "twin-keys")
    said = said_since(window, before)
    opening = tr("Challenge complete: {title}. {note}").split("{")[0]  # "Reto completado: " in Spanish
    assert len(said) == 1 and said[0].startswith(f"{opening}{tr(twins.title)}."), said
    status = next(status for status in window.challenges_panel.tracker.statuses if status.id == "twin-keys")
    assert said[0].endswith(status.note)


@pytest.mark.parametrize("code", ["en", "ar"])
def test_predicts_revealed_round_is_said_once_with_its_score(qtbot, window, code):
    window.switch_language(code)
    settle_layout(qtbot, window)  # the canvas where the drag looks for k·cat
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    drag_arrow(window, *K_CAT, QPointF(-60, -40))
    qtbot.waitUntil(lambda: window.predictions.phase.value == "guessing")
    chart = window.weights_chart
    chart.setFocus()
    qtbot.keyClick(chart, Qt.Key.Key_Up)  # the chosen bar up a step: a guess of the student's own
    before = len(window.announcer.log)
    qtbot.keyClick(chart, Qt.Key.Key_Return)  # reveal
    qtbot.waitUntil(lambda: window.predictions.phase.value == "revealed")
    result = compare(window.predictions.guess, window.reading().selected_weights)
    said = said_since(window, before)
    assert len(said) == 1, said
    points, score = round(result.points_off), round(result.score)
    if code == "en":
        assert said[0].startswith(f"Revealed: off by {points} points, score {score}.")
    else:  # Arabic's words around the same numbers
        assert "Revealed" not in said[0] and str(points) in said[0] and str(score) in said[0]


def _expected_query_announcement(reading) -> str:
    weights = reading.result.weights[reading.selected]
    top = int(weights.argmax())
    output = ", ".join(f"{value:.2f}" for value in reading.result.output[reading.selected])
    return (f"{reading.arrow_name(Role.QUERY, reading.selected)}: the most weight on "
            f"{reading.arrow_name(Role.KEY, top)}, {round(100 * weights[top])}%. Output ({output}).")


def test_a_query_chosen_by_a_key_is_said_once_with_its_heaviest_key_and_output(qtbot, window):
    reading = window.shown
    chosen = reading.selected
    window.matrix_view.setFocus()
    before = len(window.announcer.log)
    qtbot.keyClick(window.matrix_view, Qt.Key.Key_Up)  # the matrix: the row above
    assert reading.selected == chosen - 1
    assert said_since(window, before) == [_expected_query_announcement(reading)]
    table = window.score_panel.table
    table.setFocus()
    before = len(window.announcer.log)
    qtbot.keyClick(table, Qt.Key.Key_Right)  # the score table: the next query, whose keys its rows then are
    assert reading.selected == chosen and said_since(window, before) == [_expected_query_announcement(reading)]
    before = len(window.announcer.log)
    window.menu_actions["next_query_action"].trigger()  # Ctrl+]
    assert said_since(window, before) == [_expected_query_announcement(reading)]


def test_while_the_class_predicts_a_chosen_query_is_named_and_nothing_more(qtbot, window):
    window.veil.set_on(True)
    window.matrix_view.setFocus()
    before = len(window.announcer.log)
    qtbot.keyClick(window.matrix_view, Qt.Key.Key_Up)
    assert said_since(window, before) == [f"{window.shown.arrow_name(Role.QUERY, window.shown.selected)} chosen."]
