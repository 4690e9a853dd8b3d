"""One head's attention matrix after a generation step, the cached rows faded and the new row lit.

With the key-value cache, a step computes only the new token's query row: the keys and values of the
earlier tokens were kept from the steps before. So the rows above stay as they were (drawn a little
faded: nothing new was computed for them) and the new row(s) at the bottom are outlined. Colours as the
Attention matrix panel and the head thumbnails: viridis, dark for 0, yellow for 1, masked cells grey.

Painted from one small image scaled with nearest pixels, in a square about eight text lines high.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QRectF
from PySide6.QtGui import QColor, QImage, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from attn_desktop.language import tr
from attn_desktop.ui.pretrained.pattern_thumbnails import MARK_COLOR
from attn_desktop.ui.pretrained.thumbnail_images import MASKED_LEVEL, MASKED_RGB

MAX_SIDE = 160  # px: with the step's sentence beside it in the Model heads column
MIN_SIDE = 80
CACHED_VEIL = QColor(255, 255, 255, 80)  # over the cached rows: seen, but plainly not the news


def viridis_table() -> list[int]:
    """The thumbnails' colour table: viridis for levels 0..254, grey for the masked level 255."""
    lut = np.asarray(pg.colormap.get("viridis").getLookupTable(0.0, 1.0, MASKED_LEVEL, alpha=False), dtype=np.uint32)
    r, g, b = MASKED_RGB
    return [int(0xFF000000 | (red << 16) | (green << 8) | blue) for red, green, blue in lut] + [
        0xFF000000 | (r << 16) | (g << 8) | b]


def matrix_levels(weights: np.ndarray) -> np.ndarray:
    """(n, n) weights -> colour indices, the future (above the diagonal) MASKED_LEVEL."""
    n = weights.shape[0]
    levels = np.clip(np.rint(np.nan_to_num(weights) * (MASKED_LEVEL - 1)), 0, MASKED_LEVEL - 1).astype(np.uint8)
    levels[np.triu_indices(n, 1)] = MASKED_LEVEL
    return np.ascontiguousarray(levels)


class CachedRowsMatrix(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(tr("Attention matrix of the chosen head, the new query row outlined"))
        self.setFixedSize(self.side(), self.side())
        self._colours = viridis_table()
        self._image: QImage | None = None
        self._size = 0
        self._cached_rows = 0

    def show_matrix(self, weights: np.ndarray, cached_rows: int) -> None:
        """WEIGHTS (n × n, query rows down); rows from CACHED_ROWS on are the step's new query rows."""
        levels = matrix_levels(np.asarray(weights, dtype=np.float64))
        n = levels.shape[0]
        image = QImage(levels.data, n, n, n, QImage.Format.Format_Indexed8)
        image.setColorTable(self._colours)
        self._image = image.copy()  # owns its pixels: the array may go
        self._size, self._cached_rows = n, max(0, min(cached_rows, n))
        self.update()

    @property
    def size_in_tokens(self) -> int:
        return self._size

    @property
    def cached_rows(self) -> int:
        return self._cached_rows

    def side(self) -> int:
        """The square's side: about eight lines of text, so it grows with presentation mode's font and leaves
        the step's sentence room beside it in a 300-px column."""
        return int(max(MIN_SIDE, min(MAX_SIDE, 8 * self.fontMetrics().height())))

    def matrix_rect(self) -> QRectF:
        side = self.side()
        return QRectF(1, 1, side - 2, side - 2)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.setFixedSize(self.side(), self.side())

    def paintEvent(self, event: QPaintEvent) -> None:
        if self._image is None or not self._size:
            return
        painter = QPainter(self)
        box = self.matrix_rect()
        painter.drawImage(box, self._image)  # nearest pixels: sharp cells
        row = box.height() / self._size
        if self._cached_rows:
            painter.fillRect(QRectF(box.left(), box.top(), box.width(), row * self._cached_rows), CACHED_VEIL)
        if self._cached_rows < self._size:
            painter.setPen(QPen(MARK_COLOR, 2))
            painter.drawRect(QRectF(box.left() + 1, box.top() + row * self._cached_rows, box.width() - 2,
                                    row * (self._size - self._cached_rows)))


__all__ = ["CachedRowsMatrix", "matrix_levels"]
