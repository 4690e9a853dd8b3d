"""The score table's rows: one per key, for the selected query.

A QStandardItemModel holds the cell texts in C++, so painting the table asks
Python nothing; the scene's changes are written into the items instead, once
per change (a cell whose text is unchanged is not touched).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel

from ..model import Change, Role, Scene, explain

TOKEN, SCORE, SCALED, WEIGHT = range(4)
WEIGHT_ROLE = Qt.ItemDataRole.UserRole + 1  # the raw weight, for the bar delegate
HEADER_TIPS = [
    "The token whose key is compared with the query",
    "The dot product of the query with this key",
    "The score after dividing by √d_k, the number that enters the softmax",
    "The share of attention this key gets; the column adds up to 100%",
]
NUMBER_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


class ScoreTableModel(QStandardItemModel):
    def __init__(self, scene: Scene, parent=None) -> None:
        super().__init__(parent)
        self.scene = scene
        self._rebuild()
        scene.subscribe(self._on_scene_changed)

    def formula(self, row: int) -> str:
        """The worked dot product for one key, e.g. 'q_sat · k_cat = 2.40 × 2.20 + … = 5.88'."""
        scene = self.scene
        query = scene.vectors(Role.QUERY)[scene.selected]
        return explain.dot_product(scene.selected_token, scene.tokens[row], query, scene.vectors(Role.KEY)[row])

    def tooltip(self, row: int) -> str:
        """What pointing at a row explains; made on demand, not on every drag move."""
        if not self.scene.result.mask[self.scene.selected, row]:
            return f"The causal mask hides {self.scene.tokens[row]} from {self.scene.selected_token}"
        return self.formula(row)

    def _rebuild(self) -> None:
        self.clear()
        self.setColumnCount(4)
        for column, tip in enumerate(HEADER_TIPS):
            header = QStandardItem()
            header.setToolTip(tip)
            self.setHorizontalHeaderItem(column, header)
        for token in self.scene.tokens:
            row = [QStandardItem(token)] + [QStandardItem() for _ in range(3)]
            for item in row:
                item.setEditable(False)
            for item in row[1:]:
                item.setTextAlignment(NUMBER_ALIGNMENT)
            self.appendRow(row)
        self._refresh_header()
        self._refresh_cells()

    def _refresh_header(self) -> None:
        divisor = explain.divisor_header(self.scene.key_width, self.scene.scale)
        self.setHorizontalHeaderLabels(["Key", "q · k", divisor, "Softmax weight"])

    def _refresh_cells(self) -> None:
        scene, result = self.scene, self.scene.result
        query = scene.selected
        for row in range(scene.n_tokens):
            visible = bool(result.mask[query, row])
            weight = float(result.weights[query, row])
            self._set_text(row, SCORE, explain.number(result.scores[query, row]))
            self._set_text(row, SCALED, explain.number(result.scaled[query, row]) if visible else "—")
            self._set_text(row, WEIGHT, explain.percent(weight) if visible else "masked")
            weight_item = self.item(row, WEIGHT)
            if weight_item.data(WEIGHT_ROLE) != (weight if visible else None):
                weight_item.setData(weight if visible else None, WEIGHT_ROLE)

    def _set_text(self, row: int, column: int, text: str) -> None:
        item = self.item(row, column)
        if item.text() != text:
            item.setText(text)

    def _on_scene_changed(self, change: Change) -> None:
        if change & Change.STRUCTURE:
            self._rebuild()
            return
        if change & Change.SETTINGS:
            self._refresh_header()
        if change & (Change.NUMBERS | Change.SELECTION):
            self._refresh_cells()
