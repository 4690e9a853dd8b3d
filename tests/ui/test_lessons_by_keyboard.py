"""Every lesson can be done without a mouse (issue 43, item 1): the four challenges of the demo's lesson and one
exercise of each of the ten lessons, by keys alone — lessons opened by their shortcuts, controls reached with
Tab, arrows moved with the arrow keys or given exact numbers with Enter, answers typed or chosen with the arrow
keys and checked with Enter or the space bar. No mouse event, and no widget's method called to do the task."""

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit

from attn_desktop.language import number
from attn_desktop.model import Role
from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.exercise import AnswerKind

TABS = 300  # more than a window's controls: Tab goes round it once at most


def open_lesson_by_its_key(qtbot, window, lesson_id: str) -> None:
    """Ctrl+1 … Ctrl+9, and Alt+0 for the tenth, as the Lessons menu says."""
    place = 1 + [lesson.id for lesson in lessons.LESSONS].index(lesson_id)
    key, modifier = ((Qt.Key(Qt.Key.Key_0 + place), Qt.KeyboardModifier.ControlModifier) if place <= 9
                     else (Qt.Key(Qt.Key.Key_0 + place % 10), Qt.KeyboardModifier.AltModifier))
    qtbot.keyClick(window, key, modifier)
    panel = window.lesson_panel
    qtbot.waitUntil(lambda: panel.lesson is not None and panel.lesson.id == lesson_id)
    qtbot.waitUntil(lambda: all(widget.isVisible() for widget in panel.exercise_widgets))


