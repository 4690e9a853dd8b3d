"""View → Language switches the whole window at once, without a restart: the panels speak the new language,
the scene, the lesson and the undo history stay exactly as they were, and the choice is remembered."""

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from attn_desktop.language import current_language, number
from attn_desktop.language.catalog import translations_for
from attn_desktop.model import Role
from attn_desktop.model.commands import MoveToken, ReorderTokens
from attn_desktop.model.scene_files import scene_document
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.settings import saved_language

from tests.support.in_the_window import POPUP_WARNING, choose_from_menu_bar, drag_arrow

pytestmark = pytest.mark.qt_log_ignore(POPUP_WARNING)  # the menus, offscreen


def _in(code: str, english: str) -> str:
    return translations_for(code).gettext(english)


def _menu(code: str, english: str) -> str:
    """A menu's title in CODE as the menu bar shows it, without its & ("&View" → "Ver", "视图(V)")."""
    return _in(code, english).replace("&", "")


def test_view_language_switches_the_panels_live_and_leaves_the_scene(qtbot, window):
    window.open_lesson("self-attention")
    drag_arrow(window, Role.KEY, 1, QPointF(-40, 0))  # a student's own edit: it must survive the switch
    scene_before = scene_document(window.scene, window.view_state)
    undo_steps = window.history.stack.count()
    assert window.docks[DockId.SCORE].windowTitle() == "Scores"

    choose_from_menu_bar(qtbot, window, ["View", "Language", "Español"])

    assert current_language() == "es" and saved_language() == "es"
    assert window.docks[DockId.SCORE].windowTitle() == _in("es", "Scores") != "Scores"
    assert window.docks[DockId.MATRIX].windowTitle() == _in("es", "Attention matrix")
    assert "," in window.output_panel.vector_label.text() and ";" in window.output_panel.vector_label.text()
    assert scene_document(window.scene, window.view_state) == scene_before  # the same words, vectors and settings
    assert window.history.stack.count() == undo_steps and window.lessons.current == "self-attention"

    choose_from_menu_bar(qtbot, window, [_menu("es", "&View"), _menu("es", "&Language"), "English"])
    assert window.docks[DockId.SCORE].windowTitle() == "Scores"
    assert "." in window.output_panel.vector_label.text()
    assert scene_document(window.scene, window.view_state) == scene_before


def test_arabic_mirrors_the_window_but_not_the_plots(qtbot, window):
    choose_from_menu_bar(qtbot, window, ["View", "Language", "العربية"])
    assert QApplication.layoutDirection() == Qt.LayoutDirection.RightToLeft
    assert window.layoutDirection() == Qt.LayoutDirection.RightToLeft
    assert window.canvas.layoutDirection() == Qt.LayoutDirection.LeftToRight  # x to the right, y axis on the left
    assert window.docks[DockId.SCORE].windowTitle() == _in("ar", "Scores") != "Scores"
    lesson_dock = window.docks[DockId.LESSON].geometry()
    assert lesson_dock.x() > window.width() / 2  # the lesson's text, on the left in English, is on the right


@pytest.mark.parametrize("code", ["es", "zh_CN", "ar"])
def test_undo_and_redo_name_their_step_in_the_language_switched_to(qtbot, window, code):
    window.history.do(MoveToken(0, 1))  # made in English, named in the language of the moment
    window.switch_language(code)
    assert window.undo_action.text() == f"{_in(code, '&Undo')} {_in(code, 'Reorder tokens')}"
    window.history.do(ReorderTokens((1, 0, 2, 3, 4, 5)))  # made in the new language
    assert window.undo_action.text() == f"{_in(code, '&Undo')} {_in(code, 'Shuffle the sentence')}"
    window.undo_action.trigger()
    assert window.redo_action.text() == f"{_in(code, '&Redo')} {_in(code, 'Shuffle the sentence')}"
    window.switch_language("en")
    assert (window.undo_action.text(), window.redo_action.text()) == ("&Undo Reorder tokens", "&Redo Shuffle the sentence")


def _window_title_in(code: str, english_name: str) -> str:
    return f"{_in(code, english_name)} — Attention Desktop"


def test_the_window_title_speaks_the_language_switched_to(qtbot, window):
    window.open_lesson("self-attention")
    english_name = window.windowTitle().removesuffix(" — Attention Desktop")
    assert _in("es", english_name) != english_name  # the lesson's scene has a translated title

    choose_from_menu_bar(qtbot, window, ["View", "Language", "Español"])
    assert window.windowTitle() == _window_title_in("es", english_name)

    choose_from_menu_bar(qtbot, window, [_menu("es", "&View"), _menu("es", "&Language"), "العربية"])
    assert window.windowTitle() == _window_title_in("ar", english_name)

    choose_from_menu_bar(qtbot, window, [_menu("ar", "&View"), _menu("ar", "&Language"), "English"])
    assert window.windowTitle() == f"{english_name} — Attention Desktop"


def test_a_verdict_shown_is_worded_again_in_the_language_switched_to(qtbot, window):
    window.open_lesson("positions")
    widget = next(w for w in window.lesson_panel.exercise_widgets if w.exercise.id == "positions-rope-distance")
    typed = f"{widget.exercise.answer[0]:.2f}"
    qtbot.keyClicks(widget.answer_edit, typed)
    qtbot.mouseClick(widget.check_button, Qt.MouseButton.LeftButton)
    assert widget.result_label.text().startswith("✓ Right.")

    choose_from_menu_bar(qtbot, window, ["View", "Language", "Español"])
    in_spanish = widget.result_label.text()
    assert in_spanish == "✓ " + widget.exercise.check(typed).message  # the verdict a Spanish window gives
    assert in_spanish.startswith("✓ " + _in("es", "Right. {explanation}").split("{")[0])
    assert number(widget.exercise.answer[0], 2) in in_spanish and "," in number(widget.exercise.answer[0], 2)

    choose_from_menu_bar(qtbot, window, [_menu("es", "&View"), _menu("es", "&Language"), "العربية"])
    assert widget.result_label.text() == "✓ " + widget.exercise.check(typed).message
    assert widget.result_label.text() != in_spanish
