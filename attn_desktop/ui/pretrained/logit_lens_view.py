"""The logit lens: what the model would say after every layer, for one position of the sentence.

Each layer's output (the residual stream) sent through the final norm and the unembedding gives
a guess for the next token; reading the guesses layer by layer shows where the answer forms:
after "The capital of France is", at which layer " Paris" comes out on top. The view takes plain
data (tokens, and the five likeliest tokens after each layer); its owner runs the model.

From the top: the position chooser ("5: ␣is"), a sentence saying in words where the last layer's
answer first stays on top, and a compact table, one row per layer: the top token and its
probability, then the next four, smaller and greyer. Rows where the top token is the final
answer are highlighted, so the eye finds the layer where it appears. It fits a 300-px column:
the next four show without their percentages, long text elides, and every row's tooltip lists
its five tokens and percentages in full.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import N_, tr
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.pretrained.token_strip import percent, shown_token

HEADERS = (N_("Layer"), N_("Top token"), "p", N_("Then"))  # "p": the probability, a symbol
LAYER_COLUMN, TOP_COLUMN, P_COLUMN, THEN_COLUMN = range(4)
WAITING_TEXT = N_("Reading every layer\u2026")
EMPTY_TEXT = N_("Type a sentence to read what the model says after every layer.")
ERROR_STYLE = "color: #B00020;"  # as the Model heads panel's messages
FINAL_TOP_BACKGROUND = QColor(255, 224, 138)  # light amber: "the last layer's answer is on top here"
RUNNER_UP_COLOR = QColor(96, 96, 96)  # grey, still 6:1 on white: readable on a projector
RUNNER_UP_SCALE = 0.85  # the next four, a size smaller than the top token
MIN_THEN_WIDTH_CHARACTERS = 6  # the runners-up need room for two short tokens, or they are left out
MIN_CHOOSER_CHARACTERS = 12  # a long token must not widen the column
ROW_PADDING = 4  # px above and below a row's text: 30 rows in little height
CELL_PADDING = 12  # px a cell's text needs beside it (margins, the grid line)
TOP_COLUMN_SHARE = 0.45  # at most this much of the table for the top token: the next four keep some room


def position_text(position: int, token: str) -> str:
    """"5: ␣is": the chooser's entry for a position, spaces made visible as the token strip shows them."""
    return f"{position}: {shown_token(token)}"


def first_layer_on_top(rows: list[list[tuple[str, float]]]) -> tuple[int, int]:
    """(the layer from which the final answer stays the top guess to the end, the first layer where it is on top)."""
    final = rows[-1][0][0]
    on_top = [bool(row) and row[0][0] == final for row in rows]
    stays_from = len(rows) - 1
    while stays_from > 0 and on_top[stays_from - 1]:
        stays_from -= 1
    return stays_from, on_top.index(True)


def lens_summary(rows: list[list[tuple[str, float]]]) -> str:
    """"'␣Paris' is the top guess from layer 22 on (after the last layer: 83 %)." — where the answer forms, in words."""
    token, probability = rows[-1][0]
    stays_from, first = first_layer_on_top(rows)
    quoted = f"'{shown_token(token)}'"
    share = percent(probability)
    if stays_from == len(rows) - 1 and first == stays_from:
        return tr("{token} is the top guess only after the last layer ({share}).").format(token=quoted, share=share)
    if first < stays_from:
        return tr("{token} is the top guess from layer {layer} on (first at layer {first}; after the last layer: "
                  "{share}).").format(token=quoted, layer=stays_from, first=first, share=share)
    return tr("{token} is the top guess from layer {layer} on (after the last layer: {share}).").format(
        token=quoted, layer=stays_from, share=share)


def row_tooltip(layer: int, row: list[tuple[str, float]]) -> str:
    """"After layer 3: ␣Paris 83 %, ␣France 5 %, …": a row's five tokens in full."""
    guesses = ", ".join(f"{shown_token(token)} {percent(p)}" for token, p in row)
    return tr("After layer {layer}: {guesses}").format(layer=layer, guesses=guesses)


