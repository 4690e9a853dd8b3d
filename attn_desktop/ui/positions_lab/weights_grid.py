"""A small attention matrix for the Positions lab: the words down the side and along the top, a weight in each cell.

Several of them share a narrow panel, so each fits its width: the cells take what is left beside the
words, and the numbers drop to the compact ".47" (then to colour alone) before they would overflow.
The colours are the Attention matrix panel's (viridis: dark for 0, yellow for 1).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from attn_desktop.language import tr
from attn_desktop.model.shown_numbers import shown_number
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.panels.matrix_cells import DARK_TEXT, DARK_TEXT_FROM, LIGHT_TEXT, viridis_table

MAX_CELL_PX = 44  # wider cells only spread the numbers apart
MIN_CELL_PX = 12
LABEL_GAP_PX = 4
MAX_LABEL_CHARS = 8  # a long word is cut with "…" beside the rows; its tooltip is the matrix's own panel


class WeightsGrid(QWidget):
    def __init__(self, accessible_name: str, parent: QWidget | None = None) -> None:
        """ACCESSIBLE_NAME in English (marked N_ where it is written): a screen reader says it translated."""
        super().__init__(parent)
        self.english_name = accessible_name
        self._reword()
        follow_language(self, self._reword)
        self.tokens: list[str] = []
        self.weights = np.zeros((0, 0))
        self._lut = viridis_table()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_weights(self, tokens: list[str], weights: np.ndarray) -> None:
        self.tokens, self.weights = list(tokens), np.asarray(weights)
        self.updateGeometry()
        self.update()

    def _reword(self) -> None:
        self.setAccessibleName(tr(self.english_name))
        self.update()  # the numbers in the language's decimal mark

    def cell_text(self, row: int, column: int) -> str:
        """The number the cell shows in full (the painted one may be its compact form)."""
        return shown_number(float(self.weights[row, column]))

    # ----- size --------------------------------------------------------------------------------
    def _label_width(self) -> float:
        metrics = QFontMetricsF(self.font())
        return max((metrics.horizontalAdvance(_short(token)) for token in self.tokens), default=0.0) + LABEL_GAP_PX

    def _cell_size(self) -> float:
        n = max(1, len(self.tokens))
        room = (self.width() - self._label_width()) / n
        return max(float(MIN_CELL_PX), min(float(MAX_CELL_PX), room, self._row_height() * 1.8))

    def _row_height(self) -> float:
        return QFontMetricsF(self.font()).height() + 4

    def sizeHint(self) -> QSize:
        n = len(self.tokens)
        return QSize(int(self._label_width() + n * MAX_CELL_PX), int(self._header_height() + n * self._row_height()))

    def minimumSizeHint(self) -> QSize:
        n = len(self.tokens)
        return QSize(int(self._label_width() + n * MIN_CELL_PX), int(self._header_height() + n * self._row_height()))

    def _header_height(self) -> float:
        return QFontMetricsF(self.font()).height() + 2

    # ----- painting ----------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        if not self.tokens or self.weights.shape != (len(self.tokens), len(self.tokens)):
            return
        painter = QPainter(self)
        metrics = QFontMetricsF(self.font())
        left, top = self._label_width(), self._header_height()
        cell, row_height = self._cell_size(), self._row_height()
        compact = metrics.horizontalAdvance("0.00") + 4 > cell
        shows_numbers = metrics.horizontalAdvance(".00") + 2 <= cell
        painter.setPen(self.palette().windowText().color())
        for i, token in enumerate(self.tokens):
            painter.drawText(QRectF(0, top + i * row_height, left - LABEL_GAP_PX, row_height),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, _short(token))
            painter.drawText(QRectF(left + i * cell, 0, cell, top), Qt.AlignmentFlag.AlignCenter,
                             _first_letters(token, metrics, cell))
        for row in range(len(self.tokens)):
            for column in range(len(self.tokens)):
                weight = float(self.weights[row, column])
                box = QRectF(left + column * cell, top + row * row_height, cell - 1, row_height - 1)
                level = int(np.clip(round(weight * 255), 0, 255))
                painter.fillRect(box, QColor(*(int(part) for part in self._lut[level])))
                if shows_numbers:
                    painter.setPen(DARK_TEXT if weight > DARK_TEXT_FROM else LIGHT_TEXT)
                    text = compact_weight(weight) if compact else shown_number(weight)
                    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
        painter.end()


def compact_weight(weight: float) -> str:
    """A weight in at most three characters, ".87" (",87" in Spanish); "1" for what rounds to 1.00."""
    text = shown_number(weight)
    return "1" if text == shown_number(1.0) else text.removeprefix("0")


def _short(token: str) -> str:
    return token if len(token) <= MAX_LABEL_CHARS else token[: MAX_LABEL_CHARS - 1] + "…"


def _first_letters(token: str, metrics: QFontMetricsF, width: float) -> str:
    """As much of a column's word as its cell holds."""
    return metrics.elidedText(token, Qt.TextElideMode.ElideRight, width)
