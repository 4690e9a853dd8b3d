"""The audit's language figure: texts shown in English although the catalog translates them.

A text on screen that is a catalog's English source, in a language whose catalog words it otherwise, never
went through tr() on its way to the screen, or went through it before the language was chosen (a constant
translated at import time). Texts of the user's own (token names, typed words) are not catalog sources, and
neither are texts made of a source and values: those the pseudo-language en_XA shows up in a screenshot.

It also lists texts left in another language than the one chosen, as a language switch can leave them: the
window's title, the shown panels' titles and exercise verdicts (a catalog's translation into another language,
values and all, or another language's script), and an untouched lesson's sentence in another language's words.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterable
from functools import lru_cache

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QDockWidget,
    QGroupBox,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMenuBar,
    QTabBar,
    QWidget,
)

from attn_desktop.language import tr
from attn_desktop.language.catalog import (
    SOURCE_LANGUAGE,
    current_language,
    shown_languages,
    source_texts_of,
    translations_for,
)
from attn_desktop.ui.panels.bar_labels import BarLabels

# Letters only one of the app's languages writes: a title in them is in that language, whatever it says.
SCRIPTS = {"ar": re.compile("[\u0600-\u06ff]"), "zh_CN": re.compile("[\u4e00-\u9fff]")}
TITLE_PARTS = re.compile(r"\s+[\u2014\u2013]\s+")  # "Two heads — Attention Desktop"
MIN_LETTERS = 4  # a shorter translation ("k", "Ok") could be any language's


def untranslated_texts(window: QWidget) -> list[str]:
    """The texts WINDOW shows that are catalog sources the current language translates otherwise, and (of a
    main window) the texts left in another language than the current one."""
    sources = set(source_texts_of(gettext.NullTranslations()))
    found = {text for text in shown_texts(window) if text in sources and tr(text) != text}
    if isinstance(window, QMainWindow):
        found |= set(texts_in_other_languages(window))
    return sorted(found)


def texts_in_other_languages(window: QMainWindow) -> list[str]:
    """The window's title, shown panel titles and verdicts written in another language than the current one,
    and the open lesson's sentence when it is that lesson's own sentence in another language's words."""
    from attn_desktop.ui.lessons.exercise_widget import ExerciseWidget

    texts = [window.windowTitle()]
    texts += [dock.windowTitle() for dock in window.findChildren(QDockWidget) if dock.isVisible()]
    texts += [widget.result_label.text() for widget in window.findChildren(ExerciseWidget)
              if widget.result_label.isVisible()]
    found = [text for text in texts if text and _in_another_language(text)]
    sentence = _lesson_sentence_in_another_language(window)
    return found + ([sentence] if sentence else [])


def _in_another_language(text: str) -> bool:
    current = current_language()
    plain = re.sub(r"<[^>]+>", "", text)
    if any(pattern.search(plain) for code, pattern in SCRIPTS.items() if code != current):
        return True
    # The title's parts ("*Two heads — Attention Desktop") and a verdict's words after its mark ("✓ …").
    parts = [re.sub(r"^[*\u2713\u2717\s]+", "", part).strip() for part in [plain, *TITLE_PARTS.split(plain)]]
    patterns = _other_languages_texts(current)
    return any(pattern.fullmatch(part) for part in parts if part for pattern in patterns)


@lru_cache(maxsize=8)
def _other_languages_texts(current: str) -> tuple[re.Pattern[str], ...]:
    """Every catalog text as each other language writes it, where the current language writes it otherwise: as
    patterns, a text's values ("{name}") matching any words."""
    current_catalog = translations_for(current)
    patterns = []
    for code in shown_languages():
        if code == current:
            continue
        catalog = translations_for(code)
        for written, source in source_texts_of(catalog).items():
            if code != SOURCE_LANGUAGE and catalog.gettext(source) != written:
                continue  # a plural's form or a text in context: not matched here
            if written == current_catalog.gettext(source) or len(re.sub(r"\{[^}]*\}|\W", "", written)) < MIN_LETTERS:
                continue
            pieces = re.split(r"\{[^}]*\}", written)
            patterns.append(re.compile(".+?".join(re.escape(piece) for piece in pieces), re.DOTALL))
    return tuple(patterns)


def _lesson_sentence_in_another_language(window: QMainWindow) -> str | None:
    """The open lesson's sentence, when the window shows that lesson's own sentence in another language's words
    (a lesson opened before the switch and never touched): "lesson sentence: gato descansó él"."""
    from attn_desktop.model.scene_files import read_scene_data
    from attn_desktop.model.teaching import lessons
    from attn_desktop.model.teaching.lesson_words import LESSON_WORDS
    from attn_desktop.paths import scene_path

    lesson_id = getattr(getattr(window, "lessons", None), "current", None)
    scene = getattr(window, "scene", None)
    if lesson_id is None or scene is None or _changed_by_the_teacher(window):
        return None
    sources = read_scene_data(scene_path(lessons.lesson(lesson_id).scene)).tokens
    shown = list(scene.tokens)
    current = current_language()
    for code in shown_languages():
        catalog = translations_for(code)
        words = [catalog.gettext(token) if token in LESSON_WORDS else token for token in sources]
        if code != current and words == shown and words != _words_in(current, sources):
            return f"lesson sentence: {' '.join(shown)}"
    return None


def _changed_by_the_teacher(window: QMainWindow) -> bool:
    """A scene changed in the lesson keeps its words after a switch (its lesson offers Start afresh instead)."""
    documents, panel = getattr(window, "documents", None), getattr(window, "lesson_panel", None)
    kept = panel is not None and panel.kept_bar.isVisibleTo(panel)
    return bool(getattr(documents, "modified", False)) or kept


def _words_in(code: str, tokens: list[str]) -> list[str]:
    from attn_desktop.model.teaching.lesson_words import LESSON_WORDS

    catalog = translations_for(code)
    return [catalog.gettext(token) if token in LESSON_WORDS else token for token in tokens]


def shown_texts(window: QWidget) -> Iterable[str]:
    """Every text a person can read in WINDOW now: visible widgets, the menu bar, table headers, plots."""
    for widget in window.findChildren(QWidget):
        if widget.isVisible():
            yield from _widget_texts(widget)
    for view in window.findChildren(pg.GraphicsView):
        if view.isVisible():
            yield from _plot_texts(view)


def _widget_texts(widget: QWidget) -> Iterable[str]:
    if isinstance(widget, (QLabel, QAbstractButton)):
        yield widget.text()
    elif isinstance(widget, QDockWidget):
        yield widget.windowTitle()
    elif isinstance(widget, QGroupBox):
        yield widget.title()
    elif isinstance(widget, QTabBar):
        yield from (widget.tabText(index) for index in range(widget.count()))
    elif isinstance(widget, QMenuBar):
        yield from (action.text() for action in widget.actions())
    elif isinstance(widget, QHeaderView) and widget.model() is not None:
        yield from (str(widget.model().headerData(section, widget.orientation(), Qt.ItemDataRole.DisplayRole) or "")
                    for section in range(widget.count()) if not widget.isSectionHidden(section))


def _plot_texts(view: pg.GraphicsView) -> Iterable[str]:
    for item in view.scene().items():
        if not item.isVisible():
            continue
        if isinstance(item, pg.LabelItem):
            yield item.text
        elif isinstance(item, pg.AxisItem):
            yield item.labelText
        elif isinstance(item, pg.TextItem):
            yield item.toPlainText()
        elif isinstance(item, BarLabels):  # the weights chart's percentages, which it draws itself
            yield from (label.toPlainText() for label in item.shown())
