"""What a teacher's walk checks of the panels themselves, measured from the widgets as they are now.

Used by `attn-desktop snapshot --steps` beside walk_audit: where every shown panel is (so a step that is not
a layout step can be checked to leave them where they were, and a round trip to bring them back), the
window's title and keyboard focus, the attention matrix's row and column names left undrawn, buttons and
tabs whose text does not fit, panels that need horizontal scrolling, and the size of the Model heads grid's
thumbnails.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QApplication,
    QCheckBox,
    QDockWidget,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QStyle,
    QTabBar,
    QToolButton,
    QWidget,
)

from attn_desktop.ui.panels.matrix_frame import column_label_rect, row_label_rect
from attn_desktop.ui.tools.layout_audit import _on_screen

if TYPE_CHECKING:
    from attn_desktop.ui.panels.matrix_view import MatrixView
    from attn_desktop.ui.window.main_window import MainWindow

ELLIPSIS = "\u2026"


def audit_panels(window: MainWindow) -> dict:
    return {
        "docks": docks(window),
        "window_title": window.windowTitle(),
        "focus_widget": focus_widget(window),
        "matrix_labels_missing": matrix_labels_missing(window.matrix_view),
        "buttons_clipped": buttons_clipped(window),
        "horizontal_scroll": horizontal_scroll(window),
        "head_grid_cell_px": head_grid_cell_px(window),
    }


def docks(window: MainWindow) -> dict[str, list[int]]:
    """Each shown panel's [x, y, w, h] in the window's pixels, by the dock's object name (a panel behind
    another's tab is not shown)."""
    shown = {}
    for dock in window.findChildren(QDockWidget):
        corner = dock.mapTo(window, QPoint(0, 0))
        # Partly out of the window is still shown (and worth knowing); behind another tab it is moved wholly off.
        if dock.isVisible() and window.rect().intersects(QRect(corner, dock.size())):
            shown[dock.objectName() or dock.windowTitle()] = [corner.x(), corner.y(), dock.width(), dock.height()]
    return dict(sorted(shown.items()))


def focus_widget(window: MainWindow) -> str | None:
    """The object name of the window's widget with keyboard focus (its class when it has no name); None if none."""
    focused = QApplication.focusWidget()
    if focused is None or focused.window() is not window:
        return None
    return focused.objectName() or type(focused).__name__


# ----- the matrix ------------------------------------------------------------------------------------
def matrix_labels_missing(matrix: MatrixView) -> list[str]:
    """The matrix's rows ("row 2: sat") and columns ("column 1: cat") whose token's name is not drawn, or is drawn
    as no more than "…", or lies outside the part of the panel in view (read from the labels the panel paints; a
    column name written turned upright must lie in view along the whole of its upright box)."""
    if not _on_screen(matrix) or not matrix.reading.tokens:
        return []
    layout, (column_font, columns), (row_font, rows) = matrix.drawn_labels()
    seen = _seen_rect(matrix)
    missing = _axis_missing("column", matrix.reading.tokens,
                            {label.index: (label.text, column_label_rect(layout, label), label.turned)
                             for label in columns}, QFontMetricsF(column_font), seen)
    missing += _axis_missing("row", matrix.reading.query_tokens,
                             {label.index: (label.text, row_label_rect(layout, label), False)
                              for label in rows}, QFontMetricsF(row_font), seen)
    return missing


def _axis_missing(axis: str, tokens: list[str], drawn: dict[int, tuple[str, QRectF, bool]], metrics: QFontMetricsF,
                  seen: QRectF) -> list[str]:
    """DRAWN: each named index's text, its box and whether it is written turned upright (the box's height its length)."""
    missing = []
    for index, token in enumerate(tokens):
        text, box, turned = drawn.get(index, ("", QRectF(), False))
        readable = bool(text.replace(ELLIPSIS, "").strip()) or not token.strip()
        in_view = _turned_inside(box, text, seen, metrics) if turned else _inside(box, seen, metrics)
        if index not in drawn or not readable or not in_view:
            missing.append(f"{axis} {index}: {token}")
    return missing


def _seen_rect(widget: QWidget) -> QRectF:
    """The part of WIDGET a person sees: inside every ancestor (a scroll area's viewport, a dock) and the window."""
    seen = QRect(QPoint(0, 0), widget.size())
    ancestor = widget.parentWidget()
    while ancestor is not None:
        seen &= QRect(widget.mapFrom(ancestor, QPoint(0, 0)), ancestor.size())
        ancestor = ancestor.parentWidget()
    return QRectF(seen)


def _turned_inside(box: QRectF, text: str, seen: QRectF, metrics: QFontMetricsF) -> bool:
    """An upright label's text (written up from its box's bottom, a line wide, centred across it) inside the part
    in view, to half a pixel, and not longer than its box (else its top would be cut)."""
    length = metrics.horizontalAdvance(text)
    line = QRectF(box.center().x() - metrics.height() / 2, box.bottom() - length, metrics.height(), length)
    return length <= box.height() + 0.5 and seen.adjusted(-0.5, -0.5, 0.5, 0.5).contains(line.intersected(box)
                                                                                         if box.width() < line.width()
                                                                                         else line)


def _inside(box: QRectF, seen: QRectF, metrics: QFontMetricsF) -> bool:
    """A label box's text line (centred in it) inside the part in view, to half a pixel."""
    line = QRectF(box.left(), box.center().y() - metrics.height() / 2, box.width(), metrics.height())
    return seen.adjusted(-0.5, -0.5, 0.5, 0.5).contains(line.intersected(box) if box.height() < line.height()
                                                          else line)


