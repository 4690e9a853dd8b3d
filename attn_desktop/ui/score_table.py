"""The score table panel: q·k, the scaled score and the weight for every key.

Pointing at a row (or selecting it) shows the worked dot product underneath
and highlights that key and its value on the canvas.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableView,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from ..model import Change, Scene
from .score_table_model import ScoreTableModel
from .weight_bar_delegate import WeightBarDelegate


class ScoreTablePanel(QWidget):
    def __init__(self, scene: Scene, parent=None) -> None:
        super().__init__(parent)
        self.scene = scene
        self.model = ScoreTableModel(scene, self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(3, WeightBarDelegate(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setTextElideMode(Qt.TextElideMode.ElideRight)  # "Softmax we…", not "oftmax weigh"
        self.table.setMouseTracking(True)
        self.table.entered.connect(self._on_row_pointed)
        self.table.viewport().installEventFilter(self)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row_changed)

        self.formula_label = QLabel(self)
        self.formula_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.formula_label.setWordWrap(True)
        # Room for two lines, fixed: a longer formula must not shrink the table mid-drag.
        self.formula_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.formula_label.setAutoFillBackground(True)
        self.formula_label.setToolTip("The worked dot product for the pointed-at key (or the strongest one)")

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.table)
        layout.addWidget(self.formula_label)
        self._pointed_row: int | None = None
        self._fit_to_font()
        scene.subscribe(self._on_scene_changed)
        self._update_formula()

    def _fit_to_font(self) -> None:
        """Row height, the number columns and the formula's two lines follow the font, which presentation
        mode enlarges; the weight column (its header is the longest) takes what is left."""
        metrics = self.table.fontMetrics()
        self.table.verticalHeader().setDefaultSectionSize(metrics.height() + 10)
        # Set again each time: a new scene resets the model's columns, and their modes with them.
        header = self.table.horizontalHeader()
        for column in (0, 1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)  # the weight and its bar take the rest
        widest_token = max((metrics.horizontalAdvance(token) for token in self.scene.tokens), default=0)
        widths = {0: widest_token, 1: metrics.horizontalAdvance("−88.88"), 2: metrics.horizontalAdvance("−88.88")}
        for column, width in widths.items():  # room for the contents or the header ("÷ 1 (off)"), if wider
            title = str(self.model.headerData(column, Qt.Orientation.Horizontal) or "")
            header.resizeSection(column, max(width, metrics.horizontalAdvance(title)) + 12)
        self.formula_label.setFixedHeight(2 * self.formula_label.fontMetrics().lineSpacing() + 6)

    def changeEvent(self, event) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._fit_to_font()
        super().changeEvent(event)

    # ----- the row the formula explains --------------------------------
    def formula_row(self) -> int:
        """The pointed-at row, else the selected row, else the key with the most weight."""
        if self._pointed_row is not None:
            return self._pointed_row
        current = self.table.selectionModel().currentIndex()
        if current.isValid():
            return current.row()
        return int(np.argmax(self.scene.selected_weights))

    def _update_formula(self) -> None:
        if self.scene.n_tokens:
            self.formula_label.setText(self.model.formula(self.formula_row()))

    def _on_row_pointed(self, index: QModelIndex) -> None:
        self._pointed_row = index.row()
        self.scene.highlight_key(index.row())
        self._update_formula()

    def _on_current_row_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        if current.isValid() and self._pointed_row is None:
            self.scene.highlight_key(current.row())
        self._update_formula()

    def eventFilter(self, watched, event) -> bool:
        if watched is self.table.viewport() and event.type() == QEvent.Type.ToolTip:
            index = self.table.indexAt(event.pos())
            if index.isValid() and index.column() != 0:
                QToolTip.showText(event.globalPos(), self.model.tooltip(index.row()), self.table)
                return True
        if watched is self.table.viewport() and event.type() == QEvent.Type.Leave:
            self._pointed_row = None
            current = self.table.selectionModel().currentIndex()
            self.scene.highlight_key(current.row() if current.isValid() else None)
            self._update_formula()
        return super().eventFilter(watched, event)

    def _on_scene_changed(self, change: Change) -> None:
        if change & (Change.STRUCTURE | Change.SETTINGS):
            self._fit_to_font()  # the divisor's header changes with scaling and the key width
        if change & Change.STRUCTURE:
            self._pointed_row = None
        if change & (Change.NUMBERS | Change.SELECTION):
            self._update_formula()
