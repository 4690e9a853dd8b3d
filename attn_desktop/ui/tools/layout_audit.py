"""What a person checks on a screen, measured from the widgets: the layout audit.

Used by `attn-desktop snapshot --audit` and by the screen-size tests. Every figure is read
from what the widgets display at their current size (the rows the score table's viewport
shows, the font the matrix paints its numbers in, the labels as the canvas draws them), so a
panel that was not told to refresh, or got too little room, shows up here.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QDockWidget, QLabel, QWidget

from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.panel_sets import panels_shown
from attn_desktop.ui.panels.grid_editor import MAX_ROWS_IN_VIEW
from attn_desktop.ui.tools.accessibility_audit import audit_accessibility
from attn_desktop.ui.tools.label_audit import audit_labels
from attn_desktop.ui.tools.language_audit import untranslated_texts

if TYPE_CHECKING:  # the audit reads the window's parts; the window never needs the audit
    from attn_desktop.ui.canvas.canvas import AttentionCanvas
    from attn_desktop.ui.heads.heads_view import HeadsView
    from attn_desktop.ui.panels.score_table import ScoreTablePanel
    from attn_desktop.ui.panels.weights_chart import WeightsChart
    from attn_desktop.ui.window.main_window import MainWindow

# The panels a class must see in each mode (the canvas is the central widget).
EVERYDAY_PANELS = (DockId.SCORE, DockId.MATRIX, DockId.OUTPUT, DockId.WEIGHTS, DockId.LESSON)
TABBED_WITH_THE_READING = (DockId.TRAINING, DockId.MODEL_HEADS)
PRESENTATION_PANELS = (DockId.SCORE, DockId.MATRIX, DockId.OUTPUT, DockId.WEIGHTS)
MIN_PLOT_WIDTH_PX = 100  # narrower than this, a plot is no place to drag in


def audit_window(window: MainWindow) -> dict:
    """The audit's figures for the window as it is now, with what a screen reader and every eye get."""
    figures = audit_heads(window) if window.showing_heads else audit_reading(window)
    return {**figures, "accessibility": audit_accessibility(window)}


def audit_reading(window: MainWindow) -> dict:
    """The figures for a scene of one head."""
    matrix_font = window.matrix_view.cell_font()
    return {
        "score_rows": window.score_panel.model.rowCount(),
        "score_rows_visible": score_rows_visible(window),
        "matrix_numbers_shown": matrix_font is not None,
        "matrix_font_px": QFontInfo(matrix_font).pixelSize() if matrix_font is not None else 0,
        "chart_label_overlaps": chart_label_overlaps(window.weights_chart),
        **audit_labels(window.canvas),
        "label_line_height_px": round(window.canvas.label_line_height(), 1),
        "panels_cut": panels_cut(window),
        "untranslated_texts": untranslated_texts(window),
    }