# ----- buttons, tabs, scrolling ------------------------------------------------------------------------
def buttons_clipped(window: MainWindow) -> list[str]:
    """Buttons, switches and tabs shown whose text needs more room than they have ("Show me" in a narrow
    column reading "omprob"), named by their panel: "Lesson: Show me"."""
    clipped = []
    for widget in window.findChildren(QWidget):
        if isinstance(widget, QAbstractButton) and _on_screen(widget):
            text = _mnemonic_free(widget.text())
            if text.strip() and _button_text_room(widget) < widget.fontMetrics().horizontalAdvance(text):
                clipped.append(f"{_panel_name(widget)}: {text}")
        elif isinstance(widget, QTabBar) and _on_screen(widget):
            clipped += [f"{_panel_name(widget)}: {_mnemonic_free(widget.tabText(index))}"
                        for index in range(widget.count()) if _tab_clipped(widget, index)]
    return sorted(set(clipped))


def _button_text_room(button: QAbstractButton) -> int:
    """The width a button leaves its text: inside its frame and margins, beside its icon or switch."""
    style = button.style()
    room = button.contentsRect().width()
    if isinstance(button, (QCheckBox, QRadioButton)):
        indicator = QStyle.PixelMetric.PM_IndicatorWidth if isinstance(button, QCheckBox) \
            else QStyle.PixelMetric.PM_ExclusiveIndicatorWidth
        spacing = QStyle.PixelMetric.PM_CheckBoxLabelSpacing if isinstance(button, QCheckBox) \
            else QStyle.PixelMetric.PM_RadioButtonLabelSpacing
        return room - style.pixelMetric(indicator, None, button) - style.pixelMetric(spacing, None, button)
    if isinstance(button, QPushButton) and not button.isFlat():
        room -= style.pixelMetric(QStyle.PixelMetric.PM_ButtonMargin, None, button)
        room -= 2 * style.pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth, None, button)
    elif isinstance(button, QToolButton):
        if button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly and not button.icon().isNull():
            return 1 << 20  # its text is a tooltip, not shown
        room -= 4  # the tool button's frame, each side
    if not button.icon().isNull() and not (isinstance(button, QToolButton)
                                            and button.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextOnly):
        room -= button.iconSize().width() + 4
    return room


def _tab_clipped(bar: QTabBar, index: int) -> bool:
    """A tab narrower than its text asks (its text elided), or not wholly in the bar's view (scrolled past)."""
    if not bar.isTabVisible(index):
        return False
    tab = bar.tabRect(index)
    natural = bar.tabSizeHint(index) if bar.elideMode() == Qt.TextElideMode.ElideNone else _natural_tab_size(bar, index)
    horizontal = bar.shape() in (QTabBar.Shape.RoundedNorth, QTabBar.Shape.RoundedSouth, QTabBar.Shape.TriangularNorth,
                                 QTabBar.Shape.TriangularSouth)
    narrow = tab.width() < natural.width() if horizontal else tab.height() < natural.height()
    return narrow or not bar.rect().contains(tab)


def _natural_tab_size(bar: QTabBar, index: int) -> QSize:
    """The size the tab asks for with its text whole (tabSizeHint gives the elided size when eliding is on)."""
    mode = bar.elideMode()
    bar.blockSignals(True)
    try:
        bar.setElideMode(Qt.TextElideMode.ElideNone)
        return bar.tabSizeHint(index)
    finally:
        bar.setElideMode(mode)
        bar.blockSignals(False)


def horizontal_scroll(window: MainWindow) -> list[str]:
    """Panels (by the dock's object name) with a scroll area or a table shown whose content is wider than its
    view: a class sees it only by scrolling sideways, or not at all where the bar is switched off."""
    needing = []
    for area in window.findChildren(QAbstractScrollArea):
        if not isinstance(area, (QScrollArea, QAbstractItemView)) or not _on_screen(area):
            continue
        if _needs_horizontal_scroll(area):
            needing.append(_dock_name(area))
    return sorted(set(needing))


def _needs_horizontal_scroll(area: QAbstractScrollArea) -> bool:
    if area.horizontalScrollBar().maximum() > 0:
        return True
    content = area.widget() if isinstance(area, QScrollArea) else None
    if content is not None:
        return max(content.width(), content.minimumSizeHint().width(), content.minimumWidth()) > \
            area.viewport().width() + 1
    return False


def head_grid_cell_px(window: MainWindow) -> int | None:
    """The shorter side of the Model heads grid's thumbnails, when the grid is shown with heads in it."""
    grid = window.model_heads_panel.grid
    # Taller than the window it may be (it scrolls); behind another panel's tab it is moved off the window.
    in_window = window.rect().intersects(QRect(grid.mapTo(window, QPoint(0, 0)), grid.size()))
    if not grid.isVisible() or not in_window or grid.shape[0] * grid.shape[1] == 0:
        return None
    cell = grid.cell_rect(0, 0)
    return min(cell.width(), cell.height())


def _mnemonic_free(text: str) -> str:
    return re.sub(r"&(.)", r"\1", text)


def _dock_name(widget: QWidget) -> str:
    parent: QWidget | None = widget
    while parent is not None and not isinstance(parent, QDockWidget):
        parent = parent.parentWidget()
    if parent is None:
        return "window"
    return parent.objectName() or parent.windowTitle()


def _panel_name(widget: QWidget) -> str:
    parent: QWidget | None = widget
    while parent is not None and not isinstance(parent, QDockWidget):
        parent = parent.parentWidget()
    return parent.windowTitle() if parent is not None else "window"


__all__ = ["audit_panels"]
