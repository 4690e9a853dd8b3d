"""The Next token tab of Model heads: the prediction at a temperature, its cut-offs, Generate, and the KV cache.

From the top: the temperature slider, the top-k / top-p cut-offs, the likeliest tokens as bars (with
heads knocked out: the intact model's ghost bar behind each, and the token that moved most named
under the chart), Generate with its choice (Most likely / Sample), Back, New draw, and after a step
the key-value cache: the chosen head's matrix with the new query row lit, and what the cache saved.

Everything shown here is computed from the run's last-position logits (NextTokenScores) without the
model: the slider and the cut-offs repaint at once. The view only shows and asks: Generate emits the
chosen token's id (`generate_requested`), Back asks for the last one to go (`back_requested`); the
controller runs the model on its thread and answers with show_prediction / show_cache_step.

The column is about 300 px wide at 1024 × 768 and nearer 200 in presentation mode: a row of controls
stands side by side when its parts fit and stacks when they do not, rather than be cut off.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLayoutItem,
    QPushButton,
    QSlider,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import N_, ntr, number, tr
from attn_desktop.model.pretrained.next_token import (
    MAX_TEMPERATURE,
    MIN_TEMPERATURE,
    SHOWN_TOKENS,
    NextTokenScores,
    kept_count,
    moved_most,
    sample_token,
)
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.pretrained.cached_rows_matrix import CachedRowsMatrix
from attn_desktop.ui.pretrained.next_token_bars import BarRow, NextTokenBars
from attn_desktop.ui.pretrained.token_strip import percent, shown_token

# Steps of 0.05 rather than a log scale: every key press lands on a round temperature a teacher can call
# out ("now 0.50"), and the label shows exactly the T used. 0.05 is fine enough at the low end too
# (0.10 → 0.15 → 0.20 already turns the bars from one token to a few), and 58 steps cross the range
# with Page Up / Page Down in a dozen presses.
TEMPERATURE_STEP = 0.05
TEMPERATURE_PAGE = 5  # slider steps per Page Up / Page Down: 0.25
MAX_TOP_K = 100
GENERATION_CHOICES = (N_("Most likely"), N_("Sample"))  # the choice box's items, in this order
SAMPLE_INDEX = 1
NO_PREDICTION_TEXT = N_("The next token appears here once a sentence has run.")
TEMPERATURE_TOOLTIP = N_("The scores are divided by T before softmax. Below 1 the likeliest token takes more; "
                       "above 1 the shares even out. The order of the tokens never changes.")
TOP_K_TOOLTIP = N_("Sample draws only from the k likeliest tokens (0: off)")
TOP_P_TOOLTIP = N_("Sample draws only from the fewest likeliest tokens whose probabilities add up to p "
                   "(1.00: off)")


GENERATE_TOOLTIP = N_("Add the token to the sentence and run one step")


def temperature_label(temperature: float) -> str:
    return tr("Temperature {temperature}").format(temperature=number(temperature, 2))


def moved_most_text(knocked_count: int, token: str, before: float, after: float) -> str:
    """"With 2 heads knocked out, ' Paris' moved most: 62 % → 18 %."""
    return ntr("With {count} head knocked out, {moved}", "With {count} heads knocked out, {moved}",
               knocked_count).format(count=knocked_count, moved=moved_text(token, before, after))


def moved_text(token: str, before: float, after: float) -> str:
    """"'␣Paris' moved most: 62 % → 18 %.": the token with its spaces and line breaks shown (a newline token
    would break the sentence), never broken after its opening quote, and one more figure where the two
    would round alike ("24.3 % → 24.1 %", not "24 % → 24 %")."""
    quoted = shown_token(token).replace(" ", "\u00a0")
    was, now = percent(before), percent(after)
    if was == now and before != after:
        was, now = number(100 * before, 1) + " %", number(100 * after, 1) + " %"
        if was == now:
            was, now = number(100 * before, 2) + " %", number(100 * after, 2) + " %"
    return tr("'{token}' moved most: {was} \u2192 {now}.").format(token=quoted, was=was, now=now)


