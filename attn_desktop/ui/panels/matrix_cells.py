"""What each cell of the attention matrix shows: its colour, its number, and what pointing at it says.

A weight is a viridis colour and a number; a masked cell is pale with "—" (masked is not 0%). While the
student predicts (Predict, then see: weights_veil.py) the weights are veiled: every cell the same grey,
"?" for its number and in its tooltip, so nothing on the panel tells them.
"""

from __future__ import annotations

from array import array

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QStaticText, QTransform

from attn_desktop.language import is_right_to_left, tr
from attn_desktop.language.numbers import decimal_mark
from attn_desktop.model import explain
from attn_desktop.model.attention import AttentionResult
from attn_desktop.model.shown_numbers import localized, percent, shown_number
from attn_desktop.ui.view_state.weights_veil import HIDDEN_TEXT, HIDDEN_TIP

MASKED_RGB = (240, 240, 240)  # 10.5 CIEDE2000 or more from every viridis shade for every eye (225 came to 9.0)
VEILED_RGB = (190, 190, 190)  # every cell while the student predicts: no colour tells a weight
LIGHT_TEXT, DARK_TEXT = QColor(255, 255, 255), QColor(0, 0, 0)
# Weights above this are viridis's brighter half: black text on them, white below. At this weight either stands
# out about 4.6 : 1, so every cell's number keeps WCAG's 4.5 : 1 (a dark grey from 0.55 left the middle cells at 3.2).
DARK_TEXT_FROM = 0.43


def viridis_table() -> np.ndarray:
    """256 viridis colours as a (256, 3) uint8 array: dark purple for 0, yellow for 1."""
    return np.asarray(pg.colormap.get("viridis").getLookupTable(0.0, 1.0, 256, alpha=False), dtype=np.uint8)


def cell_colours(result: AttentionResult, lut: np.ndarray, veiled: bool) -> np.ndarray:
    """Each cell's colour as 0xFFRRGGBB, one uint32 per cell (rows: queries, columns: keys)."""
    return cell_argb(result.weights, result.mask, argb_table(lut), veiled)


def argb_table(lut: np.ndarray) -> np.ndarray:
    """LUT's colours (viridis_table) packed as 0xFFRRGGBB: a weight's colour is then one lookup, not one per
    channel and a packing (the matrix colours its cells on every drag move)."""
    return np.array([packed(rgb) for rgb in lut.tolist()], dtype=np.uint32)


def packed(rgb: tuple[int, int, int] | list[int]) -> int:
    red, green, blue = rgb
    return 0xFF000000 | red << 16 | green << 8 | blue


MASKED = packed(MASKED_RGB)
PYTHON_CELLS = 256  # up to this many cells, cell_argb_values colours them faster than cell_argb's NumPy


def cell_argb(weights: np.ndarray, mask: np.ndarray, table: np.ndarray, veiled: bool) -> np.ndarray:
    """cell_colours from the weights and the mask, with the colours packed already (argb_table)."""
    levels = weights * 255
    np.rint(levels, out=levels)
    # np.clip, in two ufuncs: clip's own wrappers cost more than its work on a few dozen numbers.
    np.minimum(levels, 255, out=levels)
    np.maximum(levels, 0, out=levels)
    argb = table.take(levels.astype(np.intp))
    if veiled:
        argb[:] = packed(VEILED_RGB)
    if not mask.all():
        argb[~mask] = MASKED
    return argb


def cell_argb_values(weights: list[list[float]], mask: list[list[bool]], table: list[int], veiled: bool) -> list[int]:
    """cell_argb's colours in reading order, from the weights and the mask as Python lists: for a few dozen
    cells, coloured on every drag move, NumPy's calls (rounding, clipping, lookup: some 30 µs, cold between two
    moves) cost more than Python's lookups; for thousands, Python's loop costs more (see PYTHON_CELLS). A
    weight's level is 255 × weight rounded half to even (Python's round, NumPy's rint), clipped to 0…255
    (before rounding: the same, as the bounds are whole)."""
    if veiled:
        shown = packed(VEILED_RGB)
        return [shown if seen else MASKED for row in mask for seen in row]
    return [table[round(min(max(weight * 255, 0.0), 255.0))] if seen else MASKED
            for row_weights, row_seen in zip(weights, mask) for weight, seen in zip(row_weights, row_seen)]


