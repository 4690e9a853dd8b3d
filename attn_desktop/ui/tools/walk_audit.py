"""What a teacher's walk adds to the layout audit, measured from the widgets as they are now.

Used by `attn-desktop snapshot --steps`: after every step the window is audited again, since a window
that has been presented, restored and re-laid out is never as fresh as a new one. Each figure reads
what is painted: a plot's drawing area in the canvas's pixels, the label boxes the canvas draws, the
text a label or a table cell needs against the room it has, the text boxes of one panel.
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractButton, QLabel, QStyle, QTableView, QWidget

from attn_desktop.geometry.plot_arrangement import MIN_PLOT_SIDE_PX  # the canvas's own rule, audited
from attn_desktop.geometry.weight_style import ANSWER_MIN_WEIGHT
from attn_desktop.model import Role
from attn_desktop.model.teaching.named_arrows import named_in
from attn_desktop.ui.tools.label_audit import _distance, _plots
from attn_desktop.ui.tools.layout_audit import _on_screen
from attn_desktop.ui.tools.panel_audit import audit_panels

if TYPE_CHECKING:
    from attn_desktop.ui.canvas.canvas import AttentionCanvas
    from attn_desktop.ui.window.main_window import MainWindow

HEAVIEST = 2  # the keys and values whose labels a class must read: the selected query's two heaviest (not at 0 %)
_DIGIT = re.compile(r"\d")


def audit_walk(window: MainWindow) -> dict:
    """The walk's figures, added to the layout audit of the same moment."""
    canvases = drawn_canvases(window)
    return {
        "plots_too_small": plots_too_small(canvases),
        "key_labels_missing": [label for _, canvas in canvases for label in key_labels_missing(canvas, lesson_text(window))],
        "texts_elided": texts_elided(window),
        "text_overlaps": text_overlaps(window),
        "max_label_distance_px": max((max_label_distance(canvas) for _, canvas in canvases), default=0.0),
        **audit_panels(window),
    }


def drawn_canvases(window: MainWindow) -> list[tuple[str, AttentionCanvas]]:
    """Each canvas on screen, with the name the audit gives it: the window's, or each head's in the heads view."""
    if not window.showing_heads:
        return [("", window.canvas)] if _on_screen(window.canvas) else []
    scene = window.scene
    return [(f"{scene.head_name(column.layer, column.head)}: ", column.canvas)
            for column in window.heads_view.columns if _on_screen(column.canvas)]


def plots_too_small(canvases: list[tuple[str, AttentionCanvas]]) -> list[str]:
    """Plots whose drawing area, as the canvas shows it, is under MIN_PLOT_SIDE_PX on its shorter side."""
    small = []
    for prefix, canvas in canvases:
        for plot in canvas.plots.shown_plots():
            area = canvas.mapFromScene(plot.getViewBox().sceneBoundingRect()).boundingRect()
            if min(area.width(), area.height()) < MIN_PLOT_SIDE_PX:
                small.append(f"{prefix}plot {plot.titleLabel.text!r} ({area.width()}x{area.height()} px)")
    return small


def lesson_text(window: MainWindow) -> str:
    """The open lesson's text as its panel shows it (formula, explanation, steps); empty for a scene of one's own."""
    if window.lessons.current is None:
        return ""
    panel = window.lesson_panel
    return " ".join(_plain(label.text()) for label in (panel.formula_label, panel.explanation_label,
                                                       panel.steps_label))


