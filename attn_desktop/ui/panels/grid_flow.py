"""Titled grids side by side while they fit, the rest on the next row when they do not.

A trained head's W_Q, W_K and W_V hold numbers such as -0.383 in every cell: three of them side by
side need more width than the Grids dock has beside the canvas, and a squeezed column shows "0...."
instead of the number. Each grid keeps the width its numbers need, and the grids that do not fit
beside the first go under it (the Grids panel scrolls down to them).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QLayout, QVBoxLayout, QWidget


class GridFlow(QWidget):
    # The least room to keep in view: minimumSizeHint's width, and one whole row of grids.
    least_room_changed = Signal(QSize)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cards: list[QWidget] = []
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setHorizontalSpacing(4)
        # The flow's width is the dock's, whatever the arrangement: it never holds the dock wider.
        self.grid.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        self.per_row = 0
        self.least_room = QSize()

    def add(self, title: QLabel, table: QWidget) -> None:
        card = QWidget(self)
        column = QVBoxLayout(card)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(title)
        column.addWidget(table)
        self.cards.append(card)
        self.rearrange()

    def rearrange(self) -> None:
        """Place the grids again for the flow's width (called when their numbers change width too)."""
        least_room = QSize(self.minimumSizeHint().width(), max(card.minimumSizeHint().height() for card in self.cards))
        if least_room != self.least_room:
            self.least_room = least_room
            self.least_room_changed.emit(least_room)
        per_row = max((count for count in range(1, len(self.cards) + 1) if self._row_width(count) <= self.width()),
                      default=1)
        if per_row == self.per_row:
            return
        self.per_row = per_row
        for card in self.cards:
            self.grid.removeWidget(card)
        for index, card in enumerate(self.cards):
            self.grid.addWidget(card, index // per_row, index % per_row)
        for column in range(len(self.cards)):  # the columns in use share the width; the others take none
            self.grid.setColumnStretch(column, 1 if column < per_row else 0)
        self.updateGeometry()

    def _row_width(self, per_row: int) -> int:
        """The width PER_ROW grids a row need: each column as wide as the widest grid placed in it."""
        widths = [card.minimumSizeHint().width() for card in self.cards]
        columns = [max(widths[column::per_row]) for column in range(per_row)]
        return sum(columns) + max(self.grid.horizontalSpacing(), 0) * (per_row - 1)

    def minimumSizeHint(self) -> QSize:
        """Room for the grids side by side, up to a lesson's three grids of two columns of "0.000" (the
        window's layout gives the Grids dock its width from this); at least the widest grid; as tall as
        the grids' rows are now."""
        if not self.cards:
            return QSize()
        spacing = max(self.grid.horizontalSpacing(), 0)
        lessons_grids = len(self.cards) * (2 * self.fontMetrics().horizontalAdvance("0.000") + 30 + spacing)
        width = max(min(self._row_width(len(self.cards)), lessons_grids), self._row_width(1))
        return QSize(width, self.grid.minimumSize().height())

    def sizeHint(self) -> QSize:
        return self.minimumSizeHint().expandedTo(QSize(self.grid.sizeHint().width(), 0))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.rearrange()
