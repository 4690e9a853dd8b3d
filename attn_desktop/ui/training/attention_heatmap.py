"""One head's attention on one sequence as a small square of shaded cells: row i is query i, column j key j.

The induction example has 20 letters, so a cell is a few pixels: no numbers in the cells (hovering one
says its query, key and weight), just a shade from white (0) to dark (1), so the previous-token diagonal
and the induction stripe show at a glance. Keys a causal query cannot see are hatched. A head knocked out
still computes its weights but writes nothing: its square is drawn faded and says so.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QEvent, QPoint, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QHelpEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from attn_desktop.language import N_, number, tr

FULL_COLOR = QColor("#08306B")  # weight 1
EMPTY_COLOR = QColor("#FFFFFF")  # weight 0
HIDDEN_COLOR = QColor("#E4E4E4")  # a key the causal mask hides
KNOCKED_OUT_OPACITY = 0.25
LEAST_SIDE_PX = 100  # a smaller square no longer shows its stripe to a class: the left column widens instead
# Translators: written across the square of a head knocked out (Training panel, induction).
KNOCKED_OUT_TEXT = N_("knocked out")


def shade(weight: float) -> QColor:
    """White for 0, FULL_COLOR for 1, in between in proportion."""
    weight = float(np.clip(weight, 0.0, 1.0))
    empty = (EMPTY_COLOR.red(), EMPTY_COLOR.green(), EMPTY_COLOR.blue())
    full = (FULL_COLOR.red(), FULL_COLOR.green(), FULL_COLOR.blue())
    return QColor(*(round(e + weight * (f - e)) for e, f in zip(empty, full, strict=True)))


class AttentionHeatmap(QWidget):
    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.set_name(name)
        self._weights = np.zeros((0, 0))
        self._labels: list[str] = []
        self.knocked_out = False
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def set_name(self, name: str) -> None:
        """NAME: the head's, as the panel writes it ("Layer 1 · head 1")."""
        self.name = name
        # Translators: a screen reader's name for a head's attention square ("Layer 1 · head 1: attention").
        self.setAccessibleName(tr("{head}: attention").format(head=name))

    # ----- what it shows (also what the tests read) ---------------------------------------------
    def show_weights(self, weights: np.ndarray, labels: Sequence[str], knocked_out: bool) -> None:
        """Show WEIGHTS (L × L) with its tokens' LABELS; faded when the head is KNOCKED_OUT."""
        self._weights = np.array(weights, dtype=np.float64)
        self._labels = list(labels)
        self.knocked_out = knocked_out
        self.update()

    def clear(self) -> None:
        self.show_weights(np.zeros((0, 0)), [], False)

    def shown_weights(self) -> np.ndarray:
        return self._weights.copy()

    def cell_text(self, query: int, key: int) -> str:
        """What hovering a cell says: "query 12 (D) → key 3 (K): 0.93"."""
        # Translators: hovering a cell of a head's attention square: "Layer 1 · head 1: query 12 (D) → key 3 (K): 0.93".
        return tr("{head}: query {query} ({query_token}) → key {key} ({key_token}): {weight}").format(
            head=self.name, query=query, query_token=self._labels[query], key=key, key_token=self._labels[key],
            weight=number(float(self._weights[query, key]), 2))

    # ----- drawing ---------------------------------------------------------------------------------
    def _square(self) -> QRectF:
        side = min(self.width(), self.height()) - 1
        return QRectF((self.width() - side) / 2, 0, side, side)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        square = self._square()
        painter.fillRect(square, EMPTY_COLOR)
        n = self._weights.shape[0]
        if n:
            if self.knocked_out:
                painter.setOpacity(KNOCKED_OUT_OPACITY)
            self._paint_cells(painter, square, n)
            painter.setOpacity(1.0)
        painter.setPen(self.palette().mid().color())
        painter.drawRect(square)
        if self.knocked_out:
            painter.setPen(self.palette().text().color())
            painter.drawText(square, Qt.AlignmentFlag.AlignCenter, tr(KNOCKED_OUT_TEXT))
        painter.end()

    def _paint_cells(self, painter: QPainter, square: QRectF, n: int) -> None:
        cell = square.width() / n
        for query in range(n):
            for key in range(n):
                rect = QRectF(square.left() + key * cell, square.top() + query * cell, cell + 0.5, cell + 0.5)
                hidden = key > query and self._weights[query, key] == 0.0
                painter.fillRect(rect, HIDDEN_COLOR if hidden else shade(self._weights[query, key]))

    def _cell_at(self, point: QPoint) -> tuple[int, int] | None:
        n = self._weights.shape[0]
        square = self._square()
        if not n or not square.contains(point.toPointF()):
            return None
        cell = square.width() / n
        key = min(int((point.x() - square.left()) / cell), n - 1)
        query = min(int((point.y() - square.top()) / cell), n - 1)
        return query, key

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
        return width

    def minimumSizeHint(self) -> QSize:
        side = max(LEAST_SIDE_PX, int(5 * QFontMetricsF(self.font()).height()))
        return QSize(side, side)

    def sizeHint(self) -> QSize:
        side = int(9 * QFontMetricsF(self.font()).height())
        return QSize(side, side)
