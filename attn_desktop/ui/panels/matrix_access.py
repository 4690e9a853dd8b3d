"""The attention matrix as a screen reader meets it: a table whose painted cells are its accessible children,
the keys' tokens as column headers, the queries' as row headers, each cell named "it → cat: 0.84" in the
language's numbers ("masked …" where the causal mask hides the key, the veil's words while the student
predicts). The children are listed as a table is read: the column headers, then each row's header and cells.

PySide6 has no binding for QAccessibleTableInterface, so the table is told by roles (Table, ColumnHeader,
RowHeader, Cell) and names; a screen reader reads the cells in order with the query and key in each name.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QRect, QRectF
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QWidget

from attn_desktop.language import tr
from attn_desktop.model import Change, HeadReading
from attn_desktop.model.shown_numbers import shown_number
from attn_desktop.ui.accessibility.painted_items import PaintedItems
from attn_desktop.ui.scene_link import follow_scene
from attn_desktop.ui.view_state.weights_veil import HIDDEN_TIP, WeightsVeil


class MatrixAccess(QObject):
    """The matrix's ItemSource (painted_items.py): n column headers, then per query its row header and n cells."""

    def __init__(self, matrix: QWidget, reading: HeadReading, veil: WeightsVeil, grid_rect: Callable[[], QRectF],
                 cell_rect: Callable[[int, int], QRectF]) -> None:
        """The matrix's parts it reads: the head it shows, its veil, and where its grid and cells are painted."""
        super().__init__(matrix)
        self.reading, self.veil, self.grid_rect, self.cell_rect = reading, veil, grid_rect, cell_rect
        self.items = PaintedItems(matrix, self)
        follow_scene(self, reading, self._on_scene_changed, follows=Change.STRUCTURE | Change.SELECTION)

    def _place(self, index: int) -> tuple[int, int]:
        """(row, column) of child INDEX: row -1 for a column header, column -1 for a row header."""
        columns = self.reading.n_tokens
        if index < columns:
            return -1, index
        row, position = divmod(index - columns, columns + 1)
        return row, position - 1

    # ----- ItemSource ---------------------------------------------------------
    def item_count(self) -> int:
        reading = self.reading
        return reading.n_tokens + reading.n_queries * (reading.n_tokens + 1)

    def item_role(self, index: int) -> QAccessible.Role:
        row, column = self._place(index)
        if row < 0:
            return QAccessible.Role.ColumnHeader
        return QAccessible.Role.RowHeader if column < 0 else QAccessible.Role.Cell

    def item_name(self, index: int) -> str:
        reading = self.reading
        row, column = self._place(index)
        if row < 0:
            return reading.tokens[column]
        if column < 0:
            return reading.query_tokens[row]
        return self.cell_name(row, column)

    def cell_name(self, row: int, column: int) -> str:
        """"it → cat: 0.84": the weight query ROW gives key COLUMN, as a screen reader reads the cell."""
        reading = self.reading
        query, key = reading.query_tokens[row], reading.tokens[column]
        if not reading.result.mask[row, column]:
            return tr("{query} → {key}: masked (a query sees only itself and earlier tokens)").format(query=query, key=key)
        weight = tr(HIDDEN_TIP) if self.veil.on else shown_number(float(reading.result.weights[row, column]))
        return tr("{query} → {key}: {weight}").format(query=query, key=key, weight=weight)

    def item_description(self, index: int) -> str:
        return ""

    def item_rect(self, index: int) -> QRect:
        row, column = self._place(index)
        grid = self.grid_rect()
        size = grid.width() / max(self.reading.n_tokens, 1)
        if row < 0:  # the column's names stand above the grid
            return QRectF(grid.left() + column * size, 0.0, size, grid.top()).toAlignedRect()
        if column < 0:  # the row's name, left of the grid
            return QRectF(0.0, grid.top() + row * size, grid.left(), size).toAlignedRect()
        return self.cell_rect(row, column).toAlignedRect()

    def focused_item(self) -> int | None:
        """The chosen query's row header: the matrix's arrow keys choose the query."""
        reading = self.reading
        return reading.n_tokens + reading.selected * (reading.n_tokens + 1)

    # ----- changes --------------------------------------------------------------
    def _on_scene_changed(self, change: Change) -> None:
        if change & Change.STRUCTURE:
            self.items.items_changed()
        elif change & Change.SELECTION and (focused := self.focused_item()) is not None:
            self.items.focus_moved(focused)
