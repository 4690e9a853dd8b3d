"""The attention matrix: every query's weights over every key, as a heatmap.

Painted directly rather than with an ImageItem: each cell carries its
printed value, masked cells need their own hatched look (masked is not 0%),
and a click on a row must select that query. One paint of a few hundred
rectangles is far cheaper than a pyqtgraph scene with a text item per cell.

The panel is the widget: what it shows, its pixmaps and the mouse and keys. Where
everything goes is matrix_layout.py's, what a cell shows (veiled or not)
matrix_cells.py's, and what is painted round the cells matrix_frame.py's.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QAccessible,
    QFocusEvent,
    QFont,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPaintEngine,
    QPainter,
    QPaintEvent,
    QPixmap,
    QResizeEvent,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from attn_desktop.language import tr
from attn_desktop.model import Change, HeadReading, Scene, explain
from attn_desktop.model.spoken import query_announcement
from attn_desktop.ui.accessibility.painted_items import install_factory
from attn_desktop.ui.panels.change_parts import parts_of
from attn_desktop.ui.panels.entropy_column import EntropyColumn
from attn_desktop.ui.panels.matrix_access import MatrixAccess
from attn_desktop.ui.panels.matrix_cells import (
    CellNumbers,
    PackedColours,
    cell_colours,
    cell_text,
    cell_tip,
    paint_cells_as_shapes,
    viridis_table,
)
from attn_desktop.ui.panels.matrix_frame import (
    LEGEND_WIDTH,
    NUMBERS_HIDDEN_NOTE,
    OUTLINE_REACH,
    mask_layer,
    paint_labels,
    paint_legend,
    paint_selected_row,
    paint_title,
)
from attn_desktop.ui.panels.matrix_layout import (
    MatrixLayout,
    MatrixText,
    ShownLabel,
    column_labels,
    corner_width,
    minimum_size,
    row_labels,
    width_for_numbers,
    work_out_layout,
)
from attn_desktop.ui.panels.matrix_repaints import CellRepaints, ChosenRowOutline
from attn_desktop.ui.scene_link import follow_scene, head_reading
from attn_desktop.ui.view_state.weights_veil import WeightsVeil

VECTOR_ENGINES = (QPaintEngine.Type.SVG, QPaintEngine.Type.Pdf)
HEAVIEST_KEYS = 2  # the chosen query's keys whose names are placed first when not every name fits
Labels = tuple[QFont, list[ShownLabel]]  # a font, and the names drawn in it


class MatrixView(QWidget):
    accessible_role = QAccessible.Role.Table  # its painted cells are its accessible children (matrix_access.py)
    announcement = Signal(str, object)  # a query chosen by a key, for the window's announcer (text, source)

    def __init__(self, scene: Scene | HeadReading, parent: QWidget | None = None,
                 veil: WeightsVeil | None = None) -> None:
        install_factory()  # before Qt can ask for its interface (see painted_items.py)
        super().__init__(parent)
        self.reading = scene = head_reading(scene)
        self.veil = veil if veil is not None else WeightsVeil(self)  # grey cells and "?" while the student predicts
        self.veil.changed.connect(self._on_veil_changed)
        self._lut = viridis_table()
        self._colours = PackedColours(self._lut)  # the same colours packed, as the cells' image holds them
        self._static_layer: QPixmap | None = None
        self._mask_layer: QPixmap | None = None
        self._cells_buffer: object = None  # the cells' colours, borrowed by the QImage drawn from them
        self._layout: MatrixLayout | None = None
        self._labels: tuple[Labels, Labels] | None = None  # the column and row labels, for _layout
        self._labels_order: tuple[list[int], list[int]] | None = None  # the names' order _labels was last worked out in
        self._hints_shown = True  # off while the panel is painted into a picture (see set_hints_shown)
        self._numbers = CellNumbers()  # the cells' numbers, each laid out once
        self._repaints = CellRepaints()  # what was last painted; a drag move's repaint of the cells alone
        self._outline = ChosenRowOutline()
        self.entropy_column = EntropyColumn(scene)  # each row's entropy, right of the grid (View menu)
        # Every paint covers the whole panel (its static layer, or a fill): without this, each drag move's
        # repaint of the cells first had Qt repaint the dock and the main window under them.
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setToolTip("")
        self.setAccessibleName(tr("Attention matrix"))
        follow_scene(self, scene, self._on_scene_changed)
        self.access = MatrixAccess(self, scene, self.veil, self.grid_rect, self.cell_rect)  # for screen readers

    # ----- what is shown (also what the tests read) ---------------------
    def title(self) -> str:
        return tr("Attention weights, {formula}").format(formula=explain.matrix_formula(self.reading.scale, self.reading.causal))

    def cell_text(self, row: int, column: int) -> str:
        """The number the cell shows ("0.87", or ".87" where the cells are too narrow for that)."""
        return cell_text(self.reading.result, row, column, self.veil.on, self._current_layout().compact)

    def set_show_entropy(self, on: bool) -> None:
        """Show each row's entropy beside it: 0 bits when one key takes all the weight, log₂ n when all share it."""
        if on != self.entropy_column.shown:
            self.entropy_column.shown = on
            self._static_layer = None
            self._layout = None
            self._labels = None
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
        return tr(NUMBERS_HIDDEN_NOTE) if self._current_layout().numbers_hidden_note else None

    def set_hints_shown(self, shown: bool) -> None:
        """Paint the hints meant for the screen ("Point at a cell to read its number"), or leave them out,
        as an exported picture does (the grid stays where it is)."""
        if shown != self._hints_shown:
            self._hints_shown = shown
            self._static_layer = None

    def hints_shown(self) -> bool:
        return self._hints_shown

    def cut_parts(self) -> list[str]:
        """Text the panel shows cut that a reader needs whole (elided token names, with tooltips, are fine)."""
        layout = self._current_layout()
        cut = ["title"] if layout.title_cut else []
        if corner_width(self.font()) > layout.left - 2:
            cut.append("corner")
        return cut

    # ----- layout (see matrix_layout.py) ----------------------------------
    def _text(self) -> MatrixText:
        scene = self.reading
        return MatrixText(self.font(), self.logicalDpiY(), self.title(), scene.query_tokens, scene.n_queries,
                          scene.n_tokens, scene.tokens)

    def _side(self) -> float:
        """Room right of the grid: the entropy column (when shown) and the colour bar."""
        return LEGEND_WIDTH + self.entropy_column.width(self.font())

    def _current_layout(self) -> MatrixLayout:
        if self._layout is None:
            self._layout = work_out_layout(self._text(), self.width(), self.height(), self._side())
        return self._layout

    def shown_column_labels(self) -> dict[int, str]:
        """Each column's name as drawn over it (shortened ones end in "…"); a column left without one is absent."""
        return {label.index: label.text for label in self._current_labels()[0][1]}

    def shown_row_labels(self) -> dict[int, str]:
        """Each row's name as drawn beside it; a row left without one is absent."""
        return {label.index: label.text for label in self._current_labels()[1][1]}

    def drawn_labels(self) -> tuple[MatrixLayout, Labels, Labels]:
        """The layout and the column and row names as painted (each in the box column_label_rect and
        row_label_rect give it): what an audit reads to find a word left without its name."""
        return self._current_layout(), *self._current_labels()

    def _current_labels(self) -> tuple[Labels, Labels]:
        if self._labels is None:
            self._labels = self._work_out_labels()
        return self._labels

    def _work_out_labels(self) -> tuple[Labels, Labels]:
        layout, font, dpi = self._current_layout(), self.font(), self.logicalDpiY()
        grid, reading = layout.grid, self.reading
        columns, rows = self._labels_order = self._column_order(), self._row_order()
        return (column_labels(font, dpi, reading.tokens, grid, columns, layout.turned),
                row_labels(font, dpi, reading.query_tokens, grid, rows))

    def _column_order(self) -> list[int]:
        """The keys the chosen query weighs most first (their names are what the class reads the answer
        from), then left to right; left to right only while the weights are veiled (their order would tell)."""
        columns = list(range(self.reading.n_tokens))
        if self.veil.on:
            return columns
        # Asked on every drag move: Python's sort of a few numbers, stable (ties keep their order) also when
        # reversed, and a weight that is not a number counting as none.
        row = self.reading.result.weights[self.reading.selected].tolist()
        weights = [0.0 if math.isnan(weight) else weight for weight in row]
        heaviest = [column for column in sorted(columns, key=weights.__getitem__, reverse=True)[:HEAVIEST_KEYS]
                    if weights[column] > 0]
        return heaviest + [column for column in columns if column not in heaviest]

    def _row_order(self) -> list[int]:
        """The chosen query's row first, then top to bottom."""
        selected = self.reading.selected
        return [selected] + [row for row in range(self.reading.n_queries) if row != selected]

    def grid_rect(self) -> QRectF:
        return QRectF(self._current_layout().grid)

    def cell_rect(self, row: int, column: int) -> QRectF:
        grid = self.grid_rect()
        size = grid.width() / self.reading.n_tokens
        return QRectF(grid.left() + column * size, grid.top() + row * size, size, size)

    def cell_at(self, point: QPointF) -> tuple[int, int] | None:
        grid = self.grid_rect()
        if not grid.contains(point):
            return None
        size = grid.width() / self.reading.n_tokens
        row = min(int((point.y() - grid.top()) / size), self.reading.n_queries - 1)
        column = min(int((point.x() - grid.left()) / size), self.reading.n_tokens - 1)
        return row, column

    def label_tip_at(self, point: QPointF) -> str | None:
        """The full token name under a row or column label, for its tooltip."""
        layout = self._current_layout()
        grid = QRectF(layout.grid)
        size = grid.width() / self.reading.n_tokens
        if point.x() < grid.left() and grid.top() <= point.y() < grid.bottom():
            return self.reading.query_tokens[min(int((point.y() - grid.top()) / size), self.reading.n_queries - 1)]
        if point.y() < grid.top() and point.y() >= layout.title_height and grid.left() <= point.x() < grid.right():
            return self.reading.tokens[min(int((point.x() - grid.left()) / size), self.reading.n_tokens - 1)]
        return None

    def sizeHint(self) -> QSize:
        return QSize(380, 340).expandedTo(self.minimumSizeHint())

    def minimumSizeHint(self) -> QSize:
        """Room for every cell's number in a readable font, up to a few tokens (see minimum_size)."""
        return minimum_size(self._text(), self._side())

    def width_for_numbers(self) -> int:
        """The least width at which every cell shows its number, compact or not (see width_for_numbers)."""
        return width_for_numbers(self._text(), self._side())

    # ----- painting -----------------------------------------------------
    # What changes on a drag (the cells and their numbers) is painted fresh;
    # what does not (title, labels, legend, the hatching of masked cells) is
    # kept in a pixmap until the size, the tokens or the settings change.
    # Into an SVG (File → Export) the frame and the cells are painted as text and shapes instead: a
    # bitmap there would be enlarged, and smoothed into a blur, by the viewer.
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        vector = painter.paintEngine().type() in VECTOR_ENGINES
        cells_only = self._repaints.cells_only(event.region())  # see matrix_repaints.py
        if self._static_layer is None or self._static_layer.size() != self.size():
            self._static_layer, cells_only = self._render_static_layer(), False
        if vector:
            painter.fillRect(self.rect(), self.palette().base().color())
            self._paint_static(painter)
        elif cells_only:
            self._draw_static_behind_entropies(painter)
        else:
            painter.drawPixmap(0, 0, self._static_layer)
        layout = self._current_layout()
        grid = layout.grid
        if vector:
            paint_cells_as_shapes(painter, grid, cell_colours(self.reading.result, self._lut, self.veil.on))
        else:
            painter.drawImage(grid, self._cells_image())
        if self._mask_layer is not None:
            painter.drawPixmap(grid.topLeft(), self._mask_layer)
        if layout.cell_font is not None:
            painter.setFont(layout.cell_font)
            self._numbers.paint(painter, grid, layout.cell_font, self.reading.result, self.veil.on, layout.compact)
            if not self.veil.on:  # an entropy tells how sharp a row is
                self.entropy_column.paint_numbers(painter, grid, self.font(), layout.cell_font,
                                                  self.palette().text().color(), self._numbers.prepared)
        text_color, focused = self.palette().text().color(), self.hasFocus()
        if vector:
            paint_selected_row(painter, grid, self.reading.selected, self.reading.n_tokens, text_color, focused)
        else:
            self._outline.draw(painter, grid, self.reading.selected, self.reading.n_tokens, text_color, focused,
                               self.devicePixelRatioF())
        self._repaints.painted(self.reading)

    def _draw_static_behind_entropies(self, painter: QPainter) -> None:
        """A drag move's repaint of the cells alone: only the entropies, painted afresh, need the panel's
        background under them (see matrix_repaints.py)."""
        assert self._static_layer is not None
        entropies = self._entropies_rect()
        if entropies is not None:
            painter.drawPixmap(entropies, self._static_layer, entropies)

    def _cells_image(self) -> QImage:
        """One pixel per cell, scaled up when drawn: one call instead of n² fills."""
        result = self.reading.result
        rows, columns = result.weights.shape
        # QImage borrows the colours' memory: kept alive until the next paint.
        self._cells_buffer, data = self._colours.packed(result.weights, result.mask, self.veil.on)
        return QImage(data, columns, rows, columns * 4, QImage.Format.Format_RGB32)

    def _render_static_layer(self) -> QPixmap:
        layer = QPixmap(self.size())
        layer.fill(self.palette().base().color())
        painter = QPainter(layer)
        self._paint_static(painter)
        painter.end()
        self._mask_layer = mask_layer(self.reading.result.mask, self.grid_rect())
        return layer

    def _paint_static(self, painter: QPainter) -> None:
        """The title, the labels and the legend."""
        text_color = self.palette().text().color()
        painter.setPen(text_color)
        layout = self._current_layout()
        paint_title(painter, layout, self.font(), self.width(), hint=self._hints_shown)
        painter.setFont(self.font())
        columns, rows = self._current_labels()
        paint_labels(painter, layout, self.font(), columns, rows, text_color)
        paint_legend(painter, self.grid_rect(), self._lut, self.entropy_column, self.font(), text_color)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._static_layer = None
        self._layout = None
        self._labels = None
        super().resizeEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange):
            self._static_layer = None
            self._layout = None
            self._labels = None
            self.updateGeometry()  # the room the numbers need follows the font
        super().changeEvent(event)

    # ----- interaction --------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        cell = self.cell_at(event.position())
        if event.button() == Qt.MouseButton.LeftButton and cell is not None:
            self.reading.select_query(cell[0])
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
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
        query, key = self.reading.query_tokens[row], self.reading.tokens[column]
        text = cell_tip(self.reading.result, row, column, query, key, self.veil.on)
        QToolTip.showText(event.globalPosition().toPoint(), text, self)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.update()  # the chosen row's ring says the arrow keys are here

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.update()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        step = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1}.get(Qt.Key(event.key()))
        if step is None:
            super().keyPressEvent(event)
            return
        self.reading.select_query(min(max(self.reading.selected + step, 0), self.reading.n_queries - 1))
        self.announce_chosen_query()

    def announce_chosen_query(self) -> None:
        """Once, politely: the query a key chose, where it puts the most weight and its output (a screen reader
        hears the row's name from the focus; this says what that choice shows)."""
        self.announcement.emit(query_announcement(self.reading, veiled=self.veil.on), self)

    def _on_veil_changed(self, veiled: bool) -> None:
        self._follow_the_heaviest_keys()  # veiled, the names' order must not tell which keys weigh most
        self.update()  # the cells are painted afresh each time: grey with "?", or their weights

    def _on_scene_changed(self, change: Change) -> None:
        parts = parts_of(change)
        if parts.layout:
            self._static_layer = None  # new labels, title or mask
            self._layout = None
            self._labels = None
            self._repaints.forget()  # new names or a new title around the same numbers: painted afresh
            self.updateGeometry()  # more tokens need more room
        if parts.shown_numbers and not parts.layout:
            self._follow_the_heaviest_keys()
        if parts.shown_numbers and not self._repaints.shows(self.reading):
            if parts.layout:
                self.update()
            elif self._repaints.same_row_chosen(self.reading):  # a drag move: new numbers, the same row chosen
                self._repaints.ask_for_cells(self, self.grid_rect(), self._entropies_rect())
            else:
                self.update(self._cells_area())

    def _entropies_rect(self) -> QRect | None:
        """Where the entropy column's numbers go, when it shows them."""
        if not self.entropy_column.shown or self.veil.on:
            return None
        grid = self.grid_rect()
        return QRectF(grid.right(), grid.top(), self.entropy_column.width(self.font()), grid.height()).toAlignedRect()

    def _cells_area(self) -> QRect:
        """What new weights or another chosen query change: the cells, the chosen row's outline (which
        reaches a little past them) and the entropies right of them; the title, the names and the colour
        bar stay as painted, so the panel's other pixels need not be painted again."""
        grid = self.grid_rect()
        return grid.adjusted(-OUTLINE_REACH, -OUTLINE_REACH, self.entropy_column.width(self.font()) + OUTLINE_REACH,
                             OUTLINE_REACH).toAlignedRect()

    def _follow_the_heaviest_keys(self) -> None:
        """Where not every name fits, the chosen query's heaviest keys keep theirs as the weights change."""
        if self._labels is None:
            return
        # The names are placed in this order and nothing else of theirs changes with the weights: the same
        # order, the same names (a drag move mostly leaves the heaviest keys as they were).
        if self._labels_order == (self._column_order(), self._row_order()):
            return
        labels = self._work_out_labels()
        if [(label.index, label.text) for plan in labels for label in plan[1]] != \
                [(label.index, label.text) for plan in self._labels for label in plan[1]]:
            self._labels = labels
            self._static_layer = None
            self.update()
