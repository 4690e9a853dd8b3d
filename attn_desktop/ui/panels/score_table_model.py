"""The score table's rows: one per key, for the selected query.

A QStandardItemModel holds the cell texts in C++, so painting the table asks
Python nothing; the scene's changes are written into the items instead, once
per change. Only what changed is written: a drag of one key changes that key's
score and every weight, so the rows whose numbers did not move are not even
formatted again, and a cell whose text is unchanged is not touched. The writes
of one change reach the view as a few dataChanged signals, one per run of
changed rows in a column, rather than one per cell (cell_writes); a new set of
tokens resets the model.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel

from attn_desktop.model import Change, HeadReading, Role, Scene, explain
from attn_desktop.ui.scene_link import follow_scene, head_reading
from attn_desktop.ui.view_state.weights_veil import HIDDEN_TEXT, HIDDEN_TIP, WeightsVeil

TOKEN, SCORE, SCALED, WEIGHT = range(4)
WEIGHT_ROLE = Qt.ItemDataRole.UserRole + 1  # the raw weight, for the bar delegate
HEADER_TIPS = [
    "The token whose key is compared with the query",
    "The dot product of the query with this key",
    "The score after dividing by √d_k, the number that enters the softmax",
    "The share of attention this key gets; the column adds up to 100%",
]
NUMBER_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
WEIGHT_HEADERS = ("Softmax weight", "Weight")  # the short one when the column is too narrow for the long one
FORMULA_NAME_CHARS = 12  # longer token names are cut in the worked formula (the tooltip has them whole)
DISPLAY_ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole)  # what QStandardItem.setText changes


def short_name(name: str, limit: int = FORMULA_NAME_CHARS) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


@dataclass(frozen=True)
class ShownNumbers:
    """The selected query's numbers last written into the cells, to tell which rows a change moved."""

    scores: np.ndarray
    scaled: np.ndarray
    weights: np.ndarray
    visible: np.ndarray

    @classmethod
    def of(cls, scene: HeadReading) -> ShownNumbers:
        result, query = scene.result, scene.selected
        return cls(result.scores[query].copy(), result.scaled[query].copy(), result.weights[query].copy(),
                   result.mask[query].astype(bool))

    def rows_changed(self, before: ShownNumbers | None, name: str) -> list[int]:
        """The rows whose NAME (or whether they are masked) differs from BEFORE's; every row without BEFORE."""
        now = getattr(self, name)
        if before is None or len(before.visible) != len(self.visible):
            return list(range(len(now)))
        differs = (now != getattr(before, name)) | (self.visible != before.visible)
        return np.flatnonzero(differs).tolist()


class CellWrites:
    """Writes into the model's items with its signals held, then tells the views in a few signals.

    QStandardItem emits dataChanged for each cell written: 64 signals a move for 64 weights, each
    one a repaint request the view works out alone. Held, then sent as one dataChanged per run of
    changed rows in a column, the view hears of exactly the same cells.
    """

    def __init__(self, model: QStandardItemModel) -> None:
        self.model = model
        self.changed: dict[int, tuple[set[int], set[int]]] = {}  # column -> (rows, roles)

    def set_text(self, row: int, column: int, text: str) -> None:
        item = self.model.item(row, column)
        if item.text() != text:
            item.setText(text)
            self._note(row, column, DISPLAY_ROLES)

    def set_data(self, row: int, column: int, value, role: int) -> None:
        item = self.model.item(row, column)
        if item.data(role) != value:
            item.setData(value, role)
            self._note(row, column, (role,))

    def _note(self, row: int, column: int, roles: tuple) -> None:
        rows, column_roles = self.changed.setdefault(column, (set(), set()))
        rows.add(row)
        column_roles.update(roles)

    def tell_views(self) -> None:
        for column, (rows, roles) in sorted(self.changed.items()):
            for first, last in runs(sorted(rows)):
                self.model.dataChanged.emit(self.model.index(first, column), self.model.index(last, column),
                                            sorted(roles))


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