def count_text(count: float) -> str:
    """A count of multiply-adds a class can read: 4.9 M, 63 M, 158 M, 1.2 G (two or three figures)."""
    for size, unit in ((1e9, " G"), (1e6, " M"), (1e3, " k")):
        if count >= size:
            value = count / size
            return number(value, 1 if value < 10 else 0) + unit
    return f"{count:.0f}"


def cache_step_text(step: int, new_rows: int, cached_rows: int, multiply_adds: int,
                    multiply_adds_without_cache: int, total_saved: int) -> str:
    """What one generation step computed, and what the key-value cache saved it."""
    rows = ntr("{count} new query row", "{count} new query rows", new_rows).format(count=new_rows)
    tokens = ntr("{count} token", "{count} tokens", cached_rows).format(count=cached_rows)
    saved = multiply_adds_without_cache - multiply_adds
    return tr("Step {step}: {rows}; the keys and values of {tokens} came from the cache. "
              "{done} multiply-adds instead of {without} ({saved} saved; {total} saved since the sentence was "
              "typed).").format(step=step, rows=rows, tokens=tokens, done=count_text(multiply_adds),
                                without=count_text(multiply_adds_without_cache), saved=count_text(saved),
                                total=count_text(total_saved))


def row_items(row: QBoxLayout) -> list[QLayoutItem]:
    return [item for item in (row.itemAt(index) for index in range(row.count())) if item is not None]


def row_width(row: QBoxLayout) -> int:
    """The width ROW's parts want side by side."""
    widths = [item.sizeHint().width() for item in row_items(row)]
    return sum(widths) + row.spacing() * max(len(widths) - 1, 0)


def cut_label(top_k: int, top_p: float, kept_by_k: int, kept_by_p: int, kept: int) -> str:
    """The cut-off(s) that decide where the line falls: "top-k 3", "top-p 0.90" or both."""
    names = []
    if top_k > 0 and kept_by_k == kept:
        names.append(f"top-k {top_k}")
    if top_p < 1.0 and kept_by_p == kept:
        names.append(f"top-p {number(top_p, 2)}")
    return " \u00b7 ".join(names)


