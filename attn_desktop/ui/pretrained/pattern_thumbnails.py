"""Every attention head of a model at once: one small attention pattern per layer and head.

One widget paints the whole grid (layers down, heads across) from small images, one per head,
made once per sentence: 270 heads of SmolLM2 are 270 drawImage calls, not 270 widgets or plots.
Each thumbnail is that head's weight matrix, query rows down and key columns across, coloured
like the Attention matrix panel (viridis: dark for 0, yellow for 1; masked cells grey).

Point at a head to read which it is (and its kind, when a rule found one); click it, or move
to it with the arrow keys and press Enter, to open it. Heads can be marked (an outline), for
example those Find heads lists.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QHelpEvent, QImage, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

MIN_CELL = 16  # px: a thumbnail smaller than this shows no pattern a class can see
MAX_CELL = 72
GAP = 2  # px between thumbnails
MAX_THUMBNAIL_TOKENS = 64  # longer sentences are sampled down: a thumbnail has only so many pixels
MASKED_RGB = (225, 225, 225)  # as the Attention matrix panel
MASKED_LEVEL = 255  # colour index of a masked cell; weights use 0..254
MARK_COLOR = QColor(255, 140, 0)
PAGE_LAYERS = 5  # Page Up / Page Down move this many layers


def _colour_table() -> list[int]:
    lut = np.asarray(pg.colormap.get("viridis").getLookupTable(0.0, 1.0, MASKED_LEVEL, alpha=False), dtype=np.uint32)
    table = [int(0xFF000000 | (r << 16) | (g << 8) | b) for r, g, b in lut]
    r, g, b = MASKED_RGB
    return table + [0xFF000000 | (r << 16) | (g << 8) | b]


def thumbnail_levels(weights: np.ndarray) -> np.ndarray:
    """(layers, heads, n, n) weights -> colour indices, masked (future) cells MASKED_LEVEL; at most
    MAX_THUMBNAIL_TOKENS a side."""
    n = weights.shape[-1]
    if n > MAX_THUMBNAIL_TOKENS:
        picked = np.linspace(0, n - 1, MAX_THUMBNAIL_TOKENS).round().astype(int)
        weights = weights[:, :, picked][:, :, :, picked]
        rows, columns = np.meshgrid(picked, picked, indexing="ij")
    else:
        rows, columns = np.indices((n, n))
    levels = np.clip(np.rint(weights * (MASKED_LEVEL - 1)), 0, MASKED_LEVEL - 1).astype(np.uint8)
    levels[..., columns > rows] = MASKED_LEVEL
    return np.ascontiguousarray(levels)


class HeadGrid(QWidget):
    head_chosen = Signal(int, int)  # (layer, head): clicked, or Enter on the current head
    current_changed = Signal(int, int)  # the keyboard's head moved (the panel scrolls it into view)
    hovered = Signal(int, int)  # the head under the pointer; (-1, -1) when none

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Attention heads, layers down and heads across")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._colours = _colour_table()
        self._images: list[list[QImage]] = []
        self._layers = self._heads = 0
        self._descriptions: dict[tuple[int, int], str] = {}
        self._marked: set[tuple[int, int]] = set()
        self._current = (0, 0)
        self._hovered: tuple[int, int] | None = None
        self._cell = MIN_CELL

    # ----- what it shows ---------------------------------------------------------------
    def set_attention(self, weights: np.ndarray) -> None:
        """Every head's weights, (layers, heads, queries, keys)."""
        levels = thumbnail_levels(np.asarray(weights, dtype=np.float64))
        layers, heads, side, _ = levels.shape
        self._images = [[self._image(levels[layer, head], side) for head in range(heads)] for layer in range(layers)]
        if (layers, heads) != (self._layers, self._heads):
            self._layers, self._heads = layers, heads
            self._current = (min(self._current[0], layers - 1), min(self._current[1], heads - 1))
            self._fit_height()
        self.update()

    def _image(self, levels: np.ndarray, side: int) -> QImage:
        image = QImage(levels.data, side, side, side, QImage.Format.Format_Indexed8)
        image.setColorTable(self._colours)
        return image.copy()  # owns its pixels: the array may go

    def set_descriptions(self, descriptions: dict[tuple[int, int], str]) -> None:
        """What pointing at a head adds to its name ("previous-token head"), by (layer, head)."""
        self._descriptions = dict(descriptions)

    def set_marked(self, heads) -> None:
        self._marked = {tuple(head) for head in heads}
        self.update()

    @property
    def marked(self) -> set[tuple[int, int]]:
        return set(self._marked)

    @property
    def shape(self) -> tuple[int, int]:
        return self._layers, self._heads

    @property
    def current(self) -> tuple[int, int]:
        return self._current

    def image_of(self, layer: int, head: int) -> QImage:
        return self._images[layer][head]

    def describe(self, layer: int, head: int) -> str:
        """"Layer 3, head 5", and its kind when a rule found one."""
        text = f"Layer {layer}, head {head}"
        extra = self._descriptions.get((layer, head))
        return f"{text}: {extra}" if extra else text

    # ----- geometry ----------------------------------------------------------------------
    def _label_width(self) -> int:
        return self.fontMetrics().horizontalAdvance(f"L{max(self._layers - 1, 0)}") + 8

    def _header_height(self) -> int:
        return self.fontMetrics().height() + 4

    def cell_size(self) -> int:
        return self._cell

    def cell_rect(self, layer: int, head: int) -> QRect:
        """Where a head's thumbnail is drawn, in the widget's coordinates."""
        cell = self._cell
        return QRect(self._label_width() + head * cell, self._header_height() + layer * cell, cell - GAP, cell - GAP)

    def head_at(self, point: QPoint) -> tuple[int, int] | None:
        cell = self._cell
        x, y = point.x() - self._label_width(), point.y() - self._header_height()
        if x < 0 or y < 0 or not self._images:
            return None
        layer, head = y // cell, x // cell
        if layer >= self._layers or head >= self._heads:
            return None
        return int(layer), int(head)

    def _fit_height(self) -> None:
        """Cells as wide as the width allows (within MIN_CELL..MAX_CELL); the height follows them."""
        heads = max(self._heads, 1)
        self._cell = int(min(MAX_CELL, max(MIN_CELL, (self.width() - self._label_width() - 2) // heads)))
        self.setFixedHeight(self._header_height() + self._layers * self._cell + 2)

    def sizeHint(self) -> QSize:
        return QSize(self._label_width() + max(self._heads, 1) * 28, self.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(self._label_width() + max(self._heads, 1) * MIN_CELL + 2, self._header_height() + MIN_CELL)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # presentation mode: wider labels
            self._fit_height()

    # ----- painting ------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(event.rect(), self.palette().base())
        if not self._images:
            return
        painter.setPen(self.palette().text().color())
        self._paint_labels(painter, event.rect())
        for layer in range(self._layers):
            for head in range(self._heads):
                box = self.cell_rect(layer, head)
                if box.intersects(event.rect()):
                    painter.drawImage(box, self._images[layer][head])  # nearest pixels: sharp cells
        self._paint_outlines(painter)

    def _paint_labels(self, painter: QPainter, exposed: QRect) -> None:
        left, top, cell = self._label_width(), self._header_height(), self._cell
        centred = Qt.AlignmentFlag.AlignCenter
        for head in range(self._heads):
            painter.drawText(QRect(left + head * cell, 0, cell - GAP, top), centred, f"H{head}")
        for layer in range(self._layers):
            box = QRect(0, top + layer * cell, left - 4, cell - GAP)
            if box.intersects(exposed):
                painter.drawText(box, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, f"L{layer}")

    def _paint_outlines(self, painter: QPainter) -> None:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(MARK_COLOR, 2))
        for layer, head in self._marked:
            if layer < self._layers and head < self._heads:
                painter.drawRect(self.cell_rect(layer, head).adjusted(-1, -1, 0, 0))
        if self._hovered is not None:
            painter.setPen(QPen(self.palette().text().color(), 1))
            painter.drawRect(self.cell_rect(*self._hovered).adjusted(-1, -1, 0, 0))
        if self.hasFocus():
            painter.setPen(QPen(self.palette().highlight().color(), 3))
            painter.drawRect(self.cell_rect(*self._current).adjusted(-2, -2, 1, 1))

    # ----- pointing and choosing -------------------------------------------------------------
    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self._set_hovered(self.head_at(event.position().toPoint()))
        super().mouseMoveEvent(event)

    def leaveEvent(self, event) -> None:
        self._set_hovered(None)
        super().leaveEvent(event)

    def _set_hovered(self, head: tuple[int, int] | None) -> None:
        if head == self._hovered:
            return
        self._hovered = head
        self.hovered.emit(*(head if head is not None else (-1, -1)))
        self.update()

    def event(self, event: QEvent) -> bool:
        if isinstance(event, QHelpEvent) and event.type() == QEvent.Type.ToolTip:
            head = self.head_at(event.pos())
            if head is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPos(), self.describe(*head), self, self.cell_rect(*head))
            return True
        return super().event(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        head = self.head_at(event.position().toPoint())
        if head is not None and event.button() == Qt.MouseButton.LeftButton:
            self.set_current(*head)
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        head = self.head_at(event.position().toPoint())
        if head is not None and event.button() == Qt.MouseButton.LeftButton and head == self._current:
            self.head_chosen.emit(*head)  # released on the head it was pressed on
        super().mouseReleaseEvent(event)

    def set_current(self, layer: int, head: int) -> None:
        layer = max(0, min(layer, self._layers - 1))
        head = max(0, min(head, self._heads - 1))
        if (layer, head) != self._current:
            self._current = (layer, head)
            self.setAccessibleDescription(self.describe(layer, head))
            self.current_changed.emit(layer, head)
            self.update()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self._images:
            super().keyPressEvent(event)
            return
        layer, head = self._current
        moves = {
            Qt.Key.Key_Left: (0, -1), Qt.Key.Key_Right: (0, 1), Qt.Key.Key_Up: (-1, 0), Qt.Key.Key_Down: (1, 0),
            Qt.Key.Key_PageUp: (-PAGE_LAYERS, 0), Qt.Key.Key_PageDown: (PAGE_LAYERS, 0),
        }
        key = Qt.Key(event.key())
        if key in moves:
            step_layer, step_head = moves[key]
            self.set_current(layer + step_layer, head + step_head)
        elif key == Qt.Key.Key_Home:
            self.set_current(0, 0)
        elif key == Qt.Key.Key_End:
            self.set_current(self._layers - 1, self._heads - 1)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.head_chosen.emit(layer, head)
        else:
            super().keyPressEvent(event)

    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        self.current_changed.emit(*self._current)  # scrolled into view as the keyboard arrives
        self.update()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.update()
