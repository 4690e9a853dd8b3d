"""The bars behind the score table's weights: each as long across its cell as the key's share of attention.

Painted in one pass over the table's viewport just before the table paints its cells, rather than by
an item delegate cell by cell: a drag move repaints the whole weight column, and a delegate written in
Python cost the table about as much again as its own painting (every cell's call carries a copy of its
style option into Python and back). The picture is the same: each bar is drawn where the delegate drew
it, in the rectangle the table gives that cell, before that cell's background and text, which the table's
own delegate then paints over it as it did over the delegate's bar.
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QTableView

from attn_desktop.model import Role
from attn_desktop.ui.palette import ROLE_COLORS
from attn_desktop.ui.panels.score_table_model import ScoreTableModel

BAR_ALPHA = 90  # the key's colour, faint enough for the percentage on it to keep its contrast
BAR_INSET = (2, 3)  # pixels between a bar and its cell's edges, left and right, top and bottom


def bar_colour() -> QColor:
    colour = QColor(ROLE_COLORS[Role.KEY])
    colour.setAlpha(BAR_ALPHA)
    return colour


class WeightBars(QObject):
    """Paints the bars of TABLE's COLUMN from its model's bar_weight, under the cells' text."""

    def __init__(self, table: QTableView, model: ScoreTableModel, column: int) -> None:
        super().__init__(table)
        self.table, self.model, self.column = table, model, column
        self._colour = bar_colour()
        # A filter sees the viewport's paint event before the table does: the bars go down first.
        table.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and watched is self.table.viewport():
            self._paint(cast(QPaintEvent, event))
        return False  # the table paints its cells as ever

    def bar_rect(self, row: int) -> QRectF | None:
        """Where ROW's bar is drawn in the viewport, None for no bar (a masked key, the weights veiled)."""
        weight = self.model.bar_weight(row)
        if weight is None or weight <= 0:
            return None
        table = self.table
        grid = 1 if table.showGrid() else 0
        # The cell's rectangle as QTableView hands it to the cell's delegate: the grid line's pixel left out, and
        # in a right-to-left table the column moved one pixel over, off the line on its left.
        shift = 1 if grid and table.isRightToLeft() else 0
        left, top = table.columnViewportPosition(self.column) + shift, table.rowViewportPosition(row)
        width, height = table.columnWidth(self.column) - grid, table.rowHeight(row) - grid
        across, down = BAR_INSET  # the cell less its margins, as long as the key's share of it
        return QRectF(left + across, top + down, (width - 2 * across) * min(weight, 1.0), height - 2 * down)

    def _paint(self, event: QPaintEvent) -> None:
        table, area = self.table, event.region().boundingRect()
        left = table.columnViewportPosition(self.column)
        if left > area.right() or left + table.columnWidth(self.column) <= area.left():
            return  # the repaint leaves the weights as they are
        first = max(table.rowAt(area.top()), 0)
        last = table.rowAt(area.bottom())
        last = self.model.rowCount() - 1 if last < 0 else last
        bars = [rect for rect in map(self.bar_rect, range(first, last + 1)) if rect is not None]
        if not bars:
            return
        painter = QPainter(table.viewport())
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._colour)
        for rect in bars:
            painter.drawRect(rect)
        painter.end()
