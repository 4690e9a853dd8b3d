"""Focus is never lost (issue 43, item 1): after a button the keys pressed disappears — Reveal in Predict, then
see, Start afresh in the lesson panel, Restore all under the real model's heads — the keys land on what the
student works with next, not on whatever control Qt finds next in the window."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from attn_desktop.model import Role

from tests.ui.test_query_by_keys_in_the_panels import tab_to


def press_space_on(qtbot, window, button) -> None:
    """The button reached with Tab and pressed with the space bar, as a keyboard user presses it."""
    tab_to(qtbot, window, button)
    qtbot.keyClick(button, Qt.Key.Key_Space)


def nudge_an_arrow(qtbot, window, arrow: tuple[Role, int]) -> None:
    """Tab into the canvas and on to ARROW, and move it a step with the keys."""
    tab_to(qtbot, window, window.canvas)
    for _ in range(3 * window.reading().n_tokens):
        if window.canvas.drags.focused_arrow == arrow:
            break
        qtbot.keyClick(window.canvas, Qt.Key.Key_Tab)
    assert window.canvas.drags.focused_arrow == arrow
    qtbot.keyClick(window.canvas, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)


def test_after_reveal_the_keys_are_on_the_chart_of_the_real_weights(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)  # Predict, then see
    nudge_an_arrow(qtbot, window, (Role.KEY, 1))  # k·cat
    qtbot.waitUntil(lambda: window.predictions.phase.value == "guessing")
    button = window.weights_panel.predict_bar.reveal_button
    press_space_on(qtbot, window, button)
    assert window.predictions.phase.value == "revealed" and not button.isVisible()
    assert QApplication.focusWidget() is window.weights_chart


def test_after_start_afresh_the_keys_are_on_the_canvas(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)  # lesson 3
    nudge_an_arrow(qtbot, window, (Role.KEY, 0))
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)  # away to lesson 1...
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)  # ...and back: as it was left
    button = window.lesson_panel.fresh_button
    qtbot.waitUntil(button.isVisible)
    press_space_on(qtbot, window, button)
    assert not button.isVisible()
    assert QApplication.focusWidget() is window.canvas