class PackedColours:
    """The cells' colours packed as the image drawn from them holds them (Format_RGB32), from viridis's LUT."""

    def __init__(self, lut: np.ndarray) -> None:
        self.table = argb_table(lut)
        self._table_list = self.table.tolist()

    def packed(self, weights: np.ndarray, mask: np.ndarray, veiled: bool) -> tuple[array | np.ndarray, memoryview]:
        """The colours (cell_colours) and a view of their memory for a QImage (which borrows it: keep the first)."""
        if weights.size <= PYTHON_CELLS:
            # 32-bit words ("I") in the machine's order, as Format_RGB32 reads them.
            words = array("I", cell_argb_values(weights.tolist(), mask.tolist(), self._table_list, veiled))
            return words, memoryview(words)
        colours = cell_argb(weights, mask, self.table, veiled)
        return colours, colours.data


def paint_cells_as_shapes(painter: QPainter, grid: QRectF, argb: np.ndarray) -> None:
    """The cells as filled squares, for an SVG: each reaches under its right and lower neighbours,
    so no seam of the background shows where a viewer smooths two neighbours' shared edge."""
    rows, columns = argb.shape
    size = grid.width() / columns
    overlap = size / 4
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    for row in range(rows):
        for column in range(columns):
            width = size + (overlap if column < columns - 1 else 0)
            height = size + (overlap if row < rows - 1 else 0)
            cell = QRectF(grid.left() + column * size, grid.top() + row * size, width, height)
            painter.fillRect(cell, QColor.fromRgb(int(argb[row, column])))
    painter.restore()


def cell_text(result: AttentionResult, row: int, column: int, veiled: bool, compact: bool = False) -> str:
    """The number a cell shows: its weight ("0.87", or ".87" COMPACT), "—" where masked, "?" while the
    weights are veiled."""
    if not result.mask[row, column]:
        return "—"
    if veiled:
        return HIDDEN_TEXT
    return compact_weight(result.weights[row, column]) if compact else shown_number(result.weights[row, column])


def compact_weight(weight: float) -> str:
    """A weight in at most three characters, for cells too narrow for "0.87": ".87"; "1" for a whole one (what
    rounds to 1.00). A weight lies between 0 and 1, so no digit is lost; pointing at the cell gives three places."""
    text = explain.number(weight)
    return "1" if text == "1.00" else localized(text.removeprefix("0"))


def cell_tip(result: AttentionResult, row: int, column: int, query: str, key: str, veiled: bool) -> str:
    """What pointing at a cell says: the weight QUERY gives KEY, to three places and in percent."""
    if veiled and result.mask[row, column]:
        return tr("{query} → {key}: {weight}").format(query=query, key=key, weight=tr(HIDDEN_TIP))
    if result.mask[row, column]:
        weight = result.weights[row, column]
        shown = f"{shown_number(weight, 3)} ({percent(weight)})"
        return tr("{query} → {key}: {weight}").format(query=query, key=key, weight=shown)
    return tr("{query} → {key}: masked (a query sees only itself and earlier tokens)").format(query=query, key=key)


