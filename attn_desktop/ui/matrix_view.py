"""The attention matrix: every query's weights over every key, as a heatmap.

Painted directly rather than with an ImageItem: each cell carries its
printed value, masked cells need their own hatched look (masked is not 0%),
and a click on a row must select that query. One paint of a few hundred
rectangles is far cheaper than a pyqtgraph scene with a text item per cell.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QImage, QLinearGradient, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from ..model import Change, Scene, explain

LEGEND_WIDTH = 46
WIDEST_CELL_TEXT = "0.00"  # cells too narrow for this, even in MIN_CELL_POINTS, show colour only
MIN_CELL_POINTS = 7.0
MASKED_RGB = (225, 225, 225)


def _viridis_table() -> np.ndarray:
    """256 viridis colours as a (256, 3) uint8 array: dark purple for 0, yellow for 1."""
    return np.asarray(pg.colormap.get("viridis").getLookupTable(0.0, 1.0, 256, alpha=False), dtype=np.uint8)


class MatrixView(QWidget):
    def __init__(self, scene: Scene, parent=None) -> None:
        super().__init__(parent)
        self.scene = scene
        self._lut = _viridis_table()
        self._static_layer: QPixmap | None = None
        self._mask_layer: QPixmap | None = None
        self._cells_buffer: np.ndarray | None = None
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setToolTip("")
        self.setAccessibleName("Attention matrix")
        scene.subscribe(self._on_scene_changed)

    # ----- what is shown (also what the tests read) ---------------------
    def title(self) -> str:
        return f"Attention weights, {explain.matrix_formula(self.scene.scale, self.scene.causal)}"

    def cell_text(self, row: int, column: int) -> str:
        if not self.scene.result.mask[row, column]:
            return "—"
        return explain.number(self.scene.result.weights[row, column])

    # ----- layout -------------------------------------------------------
    def _label_margins(self) -> tuple[float, float]:
        metrics = QFontMetricsF(self.font())
        left = max((metrics.horizontalAdvance(t) for t in self.scene.query_tokens), default=0) + 12
        top = metrics.height() + 8
        return max(left, 48.0), top

    def _title_height(self) -> float:
        # Follows the font, which presentation mode enlarges.
        return QFontMetricsF(self.font()).height() + 8

    def _cell_font(self, cell_size: float) -> QFont | None:
        """The widget's font, shrunk as far as MIN_CELL_POINTS so that "0.00" fits a cell; None if it cannot."""
        font = QFont(self.font())
        needed = QFontMetricsF(font).horizontalAdvance(WIDEST_CELL_TEXT) + 4
        if needed <= cell_size:
            return font
        points = font.pointSizeF() * cell_size / needed
        if points < MIN_CELL_POINTS:
            return None
        font.setPointSizeF(points)
        return font

    def grid_rect(self) -> QRectF:
        left, top = self._label_margins()
        title_height = self._title_height()
        area = QRectF(left, title_height + top, self.width() - left - LEGEND_WIDTH, self.height() - title_height - top - 6)
        rows, columns = self.scene.n_queries, self.scene.n_tokens
        cell = max(min(area.width() / columns, area.height() / rows), 1.0)
        return QRectF(area.left(), area.top(), cell * columns, cell * rows)

    def cell_rect(self, row: int, column: int) -> QRectF:
        grid = self.grid_rect()
        size = grid.width() / self.scene.n_tokens
        return QRectF(grid.left() + column * size, grid.top() + row * size, size, size)

    def cell_at(self, point: QPointF) -> tuple[int, int] | None:
        grid = self.grid_rect()
        if not grid.contains(point):
            return None
        size = grid.width() / self.scene.n_tokens
        row = min(int((point.y() - grid.top()) / size), self.scene.n_queries - 1)
        column = min(int((point.x() - grid.left()) / size), self.scene.n_tokens - 1)
        return row, column

    def sizeHint(self) -> QSize:
        return QSize(380, 340)

    def minimumSizeHint(self) -> QSize:
        return QSize(160, 140)

    # ----- painting -----------------------------------------------------
    # What changes on a drag (the cells and their numbers) is painted fresh;
    # what does not (title, labels, legend, the hatching of masked cells) is
    # kept in a pixmap until the size, the tokens or the settings change.
    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        if self._static_layer is None or self._static_layer.size() != self.size():
            self._static_layer = self._render_static_layer()
        painter.drawPixmap(0, 0, self._static_layer)
        grid = self.grid_rect()
        painter.drawImage(grid, self._cells_image())
        if self._mask_layer is not None:
            painter.drawPixmap(grid.topLeft(), self._mask_layer)
        cell_font = self._cell_font(grid.width() / self.scene.n_tokens)
        if cell_font is not None:
            painter.setFont(cell_font)
            self._paint_cell_text(painter, grid)
        self._paint_selected_row(painter, grid)

    def _cells_image(self) -> QImage:
        """One pixel per cell, scaled up when drawn: one call instead of n² fills."""
        result = self.scene.result
        levels = np.clip(np.rint(result.weights * 255), 0, 255).astype(np.intp)
        rgb = self._lut[levels]
        rgb[~result.mask] = MASKED_RGB
        rows, columns = levels.shape
        argb = np.empty((rows, columns), dtype=np.uint32)
        argb[:] = 0xFF000000 | (rgb[..., 0].astype(np.uint32) << 16) | (rgb[..., 1].astype(np.uint32) << 8) | rgb[..., 2]
        self._cells_buffer = argb  # QImage borrows this memory; keep it alive until the next paint
        return QImage(argb.data, columns, rows, columns * 4, QImage.Format.Format_RGB32)

    def _render_static_layer(self) -> QPixmap:
        layer = QPixmap(self.size())
        layer.fill(self.palette().base().color())
        painter = QPainter(layer)
        text_color = self.palette().text().color()
        painter.setPen(text_color)
        title_font = QFont(self.font())
        title_font.setBold(True)
        painter.setFont(title_font)
        title_box = QRectF(4, 2, self.width() - 8, self._title_height())
        title = QFontMetricsF(title_font).elidedText(self.title(), Qt.TextElideMode.ElideRight, title_box.width())
        painter.drawText(title_box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title)
        painter.setFont(self.font())
        self._paint_labels(painter, text_color)
        self._paint_legend(painter, text_color)
        painter.end()
        self._mask_layer = self._render_mask_layer()
        return layer

    def _render_mask_layer(self) -> QPixmap | None:
        """Hatching over the masked cells, or None when nothing is masked."""
        mask = self.scene.result.mask
        if mask.all():
            return None
        grid = self.grid_rect()
        size = grid.width() / self.scene.n_tokens
        layer = QPixmap(grid.size().toSize() + QSize(1, 1))
        layer.fill(Qt.GlobalColor.transparent)
        painter = QPainter(layer)
        hatch = QBrush(QColor(150, 150, 150), Qt.BrushStyle.BDiagPattern)
        for row, column in zip(*np.nonzero(~mask)):
            painter.fillRect(QRectF(column * size, row * size, size, size), hatch)
        painter.end()
        return layer

    def _paint_labels(self, painter: QPainter, color: QColor) -> None:
        grid = self.grid_rect()
        title_height = self._title_height()
        metrics = QFontMetricsF(self.font())
        painter.setPen(color)
        painter.drawText(
            QRectF(0, title_height, grid.left() - 2, grid.top() - title_height), Qt.AlignmentFlag.AlignCenter, "q ↓ k →"
        )
        size = grid.width() / self.scene.n_tokens
        every_row = max(1, int(np.ceil(metrics.height() / size)))
        # Column labels that would run into each other are set smaller (down to MIN_CELL_POINTS), and
        # past that thinned out: every column label needs the widest one's room.
        column_font = QFont(self.font())
        widest = max((metrics.horizontalAdvance(token) for token in self.scene.tokens), default=0.0)
        if widest + 6 > size and widest > 0:
            column_font.setPointSizeF(max(MIN_CELL_POINTS, column_font.pointSizeF() * (size - 6) / widest))
            widest = max(QFontMetricsF(column_font).horizontalAdvance(token) for token in self.scene.tokens)
        every_column = max(1, int(np.ceil((widest + 6) / size)))
        painter.setFont(column_font)
        for column, token in enumerate(self.scene.tokens):
            if column % every_column == 0:
                rect = QRectF(grid.left() + (column + 0.5) * size - widest, title_height, 2 * widest,
                              grid.top() - title_height)
                painter.drawText(rect, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom, token)
        painter.setFont(self.font())
        for row, token in enumerate(self.scene.query_tokens):
            if row % every_row == 0:
                rect = QRectF(0, grid.top() + row * size, grid.left() - 6, size)
                painter.drawText(rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, token)

    def _paint_cell_text(self, painter: QPainter, grid: QRectF) -> None:
        result = self.scene.result
        size = grid.width() / self.scene.n_tokens
        light, dark = QColor(255, 255, 255), QColor(60, 60, 60)
        for row in range(self.scene.n_queries):
            for column in range(self.scene.n_tokens):
                rect = QRectF(grid.left() + column * size, grid.top() + row * size, size, size)
                masked = not result.mask[row, column]
                # Dark text on the bright (yellow-green) end of viridis, light on the dark end.
                painter.setPen(dark if masked or result.weights[row, column] > 0.55 else light)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, self.cell_text(row, column))

    def _paint_selected_row(self, painter: QPainter, grid: QRectF) -> None:
        size = grid.width() / self.scene.n_tokens
        outline = QRectF(grid.left(), grid.top() + self.scene.selected * size, grid.width(), size)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(255, 190, 0), 3))
        painter.drawRect(outline.adjusted(1, 1, -1, -1))
        painter.setPen(QPen(self.palette().text().color(), 1))
        painter.drawRect(outline)

    def _paint_legend(self, painter: QPainter, color: QColor) -> None:
        grid = self.grid_rect()
        bar = QRectF(grid.right() + 10, grid.top(), 10, grid.height())
        gradient = QLinearGradient(bar.bottomLeft(), bar.topLeft())
        for stop in range(0, 256, 32):
            gradient.setColorAt(stop / 255, QColor(*self._lut[stop]))
        gradient.setColorAt(1.0, QColor(*self._lut[255]))
        painter.fillRect(bar, gradient)
        painter.setPen(color)
        line = QFontMetricsF(painter.font()).height()  # the labels follow the font (presentation mode)
        top_label = QRectF(bar.right() + 3, bar.top(), LEGEND_WIDTH, line)
        bottom_label = QRectF(bar.right() + 3, bar.bottom() - line, LEGEND_WIDTH, line)
        painter.drawText(top_label, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, "1")
        painter.drawText(bottom_label, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom, "0")

    def resizeEvent(self, event) -> None:
        self._static_layer = None
        super().resizeEvent(event)

    def changeEvent(self, event) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange):
            self._static_layer = None
        super().changeEvent(event)

    # ----- interaction --------------------------------------------------
    def mousePressEvent(self, event) -> None:
        cell = self.cell_at(event.position())
        if event.button() == Qt.MouseButton.LeftButton and cell is not None:
            self.scene.select_query(cell[0])
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        cell = self.cell_at(event.position())
        if cell is None:
            QToolTip.hideText()
            return
        row, column = cell
        query, key = self.scene.query_tokens[row], self.scene.tokens[column]
        if self.scene.result.mask[row, column]:
            weight = self.scene.result.weights[row, column]
            text = f"{query} → {key}: {explain.number(weight, 3)} ({explain.percent(weight)})"
        else:
            text = f"{query} → {key}: masked (a query sees only itself and earlier tokens)"
        QToolTip.showText(event.globalPosition().toPoint(), text, self)

    def keyPressEvent(self, event) -> None:
        step = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1}.get(Qt.Key(event.key()))
        if step is None:
            super().keyPressEvent(event)
            return
        self.scene.select_query(min(max(self.scene.selected + step, 0), self.scene.n_queries - 1))

    def _on_scene_changed(self, change: Change) -> None:
        if change & (Change.STRUCTURE | Change.SETTINGS):
            self._static_layer = None  # new labels, title or mask
        if change & (Change.NUMBERS | Change.SELECTION):
            self.update()
