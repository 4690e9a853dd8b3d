"""What a change of the scene repaints in the attention matrix, and what that paint may leave out.

A drag move gives every cell a new weight and nothing else: the title, the names, the colour bar and the
chosen row's outline stay as they are. So the matrix asks for its cells (and the entropies beside them)
alone, and the paint that follows need not lay the panel's pixmap under the cells: their opaque picture
covers every pixel of theirs, and the few pixels round them that it leaves (at the grid's edges, where
the grid ends a fraction of a pixel into one) still hold what the last paint left there, which a drag
does not change. Another chosen row, a new size, focus or settings repaint as before.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QRectF
from PySide6.QtGui import QColor, QPainter, QPixmap, QRegion
from PySide6.QtWidgets import QWidget

from attn_desktop.model import HeadReading
from attn_desktop.ui.panels.matrix_frame import paint_selected_row, selected_row_layer


def shown_state(reading: HeadReading) -> tuple:
    """The weights, the mask and the chosen row, as bytes to compare (equal bytes, equal numbers: a paint
    is skipped only for the very same numbers; a weight of -0 for 0 merely paints the same picture again)."""
    result = reading.result
    return result.weights.shape, result.weights.tobytes(), result.mask.tobytes(), reading.selected


class CellRepaints:
    """What the matrix last painted, and whether the paint under way is a drag move's repaint of its cells."""

    def __init__(self) -> None:
        self._painted: tuple | None = None  # shown_state at the last paint; None: paint afresh
        self._cells_only: QRegion | None = None  # the cells (and entropies) asked for alone

    def forget(self) -> None:
        """New names or a new title round the same numbers: the next change paints afresh."""
        self._painted = None

    def painted(self, reading: HeadReading) -> None:
        self._painted = shown_state(reading)

    def shows(self, reading: HeadReading) -> bool:
        """Whether the last paint showed the weights, mask and chosen row as they are now (a value's drag
        changes none of them: the matrix need not be painted again)."""
        return self._painted is not None and self._painted == shown_state(reading)

    def same_row_chosen(self, reading: HeadReading) -> bool:
        return self._painted is not None and self._painted[-1] == reading.selected

    def ask_for_cells(self, view: QWidget, grid: QRectF, entropies: QRect | None) -> None:
        """Have VIEW repaint the cells of GRID (and the ENTROPIES' column) alone."""
        self._cells_only = QRegion(grid.toAlignedRect())
        if entropies is not None:
            self._cells_only += entropies
        view.update(self._cells_only)

    def cells_only(self, region: QRegion) -> bool:
        """Whether a paint of REGION is the repaint of the cells alone asked for (told once)."""
        asked, self._cells_only = self._cells_only, None
        return asked is not None and region.subtracted(asked).isEmpty()


class ChosenRowOutline:
    """The chosen row's outline, drawn from a pixmap of it (selected_row_layer) kept while the row, the grid,
    the focus and the colours stay the same: a drag move's every paint, where stroking its wide line cost a
    tenth of the matrix's paint."""

    def __init__(self) -> None:
        self._layer: tuple[tuple, tuple[QPoint, QPixmap] | None] | None = None  # (what it shows, it)

    def draw(self, painter: QPainter, grid: QRectF, row: int, n_tokens: int, text_color: QColor, focused: bool,
             pixel_ratio: float) -> None:
        asked = (grid.getRect(), row, n_tokens, text_color.rgba(), focused, pixel_ratio)
        if self._layer is None or self._layer[0] != asked:
            self._layer = asked, selected_row_layer(grid, row, n_tokens, text_color, focused, pixel_ratio)
        layer = self._layer[1]
        if layer is None:
            paint_selected_row(painter, grid, row, n_tokens, text_color, focused=focused)
        else:
            painter.drawPixmap(*layer)