def key_labels_missing(canvas: AttentionCanvas, lesson: str = "") -> list[str]:
    """Labels a viewer cannot read on this canvas (not drawn, or not whole in view): the selected query's
    heaviest keys and values, and every arrow the LESSON text names ("k·cat")."""
    reading = canvas.reading
    try:  # the weights the canvas shows: while a guess is asked for (Predict, then See) they are hidden
        weights = np.asarray(canvas.shown_weights(), dtype=float)
    except (IndexError, ValueError):
        return []
    if weights.size == 0 or not np.all(np.isfinite(weights)):
        return []
    heaviest = [int(index) for index in np.argsort(-weights, kind="stable")[:HEAVIEST]
                if weights[index] >= ANSWER_MIN_WEIGHT]  # a 0 % "second heaviest" tells no answer
    wanted = [(role, index) for role in (Role.KEY, Role.VALUE) for index in heaviest]
    every_name = {(role, index): reading.arrow_name(role, index) for role in reading.roles
                  for index in range(len(canvas.arrows[role]))}
    in_text = named_in(lesson, every_name)
    named = [arrow for arrow in every_name if arrow in in_text]  # in the canvas's order
    drawn = {id(arrow): (area, transform) for area, arrows in _plots(canvas, canvas.viewportTransform())
             for arrow, transform in arrows}
    viewport = QRectF(canvas.viewport().rect())
    missing = []
    for role, index in dict.fromkeys([*wanted, *named]):  # in order, each once
        if index >= len(canvas.arrows[role]):
            continue
        arrow = canvas.arrows[role][index]
        where = drawn.get(id(arrow))
        box = arrow.shown_label_box(where[1]) if where is not None else None
        if where is None or box is None or not where[0].intersected(viewport).contains(box):
            missing.append(arrow.label or reading.arrow_name(role, index))
    return missing


def max_label_distance(canvas: AttentionCanvas) -> float:
    """How far the farthest label's box (not its anchor) sits from its own arrow's tip, in view pixels.

    A label whose tip is out of view waits at the plot's edge, its leader ending in a pointer: not counted."""
    farthest = 0.0
    for _, arrows in _plots(canvas, canvas.viewportTransform()):
        for arrow, transform in arrows:
            box = arrow.shown_label_box(transform)
            if box is not None and arrow.label and not arrow.has_pointer:
                farthest = max(farthest, _distance(arrow.tip_position(transform), box))
    return round(farthest, 1)


# ----- texts --------------------------------------------------------------------------------------
def texts_elided(window: MainWindow) -> list[str]:
    """Values (texts with a digit) in the Output panel, Scores, Challenges, Grids or the status line that
    are cut or elided: a label that needs more room than it has, a table cell narrower than its text or
    partly out of view. Names without numbers may be shortened; they are not listed."""
    found: list[str] = []
    labelled = [("Output", window.output_panel), ("Challenges", window.challenges_panel),
                ("Status line", window.statusBar())]
    for name, panel in labelled:
        found += [f"{name}: {text!r}" for text in _labels_elided(panel)]
    if window.showing_heads:
        scene = window.scene
        tables = [(f"{scene.head_name(c.layer, c.head)} Scores", c.scores.table) for c in window.heads_view.columns]
    else:
        tables = [("Scores", window.score_panel.table)]
    tables += [(f"Grids {name}", table) for name, table in window.grid_editor.tables.items()]
    for name, table in tables:
        found += [f"{name}: {text!r}" for text in _cells_elided(table)]
    message = window.statusBar().currentMessage()
    bar = window.statusBar()
    if _DIGIT.search(message) and bar.isVisible() and bar.fontMetrics().horizontalAdvance(message) > bar.width():
        found.append(f"Status line: {message!r}")
    return found


def _labels_elided(panel: QWidget) -> list[str]:
    if not _on_screen(panel):
        return []
    cut = []
    for label in panel.findChildren(QLabel):
        text = label.text()
        if not _DIGIT.search(text) or not _on_screen(label):
            continue
        shown = _plain(text)
        needed_height = label.heightForWidth(label.width()) if label.wordWrap() else label.sizeHint().height()
        too_narrow = not label.wordWrap() and label.sizeHint().width() > label.width() + 1
        if needed_height > label.height() + 1 or too_narrow:
            cut.append(shown[:60])
    return cut


