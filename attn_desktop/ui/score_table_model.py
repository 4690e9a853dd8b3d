"""The score table's rows: one per key, for the selected query."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from ..model import Change, Role, Scene, explain

TOKEN, SCORE, SCALED, WEIGHT = range(4)
WEIGHT_ROLE = Qt.ItemDataRole.UserRole + 1  # the raw weight, for the bar delegate
NO_PARENT = QModelIndex()  # a flat table: rows have no parent


class ScoreTableModel(QAbstractTableModel):
    def __init__(self, scene: Scene, parent=None) -> None:
        super().__init__(parent)
        self.scene = scene
        scene.subscribe(self._on_scene_changed)

    def rowCount(self, parent=NO_PARENT) -> int:
        return 0 if parent.isValid() else self.scene.n_tokens

    def columnCount(self, parent=NO_PARENT) -> int:
        return 0 if parent.isValid() else 4

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return ["Key", "q · k", explain.divisor_header(self.scene.key_width, self.scene.scale), "Softmax weight"][
                section
            ]
        if role == Qt.ItemDataRole.ToolTipRole:
            return [
                "The token whose key is compared with the query",
                "The dot product of the query with this key",
                "The score after dividing by √d_k, the number that enters the softmax",
                "The share of attention this key gets; the column adds up to 100%",
            ][section]
        return None

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row, column = index.row(), index.column()
        result, query = self.scene.result, self.scene.selected
        visible = bool(result.mask[query, row])
        if role == Qt.ItemDataRole.DisplayRole:
            if column == TOKEN:
                return self.scene.tokens[row]
            if column == SCORE:
                return explain.number(result.scores[query, row])
            if column == SCALED:
                return explain.number(result.scaled[query, row]) if visible else "—"
            return explain.percent(result.weights[query, row]) if visible else "masked"
        if role == WEIGHT_ROLE and column == WEIGHT:
            return float(result.weights[query, row]) if visible else None
        if role == Qt.ItemDataRole.TextAlignmentRole and column != TOKEN:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            if not visible:
                return f"The causal mask hides {self.scene.tokens[row]} from {self.scene.selected_token}"
            return self.formula(row)
        return None

    def formula(self, row: int) -> str:
        """The worked dot product for one key, e.g. 'q_sat · k_cat = 2.40 × 2.20 + … = 5.88'."""
        scene = self.scene
        query = scene.vectors(Role.QUERY)[scene.selected]
        return explain.dot_product(scene.selected_token, scene.tokens[row], query, scene.vectors(Role.KEY)[row])

    def _on_scene_changed(self, change: Change) -> None:
        if change & Change.STRUCTURE:
            self.beginResetModel()
            self.endResetModel()
            return
        if change & Change.SETTINGS:
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, SCALED, SCALED)
        if change & (Change.NUMBERS | Change.SELECTION) and self.rowCount():
            self.dataChanged.emit(self.index(0, SCORE), self.index(self.rowCount() - 1, WEIGHT))
