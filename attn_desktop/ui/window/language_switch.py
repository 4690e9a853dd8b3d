"""Choosing the app's language: at start (--lang, the saved choice, the system's) and live, from
View → Language, without a restart and without touching the scene."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QApplication, QWidget

from attn_desktop.language import current_language, set_language
from attn_desktop.language.catalog import translations_for
from attn_desktop.model import Scene
from attn_desktop.ui.language.app_language import apply_language
from attn_desktop.ui.language.rewording import reword_window


def start_in_language(app: QApplication, code: str) -> None:
    """Speak CODE from the start (before any window exists). ValueError, with a message to show, if the app
    has no such language."""
    set_language(code)
    apply_language(app)


def switch_language(window: QWidget, scene: Scene, update_title: Callable[[], None], code: str,
                    follow_lessons: Callable[[], None] = lambda: None) -> None:
    """Speak CODE in WINDOW now: the same SCENE, panels, lesson and undo history, in the other language (a
    lesson's scene left as it comes in the new language's words: FOLLOW_LESSONS)."""
    old_catalog = translations_for(current_language())
    if set_language(code) == current_language() and old_catalog is translations_for(code):
        return
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_language(app)
    reword_window(window, old_catalog)
    follow_lessons()
    scene.redraw_views()  # every view that words its texts from the scene words them again
    update_title()
