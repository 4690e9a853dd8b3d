"""A language switch and back gives every text the window shows as it was: a text whose translation is also
another text's (Arabic and Chinese write "Output" and "output" alike, Chinese "Weights" and "weight", "Train"
and "Training") comes back as the text it was, not as the other one."""

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractButton, QDockWidget, QGroupBox, QLabel, QMenu, QWidget

from attn_desktop.language.catalog import translations_for
from attn_desktop.model.teaching.dock_id import DockId

from tests.support.in_the_window import POPUP_WARNING, choose_from_menu_bar, on_a_1024_by_768_screen, settle_layout

pytestmark = pytest.mark.qt_log_ignore(POPUP_WARNING)  # the menus, offscreen

ENGLISH_PANEL_TITLES = ["Lesson", "Challenges", "Code", "Sentence", "Training", "Model heads", "√d_k lab",
                        "Positions lab", "Grids", "Scores", "Attention matrix", "Output", "Weights", "Shapes",
                        "Description"]
LANGUAGE_NAMES = {"en": "English", "es": "Español", "zh_CN": "简体中文", "ar": "العربية"}


def switch_by_menu(qtbot, window, current: str, code: str) -> None:
    def menu(english: str) -> str:
        return translations_for(current).gettext(english).replace("&", "")

    choose_from_menu_bar(qtbot, window, [menu("&View"), menu("&Language"), LANGUAGE_NAMES[code]])


def shown_texts(window) -> dict[tuple[int, str], str]:
    """Each title, label, button, menu and action text of WINDOW, by its object and kind."""
    texts: dict[tuple[int, str], str] = {(id(window), "title"): window.windowTitle()}
    for widget in window.findChildren(QWidget):
        if isinstance(widget, QDockWidget):
            texts[(id(widget), "title")] = widget.windowTitle()
        if isinstance(widget, (QLabel, QAbstractButton)):
            texts[(id(widget), "text")] = widget.text()
        if isinstance(widget, (QGroupBox, QMenu)):
            texts[(id(widget), "title")] = widget.title()
        texts[(id(widget), "tooltip")] = widget.toolTip()
    for action in window.findChildren(QAction):
        texts[(id(action), "text")] = action.text()
    return texts


@pytest.mark.parametrize("code", ["ar", "zh_CN", "es"])
def test_a_switch_and_back_gives_every_text_back(qtbot, window, monkeypatch, code):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    settle_layout(qtbot, window)
    window.open_lesson("predict-then-see")
    settle_layout(qtbot, window)
    before = shown_texts(window)
    switch_by_menu(qtbot, window, "en", code)
    assert window.docks[DockId.OUTPUT].windowTitle() == translations_for(code).gettext("Output") != "Output"
    switch_by_menu(qtbot, window, code, "en")
    after = shown_texts(window)
    changed = {before[key]: after[key] for key in before if key in after and after[key] != before[key]}
    assert changed == {}
    assert [dock.windowTitle() for dock in window.docks.values()] == ENGLISH_PANEL_TITLES


def test_a_predict_verdict_shown_speaks_the_new_language_and_the_round_stands(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    settle_layout(qtbot, window)
    window.open_lesson("predict-then-see")
    settle_layout(qtbot, window)
    bar = window.weights_panel.predict_bar
    qtbot.waitUntil(lambda: window.predictions.phase.value == "guessing")
    qtbot.mouseClick(bar.reveal_button, Qt.MouseButton.LeftButton)  # the even guess the lesson opens with
    english = bar.message_label.text()
    assert english.startswith("Off by <b>")
    points = re.search(r"Off by <b>(\d+)</b>", english).group(1)
    switch_by_menu(qtbot, window, "en", "es")
    assert window.predictions.phase.value == "revealed"  # the verdict stays up: the weights did not change
    spanish = bar.message_label.text()
    assert spanish.startswith(translations_for("es").gettext("Off by <b>{points}</b> points · score <b>{score}</b> · {wins}")
                              .split("{")[0]) and f"<b>{points}</b>" in spanish
    switch_by_menu(qtbot, window, "es", "en")
    assert bar.message_label.text() == english


@pytest.mark.parametrize("code", ["zh_CN", "ar"])
def test_a_window_started_in_another_language_titles_its_panels_in_english_after_the_switch(qtbot, code):
    from PySide6.QtWidgets import QApplication

    from attn_desktop.ui.window.language_switch import start_in_language
    from attn_desktop.ui.window.startup.app import build_window

    start_in_language(QApplication.instance(), code)  # `attn-desktop --lang CODE`
    window = build_window()
    qtbot.addWidget(window)
    window.show()
    settle_layout(qtbot, window)
    switch_by_menu(qtbot, window, code, "en")
    assert {name: dock.windowTitle() for name, dock in window.docks.items()}[DockId.WEIGHTS] == "Weights"
    assert [dock.windowTitle() for dock in window.docks.values()] == ENGLISH_PANEL_TITLES
    assert [dock.toggleViewAction().text() for dock in window.docks.values()] == ENGLISH_PANEL_TITLES
    window.history.reset()
