"""The attention matrix: every query's weights over every key, as a heatmap.

Painted directly rather than with an ImageItem: each cell carries its
printed value, masked cells need their own hatched look (masked is not 0%),
and a click on a row must select that query. One paint of a few hundred
rectangles is far cheaper than a pyqtgraph scene with a text item per cell.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontInfo,
    QFontMetricsF,
    QImage,
    QLinearGradient,
    QPainter,
    QPen,
    QPixmap,
    QStaticText,
    QTransform,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from attn_desktop.model import Change, Scene, explain
from attn_desktop.ui.panels.entropy_column import EntropyColumn
from attn_desktop.ui.predict.weights_veil import HIDDEN_TEXT, HIDDEN_TIP, WeightsVeil
from attn_desktop.ui.scene_link import follow_scene

LEGEND_WIDTH = 46
WIDEST_CELL_TEXT = "0.00"  # cells too narrow for this in the smallest readable font show colour only
MIN_CELL_PIXELS = 10.0  # the smallest cell number a class can read at 100 %
MIN_CELL_SHARE = 0.8  # ... and never below this share of the panel's font, which presentation mode enlarges
MAX_SIZED_TOKENS = 8  # the panel asks for room to show numbers up to this many tokens; beyond, it may drop them
SHRINK_CHARS = 5  # column labels shrink to fit names up to about this long; longer ones are elided
LABEL_CHARS = 10  # row labels take at most about this many characters; longer names are elided
CORNER_TEXT = "q ↓ k →"
NUMBERS_HIDDEN_NOTE = "Point at a cell to read its number"
MASKED_RGB = (225, 225, 225)
VEILED_RGB = (190, 190, 190)  # every cell while the student predicts: no colour tells a weight


def _viridis_table() -> np.ndarray:
    """256 viridis colours as a (256, 3) uint8 array: dark purple for 0, yellow for 1."""
    return np.asarray(pg.colormap.get("viridis").getLookupTable(0.0, 1.0, 256, alpha=False), dtype=np.uint8)


@dataclass
class _Layout:
    """Where everything goes at the current size, font and tokens; worked out once, not on every paint."""

    title_lines: list[str]
    title_cut: bool
    line_height: float  # of the panel's font
    title_height: float  # title lines plus the note when numbers are hidden
    numbers_hidden_note: bool
    left: float  # room for the row labels
    grid: QRectF
    cell_font: QFont | None


class MatrixView(QWidget):
    def __init__(self, scene: Scene, parent=None, veil: WeightsVeil | None = None) -> None:
        super().__init__(parent)
        self.scene = scene
        self.veil = veil if veil is not None else WeightsVeil(self)  # grey cells and "?" while the student predicts
        self.veil.changed.connect(self._on_veil_changed)
        self._lut = _viridis_table()
        self._static_layer: QPixmap | None = None
        self._mask_layer: QPixmap | None = None
        self._cells_buffer: np.ndarray | None = None
        self._layout: _Layout | None = None
        # Each number a cell can show ("0.00" to "1.00", "—"), laid out once for the cells' font:
        # laying out a few dozen strings on every drag move cost more than the rest of the paint.
        self._cell_texts: dict[str, tuple[QStaticText, float, float]] = {}
        self._cell_texts_font: QFont | None = None
        self.entropy_column = EntropyColumn(scene)  # each row's entropy, right of the grid (View menu)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setToolTip("")
        self.setAccessibleName("Attention matrix")
        follow_scene(self, scene, self._on_scene_changed)

    # ----- what is shown (also what the tests read) ---------------------
    def title(self) -> str:
        return f"Attention weights, {explain.matrix_formula(self.scene.scale, self.scene.causal)}"

    def cell_text(self, row: int, column: int) -> str:
        if not self.scene.result.mask[row, column]:
            return "—"
        if self.veil.on:
            return HIDDEN_TEXT
        return explain.number(self.scene.result.weights[row, column])

    def set_show_entropy(self, on: bool) -> None:
        """Show each row's entropy beside it: 0 bits when one key takes all the weight, log₂ n when all share it."""
        if on != self.entropy_column.shown:
            self.entropy_column.shown = on
            self._static_layer = None
            self._layout = None
            self.updateGeometry()
            self.update()

    def cell_font(self) -> QFont | None:
        """The font the cells' numbers are painted in at the current size; None when no numbers are shown."""
        return self._current_layout().cell_font

    def shown_title(self) -> list[str]:
        """The title's lines as painted."""
        return list(self._current_layout().title_lines)

    def shown_note(self) -> str | None:
        """The line under the title saying why the cells show no numbers, when they show none."""
        return NUMBERS_HIDDEN_NOTE if self._current_layout().numbers_hidden_note else None

    def cut_parts(self) -> list[str]:
        """Text the panel shows cut that a reader needs whole (elided token names, with tooltips, are fine)."""
        layout = self._current_layout()
        cut = ["title"] if layout.title_cut else []
        if self._corner_width() > layout.left - 2:
            cut.append("corner")
        return cut

    # ----- layout -------------------------------------------------------
    def _title_font(self) -> QFont:
        font = QFont(self.font())
        font.setBold(True)
        return font

    def _corner_width(self) -> float:
        return QFontMetricsF(self.font()).horizontalAdvance(CORNER_TEXT) + 6

    def _label_margin(self) -> float:
        """Room for the row labels: the widest name, but never more than about LABEL_CHARS characters
        (longer names are elided), so the labels cannot eat the cells; always room for the corner."""
        metrics = QFontMetricsF(self.font())
        widest = max((metrics.horizontalAdvance(t) for t in self.scene.query_tokens), default=0) + 12
        cap = metrics.averageCharWidth() * LABEL_CHARS + 12
        return max(min(widest, cap), self._corner_width() + 2, 48.0)

    def _min_cell_pixels(self) -> float:
        return max(MIN_CELL_PIXELS, MIN_CELL_SHARE * QFontInfo(self.font()).pixelSize())

    def _points_for_pixels(self, pixels: float) -> float:
        return pixels * 72.0 / max(self.logicalDpiY(), 1)

    def _cell_font(self, cell_size: float) -> QFont | None:
        """The panel's font, shrunk as far as the smallest readable size so that "0.00" fits a cell;
        None if it cannot (the cells then show colour only)."""
        font = QFont(self.font())
        needed = QFontMetricsF(font).horizontalAdvance(WIDEST_CELL_TEXT) + 4
        if needed <= cell_size and QFontMetricsF(font).height() <= cell_size:
            return font
        points = font.pointSizeF() * min(cell_size / needed, cell_size / QFontMetricsF(font).height())
        if points < self._points_for_pixels(self._min_cell_pixels()) - 1e-6:
            return None
        font.setPointSizeF(points)
        return font

    def _min_cell_size(self) -> float:
        """The smallest cell whose number is still readable: "0.00" in the smallest readable font."""
        font = QFont(self.font())
        font.setPointSizeF(self._points_for_pixels(self._min_cell_pixels()))
        metrics = QFontMetricsF(font)
        return np.ceil(max(metrics.horizontalAdvance(WIDEST_CELL_TEXT) + 4, metrics.height())) + 1

    def _title_lines(self, width: float) -> tuple[list[str], bool]:
        """The title on one line if it fits, else "Attention weights" over the formula; cut only if even
        that does not fit (then it is elided, and reported by cut_parts)."""
        metrics = QFontMetricsF(self._title_font())
        whole = self.title()
        if metrics.horizontalAdvance(whole) <= width:
            return [whole], False
        head, formula = whole.split(", ", 1)
        lines = [head, formula]
        cut = any(metrics.horizontalAdvance(line) > width for line in lines)
        return [metrics.elidedText(line, Qt.TextElideMode.ElideRight, width) for line in lines], cut

    def _current_layout(self) -> _Layout:
        if self._layout is None:
            self._layout = self._work_out_layout()
        return self._layout

    def _work_out_layout(self) -> _Layout:
        metrics = QFontMetricsF(self.font())
        line = metrics.height()
        title_lines, title_cut = self._title_lines(self.width() - 8)
        title_height = len(title_lines) * QFontMetricsF(self._title_font()).height() + 8
        left, top = self._label_margin(), line + 8
        grid = self._grid_in(left, title_height + top)
        cell_font = self._cell_font(grid.width() / self.scene.n_tokens)
        note = cell_font is None
        if note:  # a line saying why the cells are blank; the cells only get smaller for it
            title_height += line
            grid = self._grid_in(left, title_height + top)
        return _Layout(title_lines, title_cut, line, title_height, note, left, grid, cell_font)

    def _grid_in(self, left: float, top: float) -> QRectF:
        side = LEGEND_WIDTH + self.entropy_column.width(self.font())
        area = QRectF(left, top, self.width() - left - side, self.height() - top - 6)
        rows, columns = self.scene.n_queries, self.scene.n_tokens
        cell = max(min(area.width() / columns, area.height() / rows), 1.0)
        return QRectF(area.left(), area.top(), cell * columns, cell * rows)

    def _title_height(self) -> float:
        return self._current_layout().title_height

    def grid_rect(self) -> QRectF:
        return QRectF(self._current_layout().grid)

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
        return QSize(380, 340).expandedTo(self.minimumSizeHint())

    def minimumSizeHint(self) -> QSize:
        """Room for every cell's number in a readable font, up to MAX_SIZED_TOKENS tokens, with the
        title on at most two whole lines, the labels and the colour bar."""
        cell = self._min_cell_size()
        columns = min(self.scene.n_tokens, MAX_SIZED_TOKENS)
        rows = min(self.scene.n_queries, MAX_SIZED_TOKENS)
        title_metrics = QFontMetricsF(self._title_font())
        head, formula = self.title().split(", ", 1)
        title_width = max(title_metrics.horizontalAdvance(head), title_metrics.horizontalAdvance(formula)) + 8
        line = QFontMetricsF(self.font()).height()
        side = self.entropy_column.width(self.font()) + LEGEND_WIDTH
        width = max(self._label_margin() + columns * cell + side, title_width)
        height = 2 * title_metrics.height() + 8 + line + 8 + rows * cell + 6
        return QSize(int(np.ceil(width)), int(np.ceil(height)))

    # ----- painting -----------------------------------------------------
    # What changes on a drag (the cells and their numbers) is painted fresh;
    # what does not (title, labels, legend, the hatching of masked cells) is
    # kept in a pixmap until the size, the tokens or the settings change.
    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        if self._static_layer is None or self._static_layer.size() != self.size():
            self._static_layer = self._render_static_layer()
        painter.drawPixmap(0, 0, self._static_layer)
        layout = self._current_layout()
        grid = layout.grid
        painter.drawImage(grid, self._cells_image())
        if self._mask_layer is not None:
            painter.drawPixmap(grid.topLeft(), self._mask_layer)
        if layout.cell_font is not None:
            painter.setFont(layout.cell_font)
            self._paint_cell_text(painter, grid, layout.cell_font)
            if not self.veil.on:  # an entropy tells how sharp a row is
                self.entropy_column.paint_numbers(painter, grid, self.font(), layout.cell_font,
                                                  self.palette().text().color(), self._cell_static_text)
        self._paint_selected_row(painter, grid)

    def _cells_image(self) -> QImage:
        """One pixel per cell, scaled up when drawn: one call instead of n² fills."""
        result = self.scene.result
        levels = np.clip(np.rint(result.weights * 255), 0, 255).astype(np.intp)
        rgb = self._lut[levels]
        if self.veil.on:
            rgb[:] = VEILED_RGB
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
        self._paint_title(painter)
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

    def _paint_title(self, painter: QPainter) -> None:
        layout = self._current_layout()
        painter.setFont(self._title_font())
        line = QFontMetricsF(self._title_font()).height()
        for number, text in enumerate(layout.title_lines):
            box = QRectF(4, 4 + number * line, self.width() - 8, line)
            painter.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
        if layout.numbers_hidden_note:
            painter.setFont(self.font())
            box = QRectF(4, 4 + len(layout.title_lines) * line, self.width() - 8, layout.line_height)
            note = QFontMetricsF(self.font()).elidedText(NUMBERS_HIDDEN_NOTE, Qt.TextElideMode.ElideRight, box.width())
            painter.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, note)

    def _column_labels(self) -> tuple[QFont, int, float]:
        """The column labels' font, which of them are shown (every n-th) and the width each may take.

        Labels that would run into each other are first set smaller (down to the smallest readable
        size), then elided (full name in the tooltip), and only when not even a letter and "…" fit, thinned."""
        size = self.grid_rect().width() / self.scene.n_tokens
        font = QFont(self.font())
        metrics = QFontMetricsF(font)
        # A very long name is elided, not allowed to shrink every label: size for names up to SHRINK_CHARS.
        longest_sized = metrics.averageCharWidth() * SHRINK_CHARS
        widest = min(max((metrics.horizontalAdvance(token) for token in self.scene.tokens), default=0.0), longest_sized)
        if widest + 6 > size and widest > 0:
            smallest = self._points_for_pixels(self._min_cell_pixels())
            font.setPointSizeF(max(smallest, font.pointSizeF() * (size - 6) / widest))
        metrics = QFontMetricsF(font)
        widest = max((metrics.horizontalAdvance(token) for token in self.scene.tokens), default=0.0)
        shortest_useful = min(widest, metrics.horizontalAdvance("M…")) + 6
        every = max(1, int(np.ceil(shortest_useful / size)))
        return font, every, every * size - 6

    def _paint_labels(self, painter: QPainter, color: QColor) -> None:
        layout = self._current_layout()
        grid, title_height = layout.grid, layout.title_height
        painter.setPen(color)
        painter.setFont(self.font())
        painter.drawText(QRectF(0, title_height, grid.left() - 2, grid.top() - title_height),
                         Qt.AlignmentFlag.AlignCenter, CORNER_TEXT)
        size = grid.width() / self.scene.n_tokens
        column_font, every_column, room = self._column_labels()
        metrics = QFontMetricsF(column_font)
        painter.setFont(column_font)
        for column, token in enumerate(self.scene.tokens):
            if column % every_column == 0:
                text = metrics.elidedText(token, Qt.TextElideMode.ElideRight, room)
                rect = QRectF(grid.left() + (column + 0.5) * size - room / 2, title_height, room,
                              grid.top() - title_height)
                painter.drawText(rect, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom, text)
        painter.setFont(self.font())
        metrics = QFontMetricsF(self.font())
        every_row = max(1, int(np.ceil(metrics.height() / size)))
        for row, token in enumerate(self.scene.query_tokens):
            if row % every_row == 0:
                rect = QRectF(0, grid.top() + row * size, grid.left() - 6, size)
                text = metrics.elidedText(token, Qt.TextElideMode.ElideRight, rect.width())
                painter.drawText(rect, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text)

    def label_tip_at(self, point: QPointF) -> str | None:
        """The full token name under a row or column label, for its tooltip."""
        grid = self.grid_rect()
        size = grid.width() / self.scene.n_tokens
        if point.x() < grid.left() and grid.top() <= point.y() < grid.bottom():
            return self.scene.query_tokens[min(int((point.y() - grid.top()) / size), self.scene.n_queries - 1)]
        if point.y() < grid.top() and point.y() >= self._title_height() and grid.left() <= point.x() < grid.right():
            return self.scene.tokens[min(int((point.x() - grid.left()) / size), self.scene.n_tokens - 1)]
        return None

    def _paint_cell_text(self, painter: QPainter, grid: QRectF, font: QFont) -> None:
        result = self.scene.result
        size = grid.width() / self.scene.n_tokens
        light, dark = QColor(255, 255, 255), QColor(60, 60, 60)
        pen = None
        for row in range(self.scene.n_queries):
            for column in range(self.scene.n_tokens):
                masked = not result.mask[row, column]
                # Dark text on the bright (yellow-green) end of viridis, light on the dark end.
                color = dark if masked or self.veil.on or result.weights[row, column] > 0.55 else light
                if color is not pen:
                    painter.setPen(color)
                    pen = color
                # Centred in the cell, as drawText(cell, AlignCenter) would put it.
                text, half_width, half_height = self._cell_static_text(self.cell_text(row, column), font)
                painter.drawStaticText(QPointF(grid.left() + (column + 0.5) * size - half_width,
                                               grid.top() + (row + 0.5) * size - half_height), text)

    def _cell_static_text(self, text: str, font: QFont) -> tuple[QStaticText, float, float]:
        """The number laid out in the cells' font, with half its width and half the line's height."""
        if font is not self._cell_texts_font:
            self._cell_texts, self._cell_texts_font = {}, font
        prepared = self._cell_texts.get(text)
        if prepared is None:
            static = QStaticText(text)
            static.setTextFormat(Qt.TextFormat.PlainText)
            static.prepare(QTransform(), font)
            metrics = QFontMetricsF(font)
            prepared = self._cell_texts[text] = static, metrics.horizontalAdvance(text) / 2, metrics.height() / 2
        return prepared

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
        self.entropy_column.paint_header(painter, grid, painter.font(), color)
        bar = QRectF(grid.right() + self.entropy_column.width(self.font()) + 10, grid.top(), 10, grid.height())
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
        self._layout = None
        super().resizeEvent(event)

    def changeEvent(self, event) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange):
            self._static_layer = None
            self._layout = None
            self.updateGeometry()  # the room the numbers need follows the font
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
            entropy_tip = None if self.veil.on else self.entropy_column.tip_at(event.position(), self.grid_rect(),
                                                                                self.font())
            name = self.label_tip_at(event.position()) or entropy_tip
            if name is None:
                QToolTip.hideText()
            else:
                QToolTip.showText(event.globalPosition().toPoint(), name, self)
            return
        row, column = cell
        query, key = self.scene.query_tokens[row], self.scene.tokens[column]
        if self.veil.on and self.scene.result.mask[row, column]:
            text = f"{query} → {key}: {HIDDEN_TIP}"
        elif self.scene.result.mask[row, column]:
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

    def _on_veil_changed(self, veiled: bool) -> None:
        self.update()  # the cells are painted afresh each time: grey with "?", or their weights

    def _on_scene_changed(self, change: Change) -> None:
        if change & (Change.STRUCTURE | Change.SETTINGS):
            self._static_layer = None  # new labels, title or mask
            self._layout = None
            self.updateGeometry()  # more tokens need more room
        if change & (Change.NUMBERS | Change.SELECTION):
            self.update()
