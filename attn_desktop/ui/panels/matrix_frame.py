"""What the attention matrix paints round its cells: the title, the row and column labels, the colour
bar, the hatching over masked cells, and the outline of the chosen query's row.

All but the outline change only with the size, the font, the tokens or the settings, so the panel
keeps them in pixmaps (matrix_view.py); the outline follows the chosen query on every paint.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPoint, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QLinearGradient, QPainter, QPen, QPixmap

from attn_desktop.language import N_, tr
from attn_desktop.ui.panels.entropy_column import EntropyColumn
from attn_desktop.ui.panels.matrix_layout import CORNER_TEXT, TURNED_GAP, MatrixLayout, ShownLabel, title_font

LEGEND_WIDTH = 46
NUMBERS_HIDDEN_NOTE = N_("Point at a cell to read its number")  # shown as tr(NUMBERS_HIDDEN_NOTE)
HATCH_COLOR = QColor(112, 112, 112)  # 4.3 : 1 on a masked cell's grey (WCAG 1.4.11's 3 : 1 for a meaningful mark)
# The chosen row's band is white inside a dark line: on any viridis cell one of the two stands out 4.6 : 1 or more,
# for every eye (an amber band lay under 2 CIEDE2000 from viridis's yellow end under simulated deuteranopia).
OUTLINE_COLOR = QColor(255, 255, 255)
FOCUS_LINE_PX = 3  # the chosen row's ring while the matrix has the keys (WCAG's focus indicator: 2 px at least)
OUTLINE_REACH = FOCUS_LINE_PX + 2  # pixels the chosen row's outline reaches past the cells, its ring's width and more


def paint_title(painter: QPainter, layout: MatrixLayout, font: QFont, width: int, hint: bool = True) -> None:
    """The title's lines, and under them, when the cells are too small for numbers, a note saying so
    (unless HINT is False: a picture leaves it out)."""
    bold = title_font(font)
    painter.setFont(bold)
    line = QFontMetricsF(bold).height()
    for number, text in enumerate(layout.title_lines):
        box = QRectF(4, 4 + number * line, width - 8, line)
        painter.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
    if layout.numbers_hidden_note and hint:
        painter.setFont(font)
        box = QRectF(4, 4 + len(layout.title_lines) * line, width - 8, layout.line_height)
        note = QFontMetricsF(font).elidedText(tr(NUMBERS_HIDDEN_NOTE), Qt.TextElideMode.ElideRight, box.width())
        painter.drawText(box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, note)


COLUMN_LABEL_ALIGNMENT = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom
ROW_LABEL_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
# A turned name starts at the cells and reads upwards, centred on its column.
TURNED_LABEL_ALIGNMENT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter


def paint_labels(painter: QPainter, layout: MatrixLayout, font: QFont, columns: tuple[QFont, list[ShownLabel]],
                 rows: tuple[QFont, list[ShownLabel]], color: QColor) -> None:
    """The corner's "q ↓ k →", the keys' names over the columns and the queries' beside the rows (as
    column_labels and row_labels chose them)."""
    grid, title_height = layout.grid, layout.title_height
    painter.setPen(color)
    painter.setFont(font)
    painter.drawText(QRectF(0, title_height, grid.left() - 2, grid.top() - title_height),
                     Qt.AlignmentFlag.AlignCenter, CORNER_TEXT)
    painter.setFont(columns[0])
    for label in columns[1]:
        if label.turned:
            paint_turned(painter, column_label_rect(layout, label), label.text)
        else:
            painter.drawText(column_label_rect(layout, label), COLUMN_LABEL_ALIGNMENT, label.text)
    painter.setFont(rows[0])
    for label in rows[1]:
        painter.drawText(row_label_rect(layout, label), ROW_LABEL_ALIGNMENT, label.text)


def paint_turned(painter: QPainter, box: QRectF, text: str) -> None:
    """TEXT written upright in BOX (a column's turned label), reading upwards from its bottom."""
    painter.save()
    painter.rotate(-90)  # about the panel's corner: a line of text now runs up the panel, its top towards the left
    turned = QRectF(-box.bottom(), box.left(), box.height(), box.width())  # BOX, in the turned painter's terms
    painter.drawText(turned, TURNED_LABEL_ALIGNMENT, text)
    painter.restore()


def column_label_rect(layout: MatrixLayout, label: ShownLabel) -> QRectF:
    """The box a column's name is drawn in, between the title and the grid: across the column
    (COLUMN_LABEL_ALIGNMENT), or, for a turned name, the upright box it is written up in (paint_turned)."""
    if label.turned and layout.turned is not None:
        bottom = layout.grid.top() - TURNED_GAP
        return QRectF(label.start, bottom - layout.turned, label.end - label.start, layout.turned)
    return QRectF(label.start, layout.title_height, label.end - label.start, layout.grid.top() - layout.title_height)


def row_label_rect(layout: MatrixLayout, label: ShownLabel) -> QRectF:
    """The box a row's name is drawn in (ROW_LABEL_ALIGNMENT), left of the grid."""
    return QRectF(0, label.start, layout.grid.left() - 6, label.end - label.start)


def paint_legend(painter: QPainter, grid: QRectF, lut: np.ndarray, entropy_column: EntropyColumn, font: QFont,
                 color: QColor) -> None:
    """The entropy column's header (when shown) and the colour bar from 0 to 1 right of the grid."""
    entropy_column.paint_header(painter, grid, painter.font(), color)
    bar = QRectF(grid.right() + entropy_column.width(font) + 10, grid.top(), 10, grid.height())
    gradient = QLinearGradient(bar.bottomLeft(), bar.topLeft())
    for stop in range(0, 256, 32):
        gradient.setColorAt(stop / 255, QColor(*lut[stop]))
    gradient.setColorAt(1.0, QColor(*lut[255]))
    painter.fillRect(bar, gradient)
    painter.setPen(color)
    line = QFontMetricsF(painter.font()).height()  # the labels follow the font (presentation mode)
    top_label = QRectF(bar.right() + 3, bar.top(), LEGEND_WIDTH, line)
    bottom_label = QRectF(bar.right() + 3, bar.bottom() - line, LEGEND_WIDTH, line)
    painter.drawText(top_label, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, "1")
    painter.drawText(bottom_label, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom, "0")


def mask_layer(mask: np.ndarray, grid: QRectF) -> QPixmap | None:
    """Hatching over the masked cells (MASK is False where a query may not see a key), the grid's size;
    None when nothing is masked."""
    if mask.all():
        return None
    size = grid.width() / mask.shape[1]
    layer = QPixmap(grid.size().toSize() + QSize(1, 1))
    layer.fill(Qt.GlobalColor.transparent)
    painter = QPainter(layer)
    hatch = QBrush(HATCH_COLOR, Qt.BrushStyle.BDiagPattern)
    for row, column in zip(*np.nonzero(~mask)):
        painter.fillRect(QRectF(column * size, row * size, size, size), hatch)
    painter.end()
    return layer


def selected_row_layer(grid: QRectF, row: int, n_tokens: int, text_color: QColor, focused: bool,
                       pixel_ratio: float) -> tuple[QPoint, QPixmap] | None:
    """The chosen row's outline (paint_selected_row) alone on a transparent pixmap, and the whole pixel where
    its corner goes: laid over the cells, it gives the very pixels the lines would, since they are drawn
    aliased in opaque colours (each pixel either the line's colour or untouched) and a move by whole pixels
    puts them on the same pixels. None where that does not hold (a colour seen through, a screen that
    scales by a fraction): there the lines are drawn as they are."""
    if text_color.alpha() != 255 or OUTLINE_COLOR.alpha() != 255 or pixel_ratio != int(pixel_ratio):
        return None
    size = grid.width() / n_tokens
    outline = QRectF(grid.left(), grid.top() + row * size, grid.width(), size)
    area = outline.adjusted(-OUTLINE_REACH, -OUTLINE_REACH, OUTLINE_REACH, OUTLINE_REACH).toAlignedRect()
    layer = QPixmap(area.size() * int(pixel_ratio))
    layer.setDevicePixelRatio(pixel_ratio)
    layer.fill(Qt.GlobalColor.transparent)
    painter = QPainter(layer)
    painter.translate(-area.left(), -area.top())
    paint_selected_row(painter, grid, row, n_tokens, text_color, focused)
    painter.end()
    return area.topLeft(), layer


def paint_selected_row(painter: QPainter, grid: QRectF, row: int, n_tokens: int, text_color: QColor,
                       focused: bool = False) -> None:
    """The chosen query's row outlined: a white band inside a thin line in the text's colour. While the matrix
    has the keys (↑/↓ choose the query) the line is a ring FOCUS_LINE_PX wide, outside the band: against the
    band and the panel's background it keeps the text's contrast, whatever the cells' colours."""
    size = grid.width() / n_tokens
    outline = QRectF(grid.left(), grid.top() + row * size, grid.width(), size)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(QPen(OUTLINE_COLOR, 3))
    painter.drawRect(outline.adjusted(1, 1, -1, -1))
    if focused:
        half = FOCUS_LINE_PX / 2
        painter.setPen(QPen(text_color, FOCUS_LINE_PX))
        painter.drawRect(outline.adjusted(-half, -half, half, half))
        return
    painter.setPen(QPen(text_color, 1))
    painter.drawRect(outline)
