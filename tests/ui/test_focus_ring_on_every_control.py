"""A ring round whichever control has the keys (issue 43, item 1): Fusion marked a button Tab reached not at all
in a window where Tab had not been pressed yet, and a field with a 1-pixel pale line. The ring is at least 2 px
wide with a contrast of at least 3:1 against the control under it, follows the keys, and is not shown after a
click (a mouse user sees where they clicked)."""

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from tests.ui.test_focus_ring import MIN_CONTRAST, MIN_WIDTH_PX, contrast_ratio
from tests.ui.test_lessons_by_keyboard import open_lesson_by_its_key, tab_until


def ring_across(widget) -> tuple[float, float]:
    """Along a line into the widget from the middle of its left edge: how many pixels contrast 3:1 with the
    widget's own face a little further in, and the best contrast found."""
    image = widget.grab().toImage()
    ratio = image.devicePixelRatio()
    y = round(widget.height() / 2 * ratio)
    face = QColor(image.pixel(round(8 * ratio), y))
    contrasts = [contrast_ratio(QColor(image.pixel(x, y)), face) for x in range(round(6 * ratio))]
    return sum(1 for value in contrasts if value >= MIN_CONTRAST) / ratio, max(contrasts)


def test_a_control_tab_reaches_wears_a_ring_wide_and_dark_enough(qtbot, window):
    open_lesson_by_its_key(qtbot, window, "projections")
    exercise = window.lesson_panel.exercise_widgets[0]
    for control in (exercise.answer_edit, exercise.check_button):
        tab_until(qtbot, window, lambda widget, control=control: widget is control, "the exercise")
        window.lesson_panel.text_scroll.ensureWidgetVisible(control)
        qtbot.wait(20)
        wide, contrast = ring_across(control)
        assert wide >= MIN_WIDTH_PX and contrast >= MIN_CONTRAST, (type(control).__name__, wide, contrast)


def test_the_ring_follows_the_keys_and_is_not_shown_after_a_click(qtbot, window):
    open_lesson_by_its_key(qtbot, window, "projections")
    exercise = window.lesson_panel.exercise_widgets[0]
    tab_until(qtbot, window, lambda widget: widget is exercise.check_button, "Check")
    ring = window.focus_rings.ring
    assert ring.isVisible() and ring.parentWidget() is exercise.check_button
    qtbot.keyClick(exercise.check_button, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is exercise.hint_button and ring.parentWidget() is exercise.hint_button
    window.lesson_panel.text_scroll.ensureWidgetVisible(exercise.answer_edit)
    qtbot.mouseClick(exercise.answer_edit, Qt.MouseButton.LeftButton, pos=QPoint(10, 10))
    assert QApplication.focusWidget() is exercise.answer_edit
    assert not ring.isVisible()
    wide, _ = ring_across(exercise.answer_edit)
    assert wide < MIN_WIDTH_PX  # Fusion's own thin line only
