"""Where the attention matrix puts everything at its size and font: the title, the room for the row
labels, the grid of cells, the cells' font (if their numbers can be read at all) and the column labels.

Worked out from plain inputs (the panel's font, size and tokens), once per size, font or scene, not on
every paint; matrix_view.py keeps the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QFont, QFontInfo, QFontMetricsF

from attn_desktop.geometry.axis_labels import place_axis_labels, turned_length

WIDEST_CELL_TEXT = "0.00"  # cells too narrow for this in the smallest readable font show the compact form
# The compact form (".87", "1"), with a space's room more: without the leading 0 neighbouring numbers in cells
# this narrow would run together (".00.00.00"). Cells too narrow for it show colour only.
COMPACT_CELL_TEXT = ".00 "
MIN_CELL_PIXELS = 10.0  # the smallest cell number a class can read at 100 %
MIN_CELL_SHARE = 0.8  # ... and never below this share of the panel's font, which presentation mode enlarges
MAX_SIZED_TOKENS = 8  # the panel asks for room to show numbers up to this many tokens; beyond, it may drop them
SHRINK_CHARS = 5  # column labels shrink to fit names up to about this long; longer ones are elided
LABEL_CHARS = 10  # row labels take at most about this many characters; longer names are elided
CORNER_TEXT = "q ↓ k →"
COLUMN_GAP = 6.0  # pixels between two column labels
SHORTEST_LABEL = "M…"  # a name shortened to less than about this tells nothing: left out instead
TURNED_CHARS = 12  # names turned upright over their columns take at most about this many characters' height
TURNED_CHARS_ASKED = 6  # ... and the room a panel asks for holds this many: in a crowded window (two heads' matrices
# under their plots, in Spanish) a band for twelve took the plots under their legible size
TURNED_CHARS_AT_LEAST = 4  # a band lower than this many characters (and than the longest name) is not worth it
TURNED_SHARE = 0.25  # ... and at most this share of the panel's height: the cells keep the most of it
TURNED_GAP = 4.0  # pixels between a turned name and the cells under it (and as much above it)


@dataclass
class MatrixLayout:
    """Where everything goes at the current size, font and tokens."""

    title_lines: list[str]
    title_cut: bool
    line_height: float  # of the panel's font
    title_height: float  # title lines plus the note when numbers are hidden
    numbers_hidden_note: bool
    left: float  # room for the row labels
    grid: QRectF
    cell_font: QFont | None
    compact: bool = False  # the cells' numbers in the compact form (".87", "1"): see numbers_font
    # How far the column names reach up from the cells when written turned upright (they do not all fit across
    # their columns); None when they are written across.
    turned: float | None = None


@dataclass(frozen=True)
class MatrixText:
    """What the panel writes, and in which font at which resolution."""

    font: QFont
    dpi: int  # the panel's logical dots per inch, up and down
    title: str
    query_tokens: Sequence[str]  # the rows' names
    n_queries: int
    n_tokens: int  # columns
    key_tokens: Sequence[str] = ()  # the columns' names: the layout makes their band tall enough to write them turned


def title_font(font: QFont) -> QFont:
    bold = QFont(font)
    bold.setBold(True)
    return bold


def corner_width(font: QFont) -> float:
    return QFontMetricsF(font).horizontalAdvance(CORNER_TEXT) + 6


def label_margin(text: MatrixText) -> float:
    """Room for the row labels: the widest name, but never more than about LABEL_CHARS characters
    (longer names are elided), so the labels cannot eat the cells; always room for the corner."""
    metrics = QFontMetricsF(text.font)
    widest = max((metrics.horizontalAdvance(t) for t in text.query_tokens), default=0) + 12
    cap = metrics.averageCharWidth() * LABEL_CHARS + 12
    return max(min(widest, cap), corner_width(text.font) + 2, 48.0)


def smallest_readable_points(font: QFont, dpi: int) -> float:
    """The smallest type a cell's number or a label may be set in, in points."""
    pixels = max(MIN_CELL_PIXELS, MIN_CELL_SHARE * QFontInfo(font).pixelSize())
    return pixels * 72.0 / max(dpi, 1)


