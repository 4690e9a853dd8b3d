"""The output panel: what the selected query gathers, in words and numbers."""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QRect, Qt
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QFormLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from attn_desktop.language import current_language, ntr, tr
from attn_desktop.model import Change, HeadReading, Scene, explain
from attn_desktop.model.shown_numbers import shown_number, shown_vector
from attn_desktop.ui.panels.change_parts import parts_of
from attn_desktop.ui.scene_link import follow_scene, head_reading
from attn_desktop.ui.steady_label_box import SteadyLabelBox, set_tip
from attn_desktop.ui.view_state.weights_veil import HIDDEN_TEXT, HIDDEN_TIP, WeightsVeil

MAX_BLEND_TERMS = 4
FIT_MEMORY = 64  # texts whose fit in the blend's box is remembered (a drag shows the same few again and again)


class OutputPanel(QWidget):
    def __init__(self, scene: Scene | HeadReading, parent: QWidget | None = None,
                 veil: WeightsVeil | None = None) -> None:
        super().__init__(parent)
        self.reading = head_reading(scene)
        self.veil = veil if veil is not None else WeightsVeil(self)  # the output is a blend by the weights: "?"
        self.query_label = QLabel(self)
        self.attends_label = QLabel(self)
        self.vector_label = QLabel(self)
        self.formula_label = QLabel(self)
        self.blend_label = QLabel(self)
        for label in (self.query_label, self.attends_label, self.vector_label, self.formula_label, self.blend_label):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            # Numbers change width on every drag move: the width is the panel's, whatever the text; and an
            # opaque label repaints alone instead of dragging its parents into the repaint.
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            label.setAutoFillBackground(True)
        self.blend_label.setWordWrap(True)
        self.formula_label.setWordWrap(True)
        self.formula_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.blend_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.blend_label.setToolTip(tr("The biggest terms of the weighted sum of the values"))
        bold = self.formula_label.font()
        bold.setBold(True)
        self.formula_label.setFont(bold)

        # Each label in a box of its own: new numbers on every drag move must not re-lay out the window.
        self._boxes = {label: SteadyLabelBox(label) for label in
                       (self.query_label, self.attends_label, self.vector_label, self.formula_label, self.blend_label)}
        self._fit_to_font()
        self.form = form = QFormLayout()
        form.addRow(tr("Query token"), self._boxes[self.query_label])
        form.addRow(tr("Attends most to"), self._boxes[self.attends_label])
        form.addRow(tr("Output vector"), self._boxes[self.vector_label])
        self.values_under_names = False  # a narrow panel: each value on a line of its own (_fit_rows)
        self._rows_fitted_for: tuple | None = None  # the texts and width _fit_rows last decided for
        # The names beside the query and the attended keys (QLabels the form made for the names given to addRow).
        self._row_names = [name for name in (form.labelForField(self._boxes[label])
                                             for label in (self.query_label, self.attends_label))
                           if isinstance(name, QLabel)]
        self._room_for_values: tuple[tuple, int] | None = None  # the width, names and their room (_values_room)
        self._widths_known: dict[tuple[QLabel, str], int] = {}  # (value label, text) -> its width in that label
        self._metrics_known: dict[QLabel, QFontMetrics] = {}  # each value label's font's metrics
        self._notes_known: dict[tuple[int, int, str], str] = {}  # (smaller, masked, language) -> the notes' words
        self._fits_known: dict[tuple[str, int, int], bool] = {}  # (text, box width, box height) -> fits
        self._short_tokens: tuple[tuple[str, ...], list[str]] = ((), [])  # the tokens, and their short names
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(form)
        layout.addWidget(self._boxes[self.formula_label])
        layout.addWidget(self._boxes[self.blend_label])
        layout.addStretch(1)
        follow_scene(self, self.reading, self._on_scene_changed)
        self.veil.changed.connect(self.refresh)
        self.refresh()

    def _fit_to_font(self) -> None:
        """The sum and the blend on one line each when the panel holds the widest sum this scene can show
        (every number at "-888.88"), else two lines each, wrapped rather than cut. Decided by the width, the
        font and the vector's length only, never by the numbers of the moment: a box that changed height on
        a drag move would re-lay the window out under the mouse. (Presentation mode enlarges the font; a
        projector's bottom row is one line lower per box when it is wide.)"""
        widest_sum = output_formula([-888.88] * self.reading.value_width)
        width = self.contentsRect().width() - 12

        def fits(label: QLabel, *texts: str) -> bool:
            return width > 0 and all(label.fontMetrics().horizontalAdvance(text) + 4 <= width for text in texts)

        # The blend's line also says what is hidden while the class guesses (Predict, then See).
        one_line = {self.formula_label: fits(self.formula_label, widest_sum),
                    self.blend_label: fits(self.blend_label, widest_sum, tr(HIDDEN_TIP))}
        texts = {self.formula_label: (widest_sum,), self.blend_label: (widest_sum, tr(HIDDEN_TIP))}
        for label in (self.formula_label, self.blend_label):
            height = max((1 if one_line[label] else 2) * label.fontMetrics().lineSpacing(),
                         *(wrapped_height(label, text, width) for text in texts[label])) + 4
            if self._boxes[label].height() != height or self._boxes[label].minimumHeight() != height:
                self._boxes[label].setFixedHeight(height)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fits_known.clear()  # text of another size
            self._widths_known.clear()
            self._metrics_known.clear()
            self._room_for_values = None
            self._rows_fitted_for = None
            self._fit_to_font()
        super().changeEvent(event)

    def _on_scene_changed(self, change: Change) -> None:
        parts = parts_of(change)
        if parts.structure:
            self._fit_to_font()  # a vector of another length
        if parts.shown_numbers:
            self.refresh()

    def refresh(self, *_: object) -> None:
        if self.veil.on:
            self._show_veiled()
            return
        scene = self.reading
        weights, output = scene.selected_weights, scene.selected_output
        # The texts are made from sequences of Python floats.
        weight_list, output_list = weights.tolist(), output.tolist()
        # Long names are cut in the panel (whole in the tooltips): the numbers beside them must stay in view.
        short_tokens = self._short_names(scene.tokens)
        query = explain.short_name(scene.selected_token)
        self._boxes[self.query_label].set_text(query)
        set_tip(self.query_label, scene.selected_token)
        attends = explain.attends_most_to(weight_list, short_tokens)
        self._boxes[self.attends_label].set_text(attends)
        whole_names = attends if short_tokens == scene.tokens else explain.attends_most_to(weight_list, scene.tokens)
        set_tip(self.attends_label, whole_names)
        vector = shown_vector(output_list)
        self._boxes[self.vector_label].set_text(vector)
        set_tip(self.vector_label, shown_vector(output_list, whole=True) if len(output) > explain.WHOLE_UP_TO else "")
        self._boxes[self.formula_label].set_text(output_formula(output_list, vector))
        self._boxes[self.blend_label].set_text(self._blend_text(weight_list))
        self._fit_rows((query, attends, vector))

    def _short_names(self, tokens: list[str]) -> list[str]:
        """The tokens as the panel names them, worked out again only for other tokens."""
        if self._short_tokens[0] != tuple(tokens):
            self._short_tokens = tuple(tokens), [explain.short_name(token) for token in tokens]
        return self._short_tokens[1]

    def _fit_rows(self, values: tuple[str, ...] | None = None) -> None:
        """Values beside their names while they fit; in a narrow panel, each under its name, whole, and
        the output vector's own row left out: the bold sum under it ends in the same vector. VALUES: the
        query's, the attended keys' and the vector's texts as just set (read from their labels without)."""
        labels = (self.query_label, self.attends_label, self.vector_label)
        values = values or tuple(label.text() for label in labels)
        asked = (self.width(), *values)
        if asked == self._rows_fitted_for:
            return  # the same texts in the same room: the same answer
        self._rows_fitted_for = asked
        widest_value = max(self._width_of(label, text) for label, text in zip(labels, values, strict=True)) + 4
        under = self._values_room() < widest_value and self.width() > 0
        if under == self.values_under_names:
            return
        self.values_under_names = under
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapAllRows if under
                                   else QFormLayout.RowWrapPolicy.DontWrapRows)
        self.form.setRowVisible(2, not under)

    def _values_room(self) -> int:
        """The width beside the rows' names: worked out again only for another width or other names (a
        drag changes neither)."""
        inner, names = self.contentsRect().width(), tuple(name.text() for name in self._row_names)
        if self._room_for_values is None or self._room_for_values[0] != (inner, names):
            name_width = max(name.sizeHint().width() for name in self._row_names)
            room = inner - 12 - max(self.form.horizontalSpacing(), 0) - name_width
            self._room_for_values = (inner, names), room
        return self._room_for_values[1]

    def _width_of(self, label: QLabel, text: str) -> int:
        """TEXT's width in LABEL's font, measured once per text (the query's and often the keys' stay the same)."""
        width = self._widths_known.get((label, text))
        if width is None:
            if len(self._widths_known) >= FIT_MEMORY:
                self._widths_known.clear()
            metrics = self._metrics_known.get(label) or self._metrics_known.setdefault(label, label.fontMetrics())
            width = self._widths_known[label, text] = metrics.horizontalAdvance(text)
        return width

    def _show_veiled(self) -> None:
        """The query, and a "?" for everything its weights decide."""
        self._boxes[self.query_label].set_text(explain.short_name(self.reading.selected_token))
        for label in (self.attends_label, self.vector_label):
            self._boxes[label].set_text(HIDDEN_TEXT)
            set_tip(label, tr(HIDDEN_TIP))
        self._boxes[self.formula_label].set_text(tr("output = Σ weight × v = {vector}").format(vector=HIDDEN_TEXT))
        self._boxes[self.blend_label].set_text(tr(HIDDEN_TIP))
        self._fit_rows()

    def _blend_text(self, weights: list[float]) -> str:
        """The biggest terms of the weighted sum, as many as fit the label's two lines, and a count of the rest."""
        visible = self.reading.result.mask[self.reading.selected].tolist()
        shown = [i for i in heaviest_first(weights)[:MAX_BLEND_TERMS] if weights[i] >= 0.005 and visible[i]]
        masked = visible.count(False)
        while True:
            text = self._blend_line(weights, shown, masked)
            if len(shown) <= 1 or self._fits(self.blend_label, text):
                return text
            shown = shown[:-1]  # a narrow panel: fewer terms rather than a cut line

    def _blend_line(self, weights: list[float], shown: list[int], masked: int) -> str:
        names = self._short_names(self.reading.tokens)
        terms = [f"{shown_number(weights[i])} × v_{names[i]}" for i in shown]
        smaller = len(weights) - len(shown) - masked
        notes_text = self._notes(smaller, masked)
        return "= " + " + ".join(terms) + (f" + … ({notes_text})" if smaller else f" ({notes_text})" if notes_text else "")

    def _notes(self, smaller: int, masked: int) -> str:
        """"3 smaller, 1 masked" in the student's language, worded once per count (a drag shows the same few)."""
        asked = (smaller, masked, current_language())
        if asked not in self._notes_known:
            notes = [ntr("{count} smaller", "{count} smaller", smaller).format(count=smaller)] if smaller else []
            notes += [ntr("{count} masked", "{count} masked", masked).format(count=masked)] if masked else []
            # Translators: the notes after the output's biggest terms, e.g. "3 smaller, 1 masked"
            self._notes_known[asked] = (tr("{first}, {second}").format(first=notes[0], second=notes[1])
                                        if len(notes) == 2 else "".join(notes))
        return self._notes_known[asked]

    def _fits(self, label: QLabel, text: str) -> bool:
        room = self._boxes[label].size()  # the label fills its box (and may not have been resized yet)
        if room.width() <= 0:
            return True  # not laid out yet: the resize that follows fits it again
        asked = (text, room.width(), room.height())
        if asked not in self._fits_known:
            if len(self._fits_known) >= FIT_MEMORY:
                self._fits_known.clear()
            needed = label.fontMetrics().boundingRect(QRect(0, 0, room.width(), 10_000), Qt.TextFlag.TextWordWrap,
                                                      text)
            self._fits_known[asked] = needed.height() <= room.height()
        return self._fits_known[asked]

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_to_font()
        self._fit_rows()
        if self.veil.on:
            return
        self._boxes[self.blend_label].set_text(self._blend_text(self.reading.selected_weights.tolist()))


