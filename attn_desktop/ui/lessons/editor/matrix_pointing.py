"""Adding an exercise by pointing: while a lesson is being written, the main window's attention matrix offers
"Ask for This Weight in the Lesson" on a cell, by the mouse (right-click) and by the keys.

By the keys: ↑ and ↓ choose the query's row, as always; the context-menu key (Menu, or Shift+F10) then lists
each key of that row ("Ask for the Weight it Gives cat"). Watching the matrix's events from outside keeps the
matrix itself unaware of lessons being written.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QContextMenuEvent, QKeyEvent
from PySide6.QtWidgets import QMenu

from attn_desktop.language import tr
from attn_desktop.ui.panels.matrix_view import MatrixView

AskForWeight = Callable[[int, int, tuple[int, int]], object]  # (row, column, (layer, head)) of the matrix


class MatrixPointing(QObject):
    def __init__(self, matrix: MatrixView, ask_for_weight: AskForWeight, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.matrix, self.ask_for_weight = matrix, ask_for_weight
        self.on = False  # only while a lesson is being written
        matrix.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not self.on or watched is not self.matrix:
            return False
        if event.type() == QEvent.Type.ContextMenu:
            assert isinstance(event, QContextMenuEvent)
            cell = self.matrix.cell_at(QPointF(event.pos()))
            if event.reason() == QContextMenuEvent.Reason.Mouse and cell is not None:
                self._offer_cell(*cell, event.globalPos())
            else:
                self._offer_row()
            return True
        if event.type() == QEvent.Type.KeyPress and _is_context_menu_key(event):
            self._offer_row()
            return True
        return False

    def _offer_cell(self, row: int, column: int, where: QPoint) -> None:
        menu = QMenu(self.matrix)
        ask = menu.addAction(tr("Ask for This Weight in the Lesson"))
        at = self.matrix.reading.location
        ask.triggered.connect(lambda: self.ask_for_weight(row, column, at))
        menu.exec(where)
        menu.deleteLater()

    def _offer_row(self) -> None:
        """Each key of the chosen query's row, one entry each: the keys' way to point at a cell."""
        reading = self.matrix.reading
        row, at = reading.selected, reading.location
        menu = QMenu(self.matrix)
        menu.setAccessibleName(tr("Ask for a weight of {query}'s row").format(query=reading.query_tokens[row]))
        for column, key in enumerate(reading.tokens):
            ask = menu.addAction(tr("Ask for the Weight {query} Gives {key}").format(
                query=reading.query_tokens[row], key=key))
            ask.triggered.connect(lambda _checked=False, column=column: self.ask_for_weight(row, column, at))
        menu.exec(self.matrix.mapToGlobal(self.matrix.cell_rect(row, 0).center().toPoint()))
        menu.deleteLater()


def _is_context_menu_key(event: QEvent) -> bool:
    assert isinstance(event, QKeyEvent)
    key, modifiers = event.key(), event.modifiers()
    return key == Qt.Key.Key_Menu or (key == Qt.Key.Key_F10 and modifiers == Qt.KeyboardModifier.ShiftModifier)
