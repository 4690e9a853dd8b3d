"""The score table panel: q·k, the scaled score and the weight for every key.

Pointing at a row (or selecting it) shows the worked dot product underneath
and highlights that key and its value on the canvas. From the keyboard, ↑/↓ walk the
rows and ←/→ choose the previous or next query.
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QEvent, QModelIndex, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QHelpEvent, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableView,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import N_, ntr, tr
from attn_desktop.model import Change, HeadReading, Scene
from attn_desktop.model.spoken import query_announcement
from attn_desktop.ui.panels.change_parts import parts_of
from attn_desktop.ui.panels.score_table_bars import ScoreTableBars
from attn_desktop.ui.panels.score_table_model import TOKEN, WEIGHT, WEIGHT_HEADERS, ScoreTableModel, short_name
from attn_desktop.ui.scene_link import follow_scene, head_reading
from attn_desktop.ui.steady_label_box import SteadyLabelBox, set_tip
from attn_desktop.ui.view_state.key_highlight import KeyHighlight
from attn_desktop.ui.view_state.weights_veil import HIDDEN_TIP, WeightsVeil

MAX_SIZED_ROWS = 8  # the panel asks for room to show this many keys without scrolling; more scroll
KEY_CHARS = 10  # the key column's width in characters at most; longer names are elided (tooltip whole)
ROW_PADDING = 6  # pixels above and below the text, shared
QUERY_STEP_KEYS = {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1}  # the previous and next query, from the table


FORMULA_TIP = N_("The worked dot product for the pointed-at key (or the strongest one)")


class ScoreTablePanel(QWidget):
    announcement = Signal(str, object)  # a query chosen by ← or →, for the window's announcer (text, source)

    def __init__(self, scene: Scene | HeadReading, highlight: KeyHighlight | None = None, parent: QWidget | None = None,
                 veil: WeightsVeil | None = None) -> None:
        super().__init__(parent)
        self.reading = head_reading(scene)
        # The key pointed at here is lit up on the canvas: view state shared with it, not an edit.
        self.highlight = highlight if highlight is not None else KeyHighlight(self)
        self.model = ScoreTableModel(self.reading, self, veil)
        self.model.veil.changed.connect(self._update_formula)
        self.table = QTableView(self)
        self.table.setTabKeyNavigation(False)  # ↑/↓ walk the keys; Tab goes on to the next control
        self.table.setModel(self.model)
        self.table.setAccessibleName(tr("Each key's score and weight"))
        self.weight_bars = ScoreTableBars(self.table, self.model, WEIGHT)  # behind each weight, as long as its share
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setTextElideMode(Qt.TextElideMode.ElideRight)  # never "oftmax weigh"
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)  # a long key name: "Supercalif…"
        self.table.horizontalHeader().sectionResized.connect(self._choose_weight_header)
        self.table.setMouseTracking(True)
        self.table.entered.connect(self._on_row_pointed)
        self.table.viewport().installEventFilter(self)
        self.table.installEventFilter(self)  # ←/→ choose the query (↑/↓ walk its keys' rows)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row_changed)

        self.formula_label = QLabel(self)
        self.formula_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.formula_label.setWordWrap(True)
        # Room for two lines, fixed: a longer formula must not shrink the table mid-drag.
        self.formula_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.formula_label.setAutoFillBackground(True)
        self.formula_label.setToolTip(tr(FORMULA_TIP))

        # Says so when some keys are out of view: a hidden row may carry much of the weight.
        self.more_rows_note = QLabel(self)
        note_font = QFont(self.more_rows_note.font())
        note_font.setItalic(True)
        self.more_rows_note.setFont(note_font)
        self.more_rows_note.setWordWrap(True)  # a translation longer than the narrow table is wide: two lines
        self.more_rows_note.hide()
        # Decided once the layout has settled: mid-layout the table's size is not yet its own.
        self._note_timer = QTimer(self, singleShot=True, interval=0)
        self._note_timer.timeout.connect(self._update_more_rows_note)

        self._layout = layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.more_rows_note)
        self._formula_box = SteadyLabelBox(self.formula_label)  # a new formula each drag move: no new layout
        layout.addWidget(self._formula_box)
        # A panel taller than its rows (presenting, under a matrix that ends early): the formula stays right under
        # the last row and the room left is the panel's own, not an empty table between the rows and the formula.
        layout.addStretch(0)
        self._pointed_row: int | None = None
        self.formula_shown = True
        # The room asked for, kept until the font, the keys or the header change: a drag changes only
        # numbers, yet each new formula has Qt ask again (a word-wrapped label's text asks for a layout).
        self._min_size: tuple[tuple, QSize] | None = None
        self.table.verticalScrollBar().valueChanged.connect(self._note_timer.start)
        self._fit_to_font()
        follow_scene(self, self.reading, self._on_scene_changed)
        self._update_formula()

    def _fit_to_font(self) -> None:
        """Row height, the number columns and the formula's lines follow the font, which presentation
        mode enlarges; the weight column (its header is the longest) takes what is left."""
        metrics = self.table.fontMetrics()
        self.table.verticalHeader().setMinimumSectionSize(1)
        self.table.verticalHeader().setDefaultSectionSize(metrics.height() + ROW_PADDING)
        # Set again each time: a new scene resets the model's columns, and their modes with them.
        header = self.table.horizontalHeader()
        # The columns are as wide as their text asks, however short: the style's smallest section (about
        # 40 px) would widen a one-letter header ("键") past the room the panel asked for, and the
        # horizontal scroll bar that followed hid two of three rows.
        header.setMinimumSectionSize(1)
        for column in (0, 1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)  # the weight and its bar take the rest
        for column, width in self._column_widths().items():
            header.resizeSection(column, width)
        self._long_names = any(short_name(token) != token for token in self.reading.tokens + self.reading.query_tokens)
        self._fit_formula_height()
        self._choose_weight_header()
        self._min_size = None
        self._fit_table_to_rows()
        self.updateGeometry()  # the room it asks for follows the font and the number of keys

    def _fit_table_to_rows(self) -> None:
        """The table no taller than all its rows: a taller panel keeps the formula under them (see the stretch)."""
        table = self.table
        header_height = table.horizontalHeader().sizeHint().height()
        rows = self.model.rowCount() * table.verticalHeader().defaultSectionSize()
        table.setMaximumHeight(2 * table.frameWidth() + header_height + rows + 2)

    def _column_widths(self) -> dict[int, int]:
        """The fixed columns: room for their contents or their header ("÷ 1 (off)"), whichever is wider;
        a long key name is elided rather than widening its column past KEY_CHARS characters."""
        metrics = self.table.fontMetrics()
        widest_token = max((metrics.horizontalAdvance(token) for token in self.reading.tokens), default=0)
        key_width = min(widest_token, metrics.averageCharWidth() * KEY_CHARS)
        widths = {0: key_width, 1: metrics.horizontalAdvance("−88.88"), 2: metrics.horizontalAdvance("−88.88")}
        return {column: max(width + 12, self._header_width(self._header_text(column))) for column, width in widths.items()}

    def _header_text(self, column: int) -> str:
        return str(self.model.headerData(column, Qt.Orientation.Horizontal) or "")

    def _header_width(self, text: str) -> int:
        return self.table.horizontalHeader().fontMetrics().horizontalAdvance(text) + 12

    def _choose_weight_header(self, column: int = WEIGHT, old_size: int = 0, new_size: int | None = None) -> None:
        """"Softmax weight" when the column has room for it whole, "Weight" when not: never "Soft…"."""
        if column != WEIGHT:
            return
        room = self.table.horizontalHeader().sectionSize(WEIGHT) if new_size is None else new_size
        long_header, short_header = (tr(header) for header in WEIGHT_HEADERS)
        self.model.set_weight_header(long_header if self._header_width(long_header) <= room else short_header)

    def _fit_formula_height(self) -> None:
        """Fixed between resizes and structure changes, so a longer number mid-drag does not shrink the table."""
        self._formula_box.setFixedHeight(self._formula_height(self._formula_box.width()))

    def _formula_height(self, width: int) -> int:
        """Room for the longest formula this scene can show at this width: at least two lines."""
        metrics = self.formula_label.fontMetrics()
        # While the class guesses (Predict, then See), the box says what is hidden instead: room for that too.
        widest = max((self.model.widest_formula(), tr(HIDDEN_TIP)), key=metrics.horizontalAdvance)
        # A line as the label lays it out: Arabic or Chinese letters (a fallback font) make it taller than
        # the font's line spacing, so the wrapped text's own height counts, not a count of spaced lines.
        line = max(metrics.lineSpacing(), metrics.boundingRect(0, 0, 1 << 20, 1 << 20, 0, widest).height())
        text_height = metrics.boundingRect(0, 0, max(width, 1), 100 * line, Qt.TextFlag.TextWordWrap,
                                           widest).height()
        return max(2 * line, text_height) + 6

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._fit_to_font()
        super().changeEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_formula_height()
        self._note_timer.start()

    # ----- the room it asks for and what it shows -----------------------
    def minimumSizeHint(self) -> QSize:
        """Every key's row without scrolling (up to MAX_SIZED_ROWS), the header and the formula, and
        every header whole."""
        header = self.table.horizontalHeader()
        key = (self.model.rowCount(), header.isVisible() and header.height(), self._header_text(2))
        if self._min_size is None or self._min_size[0] != key:
            self._min_size = key, self._work_out_minimum_size()
        return QSize(self._min_size[1])

    def _work_out_minimum_size(self) -> QSize:
        table = self.table
        rows = min(self.model.rowCount(), MAX_SIZED_ROWS)
        frame = 2 * table.frameWidth()
        header = table.horizontalHeader()
        header_height = max(header.sizeHint().height(), header.height() if header.isVisible() else 0)
        table_height = frame + header_height + rows * table.verticalHeader().defaultSectionSize()
        margins = self._layout.contentsMargins()
        spacing = self._layout.spacing()
        widths = self._column_widths()
        scroll_bar = table.verticalScrollBar().sizeHint().width() if self.model.rowCount() > MAX_SIZED_ROWS else 0
        inner_width = frame + sum(widths.values()) + self._header_width(tr(WEIGHT_HEADERS[1])) + scroll_bar
        width = margins.left() + inner_width + margins.right()
        note = self._note_height(inner_width) + spacing if self.model.rowCount() > MAX_SIZED_ROWS else 0
        formula = spacing + self._formula_height(inner_width) if self.formula_shown else 0
        height = margins.top() + table_height + note + formula + margins.bottom()
        return QSize(width, height)

    def set_formula_shown(self, on: bool) -> None:
        """Show the worked dot product under the table, or leave its room to other panels
        (a head's small table beside the others: the Scores panel works it out)."""
        self.formula_shown = on
        self._formula_box.setVisible(on)
        self._min_size = None
        self.updateGeometry()

    def visible_row_count(self) -> int:
        """How many rows are wholly inside the table's view."""
        viewport = self.table.viewport().rect()
        return sum(1 for row in range(self.model.rowCount())
                   if viewport.contains(self.table.visualRect(self.model.index(row, TOKEN))))

    def cut_parts(self) -> list[str]:
        """Text the panel shows cut that a reader needs whole (elided key names, with tooltips, are fine)."""
        header = self.table.horizontalHeader()
        metrics = header.fontMetrics()
        cut = [f"header: {self._header_text(column)}" for column in range(self.model.columnCount())
               if metrics.horizontalAdvance(self._header_text(column)) + 8 > header.sectionSize(column)]
        label = self.formula_label
        needed = label.fontMetrics().boundingRect(0, 0, max(label.contentsRect().width(), 1), 10_000,
                                                  Qt.TextFlag.TextWordWrap, label.text()).height()
        if needed > label.contentsRect().height():
            cut.append("formula")
        return cut

    def _update_more_rows_note(self, *_: object) -> None:
        total, shown = self.model.rowCount(), self.visible_row_count()
        note = self.more_rows_note
        if shown < total and note.isVisible():
            # The note's own line may be all the rows lack: without it, would they all fit?
            freed = note.height() + self._layout.spacing()
            rows_height = total * self.table.verticalHeader().defaultSectionSize()
            if self.table.verticalScrollBar().value() == 0 and rows_height <= self.table.viewport().height() + freed:
                note.hide()
                return
        if shown < total:
            note.setText(more_rows_text(shown, total))
        note.setVisible(shown < total)

    def _note_height(self, width: int) -> int:
        """The note's height at WIDTH, wrapped as its label wraps it (a long translation takes two lines)."""
        text = more_rows_text(MAX_SIZED_ROWS, self.model.rowCount())
        return self.more_rows_note.fontMetrics().boundingRect(0, 0, max(width, 1), 1 << 20, Qt.TextFlag.TextWordWrap,
                                                              text).height()

    # ----- the row the formula explains --------------------------------
    def formula_row(self) -> int:
        """The pointed-at row, else the selected row, else the key with the most weight."""
        if self._pointed_row is not None:
            return self._pointed_row
        current = self.table.currentIndex()  # the selection model's
        if current.isValid():
            return current.row()
        # The first of the heaviest, as np.argmax finds it (the weights are finite), without NumPy's calls.
        weights = self.reading.result.weights[self.reading.selected].tolist()
        return weights.index(max(weights))

    def _update_formula(self, *_: object) -> None:
        if self.model.veil.on:  # the worked dot product ends in the score
            self._formula_box.set_text(tr(HIDDEN_TIP))
            set_tip(self.formula_label, tr(FORMULA_TIP))
            return
        if self.reading.n_tokens:
            row = self.formula_row()
            whole = self.model.formula(row)
            shown = self.model.formula(row, short_names=True) if self._long_names else whole
            self._formula_box.set_text(shown)
            set_tip(self.formula_label, tr(FORMULA_TIP) if shown == whole else whole)

    def _on_row_pointed(self, index: QModelIndex) -> None:
        self._pointed_row = index.row()
        self.highlight.set_key(index.row())
        self._update_formula()

    def _on_current_row_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        if current.isValid() and self._pointed_row is None:
            self.highlight.set_key(current.row())
        self._update_formula()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            return False  # the viewport's paint, on every drag move: nothing here to do
        if watched is self.table and event.type() == QEvent.Type.KeyPress:
            return self._choose_query_by_key(cast(QKeyEvent, event))
        if watched is self.table and event.type() == QEvent.Type.FocusIn:
            self.model.name_cells_for_screen_readers()  # a screen reader started since the last change: named now
        if watched is self.table.viewport() and event.type() == QEvent.Type.ToolTip:
            tip_event = cast(QHelpEvent, event)  # what Qt sends for a tooltip
            index = self.table.indexAt(tip_event.pos())
            if index.isValid() and index.column() != 0:
                QToolTip.showText(tip_event.globalPos(), self.model.tooltip(index.row()), self.table)
                return True
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize:
            self._note_timer.start()
        if watched is self.table.viewport() and event.type() == QEvent.Type.Leave:
            self._pointed_row = None
            current = self.table.selectionModel().currentIndex()
            self.highlight.set_key(current.row() if current.isValid() else None)
            self._update_formula()
        return super().eventFilter(watched, event)

    def _choose_query_by_key(self, event: QKeyEvent) -> bool:
        """← and → choose the previous and next query, whose keys the rows then are; whether the key was used.
        (↑ and ↓ are the table's own: they walk the keys, each row's worked dot product shown underneath.)"""
        step = QUERY_STEP_KEYS.get(Qt.Key(event.key()))
        if step is None or event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        if self.table.layoutDirection() == Qt.LayoutDirection.RightToLeft:
            step = -step  # → points back in Arabic
        reading = self.reading
        reading.select_query(min(max(reading.selected + step, 0), reading.n_queries - 1))
        self.announcement.emit(query_announcement(reading, veiled=self.model.veil.on), self.table)
        return True

    def _on_scene_changed(self, change: Change) -> None:
        parts = parts_of(change)
        if parts.layout:
            self._fit_to_font()  # the divisor's header changes with scaling and the key width
        if parts.structure:
            self._pointed_row = None
            self.highlight.clear()  # the rows are new: the key pointed at may be gone
            self._note_timer.start()
        if parts.shown_numbers:
            self._update_formula()


def more_rows_text(shown: int, total: int) -> str:
    return ntr("{shown} of {total} key shown — scroll for more", "{shown} of {total} keys shown — scroll for more",
               total).format(shown=shown, total=total)