def press(qtbot, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(QApplication.focusWidget(), key, modifier)


def tab_until(qtbot, window, found, what: str):
    """Tab (from the lesson's picker) until FOUND(focused widget) says yes; the widget."""
    window.lesson_panel.picker.setFocus()  # (where a student who opened the lesson from its picker is)
    for _ in range(TABS):
        widget = QApplication.focusWidget()
        if found(widget):
            return widget
        press(qtbot, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {what}; last {type(QApplication.focusWidget()).__name__}")


def typed(values) -> str:
    """Numbers as the student types them: the language's own decimal mark."""
    return ", ".join(number(value, 4).strip("\u200e") for value in values)


def answer_by_keys(qtbot, window, exercise_widget) -> None:
    """Reach the exercise's answer with Tab, give the right one with the keys, and check it."""
    exercise = exercise_widget.exercise
    if exercise.kind is AnswerKind.CHOICE:
        tab_until(qtbot, window, lambda w: w in exercise_widget.choice_buttons, f"the choices of {exercise.id}")
        press(qtbot, Qt.Key.Key_Space)  # the choice Tab reached is taken...
        for _ in range(len(exercise.choices)):  # ...and the arrow keys walk the others, taking each in turn
            if exercise_widget.choice_buttons[exercise.correct_choice].isChecked():
                break
            press(qtbot, Qt.Key.Key_Down)
        assert exercise_widget.choice_buttons[exercise.correct_choice].isChecked()
        tab_until(qtbot, window, lambda w: w is exercise_widget.check_button, f"Check of {exercise.id}")
        press(qtbot, Qt.Key.Key_Space)
    else:
        tab_until(qtbot, window, lambda w: w is exercise_widget.answer_edit, f"the answer field of {exercise.id}")
        QTest.keyClicks(QApplication.focusWidget(), typed(exercise.answer))
        press(qtbot, Qt.Key.Key_Return)  # Enter checks it


LESSONS_WITH_EXERCISES = [lesson.id for lesson in lessons.LESSONS if lesson.id != "scaled-attention"]


@pytest.mark.parametrize("lesson_id", LESSONS_WITH_EXERCISES)
def test_an_exercise_of_each_lesson_by_keys_alone(qtbot, window, lesson_id):
    open_lesson_by_its_key(qtbot, window, lesson_id)
    first = window.lesson_panel.exercise_widgets[0]
    answer_by_keys(qtbot, window, first)
    assert first.result_label.text().startswith("✓ "), first.result_label.text()
    assert first.mark_label.text() == "✓"
    assert QApplication.focusWidget() is not None and QApplication.focusWidget().isVisible()  # the keys stay somewhere


def test_tab_goes_from_the_lesson_text_to_its_exercises_in_reading_order(qtbot, window):
    open_lesson_by_its_key(qtbot, window, "projections")
    panel = window.lesson_panel
    panel.text_scroll.setFocus()
    reached = []
    for _ in range(2 * 4):
        press(qtbot, Qt.Key.Key_Tab)
        reached.append(QApplication.focusWidget())
    first, second = panel.exercise_widgets[:2]
    assert reached[:4] == [first.answer_edit, first.check_button, first.hint_button, first.show_me_button]
    assert reached[4] in second.choice_buttons  # (a choice question: one stop for its choices, the arrow keys pick)


def type_coordinates(qtbot, window, text: str) -> None:
    """Enter on the chosen arrow, then the numbers typed into the dialog that opens and Enter again; the window
    active again once the dialog has closed (a window manager's job: the offscreen platform leaves none active)."""
    def type_in() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            QTimer.singleShot(20, type_in)
            return
        field = dialog.findChild(QLineEdit)
        field.selectAll()
        QTest.keyClicks(field, text)
        QTest.keyClick(field, Qt.Key.Key_Return)

    QTimer.singleShot(0, type_in)
    press(qtbot, Qt.Key.Key_Return)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.canvas)  # the keys back where they were


def choose_arrow_with_tab(qtbot, window, arrow: tuple[Role, int]) -> None:
    """Tab on (round the window if need be) until the canvas has the keys with ARROW chosen."""
    canvas = window.canvas
    for _ in range(TABS):
        if QApplication.focusWidget() is canvas and canvas.drags.focused_arrow == arrow:
            return
        press(qtbot, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never chose {arrow}")


def tick(window, challenge_id: str) -> str:
    return next(row for row in window.challenges_panel.rows if row.challenge.id == challenge_id).tick_label.text()


def nudge_until(qtbot, window, key, done, presses: int = 60) -> None:
    for _ in range(presses):
        if done():
            return
        press(qtbot, key, Qt.KeyboardModifier.ControlModifier)  # big steps
    assert done()


def test_the_four_challenges_by_keys_alone(qtbot, window):
    assert window.lesson_panel.lesson.id == "scaled-attention"  # the demo's lesson, where the four count
    assert window.challenges_panel.summary_label.text() == "0 of 4 complete"
    # (d) values only: v·cat, which sat weighs most, pushed right and down with the arrow keys.
    choose_arrow_with_tab(qtbot, window, (Role.VALUE, 1))
    nudge_until(qtbot, window, Qt.Key.Key_Right, lambda: window.reading().vectors(Role.VALUE)[1][0] >= 1.8)
    nudge_until(qtbot, window, Qt.Key.Key_Down, lambda: tick(window, "sat-down-right") == "✓")
    # (a) k·cat lengthened along its direction with the arrow keys until sat gives it 95%.
    choose_arrow_with_tab(qtbot, window, (Role.KEY, 1))
    nudge_until(qtbot, window, Qt.Key.Key_Right, lambda: tick(window, "scaled-focus") == "✓")
    # (b) sat's query given the exact numbers (0, 0): every key the same score.
    choose_arrow_with_tab(qtbot, window, (Role.QUERY, 2))
    type_coordinates(qtbot, window, "0, 0")
    qtbot.waitUntil(lambda: tick(window, "even-spread") == "✓")
    # (c) k·the typed onto k·The's point: twins for every query.
    choose_arrow_with_tab(qtbot, window, (Role.KEY, 4))
    twin = window.reading().vectors(Role.KEY)[0]
    type_coordinates(qtbot, window, typed(twin))
    qtbot.waitUntil(lambda: tick(window, "twin-keys") == "✓")
    assert window.challenges_panel.summary_label.text() == "4 of 4 complete"


def test_lesson_1s_first_exercise_worked_out_on_the_canvas_by_keys(qtbot, window):
    """Ask with the query (0, 2): the query given those numbers with Enter, the answer read off the canvas's
    marker, typed into the exercise and checked."""
    open_lesson_by_its_key(qtbot, window, "soft-lookup")
    choose_arrow_with_tab(qtbot, window, (Role.QUERY, 0))
    type_coordinates(qtbot, window, "0, 2")
    assert window.reading().vectors(Role.QUERY)[0].tolist() == [0.0, 2.0]
    shown = window.canvas.output_arrow.label  # "answer 4.51": what the student reads
    exercise = window.lesson_panel.exercise_widgets[0]
    tab_until(qtbot, window, lambda w: w is exercise.answer_edit, "the answer field")
    QTest.keyClicks(QApplication.focusWidget(), shown.split()[-1])
    press(qtbot, Qt.Key.Key_Return)
    assert exercise.result_label.text().startswith("✓ "), (shown, exercise.result_label.text())


def test_a_round_of_predict_then_see_by_keys_alone(qtbot, window):
    """Lesson 8: an arrow moved with the keys veils the weights, the chart takes the guess with ←/→ and ↑/↓,
    Enter reveals; then the winner box, reached with Tab, takes a guess of its own."""
    open_lesson_by_its_key(qtbot, window, "predict-then-see")
    predictions, chart = window.predictions, window.weights_chart
    qtbot.keyClick(chart, Qt.Key.Key_Return)  # the lesson opens on a round: reveal the guess it starts with
    qtbot.waitUntil(lambda: predictions.phase.value == "revealed")
    choose_arrow_with_tab(qtbot, window, (Role.KEY, 1))  # k·dog
    press(qtbot, Qt.Key.Key_Left, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: predictions.phase.value == "guessing")
    assert QApplication.focusWidget() is chart  # the guess takes the keys at once
    before = predictions.guess.copy()
    press(qtbot, Qt.Key.Key_Right)  # the second bar
    press(qtbot, Qt.Key.Key_Up)
    assert predictions.guess[1] > before[1]
    press(qtbot, Qt.Key.Key_Return)
    assert predictions.phase.value == "revealed"
    assert predictions.session.rounds == 2
    assert QApplication.focusWidget() is chart  # Reveal went with the round; the keys stay on the chart

    choose_arrow_with_tab(qtbot, window, (Role.KEY, 1))
    press(qtbot, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: predictions.phase.value == "guessing")
    box = window.weights_panel.predict_bar.winner_box
    tab_until(qtbot, window, lambda widget: widget is box, "the winner box")
    press(qtbot, Qt.Key.Key_Down)  # the first key...
    press(qtbot, Qt.Key.Key_Down)  # ...then the second: a guess that gives it all the weight
    assert predictions.guess.tolist()[1] == 1.0
    assert QApplication.focusWidget() is box  # still choosing: the keys stayed in the box