def cell_font(font: QFont, dpi: int, cell_size: float, widest: str = WIDEST_CELL_TEXT) -> QFont | None:
    """The panel's font, shrunk as far as the smallest readable size so that "0.00" (or WIDEST) fits a cell;
    None if it cannot."""
    font = QFont(font)
    needed = QFontMetricsF(font).horizontalAdvance(widest) + 4
    if needed <= cell_size and QFontMetricsF(font).height() <= cell_size:
        return font
    points = font.pointSizeF() * min(cell_size / needed, cell_size / QFontMetricsF(font).height())
    if points < smallest_readable_points(font, dpi) - 1e-6:
        return None
    font.setPointSizeF(points)
    return font


def numbers_font(font: QFont, dpi: int, cell_size: float) -> tuple[QFont | None, bool]:
    """The cells' font and whether they show the compact form: "0.87" where it reads in cells of CELL_SIZE,
    else ".87" (a 20-token scene's cells on a classroom screen), else no numbers (None: colour only)."""
    full = cell_font(font, dpi, cell_size)
    if full is not None:
        return full, False
    compact = cell_font(font, dpi, cell_size, COMPACT_CELL_TEXT)
    return compact, compact is not None


def min_cell_size(font: QFont, dpi: int, widest: str = WIDEST_CELL_TEXT) -> float:
    """The smallest cell whose number is still readable: "0.00" (or WIDEST) in the smallest readable font."""
    small = QFont(font)
    small.setPointSizeF(smallest_readable_points(font, dpi))
    metrics = QFontMetricsF(small)
    return float(np.ceil(max(metrics.horizontalAdvance(widest) + 4, metrics.height())) + 1)


# Where a title breaks: after the comma before its formula, as each language writes that comma.
TITLE_BREAKS = (", ", "，", "، ")


def title_halves(title: str) -> list[str]:
    """ "Attention weights" and the formula, the title's two lines where it is too wide for one (the whole title
    where it has no comma to break at)."""
    for mark in TITLE_BREAKS:
        head, found, formula = title.partition(mark)
        if found:
            return [head, formula]
    return [title]


def title_lines(text: MatrixText, width: float) -> tuple[list[str], bool]:
    """The title on one line if it fits, else "Attention weights" over the formula; cut only if even
    that does not fit (then it is elided, and reported by cut_parts)."""
    metrics = QFontMetricsF(title_font(text.font))
    whole = text.title
    if metrics.horizontalAdvance(whole) <= width:
        return [whole], False
    lines = title_halves(whole)
    cut = any(metrics.horizontalAdvance(line) > width for line in lines)
    return [metrics.elidedText(line, Qt.TextElideMode.ElideRight, width) for line in lines], cut


def work_out_layout(text: MatrixText, width: int, height: int, side: float) -> MatrixLayout:
    """The layout of a panel WIDTH by HEIGHT pixels, with SIDE pixels right of the grid (entropy, colour bar)."""
    metrics = QFontMetricsF(text.font)
    line = metrics.height()
    lines, cut = title_lines(text, width - 8)
    title_height = len(lines) * QFontMetricsF(title_font(text.font)).height() + 8
    left, top = label_margin(text), line + 8
    rows = text.n_queries
    grid = _grid_in(left, title_height + top, width, height, side, rows, text.n_tokens)
    turned = turned_names_length(text, grid, height, _room_beside_the_numbers(text, grid, height - title_height))
    if turned is not None:  # the names written upright: the band over the cells as tall as they need
        top = max(top, turned + 2 * TURNED_GAP)
        grid = _grid_in(left, title_height + top, width, height, side, rows, text.n_tokens)
    font, compact = numbers_font(text.font, text.dpi, grid.width() / text.n_tokens)
    note = font is None
    if note:  # a line saying why the cells are blank; the cells only get smaller for it
        title_height += line
        grid = _grid_in(left, title_height + top, width, height, side, rows, text.n_tokens)
    return MatrixLayout(lines, cut, line, title_height, note, left, grid, font, compact, turned)


def _room_beside_the_numbers(text: MatrixText, grid: QRectF, height: float) -> float | None:
    """The pixels of HEIGHT (the panel's, under its title) a band of turned names may take without making the
    cells of GRID too small for their numbers; None when they are too small for them anyway (a 64-token scene)."""
    fits_numbers = numbers_font(text.font, text.dpi, grid.width() / text.n_tokens)[0] is not None
    if not fits_numbers:
        return None
    cells_need = text.n_queries * min_cell_size(text.font, text.dpi, COMPACT_CELL_TEXT) + 6
    return height - 2 * TURNED_GAP - cells_need


