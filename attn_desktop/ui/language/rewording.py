"""Re-word a window already shown in another language, without building it again.

Most texts a window shows were set once from tr("..."): a label, a button, a menu, a tab, a tooltip, a dock's
title, a plot's title. Each is looked up in the OLD language's catalog (shown text → its English source) and
set again in the new one. Texts made of a source and values (a count, a number) are not found this way: the
views that show them re-word themselves (they follow the scene, which the window then notifies, or the
language: see ui/language_link.py).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable
from functools import partial

import pyqtgraph as pg
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDockWidget,
    QGroupBox,
    QLabel,
    QLineEdit,
    QMenu,
    QTabBar,
    QWidget,
)

from attn_desktop.language import tr
from attn_desktop.language.catalog import source_texts_of


def reword_window(window: QWidget, old_catalog: gettext.NullTranslations) -> int:
    """Set every plain catalog text WINDOW shows again, in the current language; how many were set."""
    source_of = source_texts_of(old_catalog)

    def reworded(text: str) -> str | None:
        source = source_of.get(text)
        if source is None:
            return None
        new_text = tr(source)
        return new_text if new_text != text else None

    count = 0
    for getter, setter in _texts(window):
        new_text = reworded(getter())
        if new_text is not None:
            setter(new_text)
            count += 1
    return count


Text = tuple[Callable[[], str], Callable[[str], None]]


def _texts(window: QWidget) -> Iterable[Text]:
    """(read, write) of every text a person may read in WINDOW, its menus and its plots."""
    for widget in [window, *window.findChildren(QWidget)]:
        yield from _widget_texts(widget)
    for action in window.findChildren(QAction):
        yield action.text, action.setText
        yield action.toolTip, action.setToolTip
        yield action.statusTip, action.setStatusTip
    for view in window.findChildren(pg.GraphicsView):
        yield from _plot_texts(view)


def _widget_texts(widget: QWidget) -> Iterable[Text]:
    yield widget.toolTip, widget.setToolTip
    yield widget.statusTip, widget.setStatusTip
    yield widget.whatsThis, widget.setWhatsThis
    if isinstance(widget, (QLabel, QAbstractButton)):
        yield widget.text, widget.setText
    if isinstance(widget, (QDockWidget,)) or widget.isWindow():
        yield widget.windowTitle, widget.setWindowTitle
    if isinstance(widget, QGroupBox):
        yield widget.title, widget.setTitle
    if isinstance(widget, QMenu):
        yield widget.title, widget.setTitle
    if isinstance(widget, QLineEdit):
        yield widget.placeholderText, widget.setPlaceholderText
    if isinstance(widget, QTabBar):
        for index in range(widget.count()):
            yield partial(widget.tabText, index), partial(widget.setTabText, index)
            yield partial(widget.tabToolTip, index), partial(widget.setTabToolTip, index)
    if isinstance(widget, QComboBox):
        for index in range(widget.count()):
            yield partial(widget.itemText, index), partial(widget.setItemText, index)


def _plot_texts(view: pg.GraphicsView) -> Iterable[Text]:
    """Plot titles, axis labels and text items: pyqtgraph's own items, outside Qt's widgets."""
    for item in view.scene().items():
        if isinstance(item, pg.LabelItem):
            yield partial(getattr, item, "text"), item.setText
        elif isinstance(item, pg.AxisItem):
            yield partial(getattr, item, "labelText"), partial(_set_axis_label, item)
        elif isinstance(item, pg.TextItem):
            yield item.toPlainText, item.setText


def _set_axis_label(axis: pg.AxisItem, text: str) -> None:
    axis.setLabel(text, units=axis.labelUnits or None)
