"""Re-word a window already shown in another language, without building it again.

Most texts a window shows were set once from tr("..."): a label, a button, a menu, a tab, a tooltip, a dock's
title, a plot's title. Each is looked up in the OLD language's catalog (shown text → its English source) and
set again in the new one. Where the old language writes several sources alike (Arabic and Chinese write "Output"
and "output" alike), the source the text had the last time the window was re-worded decides, so a switch and
back gives every text back as it was; texts made of a source and values (a count, a number) are not found this way: the
views that show them re-word themselves (they follow the scene, which the window then notifies, or the
language: see ui/language_link.py).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterable
from functools import partial

import pyqtgraph as pg
from PySide6.QtCore import QObject
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
from attn_desktop.language.catalog import sources_of_texts


def reword_window(window: QWidget, old_catalog: gettext.NullTranslations) -> int:
    """Set every plain catalog text WINDOW shows again, in the current language; how many were set."""
    sources_of = sources_of_texts(old_catalog)
    count = 0
    for owner, slot, getter, setter in _texts(window):
        text = getter()
        source = _source_of(owner, slot, text, sources_of.get(text, ()), old_catalog)
        if source is None:
            continue
        _remember_source(owner, slot, source)
        new_text = tr(source)
        if new_text != text:
            setter(new_text)
            count += 1
    return count


# The English source of each text a re-wording set, kept on the object that shows it (a Qt property: the
# object's Python wrapper may be made anew each time it is found).
SOURCES_PROPERTY = "attnWordedFrom"
# A plot's axis title, a plot's text and an empty box's hint are written in small letters ("weight", "output");
# titles, buttons, menus and tips start with a capital.
LOWER_CASE_SLOTS = frozenset({"axisLabel", "plotText", "placeholderText"})


def _source_of(owner: QObject, slot: str, text: str, candidates: tuple[str, ...],
               old_catalog: gettext.NullTranslations) -> str | None:
    """TEXT's English source: the one OWNER's SLOT was last worded from, if the old language writes it so;
    else the only one; else (several sources written alike, and a window that started in that language) the
    likeliest for the place."""
    remembered = _remembered_sources(owner).get(slot)
    if remembered is not None and old_catalog.gettext(remembered) == text:
        return remembered
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    capitalised = [source for source in candidates if source[:1].isupper()]
    lower = [source for source in candidates if not source[:1].isupper()]
    preferred = (lower or capitalised) if slot in LOWER_CASE_SLOTS else (capitalised or lower)
    return min(preferred)


def remember_source(owner: QObject, slot: str, source: str) -> None:
    """OWNER's text SLOT ("windowTitle", "text", …) was worded from SOURCE: a window built in a language that
    writes two sources alike says which, for its first re-wording."""
    _remember_source(owner, slot, source)


def _remembered_sources(owner: QObject) -> dict[str, str]:
    sources = owner.property(SOURCES_PROPERTY)
    return dict(sources) if isinstance(sources, dict) else {}


def _remember_source(owner: QObject, slot: str, source: str) -> None:
    sources = _remembered_sources(owner)
    if sources.get(slot) != source:
        sources[slot] = source
        owner.setProperty(SOURCES_PROPERTY, sources)


Text = tuple[QObject, str, Callable[[], str], Callable[[str], None]]  # the object, which of its texts, read, write


def _texts(window: QWidget) -> Iterable[Text]:
    """(object, slot, read, write) of every text a person may read in WINDOW, its menus and its plots."""
    for widget in [window, *window.findChildren(QWidget)]:
        yield from _widget_texts(widget)
    for action in window.findChildren(QAction):
        yield action, "text", action.text, action.setText
        yield action, "toolTip", action.toolTip, action.setToolTip
        yield action, "statusTip", action.statusTip, action.setStatusTip
    for view in window.findChildren(pg.GraphicsView):
        yield from _plot_texts(view)


def _widget_texts(widget: QWidget) -> Iterable[Text]:
    yield widget, "toolTip", widget.toolTip, widget.setToolTip
    yield widget, "statusTip", widget.statusTip, widget.setStatusTip
    yield widget, "whatsThis", widget.whatsThis, widget.setWhatsThis
    yield widget, "accessibleName", widget.accessibleName, widget.setAccessibleName  # what a screen reader says
    yield widget, "accessibleDescription", widget.accessibleDescription, widget.setAccessibleDescription
    if isinstance(widget, (QLabel, QAbstractButton)):
        yield widget, "text", widget.text, widget.setText
    if isinstance(widget, (QDockWidget,)) or widget.isWindow():
        yield widget, "windowTitle", widget.windowTitle, widget.setWindowTitle
    if isinstance(widget, (QGroupBox, QMenu)):
        yield widget, "title", widget.title, widget.setTitle
    if isinstance(widget, QLineEdit):
        yield widget, "placeholderText", widget.placeholderText, widget.setPlaceholderText
    if isinstance(widget, QTabBar):
        for index in range(widget.count()):
            yield widget, f"tabText{index}", partial(widget.tabText, index), partial(widget.setTabText, index)
            yield widget, f"tabToolTip{index}", partial(widget.tabToolTip, index), partial(widget.setTabToolTip, index)
    if isinstance(widget, QComboBox):
        for index in range(widget.count()):
            yield widget, f"itemText{index}", partial(widget.itemText, index), partial(widget.setItemText, index)


def _plot_texts(view: pg.GraphicsView) -> Iterable[Text]:
    """Plot titles, axis labels and text items: pyqtgraph's own items, outside Qt's widgets."""
    for item in view.scene().items():
        if isinstance(item, pg.LabelItem):
            yield item, "plotText", partial(getattr, item, "text"), item.setText
        elif isinstance(item, pg.AxisItem):
            yield item, "axisLabel", partial(getattr, item, "labelText"), partial(_set_axis_label, item)
        elif isinstance(item, pg.TextItem):
            yield item, "plotText", item.toPlainText, item.setText


def _set_axis_label(axis: pg.AxisItem, text: str) -> None:
    axis.setLabel(text, units=axis.labelUnits or None)
