"""The attention matrix's optional column of row entropies (View → Row Entropy in the Matrix).

Right of the grid, one number per row: how spread that query's weights are, in bits — 0 when one
key takes all, log₂ n when n keys share evenly. The matrix view asks it for its width (the grid
gives up that much room), has it paint the header with the view's other fixed text and the
numbers with the cells' numbers, and asks it for the tooltip over the column.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QStaticText

from attn_desktop.language import N_, tr
from attn_desktop.model import HeadReading
from attn_desktop.model.attention import entropy_bits
from attn_desktop.model.shown_numbers import shown_number

HEADER = N_("bits")  # the column's header, shown as tr(HEADER)
GAP = 8  # between the grid and the column
WIDEST = "8.88"  # log₂ of a few hundred tokens at most

PreparedText = Callable[[str, QFont], tuple[QStaticText, float, float]]  # text, half width, half height


class EntropyColumn:
    def __init__(self, reading: HeadReading) -> None:
        self.reading = reading
        self.shown = False

    def text(self, row: int) -> str:
        return shown_number(float(entropy_bits(self.reading.result.weights[row])))

    def width(self, font: QFont) -> float:
        """The room the column takes right of the grid: 0 while it is not shown."""
        if not self.shown:
            return 0.0
        metrics = QFontMetricsF(font)
        return GAP + max(metrics.horizontalAdvance(tr(HEADER)), metrics.horizontalAdvance(WIDEST)) + 4

    def paint_header(self, painter: QPainter, grid: QRectF, font: QFont, color: QColor) -> None:
        if not self.shown:
            return
        line = QFontMetricsF(font).height()
        header = QRectF(grid.right() + GAP, grid.top() - line - 2, self.width(font) - GAP, line)
        painter.setPen(color)
        painter.drawText(header, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom, tr(HEADER))

    def paint_numbers(self, painter: QPainter, grid: QRectF, view_font: QFont, cell_font: QFont,
                      color: QColor, prepared: PreparedText) -> None:
        """Each row's entropy, right-aligned in the column, in the cells' font (laid out once, like theirs)."""
        if not self.shown:
            return
        size = grid.height() / self.reading.n_queries
        right = grid.right() + self.width(view_font) - 4
        painter.setPen(color)
        for row, bits in enumerate(entropy_bits(self.reading.result.weights)):
            text, half_width, half_height = prepared(shown_number(float(bits)), cell_font)
            painter.drawStaticText(QPointF(right - 2 * half_width, grid.top() + (row + 0.5) * size - half_height), text)

    def tip_at(self, point: QPointF, grid: QRectF, font: QFont) -> str | None:
        """What the number under POINT means, or None off the column."""
        if not self.shown or not grid.right() < point.x() <= grid.right() + self.width(font):
            return None
        if not grid.top() <= point.y() < grid.bottom():
            return None
        reading = self.reading
        row = min(int((point.y() - grid.top()) / (grid.height() / reading.n_queries)), reading.n_queries - 1)
        seen = int(reading.result.mask[row].sum())
        even = shown_number(float(np.log2(max(seen, 1))))
        return tr("Entropy of {query}'s weights: {bits} bits (0 when one key takes all; {even} when all {count} "
                  "share evenly)").format(query=reading.query_tokens[row], bits=self.text(row), even=even, count=seen)
