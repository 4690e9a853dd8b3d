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


class ScoreTableBars(QObject):
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

    def _paint(self, event: QPaintEvent) -> None:
        table, column, area = self.table, self.column, event.rect()
        left, width = table.columnViewportPosition(column), table.columnWidth(column)
        if left > area.right() or left + width <= area.left():
            return  # the repaint leaves the weights as they are
        first = max(table.rowAt(area.top()), 0)
        last = table.rowAt(area.bottom())
        bars = self._bars(left, width, first, self.model.rowCount() - 1 if last < 0 else last)
        if bars:
            painter = QPainter(table.viewport())
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self._colour)
            painter.drawRects(bars)
            painter.end()

    def _bars(self, left: int, width: int, first: int, last: int) -> list[QRectF]:
        """The bars of rows FIRST to LAST (none for a masked key, or while the weights are veiled): each in the
        rectangle QTableView hands its cell's delegate, less the bar's margins, as long as the key's share."""
        table, bar_weight = self.table, self.model.bar_weight
        grid = 1 if table.showGrid() else 0
        # The grid line's pixel left out of each cell; in a right-to-left table the cell is one pixel over,
        # off the line on its left.
        shift = 1 if grid and table.isRightToLeft() else 0
        across, down = BAR_INSET
        room = width - grid - 2 * across
        bars = []
        for row in range(first, last + 1):
            weight = bar_weight(row)
            if weight is not None and weight > 0:
                bars.append(QRectF(left + shift + across, table.rowViewportPosition(row) + down,
                                   room * min(weight, 1.0), table.rowHeight(row) - grid - 2 * down))
        return bars