class NextTokenView(QWidget):
    generate_requested = Signal(int)  # the token id to add (the likeliest, or drawn)
    back_requested = Signal()  # take the last generated token away

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scores: NextTokenScores | None = None
        self.intact: NextTokenScores | None = None
        self.knocked_count = 0
        self.seed = 0
        self.rng = np.random.default_rng(self.seed)  # seeded: a class sees the same draws as the teacher
        self.kept = 0  # tokens the cut-offs keep at the temperature shown
        self._busy = False
        self._can_go_back = False
        self._room_for_more = True  # the model reads one more token
        self._step = 0
        self._build_controls()
        self._build_generation()
        self._build_cache_part()
        self._lay_out()
        self._refresh()
        follow_language(self, self._reword)

    # ----- building --------------------------------------------------------------------------------
    def _build_controls(self) -> None:
        self.temperature_slider = QSlider(Qt.Orientation.Horizontal)
        self.temperature_slider.setAccessibleName(tr("Temperature"))
        self.temperature_slider.setToolTip(tr(TEMPERATURE_TOOLTIP))
        self.temperature_slider.setRange(round(MIN_TEMPERATURE / TEMPERATURE_STEP),
                                         round(MAX_TEMPERATURE / TEMPERATURE_STEP))
        self.temperature_slider.setSingleStep(1)
        self.temperature_slider.setPageStep(TEMPERATURE_PAGE)
        self.temperature_slider.setValue(round(1.0 / TEMPERATURE_STEP))
        self.temperature_slider.valueChanged.connect(lambda _value: self._refresh())
        self.temperature_label = QLabel(temperature_label(1.0))
        self.temperature_label.setMinimumWidth(self.fontMetrics().horizontalAdvance(temperature_label(0.0)) + 4)
        self.top_k_box = QSpinBox()
        self.top_k_box.setAccessibleName(tr("Top-k"))
        self.top_k_box.setToolTip(tr(TOP_K_TOOLTIP))
        self.top_k_box.setRange(0, MAX_TOP_K)
        self.top_k_box.setSpecialValueText(tr("off"))
        self.top_k_box.valueChanged.connect(lambda _value: self._refresh())
        self.top_p_box = QDoubleSpinBox()
        self.top_p_box.setAccessibleName(tr("Top-p"))
        self.top_p_box.setToolTip(tr(TOP_P_TOOLTIP))
        self.top_p_box.setRange(0.05, 1.0)
        self.top_p_box.setSingleStep(0.05)
        self.top_p_box.setDecimals(2)
        self.top_p_box.setValue(1.0)
        self.top_p_box.valueChanged.connect(lambda _value: self._refresh())
        self.bars = NextTokenBars()
        self.status_label = QLabel(tr(NO_PREDICTION_TEXT))  # no prediction yet; or how many tokens a cut keeps
        self.status_label.setWordWrap(True)
        self.moved_label = QLabel()
        self.moved_label.setWordWrap(True)
        self.moved_label.setAccessibleName(tr("Token that moved most"))

    def _build_generation(self) -> None:
        self.choice_box = QComboBox()
        self.choice_box.setAccessibleName(tr("Which token Generate adds"))
        self.choice_box.addItems([tr(choice) for choice in GENERATION_CHOICES])
        self.choice_box.setToolTip(tr("Most likely: the top bar. Sample: drawn by the bars' probabilities, "
                                      "after the cut-offs."))
        self.generate_button = QPushButton(tr("Generate"))
        self.generate_button.setToolTip(tr(GENERATE_TOOLTIP))
        self.generate_button.clicked.connect(self._generate)
        self.back_button = QPushButton(tr("Back"))
        self.back_button.setToolTip(tr("Take the last generated token away"))
        self.back_button.clicked.connect(self.back_requested)
        self.new_draw_button = QPushButton(tr("New draw"))
        self.new_draw_button.clicked.connect(self._new_draw)
        self.new_draw_button.setEnabled(False)  # draws matter only when sampling
        self.choice_box.currentIndexChanged.connect(lambda index: self.new_draw_button.setEnabled(index == SAMPLE_INDEX))

    def _build_cache_part(self) -> None:
        self.cache_box = QWidget()
        self.cache_title = QLabel()
        self.cache_title.setWordWrap(True)
        self.cache_matrix = CachedRowsMatrix()
        self.cache_label = QLabel()
        self.cache_label.setWordWrap(True)
        self.cache_label.setAccessibleName(tr("What the key-value cache saved"))
        self.cache_matrix.setToolTip(tr("The chosen head's attention weights, query rows down. Outlined: the new "
                                        "query row(s) this step computed; faded: the rows of earlier steps, kept."))
        # The matrix and its sentence side by side: one above the other would push the step below the fold
        # (they stack only when the column is too narrow for both, see _fit_rows).
        self.cache_row = beside = QHBoxLayout()
        beside.addWidget(self.cache_matrix, 0, Qt.AlignmentFlag.AlignTop)
        beside.addWidget(self.cache_label, 1, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self.cache_box)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.cache_title)
        layout.addLayout(beside)
        # Its room is kept from the start: the first step's box appearing would reflow the tab (a scroll bar
        # coming, the rows stacking) and move Generate from under the pointer.
        policy = self.cache_box.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.cache_box.setSizePolicy(policy)
        self.cache_box.hide()

    def _lay_out(self) -> None:
        # Short rows, a few widgets each: the tab is a column about 300 px wide at 1024 × 768, and nearer
        # 200 in presentation mode, where the rows below stack (_fit_rows) rather than be cut off.
        self.temperature_row = QHBoxLayout()
        self.temperature_row.addWidget(self.temperature_label)
        self.temperature_row.addWidget(self.temperature_slider, 1)
        cut_row = QHBoxLayout()
        for text, box in (("top-k", self.top_k_box), ("top-p", self.top_p_box)):
            pair = QHBoxLayout()  # a label stays beside its box even when the row stacks
            pair.addWidget(QLabel(text))
            pair.addWidget(box, 1)
            cut_row.addLayout(pair)
        generate_row = QHBoxLayout()
        generate_row.addWidget(self.choice_box)
        generate_row.addWidget(self.generate_button)
        draw_row = QHBoxLayout()
        draw_row.addWidget(self.back_button)
        draw_row.addWidget(self.new_draw_button)
        self.stacking_rows = [cut_row, generate_row, draw_row]
        self.column = layout = QVBoxLayout(self)
        # The layout never sets the view's minimum size: it would be the side-by-side rows' width, and the
        # column could then never get narrow enough for them to stack. minimumSizeHint says the true one.
        layout.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(4)
        layout.addLayout(self.temperature_row)
        layout.addLayout(cut_row)
        layout.addWidget(self.bars)
        layout.addWidget(self.status_label)
        layout.addWidget(self.moved_label)
        layout.addLayout(generate_row)
        layout.addLayout(draw_row)
        layout.addWidget(self.cache_box)
        layout.addStretch(1)

    # ----- fitting the column ------------------------------------------------------------------------
    def _inner_width(self) -> int:
        margins = self.column.contentsMargins()
        return self.width() - margins.left() - margins.right()

    def _cache_row_width(self) -> int:
        """The matrix and a text column wide enough to read ("multiply-adds instead" on one line)."""
        text = self.cache_label.fontMetrics().horizontalAdvance(tr("multiply-adds instead"))
        return self.cache_matrix.width() + self.cache_row.spacing() + text

    def _fit_rows(self) -> None:
        """Each row side by side when its parts fit the width, one above the other when they do not.
        The choice depends on the width alone, so a taller view (and a scroll bar) cannot flip it back."""
        needs = [(row, row_width(row)) for row in self.stacking_rows] + [(self.cache_row, self._cache_row_width())]
        for row, needed in needs:
            direction = (QBoxLayout.Direction.LeftToRight if needed <= self._inner_width()
                         else QBoxLayout.Direction.TopToBottom)
            if row.direction() != direction:
                row.setDirection(direction)

    def minimumSizeHint(self) -> QSize:
        """As narrow as the stacked rows allow (the layout alone would ask for the side-by-side widths)."""
        margins = self.column.contentsMargins()
        widest_part = max([self.temperature_row.minimumSize().width(), self.bars.minimumSizeHint().width(),
                           self.cache_matrix.width()]
                          + [item.minimumSize().width() for row in self.stacking_rows for item in row_items(row)])
        return QSize(widest_part + margins.left() + margins.right(), super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_rows()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # presentation mode: wider buttons
            self._fit_rows()

    # ----- the settings ----------------------------------------------------------------------------
    @property
    def temperature(self) -> float:
        return round(self.temperature_slider.value() * TEMPERATURE_STEP, 2)

    @property
    def top_k(self) -> int:
        return int(self.top_k_box.value())

    @property
    def top_p(self) -> float:
        return round(float(self.top_p_box.value()), 2)

    @property
    def sampling(self) -> bool:
        return self.choice_box.currentIndex() == SAMPLE_INDEX

    # ----- the prediction ----------------------------------------------------------------------------
    def show_prediction(self, scores: NextTokenScores, intact: NextTokenScores | None = None,
                        knocked_count: int = 0) -> None:
        """The run's next-token scores; with INTACT, the intact model's beside them (KNOCKED_COUNT heads out)."""
        self.scores, self.intact, self.knocked_count = scores, intact, knocked_count
        self._refresh()

    def _refresh(self) -> None:
        temperature = self.temperature
        self.temperature_label.setText(temperature_label(temperature))
        self._show_seed()
        self._show_bars(temperature)
        self._show_moved(temperature)
        self._enable_buttons()

    def _show_bars(self, temperature: float) -> None:
        if self.scores is None:
            self.kept = 0
            self.bars.clear()
            self.bars.hide()
            self.status_label.setText(tr(NO_PREDICTION_TEXT))
            self.status_label.show()
            return
        probabilities = self.scores.probabilities(temperature)
        was = self.intact.probabilities(temperature) if self.intact is not None else None
        ids = self.scores.top_ids[:SHOWN_TOKENS]
        rows = [BarRow(text, float(probabilities[token]), None if was is None else float(was[token]))
                for token, text in zip(ids, self.scores.top_texts)]
        sorted_probabilities = -np.sort(-probabilities)
        kept_by_k = kept_count(sorted_probabilities, self.top_k, 1.0)
        kept_by_p = kept_count(sorted_probabilities, 0, self.top_p)
        self.kept = min(kept_by_k, kept_by_p)
        label = cut_label(self.top_k, self.top_p, kept_by_k, kept_by_p, self.kept)
        self.bars.show_rows(rows, self.kept if label else len(sorted_probabilities), label)
        self.bars.show()
        beyond = bool(label) and self.kept > len(rows)  # the line would fall below the last bar shown
        self.status_label.setText(tr("{cut} keeps {count} tokens, more than shown.").format(
            cut=label, count=f"{self.kept:,}") if beyond else "")
        self.status_label.setVisible(beyond)

    def _show_moved(self, temperature: float) -> None:
        if self.scores is None or self.intact is None:
            self.moved_label.hide()
            return
        token, before, after = moved_most(self.intact, self.scores, temperature)
        self.moved_label.setText(moved_most_text(self.knocked_count, token, before, after))
        self.moved_label.show()

    # ----- generating --------------------------------------------------------------------------------
    def set_busy(self, busy: bool) -> None:
        """The model is working (a step, a knock-out): no new Generate or Back until it answers."""
        self._busy = busy
        self._enable_buttons()

    def set_can_go_back(self, can: bool) -> None:
        """Whether a generated token is there to take away."""
        self._can_go_back = can
        self._enable_buttons()

    def set_room_for_more(self, room: bool, why: str = "") -> None:
        """Whether the model can read one more token (a sentence at the model's limit cannot grow)."""
        self._room_for_more = room
        self.generate_button.setToolTip(tr(GENERATE_TOOLTIP) if room else why)
        self._enable_buttons()

    def _enable_buttons(self) -> None:
        self.generate_button.setEnabled(self.scores is not None and not self._busy and self._room_for_more)
        self.back_button.setEnabled(self._can_go_back and not self._busy)

    def chosen_token(self) -> int:
        """The likeliest token, or one drawn from the bars' probabilities after the cut-offs."""
        assert self.scores is not None
        if not self.sampling:
            return int(self.scores.top_ids[0])
        return sample_token(self.scores.probabilities(self.temperature), self.top_k, self.top_p, self.rng)

    def _generate(self) -> None:
        if self.scores is not None and not self._busy:
            self.generate_requested.emit(self.chosen_token())

    def _new_draw(self) -> None:
        self.seed += 1
        self.rng = np.random.default_rng(self.seed)
        self._show_seed()

    def _show_seed(self) -> None:
        # In the tooltip, not on a label: a narrow column has no room, and only a teacher comparing draws asks.
        self.new_draw_button.setToolTip(tr("Sample draws with seed {seed} (every computer starts at 0); "
                                           "a click takes seed {next_seed}").format(seed=self.seed,
                                                                                     next_seed=self.seed + 1))

    def _reword(self) -> None:
        """Another language: the choices and every line worded here, again (the label measured anew)."""
        for index, choice in enumerate(GENERATION_CHOICES):
            self.choice_box.setItemText(index, tr(choice))
        self.temperature_label.setMinimumWidth(self.fontMetrics().horizontalAdvance(temperature_label(0.0)) + 4)
        self._refresh()
        self._fit_rows()

    # ----- the key-value cache -------------------------------------------------------------------------
    def show_cache_step(self, matrix: np.ndarray, cached_rows: int, head_name: str, multiply_adds: int,
                        multiply_adds_without_cache: int, total_saved: int, step: int | None = None) -> None:
        """A generation step: HEAD_NAME's matrix with the rows after CACHED_ROWS new, and what the cache saved.
        STEP counts the tokens generated since the sentence was typed (by default one more than the last)."""
        self._step = step if step is not None else self._step + 1
        size = int(np.asarray(matrix).shape[0])
        self.cache_title.setText(tr("<b>Key-value cache</b> \u00b7 {head}").format(head=head_name))
        self.cache_matrix.show_matrix(matrix, cached_rows)
        self.cache_label.setText(cache_step_text(self._step, size - cached_rows, cached_rows, multiply_adds,
                                                 multiply_adds_without_cache, total_saved))
        self.cache_box.show()

    def clear_cache_step(self) -> None:
        """The sentence was typed anew: no step yet, and the draws start again from the seed shown."""
        self._step = 0
        self.rng = np.random.default_rng(self.seed)
        self.cache_box.hide()


__all__ = ["NextTokenView", "cache_step_text", "count_text", "moved_most_text"]