def audit_heads(window: MainWindow) -> dict:
    """The same figures for a multi-head scene, read from every head's panels (added up, or the worst)."""
    columns = window.heads_view.columns
    tables = [column.scores for column in columns if column.scores.isVisibleTo(window.heads_view)]
    # The matrices shown (the chosen head's alone, where they do not all show their numbers side by side).
    fonts = [column.matrix.cell_font() for column in columns if column.matrix.isVisibleTo(window.heads_view)]
    labels = [audit_labels(column.canvas) for column in columns if column.canvas.isVisibleTo(window.heads_view)]
    cut: list[str] = []
    lesson_waits = window.dock_layout.activity.companion in TABBED_WITH_THE_READING  # behind Training, say
    if not window.presentation_action.isChecked() and not lesson_waits and not _on_screen(window.docks[DockId.LESSON].widget()):
        cut.append(window.docks[DockId.LESSON].windowTitle())
    view = window.heads_view
    for column in columns:
        head = window.scene.head_name(column.layer, column.head)
        # The parts the heads view shows (one head's canvas at a time, when the heads do not fit side by side).
        shown = [part for part in (column.canvas, column.scores, column.matrix) if part.isVisibleTo(view)]
        cut += [f"{head}: {part.accessibleName() or part.__class__.__name__}" for part in shown
                if not _on_screen(part) or _scrolled_out(part, view)]
        cut += [f"{head}: {part}" for part in _plots_cut(column.canvas)] if column.canvas.isVisible() else []
        for panel in (column.scores, column.matrix):
            if _on_screen(panel):
                cut += [f"{head}: {part}" for part in panel.cut_parts() if part != "formula" or column.scores.formula_shown]
    cut += _labels_cut(window)
    for w_o_editor in window.heads_view.w_o_editors:
        w_o = w_o_editor.tables["w_o"]
        if not _on_screen(w_o) or _scrolled_out(w_o, view) or not w_o.viewport().rect().contains(
                w_o.visualRect(w_o.model().index(w_o.rowCount() - 1, w_o.columnCount() - 1))):
            cut.append(f"{w_o_editor.title_prefix}W_O (not every number in view)")
    # A W_O too large to show whole shows its shape and a button to its numbers: those must be whole in view.
    for summary in window.heads_view.mixing_box.w_o_summaries:
        if not all(_on_screen(part) and not _scrolled_out(part, view) for part in (summary.label, summary.open_button)):
            cut.append(f"{summary.title_prefix}W_O (its shape and the button to its numbers not in view)")
    return {
        "score_rows": sum(panel.model.rowCount() for panel in tables),  # the tables shown (Scores ticked)
        "score_rows_visible": sum(_rows_in_view(panel) for panel in tables),
        "matrix_numbers_shown": all(font is not None for font in fonts),
        "matrix_font_px": min((QFontInfo(font).pixelSize() for font in fonts if font is not None), default=0),
        "chart_label_overlaps": 0,  # the weights chart shows one head: it makes way for the heads
        "label_overlaps": sum(figures["label_overlaps"] for figures in labels),
        "labels_over_heads": sum(figures["labels_over_heads"] for figures in labels),
        "labels_over_shafts": sum(figures["labels_over_shafts"] for figures in labels),
        "labels_cut": sum(figures["labels_cut"] for figures in labels),
        "max_label_offset_px": max((figures["max_label_offset_px"] for figures in labels), default=0.0),
        "label_line_height_px": round(columns[0].canvas.label_line_height(), 1),
        "panels_cut": cut + _window_off_screen(window),
        "untranslated_texts": untranslated_texts(window),
    }


def _scrolled_out(part: QWidget, view: HeadsView) -> bool:
    """A part of the heads that their scroll area shows only in part (the rest is scrolled out of view)."""
    viewport = view.scroll_area.viewport()
    if not viewport.isAncestorOf(part):
        return False
    return not viewport.rect().contains(QRect(part.mapTo(viewport, QPoint(0, 0)), part.size()))


def _rows_in_view(panel: ScoreTablePanel) -> int:
    viewport = panel.table.viewport().rect()
    return sum(1 for row in range(panel.model.rowCount())
               if viewport.contains(panel.table.visualRect(panel.model.index(row, 0))))


def _window_off_screen(window: MainWindow) -> list[str]:
    screen = window.screen().availableGeometry() if window.screen() else None
    if screen is not None and (window.width() > screen.width() or window.height() > screen.height()):
        return ["window (larger than the screen)"]
    return []


def score_rows_visible(window: MainWindow) -> int:
    """Rows wholly inside the score table's viewport, if the table is on screen at all."""
    table = window.score_panel.table
    if not _on_screen(table):
        return 0
    viewport = table.viewport().rect()
    model = window.score_panel.model
    return sum(1 for row in range(model.rowCount())
               if viewport.contains(table.visualRect(model.index(row, 0))))


def chart_label_overlaps(chart: WeightsChart) -> int:
    """Pairs of the weights chart's labels (keys under the bars, percentages over them) that touch, as
    shown: a chart whose dock is closed (the √d_k lab makes way) is laid out again when it is opened."""
    if not _on_screen(chart):
        return 0
    rects = [*chart.tick_label_rects(), *chart.value_label_rects()]
    return sum(1 for first, second in combinations(rects, 2) if first.intersects(second))