class ScoreTableModel(QStandardItemModel):
    def __init__(self, scene: Scene | HeadReading, parent=None, veil: WeightsVeil | None = None) -> None:
        super().__init__(parent)
        self.scene = head_reading(scene)
        self.veil = veil if veil is not None else WeightsVeil(self)  # "?" while the student predicts
        self._shown: ShownNumbers | None = None  # None: the cells hold no numbers yet (or "?")
        self._rebuild()
        follow_scene(self, self.scene, self._on_scene_changed)
        self.veil.changed.connect(self._refresh_cells)

    def formula(self, row: int, short_names: bool = False) -> str:
        """The worked dot product for one key, e.g. 'q_sat · k_cat = 2.40 × 2.20 + … = 5.88';
        with short_names, long token names are cut so the numbers keep their room."""
        scene = self.scene
        query = scene.vectors(Role.QUERY)[scene.selected]
        name = short_name if short_names else str
        return explain.dot_product(name(scene.selected_token), name(scene.tokens[row]), query,
                                   scene.vectors(Role.KEY)[row])

    def widest_formula(self) -> str:
        """A formula as long as any this scene can show (names cut, every number long): the room the
        formula keeps, so a longer number mid-drag does not move the table."""
        longest = max(self.scene.tokens, key=len, default="")
        query = max(self.scene.query_tokens, key=len, default="")
        terms = [-88.88] * self.scene.key_width
        return explain.dot_product(short_name(query), short_name(longest), terms, terms)

    def set_weight_header(self, text: str) -> None:
        if self.headerData(WEIGHT, Qt.Orientation.Horizontal) != text:
            self.setHeaderData(WEIGHT, Qt.Orientation.Horizontal, text)

    def tooltip(self, row: int) -> str:
        """What pointing at a row explains; made on demand, not on every drag move."""
        if not self.scene.result.mask[self.scene.selected, row]:
            return f"The causal mask hides {self.scene.tokens[row]} from {self.scene.selected_token}"
        return HIDDEN_TIP if self.veil.on else self.formula(row)

    def _rebuild(self) -> None:
        weight_header = self._weight_header()
        self._shown = None
        self.clear()
        self.setColumnCount(4)
        for column, tip in enumerate(HEADER_TIPS):
            header = QStandardItem()
            header.setToolTip(tip)
            self.setHorizontalHeaderItem(column, header)
        for token in self.scene.tokens:
            row = [QStandardItem(token)] + [QStandardItem() for _ in range(3)]
            row[TOKEN].setToolTip(token)  # a long name is elided in its cell
            for item in row:
                item.setEditable(False)
            for item in row[1:]:
                item.setTextAlignment(NUMBER_ALIGNMENT)
            self.appendRow(row)
        self._refresh_header(weight_header)
        self._refresh_cells()

    def _refresh_header(self, weight_header: str | None = None) -> None:
        divisor = explain.divisor_header(self.scene.key_width, self.scene.scale)
        weight_header = weight_header or self._weight_header()
        self.setHorizontalHeaderLabels(["Key", "q · k", divisor, weight_header])

    def _refresh_cells(self, *_) -> None:
        if self.veil.on:
            self._refresh_veiled_cells()
            return
        now, before = ShownNumbers.of(self.scene), self._shown
        with cell_writes(self) as cells:
            for row in now.rows_changed(before, "scores"):
                cells.set_text(row, SCORE, explain.number(now.scores[row]))
            for row in now.rows_changed(before, "scaled"):
                cells.set_text(row, SCALED, explain.number(now.scaled[row]) if now.visible[row] else "—")
            for row in now.rows_changed(before, "weights"):
                visible, weight = bool(now.visible[row]), float(now.weights[row])
                cells.set_text(row, WEIGHT, explain.percent(weight) if visible else "masked")
                cells.set_data(row, WEIGHT, weight if visible else None, WEIGHT_ROLE)  # the bar's length
        self._shown = now

    def _refresh_veiled_cells(self) -> None:
        """Every score and weight a "?" (masked keys stay masked: that tells nothing), and no bars."""
        self._shown = None  # unveiled, every number is written again
        mask = self.scene.result.mask[self.scene.selected]
        with cell_writes(self) as cells:
            for row in range(self.scene.n_tokens):
                visible = bool(mask[row])
                cells.set_text(row, SCORE, HIDDEN_TEXT)
                cells.set_text(row, SCALED, HIDDEN_TEXT if visible else "—")
                cells.set_text(row, WEIGHT, HIDDEN_TEXT if visible else "masked")
                cells.set_data(row, WEIGHT, None, WEIGHT_ROLE)

    def _weight_header(self) -> str:
        """The weight column's header as chosen by the panel for its width, the long one until then."""
        shown = self.headerData(WEIGHT, Qt.Orientation.Horizontal) if self.columnCount() > WEIGHT else None
        return shown if shown in WEIGHT_HEADERS else WEIGHT_HEADERS[0]

    def _on_scene_changed(self, change: Change) -> None:
        if change & Change.STRUCTURE:
            self._rebuild()
            return
        if change & Change.SETTINGS:
            self._refresh_header()
        if change & (Change.NUMBERS | Change.SELECTION):
            self._refresh_cells()