def heaviest_first(weights: list[float]) -> list[int]:
    """The positions of WEIGHTS, heaviest first, equal weights in their order and any NaN last: numpy's stable
    argsort of the negated weights, without its cost for a handful of numbers."""
    keys = [math.inf if math.isnan(weight) else -weight for weight in weights]
    return sorted(range(len(weights)), key=keys.__getitem__)


def wrapped_height(label: QLabel, text: str, width: int) -> int:
    """The height TEXT takes wrapped at WIDTH, as the label lays it out: a line of Arabic or Chinese (from a
    fallback font) is taller than the font's line spacing, and a long translation may need a third line."""
    return label.fontMetrics().boundingRect(0, 0, max(width, 1), 1 << 20, Qt.TextFlag.TextWordWrap, text).height()


def output_formula(output: list[float], shown: str | None = None) -> str:
    """'output = Σ weight × v = (1.54, 0.48)' in the student's language; a wide one says how many numbers.
    SHOWN: shown_vector(output), when the caller has it already."""
    vector = shown_vector(output) if shown is None else shown
    if len(output) > explain.WHOLE_UP_TO:
        return ntr("output = Σ weight × v = {vector} ({count} number)", "output = Σ weight × v = {vector} ({count} numbers)",
                   len(output)).format(vector=vector, count=len(output))
    return tr("output = Σ weight × v = {vector}").format(vector=vector)