def panels_cut(window: MainWindow) -> list[str]:
    """Names of the panels (and their texts) that a person would see cut, hidden or squeezed."""
    cut: list[str] = []
    screen = window.screen().availableGeometry() if window.screen() else None
    if screen is not None and (window.width() > screen.width() or window.height() > screen.height()):
        cut.append("window (larger than the screen)")
    presenting = window.presentation_action.isChecked()
    activity = window.dock_layout.activity
    declared = panels_shown(activity, presenting)  # a panel the activity closes is not cut
    if activity.companion in TABBED_WITH_THE_READING:
        declared -= {DockId.LESSON}  # the lesson's text waits in the tab behind Training or Model heads
    if any(_on_screen(window.docks[name].widget()) for name in activity.asked_for):
        declared -= {DockId.LESSON}  # or behind the Description panel the user brought to the front
    for name in PRESENTATION_PANELS if presenting else EVERYDAY_PANELS:
        if name not in declared:
            continue
        dock = window.docks[name]
        if not _on_screen(dock.widget()):
            cut.append(dock.windowTitle())
    cut += _plots_cut(window.canvas)
    for panel in (window.score_panel, window.matrix_view, window.weights_chart):
        if _on_screen(panel):
            cut += [f"{_dock_title(panel)}: {part}" for part in panel.cut_parts()]
    cut += _labels_cut(window)
    cut += _grids_cut(window)
    return cut


def _grids_cut(window: MainWindow) -> list[str]:
    """A W_Q/W_K/W_V grid that shows fewer rows or columns than it has.

    Only the rows it promises to show count: a trained head's tall grids scroll past MAX_ROWS_IN_VIEW
    by design (a scroll bar says there is more), so there the last promised row must be in view.
    """
    cut = []
    for name, table in window.grid_editor.tables.items():
        if not _on_screen(table) or table.rowCount() == 0:
            continue
        viewport = table.viewport().rect()
        last_row = min(table.rowCount(), MAX_ROWS_IN_VIEW) - 1
        corner = table.visualRect(table.model().index(last_row, table.columnCount() - 1))
        if not viewport.contains(corner):
            cut.append(f"Grids: {name} (not every number in view)")
    return cut


def _plots_cut(canvas: AttentionCanvas) -> list[str]:
    shown = canvas.plots.shown_plots()  # listed in the order the audit has always given them
    plots = [plot for plot in (canvas.qk_plot, canvas.vo_plot, canvas.x_plot) if plot in shown]
    viewport = canvas.viewport().rect()
    cut = []
    for plot in plots:
        box = canvas.mapFromScene(plot.sceneBoundingRect()).boundingRect()
        title = plot.titleLabel
        if not viewport.contains(box) or box.width() < MIN_PLOT_WIDTH_PX:
            cut.append(f"plot {title.text!r}")
        elif title.isVisible() and not viewport.contains(canvas.mapFromScene(title.item.sceneBoundingRect())
                                                         .boundingRect().adjusted(1, 1, -1, -1)):
            cut.append(f"plot title {title.text!r}")
    return cut


def _labels_cut(window: MainWindow) -> list[str]:
    """Texts that need more room than their label has: a wrapped text's last lines, a line's end."""
    cut = []
    for label in window.findChildren(QLabel):
        if not label.text() or not _on_screen(label) or label.parent() is window.statusBar():
            continue
        needed_height = label.heightForWidth(label.width()) if label.wordWrap() else label.sizeHint().height()
        too_narrow = not label.wordWrap() and label.sizeHint().width() > label.width() + 1
        if needed_height > label.height() + 1 or too_narrow:
            cut.append(f"{_dock_title(label)}: text {label.text()[:30]!r}")
    return cut


def _on_screen(widget: QWidget | None) -> bool:
    """Shown, and inside the window: a dock behind another tab is moved off the window's edge."""
    if widget is None or not widget.isVisible():
        return False
    window = widget.window()
    top_left = widget.mapTo(window, widget.rect().topLeft())
    return window.rect().contains(QRect(top_left, widget.size()))


def _dock_title(widget: QWidget) -> str:
    parent: QWidget | None = widget
    while parent is not None and not isinstance(parent, QDockWidget):
        parent = parent.parentWidget()
    return parent.windowTitle() if parent is not None else widget.__class__.__name__


__all__ = ["audit_window"]