def turned_names_length(text: MatrixText, grid: QRectF, height: int | None = None,
                        spare: float | None = None) -> float | None:
    """How far the column names reach up when they must be written turned upright, because across their columns
    over GRID not every one fits whole even set smaller; None when they all fit across (they are written so).
    Never more than about TURNED_CHARS characters, nor TURNED_SHARE of the panel's HEIGHT, nor the SPARE pixels
    it has beyond what its title and cells need (a line at least). Where HEIGHT is None, the room a panel asks
    for: about TURNED_CHARS_ASKED characters."""
    tokens = text.key_tokens
    if not tokens:
        return None
    across = _labels_across(text.font, text.dpi, tokens, grid, range(len(tokens)))[1]
    if len(across) == len(tokens) and all(label.whole for label in across):
        return None
    metrics = QFontMetricsF(text.font)
    if height is None:
        limit = metrics.averageCharWidth() * TURNED_CHARS_ASKED
    else:
        room = height * TURNED_SHARE if spare is None else min(height * TURNED_SHARE, spare)
        limit = max(metrics.height(), min(metrics.averageCharWidth() * TURNED_CHARS, room))
    lengths = [metrics.horizontalAdvance(token) for token in tokens]
    if limit < min(max(lengths) + 2.0, metrics.averageCharWidth() * TURNED_CHARS_AT_LEAST):
        return None  # a band too low to tell the names apart: across, those that fit are named
    return turned_length(lengths, 2.0, limit)


def _grid_in(left: float, top: float, width: int, height: int, side: float, rows: int, columns: int) -> QRectF:
    area = QRectF(left, top, width - left - side, height - top - 6)
    cell = max(min(area.width() / columns, area.height() / rows), 1.0)
    return QRectF(area.left(), area.top(), cell * columns, cell * rows)


def minimum_size(text: MatrixText, side: float) -> QSize:
    """Room for every cell's number in a readable font, up to MAX_SIZED_TOKENS tokens, with the
    title on at most two whole lines, the labels and SIDE pixels for the entropy and the colour bar."""
    cell = min_cell_size(text.font, text.dpi)
    columns = min(text.n_tokens, MAX_SIZED_TOKENS)
    rows = min(text.n_queries, MAX_SIZED_TOKENS)
    title_metrics = QFontMetricsF(title_font(text.font))
    title_width = max(title_metrics.horizontalAdvance(half) for half in title_halves(text.title)) + 8
    line = QFontMetricsF(text.font).height()
    width = max(label_margin(text) + columns * cell + side, title_width)
    header = line + 8
    # Names too wide for cells this size are written upright, in a band as tall as they need.
    turned = turned_names_length(text, QRectF(0, 0, text.n_tokens * cell, text.n_queries * cell))
    if turned is not None:
        header = max(header, turned + 2 * TURNED_GAP)
    height = 2 * title_metrics.height() + 8 + header + rows * cell + 6
    return QSize(int(np.ceil(width)), int(np.ceil(height)))


def width_for_numbers(text: MatrixText, side: float) -> int:
    """The narrowest panel whose every cell shows its number, in the compact form at least (".87"): the
    heads view shows the matrices side by side only where each gets this much (a 20-token scene's need
    most of a classroom screen's width)."""
    cell = min_cell_size(text.font, text.dpi, COMPACT_CELL_TEXT)
    return int(np.ceil(label_margin(text) + text.n_tokens * cell + side))


@dataclass(frozen=True)
class ShownLabel:
    """A token's name as the matrix draws it over its column or beside its row."""

    index: int
    text: str  # whole, or shortened with "…" (the tooltip has it whole)
    start: float  # the room it is drawn in along the axis: x for a column, y for a row
    end: float
    whole: bool = True  # False: shortened
    turned: bool = False  # written upright, reading upwards (the room along the axis is then a line's height)


def column_labels(font: QFont, dpi: int, tokens: Sequence[str], grid: QRectF, order: Sequence[int],
                  turned: float | None = None) -> tuple[QFont, list[ShownLabel]]:
    """The column labels' font and each label drawn, over a GRID of square cells; names tried in ORDER
    (the ones the class reads the answer from first: see place_axis_labels), written across their columns, or
    turned upright reaching TURNED pixels up when the layout found they do not fit across (turned_names_length)."""
    if turned is not None:
        return _labels_turned(font, dpi, tokens, grid, order, turned)
    return _labels_across(font, dpi, tokens, grid, order)


