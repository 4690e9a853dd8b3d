"""One cross-attention head on one sentence: a grid of shaded cells, a row for each word the decoder writes and a
column for each source word it can read, the words written beside the rows and above the columns.

Row t is the position that writes target word t (the last writes <eos>); its cells are what that position puts on
each source word, from white (0) to dark (1), as the induction squares are shaded (attention_heatmap.shade), with
the weight written in a cell wide enough for it. A crossing shows as two cells off the diagonal: "black" reads
"negro", "cat" reads "gato". A head knocked out still computes its weights but writes nothing: drawn faded.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QHelpEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from attn_desktop.geometry.colour_difference import contrast_ratio
from attn_desktop.language import number, tr
from attn_desktop.ui.training.attention_heatmap import EMPTY_COLOR, KNOCKED_OUT_OPACITY, KNOCKED_OUT_TEXT, shade

MAX_CELL_PX = 46  # wider cells only spread the picture; the column's width goes to the curves instead
GAP_PX = 4  # between the words and the cells
DARK_TEXT, LIGHT_TEXT = QColor("#000000"), QColor("#FFFFFF")


def figure_colour(weight: float) -> QColor:
    """The colour of the figure written in a cell of this weight: black or white, whichever stands out more from its
    shade (the two are equal near a weight of 0.66, both at 4.58 : 1, so every figure has at least that)."""
    background = rgb_of(shade(weight))
    return max((DARK_TEXT, LIGHT_TEXT), key=lambda text: contrast_ratio(rgb_of(text), background))


def rgb_of(color: QColor) -> tuple[int, int, int]:
    return color.red(), color.green(), color.blue()


class CrossAttentionMatrix(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._weights = np.zeros((0, 0))
        self._rows: list[str] = []
        self._columns: list[str] = []
        self.knocked_out = False
        # Rows down and source words left to right, in Arabic too (as the window's attention matrix): the words are
        # the toy language's, and a mirrored widget would also align them to the far end of their boxes, cut.
        self.setLayoutDirection(Qt.LayoutDirection.LeftToRight)
        self.setAccessibleName(tr("Cross-attention: the words written by the words read"))
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    # ----- what it shows (also what the tests read) ---------------------------------------------
    def show_weights(self, weights: np.ndarray, rows: Sequence[str], columns: Sequence[str], knocked_out: bool) -> None:
        """WEIGHTS (len(ROWS) × len(COLUMNS)): target words by source words; faded when the head is KNOCKED_OUT."""
        self._weights = np.array(weights, dtype=np.float64)
        self._rows, self._columns = list(rows), list(columns)
        self.knocked_out = knocked_out
        self.setAccessibleDescription(self.summary())
        self.updateGeometry()
        self.update()

    def clear(self) -> None:
        self.show_weights(np.zeros((0, 0)), [], [], False)

    def shown(self) -> tuple[np.ndarray, list[str], list[str]]:
        """(weights, row words, column words) as drawn."""
        return self._weights.copy(), list(self._rows), list(self._columns)

    def summary(self) -> str:
        """For a screen reader: the source word each written word reads most, "black reads negro (0.75); …"."""
        # Translators: a screen reader's summary of the cross-attention matrix, one part per word written.
        return "; ".join(tr("{target} reads {source} ({weight})").format(
            target=row, source=self._columns[int(np.argmax(weights))], weight=number(float(np.max(weights)), 2))
            for row, weights in zip(self._rows, self._weights))

    def cell_text(self, row: int, column: int) -> str:
        """What hovering a cell says: "black → negro: 0.75"."""
        return f"{self._rows[row]} → {self._columns[column]}: {number(float(self._weights[row, column]), 2)}"

    # ----- geometry ----------------------------------------------------------------------------------
    def _row_label_width(self) -> float:
        metrics = QFontMetricsF(self.font())
        return max((metrics.horizontalAdvance(word) for word in self._rows), default=0.0) + GAP_PX

    def _column_label_height(self) -> float:
        """The column words stand upright (read bottom to top): seven of them fit a narrow dock."""
        metrics = QFontMetricsF(self.font())
        return max((metrics.horizontalAdvance(word) for word in self._columns), default=0.0) + 2 * GAP_PX

    def _cell_side(self, width: int) -> float:
        if not self._columns:
            return 0.0
        return max(1.0, min(MAX_CELL_PX, (width - 1 - self._row_label_width()) / len(self._columns)))

    def cell_side(self) -> float:
        """A cell's side as drawn now, in pixels."""
        return self._cell_side(self.width())

    def _grid(self) -> QRectF:
        side = self._cell_side(self.width())
        return QRectF(self._row_label_width(), self._column_label_height(), side * len(self._columns),
                      side * len(self._rows))

    # ----- drawing -----------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        grid = self._grid()
        if self._rows and self._columns:
            self._paint_words(painter, grid)
            if self.knocked_out:
                painter.setOpacity(KNOCKED_OUT_OPACITY)
            self._paint_cells(painter, grid)
            painter.setOpacity(1.0)
            painter.setPen(self.palette().mid().color())
            painter.drawRect(grid)
            if self.knocked_out:
                self._paint_knocked_out(painter, grid)
        painter.end()

    def _paint_words(self, painter: QPainter, grid: QRectF) -> None:
        painter.setPen(self.palette().text().color())
        side = grid.height() / len(self._rows)
        for row, word in enumerate(self._rows):
            box = QRectF(0, grid.top() + row * side, grid.left() - GAP_PX, side)
            painter.drawText(box, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignAbsolute | Qt.AlignmentFlag.AlignVCenter,
                             word)
        for column, word in enumerate(self._columns):
            painter.save()
            painter.translate(QPointF(grid.left() + (column + 0.5) * side, grid.top() - GAP_PX))
            painter.rotate(-90)
            height = QFontMetricsF(self.font()).height()
            painter.drawText(QRectF(0, -height / 2, grid.top(), height),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignAbsolute | Qt.AlignmentFlag.AlignVCenter,
                             word)
            painter.restore()

    def _paint_knocked_out(self, painter: QPainter, grid: QRectF) -> None:
        """"knocked out" on a plain patch across the faded cells (their figures would show through the words)."""
        metrics = QFontMetricsF(self.font())
        text = tr(KNOCKED_OUT_TEXT)
        patch = QRectF(0, 0, metrics.horizontalAdvance(text) + metrics.height(), 1.4 * metrics.height())
        patch.moveCenter(grid.center())
        painter.fillRect(patch, self.palette().base())
        painter.setPen(self.palette().text().color())
        painter.drawRect(patch)
        painter.drawText(patch, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_cells(self, painter: QPainter, grid: QRectF) -> None:
        side = grid.height() / len(self._rows)
        metrics = QFontMetricsF(self.font())
        write_figures = metrics.horizontalAdvance("0.00") + 4 <= side
        painter.fillRect(grid, EMPTY_COLOR)
        for row in range(len(self._rows)):
            for column in range(len(self._columns)):
                weight = float(self._weights[row, column])
                cell = QRectF(grid.left() + column * side, grid.top() + row * side, side + 0.5, side + 0.5)
                painter.fillRect(cell, shade(weight))
                if write_figures:
                    painter.setPen(figure_colour(weight))
                    painter.drawText(cell, Qt.AlignmentFlag.AlignCenter, number(weight, 2))

    def _cell_at(self, point: QPoint) -> tuple[int, int] | None:
        grid = self._grid()
        if not self._rows or not grid.contains(point.toPointF()):
            return None
        side = grid.height() / len(self._rows)
        row = min(int((point.y() - grid.top()) / side), len(self._rows) - 1)
        column = min(int((point.x() - grid.left()) / side), len(self._columns) - 1)
        return row, column

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QHelpEvent.Type.ToolTip:
            cell = self._cell_at(event.pos())
            if cell is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), self.cell_text(*cell), self)
            return True
        return super().event(event)

    # ----- size --------------------------------------------------------------------------------------
    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return int(self._column_label_height() + self._cell_side(width) * len(self._rows)) + 2

    def minimumSizeHint(self) -> QSize:
        line = QFontMetricsF(self.font()).height()
        return QSize(int(self._row_label_width() + 7 * 1.6 * line), int(4 * line))

    def sizeHint(self) -> QSize:
        width = int(self._row_label_width() + MAX_CELL_PX * max(len(self._columns), 4)) + 1
        return QSize(width, self.heightForWidth(width))