class CellNumbers:
    """The numbers painted in the cells. Each number a cell can show ("0.00" to "1.00", "—") is laid out
    once for the cells' font: laying out a few dozen strings on every drag move cost more than the rest
    of the paint. Each weight's number is kept too, laid out, by its two-place figure: a drag move gives
    every cell a new weight, but there are only 101 figures to write. A drag move paints every cell's
    number, so the loop over them does no more than look each one up and draw it."""

    def __init__(self) -> None:
        self._texts: dict[str, tuple[QStaticText, float, float]] = {}
        self._font: QFont | None = None
        # A weight's number laid out, by its figure ("0.87"), for the font, the form (compact or not) and the
        # language's decimal mark and direction in _figures_for.
        self._figures: dict[str, tuple[QStaticText, float, float]] = {}
        self._figures_for: tuple[bool, str, bool] | None = None

    def paint(self, painter: QPainter, grid: QRectF, font: QFont, result: AttentionResult, veiled: bool,
              compact: bool = False) -> None:
        """Every cell's number (COMPACT: ".87") centred in it, dark on light cells and light on dark ones."""
        rows, columns = result.weights.shape
        size = grid.width() / columns
        self._follow(font, compact)
        texts, figures = self._texts, self._figures
        # Where each column's and row's centre lies, worked out as drawText(cell, AlignCenter) would.
        centres_x = [grid.left() + (column + 0.5) * size for column in range(columns)]
        centres_y = [grid.top() + (row + 0.5) * size for row in range(rows)]
        draw = painter.drawStaticText
        pen = None
        # One point, moved for each number (drawStaticText copies it): making a new one per cell cost as much
        # as the rest of the loop. Every text's half height is the font's, so it mostly stays on a row's line.
        point, top = QPointF(), None
        # Python numbers and lists: read 36 times or more.
        for row_weights, row_seen, centre_y in zip(result.weights.tolist(), result.mask.tolist(), centres_y):
            for weight, seen, centre_x in zip(row_weights, row_seen, centres_x):
                if not seen or veiled:
                    color, text = DARK_TEXT, "—" if not seen else HIDDEN_TEXT
                    static, half_width, half_height = texts.get(text) or self.prepared(text, font)
                else:
                    # Black text on the bright (green-yellow) half of viridis, white on the dark half.
                    color = DARK_TEXT if weight > DARK_TEXT_FROM else LIGHT_TEXT
                    static, half_width, half_height = (figures.get(f"{weight:.2f}")
                                                       or self._prepared_weight(weight, font, compact))
                if color is not pen:
                    painter.setPen(color)
                    pen = color
                # Centred in the cell, as drawText(cell, AlignCenter) would put it.
                point.setX(centre_x - half_width)
                if centre_y - half_height != top:
                    top = centre_y - half_height
                    point.setY(top)
                draw(point, static)

    def _prepared_weight(self, weight: float, font: QFont, compact: bool) -> tuple[QStaticText, float, float]:
        """cell_text's number for a weight, laid out; kept by its two-place figure (which is all that number
        depends on for a weight from 0 to 1)."""
        text = compact_weight(weight) if compact else shown_number(weight)
        prepared = self.prepared(text, font)
        if 0.0 <= weight <= 1.0:
            self._figures[f"{weight:.2f}"] = prepared
        return prepared

    def _follow(self, font: QFont, compact: bool) -> None:
        """Forget the weights' numbers when the font, the form, or the language's decimal mark or direction
        changed since they were laid out."""
        asked = (compact, decimal_mark(), is_right_to_left())
        if font is not self._font or asked != self._figures_for:
            self._figures, self._figures_for = {}, asked
        self._follow_font(font)

    def _follow_font(self, font: QFont) -> None:
        """Forget the laid-out texts when the cells' font is another."""
        if font is not self._font:
            self._texts, self._font = {}, font

    def prepared(self, text: str, font: QFont) -> tuple[QStaticText, float, float]:
        """The number laid out in the cells' font, with half its width and half the line's height."""
        self._follow_font(font)
        prepared = self._texts.get(text)
        if prepared is None:
            static = QStaticText(text)
            static.setTextFormat(Qt.TextFormat.PlainText)
            static.prepare(QTransform(), font)
            metrics = QFontMetricsF(font)
            prepared = self._texts[text] = static, metrics.horizontalAdvance(text) / 2, metrics.height() / 2
        return prepared
