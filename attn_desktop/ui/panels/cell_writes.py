"""Writing a table's new numbers into a QStandardItemModel: only the rows that changed, told in a few signals.

Used by the score table's model (score_table_model.py): on a drag move it compares the selected
query's numbers with those it last wrote (ShownNumbers), formats and writes only the rows that
moved, and tells its views once per run of changed rows in a column (cell_writes).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel

from attn_desktop.model import HeadReading

# What QStandardItem.setText changes, as the numbers a view is told (plain ints: no enum to convert per signal).
DISPLAY_ROLES = (int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.EditRole))
ALL_ROLES = (-1,)  # a change to what a cell paints that no role names


@dataclass(frozen=True)
class ShownNumbers:
    """The selected query's numbers last written into the cells, to tell which rows a change moved.

    Python lists, not arrays: a drag move compares a handful of rows four times, which NumPy did at
    several calls a comparison and Python does in one pass (n = 64: still a few microseconds)."""

    scores: list[float]
    scaled: list[float]
    weights: list[float]
    percents: list[float]  # the weights as the cells print them, whole percents
    visible: list[bool]

    @classmethod
    def of(cls, scene: HeadReading) -> ShownNumbers:
        result, query = scene.result, scene.selected
        weights = result.weights[query].tolist()
        # language.percent formats weight × 100 to no places: the product rounded half to even, as round() does
        # (a product that is not a finite number kept as it is: it never equals the one before, as NaN does not).
        percents = [round(product) if math.isfinite(product) else product for product in (w * 100 for w in weights)]
        return cls(result.scores[query].tolist(), result.scaled[query].tolist(), weights, percents,
                   result.mask[query].tolist())

    def rows_changed(self, before: ShownNumbers | None, name: str) -> list[int]:
        """The rows whose NAME (or whether they are masked) differs from BEFORE's; every row without BEFORE."""
        now = getattr(self, name)
        if before is None or len(before.visible) != len(self.visible):
            return list(range(len(now)))
        return [row for row, (value, old, seen, was_seen) in enumerate(zip(now, getattr(before, name), self.visible,
                                                                          before.visible, strict=True))
                if value != old or seen != was_seen]


class CellWrites:
    """Writes into the model's items with its signals held, then tells the views in a few signals.

    QStandardItem emits dataChanged for each cell written: a signal per cell, each a repaint
    request the view works out alone. Held, then sent as one dataChanged per run of changed rows
    in a column, the view hears of exactly the same cells.
    """

    def __init__(self, model: QStandardItemModel) -> None:
        self.model = model
        self.changed: dict[int, tuple[set[int], set[int]]] = {}  # column -> (rows, roles)

    def set_text(self, row: int, column: int, text: str) -> None:
        item = self.model.item(row, column)
        if item.text() != text:
            item.setText(text)
            self._note(row, column, DISPLAY_ROLES)

    def mark(self, row: int, column: int) -> None:
        """A change in what the cell paints that no item holds (the bar behind a weight): all its roles."""
        self._note(row, column, ALL_ROLES)

    def _note(self, row: int, column: int, roles: tuple) -> None:
        rows, column_roles = self.changed.setdefault(column, (set(), set()))
        rows.add(row)
        column_roles.update(roles)

    def tell_views(self) -> None:
        tell, index = self.model.dataChanged.emit, self.model.index
        for column, (rows, roles) in sorted(self.changed.items()):
            told = [] if ALL_ROLES[0] in roles else sorted(roles)  # no roles named: any may have changed
            for first, last in runs(sorted(rows)):
                tell(index(first, column), index(last, column), told)


@contextmanager
def cell_writes(model: QStandardItemModel) -> Iterator[CellWrites]:
    """Writes made through the CellWrites given, the views told of them at the end (see CellWrites)."""
    cells = CellWrites(model)
    was_blocked = model.blockSignals(True)
    try:
        yield cells
    finally:
        model.blockSignals(was_blocked)
    if not was_blocked:
        cells.tell_views()


def runs(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted row numbers as runs of consecutive rows: [1, 2, 3, 7] -> [(1, 3), (7, 7)]."""
    found: list[tuple[int, int]] = []
    for row in rows:
        if found and found[-1][1] == row - 1:
            found[-1] = (found[-1][0], row)
        else:
            found.append((row, row))
    return found
