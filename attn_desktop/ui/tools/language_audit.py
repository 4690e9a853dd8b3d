"""The audit's language figure: texts shown in English although the catalog translates them.

A text on screen that is a catalog's English source, in a language whose catalog words it otherwise, never
went through tr() on its way to the screen, or went through it before the language was chosen (a constant
translated at import time). Texts of the user's own (token names, typed words) are not catalog sources, and
neither are texts made of a source and values: those the pseudo-language en_XA shows up in a screenshot.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterable

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QDockWidget, QGroupBox, QHeaderView, QLabel, QMenuBar, QTabBar, QWidget

from attn_desktop.language import tr
from attn_desktop.language.catalog import source_texts_of


def untranslated_texts(window: QWidget) -> list[str]:
    """The texts WINDOW shows that are catalog sources the current language translates otherwise."""
    sources = set(source_texts_of(gettext.NullTranslations()))
    return sorted({text for text in shown_texts(window) if text in sources and tr(text) != text})


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