def _cells_elided(table: QTableView) -> list[str]:
    if not _on_screen(table):
        return []
    model, viewport = table.model(), table.viewport().rect()
    metrics = table.fontMetrics()
    # The room the style keeps each side of a cell's text (Qt: the focus frame's margin and one pixel).
    margin = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1)
    cut = []
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            index = model.index(row, column)
            text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
            cell = table.visualRect(index)
            if not _DIGIT.search(text) or not cell.isValid() or not cell.intersects(viewport):
                continue
            font = index.data(Qt.ItemDataRole.FontRole)
            width = (metrics if font is None else QFontMetrics(font)).horizontalAdvance(text) + margin
            # Rows past the bottom scroll into view (a scroll bar says so); a cell cut at the side does not.
            cut_at_side = cell.left() < viewport.left() or cell.right() > viewport.right()
            if width > cell.width() or cut_at_side:
                cut.append(text[:60])
    return cut


def _plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text).replace("&nbsp;", " ").replace("&amp;", "&")


def text_overlaps(window: MainWindow) -> list[list[str]]:
    """Pairs of text boxes of one panel that cover each other: a label or button's text as it fits in its widget."""
    panels = [(dock.windowTitle(), dock.widget()) for dock in window.docks.values()]
    panels.append(("Status line", window.statusBar()))
    if window.showing_heads:
        panels.append(("Heads", window.heads_view))
    pairs = []
    for name, panel in panels:
        if panel is None or not _on_screen(panel):
            continue
        boxes = [(text, box, widget) for widget in panel.findChildren(QWidget)
                 if (text_box := _text_box(widget, panel)) is not None for text, box in [text_box]]
        for (text, box, widget), (other_text, other_box, other) in combinations(boxes, 2):
            if box.intersects(other_box) and not (widget.isAncestorOf(other) or other.isAncestorOf(widget)):
                pairs.append([f"{name}: {text}", f"{name}: {other_text}"])
    return pairs


def _text_box(widget: QWidget, panel: QWidget) -> tuple[str, QRect] | None:
    """Where WIDGET's text is painted, in PANEL's pixels: the text's size, aligned in the widget and clipped to it."""
    if isinstance(widget, QLabel):
        text = _plain(widget.text())
    elif isinstance(widget, QAbstractButton):
        text = widget.text()
    else:
        return None
    if not text.strip() or not _on_screen(widget):
        return None
    room = widget.contentsRect()
    if isinstance(widget, QLabel):
        height = widget.heightForWidth(room.width()) if widget.wordWrap() else widget.sizeHint().height()
        width = room.width() if widget.wordWrap() else widget.sizeHint().width()
        alignment = widget.alignment()
    else:
        width, height = widget.sizeHint().width(), widget.sizeHint().height()
        alignment = Qt.AlignmentFlag.AlignCenter
    box = QRect(room.topLeft(), room.size())
    box.setWidth(min(width, room.width()))
    box.setHeight(min(max(height, 1), room.height()))
    if alignment & Qt.AlignmentFlag.AlignRight:
        box.moveRight(room.right())
    elif alignment & Qt.AlignmentFlag.AlignHCenter:
        box.moveLeft(room.left() + (room.width() - box.width()) // 2)
    if alignment & Qt.AlignmentFlag.AlignBottom:
        box.moveBottom(room.bottom())
    elif alignment & Qt.AlignmentFlag.AlignVCenter:
        box.moveTop(room.top() + (room.height() - box.height()) // 2)
    shown = QRect(widget.mapTo(panel, box.topLeft()), box.size())
    ancestor = widget.parentWidget()
    while ancestor is not None and ancestor is not panel:  # a title scrolled out of its scroll area is not painted
        shown &= QRect(ancestor.mapTo(panel, QPoint(0, 0)), ancestor.size())
        ancestor = ancestor.parentWidget()
    return (text[:40], shown) if not shown.isEmpty() else None


__all__ = ["audit_walk"]
