"""Longer or taller texts (Spanish, the pseudo-language, Arabic) wrap, elide or move under each other rather
than widen a column, push the window past a 1024 screen or stand out of the canvas."""

import pyqtgraph as pg
from PySide6.QtCore import QRect
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QLabel, QMainWindow, QPushButton, QVBoxLayout, QWidget

from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.progress import ProgressStore
from attn_desktop.ui.canvas.plot_titles import TITLE_ROW_PX, fit_titles
from attn_desktop.ui.lessons.lesson_panel import LessonPanel
from attn_desktop.ui.widgets.eliding_button import ElidingButton
from attn_desktop.ui.widgets.flow_layout import FlowLayout
from attn_desktop.ui.window.layout.screen_fit import ScreenFit

LONG_TITLE = "⟦⟦Låýér 1 · héåd 1·········⟧ · L1H1····⟧"


def _header(qtbot, width: int) -> tuple[QWidget, QLabel, QPushButton]:
    panel = QWidget()
    qtbot.addWidget(panel)
    label, button = QLabel("Completados: 0 de 4"), QPushButton("Reiniciar los retos")
    label.setWordWrap(True)
    column = QVBoxLayout(panel)
    header = FlowLayout()
    header.add_widgets(label, button)
    column.addLayout(header)
    column.addStretch(1)
    panel.resize(width, 200)
    panel.show()
    qtbot.waitExposed(panel)
    return panel, label, button


def test_a_heading_and_its_button_share_a_line_where_they_fit(qtbot):
    _panel, label, button = _header(qtbot, 600)
    assert button.geometry().top() < label.geometry().bottom()  # beside it
    assert button.geometry().right() > 500  # at the far edge


def test_a_narrow_panel_puts_the_button_under_the_heading_instead_of_growing(qtbot):
    wide_enough_for_one = max(QLabel("Completados:").sizeHint().width(), QPushButton("Reiniciar los retos").sizeHint().width())
    panel, label, button = _header(qtbot, wide_enough_for_one + 30)
    assert panel.minimumSizeHint().width() < label.sizeHint().width() + button.sizeHint().width()
    assert button.geometry().top() >= label.geometry().bottom()
    assert panel.rect().contains(button.geometry()) and panel.rect().contains(label.geometry())


def test_a_head_title_elides_with_the_whole_title_in_its_tip(qtbot):
    button = ElidingButton(LONG_TITLE)
    qtbot.addWidget(button)
    button.set_tip("Show this head")
    button.show()
    assert button.minimumSizeHint().width() < button.sizeHint().width()
    button.resize(button.minimumSizeHint().width(), button.sizeHint().height())
    assert button.text() == LONG_TITLE  # what the program reads stays whole
    assert button.toolTip().startswith(LONG_TITLE) and "Show this head" in button.toolTip()
    button.resize(button.sizeHint())
    assert button.toolTip() == "Show this head"


def test_the_lesson_picker_does_not_widen_its_column_for_a_long_title(qtbot):
    panel = LessonPanel(ProgressStore())
    qtbot.addWidget(panel)
    least = panel.minimumSizeHint().width()
    panel.picker.setItemText(1, "2. " + "Tres vectores a partir de una palabra " * 3)  # a long translation
    assert panel.minimumSizeHint().width() == least
    panel.show_lesson(lessons.LESSONS[1].id)
    assert panel.picker.toolTip() == panel.picker.currentText()  # the whole title, however narrow
    panel.show()
    panel.resize(least, 500)
    qtbot.waitUntil(lambda: panel.picker.width() <= least)
    shown = panel.picker.shown_text()  # as the closed box draws it: ended with "…", not cut mid-letter
    assert shown.endswith("…") and panel.picker.currentText().startswith(shown[:-1])
    panel.picker.setItemText(1, "2. Tres vectores")
    assert panel.picker.shown_text() == "2. Tres vectores"  # a title that fits is drawn whole


def test_a_title_in_large_type_keeps_inside_its_plot(qtbot):
    view = pg.GraphicsLayoutWidget()
    qtbot.addWidget(view)
    plot = view.addPlot(title="الاستعلامات والمفاتيح")
    fit_titles({plot: ("الاستعلامات والمفاتيح", "q وk")}, scale=1.7)
    line = plot.titleLabel.item.boundingRect().height()
    assert plot.titleLabel.maximumHeight() >= line and plot.titleLabel.maximumHeight() >= TITLE_ROW_PX
    fit_titles({plot: ("Queries", "q")}, scale=1.0)
    assert plot.titleLabel.maximumHeight() == TITLE_ROW_PX  # back to everyday type: pyqtgraph's row


def test_a_window_that_is_not_maximised_keeps_the_size_the_user_gave_it(qtbot, monkeypatch):
    monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, 640, 480))
    window = QMainWindow()
    qtbot.addWidget(window)
    window.setCentralWidget(QWidget())
    ScreenFit(window)
    window.resize(300, 200)  # not maximised: the user's size
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(20)
    assert window.size().width() == 300
