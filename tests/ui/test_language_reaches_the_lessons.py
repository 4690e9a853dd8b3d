"""A language switch reaches the lessons' scenes: a scene the teacher left as it comes takes the new language's
sentence (live, in the lesson open, in the lessons left before, and at the next start in that language); a scene
the teacher changed keeps its words, and its lesson offers Start afresh, in the new language, which gives the
new language's scene."""

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from attn_desktop.language.catalog import translations_for
from attn_desktop.model import Role
from attn_desktop.model.scene_files import read_scene_data, scene_document
from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.lesson_words import LESSON_WORDS
from attn_desktop.paths import scene_path
from attn_desktop.ui.window.language_switch import start_in_language
from attn_desktop.ui.window.startup.app import start_window

from tests.support.in_the_window import (
    POPUP_WARNING,
    choose_from_menu_bar,
    drag_arrow,
    on_a_1024_by_768_screen,
    settle_layout,
)

pytestmark = pytest.mark.qt_log_ignore(POPUP_WARNING)  # the menus, offscreen

LANGUAGE_NAMES = {"en": "English", "es": "Español", "zh_CN": "简体中文", "ar": "العربية"}


def sentence_in(code: str, lesson_id: str) -> list[str]:
    """The words of LESSON_ID's sentence as a speaker of CODE reads them (its scene file is in English)."""
    catalog = translations_for(code)
    english = read_scene_data(scene_path(lessons.lesson(lesson_id).scene)).tokens
    return [catalog.gettext(token) if token in LESSON_WORDS else token for token in english]


def switch_by_menu(qtbot, window, current: str, code: str) -> None:
    """View → Language → CODE's name, clicked as a person does, in the menus' language of the moment."""
    def menu(english: str) -> str:
        return translations_for(current).gettext(english).replace("&", "")

    choose_from_menu_bar(qtbot, window, [menu("&View"), menu("&Language"), LANGUAGE_NAMES[code]])


def open_lesson(qtbot, window, number: int) -> None:
    qtbot.keyClick(window, Qt.Key(Qt.Key.Key_0 + number), Qt.KeyboardModifier.ControlModifier)
    qtbot.wait(20)


@pytest.fixture
def classroom_window(window, monkeypatch, qtbot):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    settle_layout(qtbot, window)
    return window


def test_the_open_lessons_untouched_scene_takes_each_new_languages_sentence(qtbot, classroom_window):
    window = classroom_window
    open_lesson(qtbot, window, 7)
    assert sentence_in("zh_CN", "two-heads") != sentence_in("es", "two-heads") != window.scene.tokens
    switch_by_menu(qtbot, window, "en", "zh_CN")
    assert window.scene.tokens == sentence_in("zh_CN", "two-heads")
    switch_by_menu(qtbot, window, "zh_CN", "es")
    assert window.scene.tokens == sentence_in("es", "two-heads")  # not 这只 猫 …
    assert not window.windowTitle().startswith("*")  # nothing the teacher did: nothing unsaved
    assert not window.lesson_panel.kept_bar.isVisible() and window.history.stack.count() == 0
    switch_by_menu(qtbot, window, "es", "en")
    assert window.scene.tokens == sentence_in("en", "two-heads")


def test_a_lesson_left_untouched_before_the_switch_opens_in_the_new_language(qtbot, classroom_window):
    window = classroom_window
    open_lesson(qtbot, window, 3)
    switch_by_menu(qtbot, window, "en", "es")
    open_lesson(qtbot, window, 7)
    switch_by_menu(qtbot, window, "es", "ar")
    open_lesson(qtbot, window, 3)
    assert window.scene.tokens == sentence_in("ar", "self-attention")  # not "gato descansó él"
    assert not window.lesson_panel.kept_bar.isVisible()
    open_lesson(qtbot, window, 7)
    assert window.scene.tokens == sentence_in("ar", "two-heads")


def test_a_changed_scene_keeps_its_words_and_offers_start_afresh_in_the_new_language(qtbot, classroom_window):
    window = classroom_window
    open_lesson(qtbot, window, 3)
    drag_arrow(window, Role.KEY, 1, QPointF(-40, 0))  # the teacher's own edit
    changed = scene_document(window.scene, window.view_state)
    switch_by_menu(qtbot, window, "en", "ar")
    assert scene_document(window.scene, window.view_state) == changed  # the teacher's words and arrows
    assert window.lesson_panel.kept_bar.isVisible()
    assert window.lesson_panel.fresh_button.text() == translations_for("ar").gettext("Start afresh") != "Start afresh"
    qtbot.mouseClick(window.lesson_panel.fresh_button, Qt.MouseButton.LeftButton)
    assert window.scene.tokens == sentence_in("ar", "self-attention")
    window.undo_action.trigger()  # the teacher's scene comes back, as Start afresh promises
    assert scene_document(window.scene, window.view_state) == changed


def _started_in(qtbot, code: str):
    """The app started again, without a file, as `attn-desktop --lang CODE`."""
    start_in_language(QApplication.instance(), code)
    again = start_window(None, None)
    qtbot.addWidget(again)
    again.show()
    settle_layout(qtbot, again)
    return again


def test_a_start_in_another_language_opens_the_last_lesson_in_it(qtbot, classroom_window):
    window = classroom_window
    open_lesson(qtbot, window, 4)
    switch_by_menu(qtbot, window, "en", "zh_CN")
    assert window.close()
    again = _started_in(qtbot, "es")
    assert again.lessons.current == "scaled-attention"
    assert again.scene.tokens == sentence_in("es", "scaled-attention")  # the plot says what the text says
    assert not again.lesson_panel.kept_bar.isVisible()
    again.history.reset()


def test_an_untouched_scene_an_earlier_version_kept_opens_in_the_language_of_the_start(qtbot, window):
    english = scene_document(read_scene_data(scene_path(lessons.lesson("scaled-attention").scene)))
    window.progress.leave_lesson("scaled-attention", english)  # as it comes, but kept (in English)
    assert window.close()
    again = _started_in(qtbot, "es")
    assert again.scene.tokens == sentence_in("es", "scaled-attention")
    assert not again.lesson_panel.kept_bar.isVisible()
    again.history.reset()


def test_a_query_chosen_is_no_change_the_sentence_follows_and_the_query_stays(qtbot, classroom_window):
    window = classroom_window
    open_lesson(qtbot, window, 7)
    picker = window.query_picker
    picker.setFocus()
    qtbot.keyClick(picker, Qt.Key.Key_Home)  # the first word asks, not the lesson's own query
    chosen = window.view_state.chosen_query(window.scene.n_queries)
    assert chosen == 0 != read_scene_data(scene_path(lessons.lesson("two-heads").scene)).selected
    switch_by_menu(qtbot, window, "en", "es")
    assert window.scene.tokens == sentence_in("es", "two-heads")
    assert window.view_state.chosen_query(window.scene.n_queries) == chosen
    assert not window.lesson_panel.kept_bar.isVisible()