class LogitLensView(QWidget):
    position_chosen = Signal(int)  # the user picked another position (not sent when the owner sets one)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(tr("Logit lens"))
        self._tokens: list[str] = []
        self._position = -1
        self._rows: list[list[tuple[str, float]]] = []
        self._build_chooser()
        self._build_table()
        self._lay_out()
        self._summary_text = EMPTY_TEXT  # the catalog text the summary shows, while it shows one (else "")
        self._set_summary(tr(EMPTY_TEXT))
        self._summary_text = EMPTY_TEXT
        follow_language(self, self._reword)

    # ----- building --------------------------------------------------------------------------
    def _build_chooser(self) -> None:
        self.position_box = QComboBox()
        self.position_box.setAccessibleName(tr("Position"))
        self.position_box.setToolTip(tr("The token after which the model's guesses are read, layer by layer"))
        self.position_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.position_box.setMinimumContentsLength(MIN_CHOOSER_CHARACTERS)
        self.position_box.activated.connect(self._on_position_activated)  # the user's choices only
        self.summary_label = QLabel()
        self.summary_label.setWordWrap(True)
        self.summary_label.setAccessibleName(tr("Where the answer forms"))
        self.summary_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)

    def _build_table(self) -> None:
        table = self.table = QTableWidget(0, len(HEADERS))
        table.setTabKeyNavigation(False)  # the arrow keys walk the cells; Tab goes on to the next control
        table.setAccessibleName(tr("The five likeliest next tokens after every layer"))
        table.setHorizontalHeaderLabels([tr(header) for header in HEADERS])
        table.verticalHeader().hide()  # the Layer column numbers the rows from 0, as the JSON does
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # elide rather than scroll sideways
        table.setTextElideMode(Qt.TextElideMode.ElideRight)
        table.setWordWrap(False)
        header = table.horizontalHeader()
        for column, mode in ((LAYER_COLUMN, QHeaderView.ResizeMode.ResizeToContents),
                             (TOP_COLUMN, QHeaderView.ResizeMode.Fixed),  # as wide as its tokens: _fit_top_column
                             (P_COLUMN, QHeaderView.ResizeMode.ResizeToContents),
                             (THEN_COLUMN, QHeaderView.ResizeMode.Stretch)):
            header.setSectionResizeMode(column, mode)
        then_header = QTableWidgetItem(tr(HEADERS[THEN_COLUMN]))
        then_header.setToolTip(tr("The next four likeliest tokens after that layer"))
        table.setHorizontalHeaderItem(THEN_COLUMN, then_header)
        table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        table.installEventFilter(self)
        self._fit_rows()

    def _lay_out(self) -> None:
        chooser_row = QHBoxLayout()
        # Translators: before the position chooser, "After  5: ␣is"
        chooser_row.addWidget(QLabel(tr("After")))
        chooser_row.addWidget(self.position_box, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(chooser_row)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.table, 1)

    def _fit_rows(self) -> None:
        """Rows as short as their text allows: 30 layers in the height a projector leaves."""
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + ROW_PADDING)
        self._runner_up_font = QFont(self.font())
        self._runner_up_font.setPointSizeF(self.font().pointSizeF() * RUNNER_UP_SCALE)
        self._top_font = QFont(self.font())
        self._top_font.setBold(True)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # presentation mode: larger rows, larger runners-up
            self._fit_rows()
            if self._rows:
                self._fill_table(self._rows)

    # ----- what it holds ------------------------------------------------------------------------
    @property
    def position(self) -> int:
        """The position shown (-1 before any tokens)."""
        return self._position

    @property
    def summary(self) -> str:
        return self.summary_label.text()

    # ----- what it shows -------------------------------------------------------------------------
    def show_tokens(self, tokens: list[str]) -> None:
        """The sentence's tokens in the chooser. New tokens choose the last position (what comes next after
        the whole sentence); the same tokens again keep the user's choice. Sends no signal: the owner knows."""
        tokens = list(tokens)
        if tokens == self._tokens:
            return
        self._tokens = tokens
        self.position_box.blockSignals(True)
        self.position_box.clear()
        self.position_box.addItems([position_text(index, token) for index, token in enumerate(tokens)])
        self._position = len(tokens) - 1
        self.position_box.setCurrentIndex(self._position)
        self.position_box.blockSignals(False)

    def show_lens(self, position: int, rows: list[list[tuple[str, float]]]) -> None:
        """rows[layer]: the likeliest (token, probability) after that layer, likeliest first, for `position`."""
        if not rows or not rows[-1]:
            self.show_problem(tr("The model gave no layers to read."))
            return
        if 0 <= position < self.position_box.count() and position != self.position_box.currentIndex():
            self.position_box.blockSignals(True)
            self.position_box.setCurrentIndex(position)
            self.position_box.blockSignals(False)
        self._position = position
        self._rows = [list(row) for row in rows]
        self._set_summary(lens_summary(self._rows))
        self._fill_table(self._rows)
        self.table.setEnabled(True)

    def show_waiting(self) -> None:
        """While the model reads: the old rows stay, greyed, so the table does not jump."""
        self._set_summary(tr(WAITING_TEXT))
        self._summary_text = WAITING_TEXT
        self.table.setEnabled(False)

    def show_problem(self, text: str) -> None:
        """One line saying what went wrong; no numbers that could be mistaken for an answer."""
        self._rows = []
        self.table.setRowCount(0)
        self.table.setEnabled(True)
        self._set_summary(text, problem=True)

    def _set_summary(self, text: str, problem: bool = False) -> None:
        self._summary_text = ""
        self.summary_label.setText(text)
        self.summary_label.setStyleSheet(ERROR_STYLE if problem else "")

    def _reword(self) -> None:
        """Another language: the headers, and the summary worded here (a problem's text came from elsewhere)."""
        for column, header in enumerate(HEADERS):
            item = self.table.horizontalHeaderItem(column)
            if item is not None:
                item.setText(tr(header))
        if self._summary_text:
            self._set_summary(tr(self._summary_text))
        elif self._rows and self.table.isEnabled():
            self._set_summary(lens_summary(self._rows))
            self._fill_table(self._rows)

    # ----- the table -----------------------------------------------------------------------------
    def _fill_table(self, rows: list[list[tuple[str, float]]]) -> None:
        """Writes into the items already there (created only when the layer count grows)."""
        final = rows[-1][0][0]
        self.table.setRowCount(len(rows))
        for layer, row in enumerate(rows):
            top, probability = row[0] if row else ("", 0.0)
            tooltip = row_tooltip(layer, row)
            self._write(layer, LAYER_COLUMN, str(layer), tooltip)
            self._write(layer, TOP_COLUMN, shown_token(top), tooltip)
            self._write(layer, P_COLUMN, percent(probability), tooltip)
            then = "  ".join(shown_token(token) for token, _p in row[1:5])  # their percentages: in the tooltip
            self._write(layer, THEN_COLUMN, then, tooltip)
            self._style_row(layer, bool(row) and top == final)
        self._fit_top_column()

    def _fit_top_column(self) -> None:
        """The top token's column as wide as its widest (bold) token, within TOP_COLUMN_SHARE of the table;
        the next four take the rest."""
        metrics = QFontMetrics(self._top_font)
        widest = max((metrics.horizontalAdvance(self._item(row, TOP_COLUMN).text())
                      for row in range(self.table.rowCount())), default=0)
        header_width = QFontMetrics(self.font()).horizontalAdvance(HEADERS[TOP_COLUMN])
        width = max(widest, header_width) + CELL_PADDING
        viewport = self.table.viewport().width()
        self.table.setColumnWidth(TOP_COLUMN, min(width, int(TOP_COLUMN_SHARE * viewport)))
        # In a column too narrow for them (presenting on a small screen) the runners-up go: a cut "Th…" header
        # and "␣…" cells say nothing, and every row's tooltip still lists all five.
        taken = sum(self.table.columnWidth(column) for column in (LAYER_COLUMN, TOP_COLUMN, P_COLUMN))
        self.table.setColumnHidden(THEN_COLUMN, viewport - taken < MIN_THEN_WIDTH_CHARACTERS * metrics.averageCharWidth())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.table and event.type() == QEvent.Type.Resize:  # its share of the new width
            self._fit_top_column()
        return super().eventFilter(watched, event)

    def _item(self, row: int, column: int) -> QTableWidgetItem:
        """The cell's item, made (aligned, coloured) the first time the table has that many rows."""
        item = self.table.item(row, column)
        if item is None:
            item = QTableWidgetItem()
            right = column in (LAYER_COLUMN, P_COLUMN)  # numbers line up on their right
            horizontal = Qt.AlignmentFlag.AlignRight if right else Qt.AlignmentFlag.AlignLeft
            item.setTextAlignment(horizontal | Qt.AlignmentFlag.AlignVCenter)
            if column == THEN_COLUMN:
                item.setForeground(QBrush(RUNNER_UP_COLOR))
            self.table.setItem(row, column, item)
        return item

    def _write(self, row: int, column: int, text: str, tooltip: str) -> None:
        item = self._item(row, column)
        if item.text() != text:
            item.setText(text)
        item.setToolTip(tooltip)

    def _style_row(self, row: int, final_on_top: bool) -> None:
        """The final answer's cells highlighted and bold wherever it is the top guess."""
        top_item = self._item(row, TOP_COLUMN)
        top_item.setBackground(QBrush(FINAL_TOP_BACKGROUND) if final_on_top else QBrush())
        top_item.setFont(self._top_font if final_on_top else self.font())
        self._item(row, THEN_COLUMN).setFont(self._runner_up_font)

    def _on_position_activated(self, index: int) -> None:
        if index != self._position:
            self._position = index
            self.position_chosen.emit(index)

    # ----- reading it back, as a user reads it -----------------------------------------------
    def shown_rows(self) -> list[tuple[str, str, str, str]]:
        """Each row's four cells as displayed: ("22", "␣Paris", "83 %", "␣France  ␣the  ␣a  ␣located")."""
        return [(self._item(row, LAYER_COLUMN).text(), self._item(row, TOP_COLUMN).text(),
                 self._item(row, P_COLUMN).text(), self._item(row, THEN_COLUMN).text())
                for row in range(self.table.rowCount())]

    def highlighted_layers(self) -> list[int]:
        """The layers whose top token is painted as the final answer."""
        return [row for row in range(self.table.rowCount())
                if self._item(row, TOP_COLUMN).background().color() == FINAL_TOP_BACKGROUND]
