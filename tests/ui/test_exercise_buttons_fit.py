"""An exercise's Check / Hint / Show me buttons say their whole words in the lesson's column on a 1024 × 768
screen, in every language: "Comprobar", not "omprob"; "Muéstramelo", not "uéstrame"; "演示给我看", not "示给我看".
A row too narrow for the three goes on to a second line instead of cutting their texts."""

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QPushButton, QStyle, QStyleOptionButton

from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged

pytestmark = pytest.mark.slow

LANGUAGES = ("en", "es", "zh_CN", "ar")


def text_room(button: QPushButton) -> int:
    """The width the style draws the button's text in (its contents, inside frame and margins)."""
    option = QStyleOptionButton()
    button.initStyleOption(option)
    return button.style().subElementRect(QStyle.SubElement.SE_PushButtonContents, option, button).width()


def cut_buttons(window) -> list[str]:
    cut = []
    viewport = window.lesson_panel.text_scroll.viewport()
    for widget in window.lesson_panel.exercise_widgets:
        for button in (widget.check_button, widget.hint_button, widget.show_me_button):
            box = QRect(button.mapTo(viewport, QPoint(0, 0)), button.size())
            text_fits = button.fontMetrics().horizontalAdvance(button.text()) <= text_room(button)
            inside_the_column = box.left() >= 0 and box.right() < viewport.width()
            if not (text_fits and inside_the_column):
                cut.append(f"{button.text()!r}: {button.width()} px wide at x {box.left()}")
    return cut


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_exercise_buttons_say_their_whole_words_in_the_lesson_column(qtbot, window, monkeypatch, code):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)  # presenting, the lesson's column is hidden
    window.switch_language(code)
    window.open_lesson("projections")  # two exercises, each with Show me
    wait_until_arranged(qtbot, window)
    assert window.lesson_panel.exercise_widgets
    column = window.lesson_panel.text_scroll.viewport().width()
    assert column < 260  # the narrow column the 1024 screen gives

    assert cut_buttons(window) == []

    # Still whole once a verdict has been shown under them (a real click on Check).
    exercise = window.lesson_panel.exercise_widgets[0]
    window.lesson_panel.text_scroll.ensureWidgetVisible(exercise.check_button)
    qtbot.mouseClick(exercise.check_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: exercise.result_label.text() != "")
    assert cut_buttons(window) == []