def _labels_turned(font: QFont, dpi: int, tokens: Sequence[str], grid: QRectF, order: Sequence[int],
                   length: float) -> tuple[QFont, list[ShownLabel]]:
    """Names turned upright, each centred on its column and a line high along the axis: set smaller (down to the
    smallest readable size) where columns are narrower than a line, and only then some left out, ORDER's first
    kept; a name longer than LENGTH shortened."""
    size = grid.width() / max(len(tokens), 1)
    turned_font = QFont(font)
    line = QFontMetricsF(turned_font).height()
    if line > size:
        turned_font.setPointSizeF(max(smallest_readable_points(font, dpi), font.pointSizeF() * size / line))
        line = QFontMetricsF(turned_font).height()
    metrics = QFontMetricsF(turned_font)
    centres = [grid.left() + (column + 0.5) * size for column in range(len(tokens))]
    placed = place_axis_labels(centres, [line] * len(tokens), (grid.left(), grid.right()), 0.0, order, line)
    shown = []
    for label in placed:
        token = tokens[label.index]
        text = metrics.elidedText(token, Qt.TextElideMode.ElideRight, length)
        shown.append(ShownLabel(label.index, text, label.start, label.end, text == token, True))
    return turned_font, shown


def _labels_across(font: QFont, dpi: int, tokens: Sequence[str], grid: QRectF,
                   order: Sequence[int]) -> tuple[QFont, list[ShownLabel]]:
    """Names written across their columns.

    Each name takes its own width, centred on its column, so a long name borrows room a short neighbour
    leaves. Where the names do not all fit whole in the panel's font they are tried set smaller (down to the
    smallest readable size); what still does not fit is shortened, and left out only where not even a letter
    and "…" fit."""
    size = grid.width() / max(len(tokens), 1)
    fonts = [QFont(font)]
    metrics = QFontMetricsF(font)
    # A very long name is elided, not allowed to shrink every label: size for names up to SHRINK_CHARS.
    longest_sized = metrics.averageCharWidth() * SHRINK_CHARS
    widest = min(max((metrics.horizontalAdvance(token) for token in tokens), default=0.0), longest_sized)
    if widest + COLUMN_GAP > size and widest > 0:
        smaller = QFont(font)
        smaller.setPointSizeF(max(smallest_readable_points(font, dpi), font.pointSizeF() * (size - COLUMN_GAP) / widest))
        fonts.append(smaller)
    centres = [grid.left() + (column + 0.5) * size for column in range(len(tokens))]
    candidates = []
    for candidate in fonts:
        metrics = QFontMetricsF(candidate)
        placed = place_axis_labels(centres, [metrics.horizontalAdvance(token) for token in tokens],
                                   (grid.left(), grid.right()), COLUMN_GAP, order,
                                   metrics.horizontalAdvance(SHORTEST_LABEL))
        shown = [ShownLabel(label.index, tokens[label.index] if label.whole else metrics.elidedText(
            tokens[label.index], Qt.TextElideMode.ElideRight, label.end - label.start - COLUMN_GAP),
            label.start, label.end, label.whole) for label in placed]
        whole = sum(label.whole for label in placed)
        letters = sum(len(label.text.rstrip("…")) for label in shown)
        candidates.append((candidate, shown, (whole == len(tokens), len(shown), whole, letters)))
    # The panel's own font when it shows every name whole, else whichever shows more names, then more of them
    # whole, then more of their letters.
    best = max(candidates, key=lambda found: found[2])
    return best[0], best[1]


def row_labels(font: QFont, dpi: int, tokens: Sequence[str], grid: QRectF,
               order: Sequence[int]) -> tuple[QFont, list[ShownLabel]]:
    """The row labels' font and each label drawn beside the GRID: set smaller (down to the smallest readable
    size) where rows are shorter than a line, and only then some left out, those in ORDER kept first."""
    size = grid.height() / max(len(tokens), 1)
    row_font = QFont(font)
    line = QFontMetricsF(row_font).height()
    if line > size:
        row_font.setPointSizeF(max(smallest_readable_points(font, dpi), font.pointSizeF() * size / line))
        line = QFontMetricsF(row_font).height()
    metrics = QFontMetricsF(row_font)
    centres = [grid.top() + (row + 0.5) * size for row in range(len(tokens))]
    placed = place_axis_labels(centres, [line] * len(tokens),
                               (grid.top(), grid.bottom()), 0.0, order, line)
    room = grid.left() - 6
    return row_font, [ShownLabel(label.index, metrics.elidedText(tokens[label.index], Qt.TextElideMode.ElideRight, room),
                                 label.start, label.end) for label in placed]
