"""The score table's rows: one per key, for the selected query.

A QStandardItemModel holds the cell texts in C++, so painting the table asks
Python nothing; the scene's changes are written into the items instead, once
per change. Only what changed is written: a drag of one key changes that key's
score and every weight, so the rows whose numbers did not move are not even
formatted again, and a cell whose text is unchanged is not touched. The writes
of one change reach the view as a few dataChanged signals, one per run of
changed rows in a column, rather than one per cell (cell_writes.py); a new set
of tokens resets the model. The bar behind each weight is painted from the
numbers last written (bar_weight), not stored in 64 items on every move.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAccessible, QStandardItem, QStandardItemModel

from attn_desktop.language import N_, current_language, ntr, tr
from attn_desktop.language.numbers import left_to_right_formula
from attn_desktop.model import Change, HeadReading, Role, Scene, explain
from attn_desktop.model.shown_numbers import percent, shown_number
from attn_desktop.model.spoken import score_cell_names
from attn_desktop.ui.panels.cell_writes import ShownNumbers, cell_writes
from attn_desktop.ui.panels.change_parts import parts_of
from attn_desktop.ui.scene_link import follow_scene, head_reading
from attn_desktop.ui.view_state.weights_veil import HIDDEN_TEXT, HIDDEN_TIP, WeightsVeil

TOKEN, SCORE, SCALED, WEIGHT = range(4)
HEADER_TIPS = [
    N_("The token whose key is compared with the query"),
    N_("The dot product of the query with this key"),
    N_("The score after dividing by √d_k, the number that enters the softmax"),
    N_("The share of attention this key gets; the column adds up to 100%"),
]
NUMBER_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
WEIGHT_HEADERS = (N_("Softmax weight"), N_("Weight"))  # the short one when the column is too narrow for the long one
FORMULA_NAME_CHARS = 12  # longer token names are cut in the worked formula (the tooltip has them whole)
FORMULAS_KEPT = 8  # worked dot products remembered (a drag shows the same one or two again and again)


def short_name(name: str, limit: int = FORMULA_NAME_CHARS) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def _factor(value: float) -> str:
    text = shown_number(value)
    return f"({text})" if text.startswith("-") else text


def _first(values: np.ndarray | Sequence[float], count: int) -> list[float]:
    """The first COUNT of VALUES as Python floats (NumPy's are written the same, more slowly)."""
    return values[:count].tolist() if isinstance(values, np.ndarray) else list(values[:count])


def dot_product(query_label: str, key_label: str, query: np.ndarray | Sequence[float],
                key: np.ndarray | Sequence[float]) -> str:
    """explain.dot_product's worked sum with the numbers in the student's language: 'q_sat · k_cat = 2.40 × 2.20
    + 0.60 × 1.00 = 5.88'; for wide vectors the first products, "…" and how many there are."""
    wide = len(query) > explain.WHOLE_UP_TO
    shown = explain.SHOWN_FIRST if wide else len(query)
    products = [f"{_factor(q)} × {_factor(k)}" for q, k in zip(_first(query, shown), _first(key, shown))]
    if wide:
        products.append("…")
    text = left_to_right_formula(
        f"q_{query_label} · k_{key_label} = {' + '.join(products)} = {shown_number(float(np.dot(query, key)))}")
    # Translators: after a long worked dot product, how many products it adds up
    if not wide:
        return text
    return ntr("{sum} ({count} product)", "{sum} ({count} products)", len(query)).format(sum=text, count=len(query))


class ScoreTableModel(QStandardItemModel):
    def __init__(self, scene: Scene | HeadReading, parent: QObject | None = None,
                 veil: WeightsVeil | None = None) -> None:
        super().__init__(parent)
        self.reading = head_reading(scene)
        self.veil = veil if veil is not None else WeightsVeil(self)  # "?" while the student predicts
        self._shown: ShownNumbers | None = None  # None: the cells hold no numbers yet (or "?")
        self._formulas_known: dict[tuple, str] = {}  # (names, numbers, language) -> the worked dot product
        self._rebuild()
        follow_scene(self, self.reading, self._on_scene_changed)
        self.veil.changed.connect(self._refresh_cells)

    def formula(self, row: int, short_names: bool = False) -> str:
        """The worked dot product for one key, e.g. 'q_sat · k_cat = 2.40 × 2.20 + … = 5.88';
        with short_names, long token names are cut so the numbers keep their room."""
        scene = self.reading
        query, key = scene.vectors(Role.QUERY)[scene.selected], scene.vectors(Role.KEY)[row]
        name = short_name if short_names else str
        names = name(scene.selected_token), name(scene.tokens[row])
        # The panel shows the heaviest key's formula, which a drag of another key leaves as it was: written once.
        asked = (*names, tuple(query.tolist()), tuple(key.tolist()), current_language())
        text = self._formulas_known.get(asked)
        if text is None:
            if len(self._formulas_known) >= FORMULAS_KEPT:
                self._formulas_known.clear()
            text = self._formulas_known[asked] = dot_product(*names, query, key)
        return text

    def widest_formula(self) -> str:
        """A formula as long as any this scene can show (names cut, every number long): the room the
        formula keeps, so a longer number mid-drag does not move the table."""
        longest = max(self.reading.tokens, key=len, default="")
        query = max(self.reading.query_tokens, key=len, default="")
        terms = [-88.88] * self.reading.key_width
        return dot_product(short_name(query), short_name(longest), terms, terms)

    def set_weight_header(self, text: str) -> None:
        if self.headerData(WEIGHT, Qt.Orientation.Horizontal) != text:
            self.setHeaderData(WEIGHT, Qt.Orientation.Horizontal, text)

    def tooltip(self, row: int) -> str:
        """What pointing at a row explains; made on demand, not on every drag move."""
        if not self.reading.result.mask[self.reading.selected, row]:
            return tr("The causal mask hides {key} from {query}").format(key=self.reading.tokens[row],
                                                                      query=self.reading.selected_token)
        return tr(HIDDEN_TIP) if self.veil.on else self.formula(row)

    def _rebuild(self) -> None:
        weight_header = self._weight_header()
        self._shown = None
        self.clear()
        self.setColumnCount(4)
        for column, tip in enumerate(HEADER_TIPS):
            header = QStandardItem()
            header.setToolTip(tr(tip))
            self.setHorizontalHeaderItem(column, header)
        for token in self.reading.tokens:
            row = [QStandardItem(token)] + [QStandardItem() for _ in range(3)]
            row[TOKEN].setToolTip(token)  # a long name is elided in its cell
            for item in row:
                item.setEditable(False)
            for item in row[1:]:
                item.setTextAlignment(NUMBER_ALIGNMENT)
            self.appendRow(row)
        # Each row's header is its key's token, as a screen reader names the row (the header itself is hidden).
        self.setVerticalHeaderLabels(self.reading.tokens)
        self._refresh_header(weight_header)
        self._refresh_cells()

    def _refresh_header(self, weight_header: str | None = None) -> None:
        # Translators: the scaled scores' column header when scaling by √d_k is off
        divisor = explain.divisor_header(self.reading.key_width, True) if self.reading.scale else tr("÷ 1 (off)")
        weight_header = weight_header or self._weight_header()
        # Translators: the score table's first column header: the keys' tokens
        self.setHorizontalHeaderLabels([tr("Key"), "q · k", divisor, weight_header])

    def bar_weight(self, row: int) -> float | None:
        """The weight the bar behind ROW's weight shows; None for no bar (a masked key, or the weights veiled)."""
        shown = self._shown
        if shown is None or row >= len(shown.visible) or not shown.visible[row]:
            return None
        return float(shown.weights[row])

    def _refresh_cells(self, *_: object) -> None:
        self.name_cells_for_screen_readers()
        if self.veil.on:
            self._refresh_veiled_cells()
            return
        now, before = ShownNumbers.of(self.reading), self._shown
        self._shown = now
        masked = tr("masked")  # once per change, not once per row
        with cell_writes(self) as cells:
            for row in now.rows_changed(before, "scores"):
                cells.set_text(row, SCORE, shown_number(now.scores[row]))
            for row in now.rows_changed(before, "scaled"):
                cells.set_text(row, SCALED, shown_number(now.scaled[row]) if now.visible[row] else "—")
            for row in now.rows_changed(before, "percents"):
                cells.set_text(row, WEIGHT, percent(float(now.weights[row])) if now.visible[row] else masked)
            for row in now.rows_changed(before, "weights"):
                cells.mark(row, WEIGHT)  # its bar (bar_weight) has another length

    def name_cells_for_screen_readers(self, *, even_unheard: bool = False) -> None:
        """Each number cell's accessible name, "it → cat: weight 62%" (a screen reader otherwise reads "62%" and
        leaves the student to find the row and column). Written only while an assistive technology listens
        (or EVEN_UNHEARD), so a drag without one pays nothing; the panel names them all when one arrives."""
        if not (even_unheard or QAccessible.isActive()):
            return
        names = score_cell_names(self.reading, tr(HIDDEN_TIP) if self.veil.on else None)
        was_blocked = self.blockSignals(True)  # nothing painted changes: no view needs telling
        try:
            for row, row_names in enumerate(names):
                for column, name in zip((SCORE, SCALED, WEIGHT), row_names, strict=True):
                    item = self.item(row, column)
                    if item is not None and item.data(Qt.ItemDataRole.AccessibleTextRole) != name:
                        item.setData(name, Qt.ItemDataRole.AccessibleTextRole)
        finally:
            self.blockSignals(was_blocked)

    def _refresh_veiled_cells(self) -> None:
        """Every score and weight a "?" (masked keys stay masked: that tells nothing), and no bars."""
        bars_shown, self._shown = self._shown is not None, None  # no bars; unveiled, every number is written again
        mask = self.reading.result.mask[self.reading.selected]
        masked = tr("masked")
        with cell_writes(self) as cells:
            for row in range(self.reading.n_tokens):
                visible = bool(mask[row])
                cells.set_text(row, SCORE, HIDDEN_TEXT)
                cells.set_text(row, SCALED, HIDDEN_TEXT if visible else "—")
                cells.set_text(row, WEIGHT, HIDDEN_TEXT if visible else masked)
                if bars_shown:
                    cells.mark(row, WEIGHT)  # its bar goes

    def _weight_header(self) -> str:
        """The weight column's header as chosen by the panel for its width, the long one until then."""
        shown = self.headerData(WEIGHT, Qt.Orientation.Horizontal) if self.columnCount() > WEIGHT else None
        headers = [tr(header) for header in WEIGHT_HEADERS]
        return shown if shown in headers else headers[0]

    def _on_scene_changed(self, change: Change) -> None:
        parts = parts_of(change)
        if parts.structure:
            self._rebuild()
            return
        if parts.settings:
            self._refresh_header()
        if parts.shown_numbers:
            self._refresh_cells()
