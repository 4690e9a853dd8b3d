"""At 1024 × 768 the lesson column is short: pressing Check scrolls the lesson just enough for its verdict to be seen,
and leaves the lesson where it is when the verdict is in view already."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt

from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged


def rect_in_viewport(scroll, widget) -> QRect:
    return QRect(widget.mapTo(scroll.viewport(), QPoint(0, 0)), widget.size())


def verdict_in_view(scroll, widget) -> bool:
    return scroll.viewport().rect().contains(rect_in_viewport(scroll, widget.result_label))


def settle(qtbot) -> None:
    """The verdict's text has grown the exercise and the lesson's text: let every layout finish."""
    qtbot.wait(100)


def first_exercise_at_the_foot_of_the_lesson(qtbot, window, monkeypatch):
    """Lesson 3 at 1024 × 768, scrolled so that its first exercise's Check button is the last thing in view."""
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    assert window.open_lesson("self-attention")
    wait_until_arranged(qtbot, window)
    scroll = window.lesson_panel.text_scroll
    widget = window.lesson_panel.exercise_widgets[0]
    button_bottom = widget.check_button.mapTo(scroll.widget(), QPoint(0, widget.check_button.height())).y()
    scroll.verticalScrollBar().setValue(button_bottom - scroll.viewport().height())
    assert scroll.viewport().rect().contains(rect_in_viewport(scroll, widget.check_button))
    qtbot.keyClicks(widget.answer_edit, "0.5, 0.2, 0.3")
    return scroll, widget


def test_clicking_check_brings_the_verdict_into_view(qtbot, window, monkeypatch):
    scroll, widget = first_exercise_at_the_foot_of_the_lesson(qtbot, window, monkeypatch)
    panels = {dock_id: dock.geometry() for dock_id, dock in window.docks.items() if dock.isVisible()}
    qtbot.mouseClick(widget.check_button, Qt.MouseButton.LeftButton)
    assert widget.result_label.text().startswith("✗")
    settle(qtbot)
    assert verdict_in_view(scroll, widget)
    assert {dock_id: dock.geometry() for dock_id, dock in window.docks.items() if dock.isVisible()} == panels


def test_pressing_check_by_keyboard_brings_the_verdict_into_view(qtbot, window, monkeypatch):
    scroll, widget = first_exercise_at_the_foot_of_the_lesson(qtbot, window, monkeypatch)
    widget.check_button.setFocus()
    qtbot.keyClick(widget.check_button, Qt.Key.Key_Space)
    assert widget.result_label.text().startswith("✗")
    settle(qtbot)
    assert verdict_in_view(scroll, widget)


def test_a_verdict_already_in_view_leaves_the_lesson_where_it_is(qtbot, window, monkeypatch):
    scroll, widget = first_exercise_at_the_foot_of_the_lesson(qtbot, window, monkeypatch)
    qtbot.mouseClick(widget.check_button, Qt.MouseButton.LeftButton)
    settle(qtbot)
    assert verdict_in_view(scroll, widget)
    where = scroll.verticalScrollBar().value()
    panel_geometry = window.lesson_panel.geometry()
    qtbot.mouseClick(widget.check_button, Qt.MouseButton.LeftButton)  # the same verdict again
    settle(qtbot)
    assert scroll.verticalScrollBar().value() == where
    assert window.lesson_panel.geometry() == panel_geometry

