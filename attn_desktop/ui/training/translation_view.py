"""The translator on one sentence, in place of the Training panel's example: the cross-attention matrix forming
as it trains, the sentence it writes word by word (right or wrong against the grammar's translation), and a
knock-out switch for each of its heads, with the held-out exact match read again with the head out.

The sentence is one of the held-out sentences (the list), or one typed and checked by translation_of. The
matrix is the last decoder layer's cross-attention head on it: a row for each word the model writes (greedy
decoding), a column for each source word.

Knocking a head out only changes what is shown, as for induction: the sentence is written and the matrix and
exact match computed with that head writing nothing; training always runs with every head in. The held-out
exact match runs the model on all 304 held-out pairs: a whole reading (that, the sentence decoded and its
matrix) measured 8.6 ms (median; 14 ms at most), under a frame, so it is read on the GUI thread, not a worker's;
but while training runs at most READINGS_PER_SECOND times a second, so reading never takes much of the window's
time (training flat out, a 20 ms timer still fired 45-51 times a second); a pause or a switch reads at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from attn_desktop.language import tr
from attn_desktop.model.training.translation_maths import HeadAt, exact_match_of, forward
from attn_desktop.model.training.translation_task import EOS, TranslationPair, TranslationTask, translation_of
from attn_desktop.model.training.translation_trainer import cross_attention_of
from attn_desktop.ui.training.cross_attention_matrix import CrossAttentionMatrix
from attn_desktop.ui.training.translation_texts import (
    WRONG_COLOR,
    bad_sentence_text,
    exact_match_text,
    head_name,
    reached_text,
    short_head_name,
    word_marks,
    written_html,
    written_plain,
)
from attn_desktop.ui.widgets.flow_layout import FlowLayout
from attn_desktop.ui.workers import Throttle

READINGS_PER_SECOND = 10.0
LISTED_SENTENCES = 40  # held-out sentences with a crossing, shortest first: enough to choose from


class TranslationView(QWidget):
    announcement = Signal(str)  # a knock-out's effect on the exact match, or the target reached: for a screen reader

    def __init__(self, task: TranslationTask, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.task = task
        self.pairs = listed_pairs(task)
        self.pair: TranslationPair = self.pairs[0]
        self.heads: list[HeadAt] = [(block, layer, head) for layer in range(task.decoder_layers)
                                    for block in ("self", "cross") for head in range(task.n_heads)]
        self.exact_match: float | None = None  # held-out, with the heads knocked out now
        self.decoded_words: list[str] = []  # the sentence as written, without <eos>
        self.word_marks: list[bool] = []
        self._params: Any = None
        self._target_reached = False  # the held-out exact match has reached the task's target this run (said once)
        self._held_out = task.batch(task.held_out)
        self._pace = Throttle(READINGS_PER_SECOND)
        self._build()
        self.reword()

    def _build(self) -> None:
        self.sentence_list = QComboBox()
        for pair in self.pairs:
            self.sentence_list.addItem(" ".join(pair.source))
        self.sentence_list.currentIndexChanged.connect(self._on_sentence_chosen)
        self.sentence_box = QLineEdit()
        self.sentence_box.returnPressed.connect(self._on_sentence_typed)
        self.sentence_message = QLabel()
        self.sentence_message.setWordWrap(True)
        self.sentence_message.setStyleSheet(f"color: {WRONG_COLOR};")
        self.sentence_message.hide()
        self.matrix = CrossAttentionMatrix()
        self.decoded_label = QLabel()
        self.decoded_label.setWordWrap(True)
        self.decoded_label.setTextFormat(Qt.TextFormat.RichText)
        self.knock_out_boxes: dict[HeadAt, QCheckBox] = {}
        for head in self.heads:
            box = QCheckBox()
            box.toggled.connect(self._on_knock_out_switched)
            self.knock_out_boxes[head] = box
        self.exact_match_label = QLabel()
        self.exact_match_label.setWordWrap(True)
        self.form = QFormLayout()
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.sentence_list_label, self.sentence_box_label = QLabel(), QLabel()
        self.sentence_list_label.setBuddy(self.sentence_list)
        self.sentence_box_label.setBuddy(self.sentence_box)
        self.form.addRow(self.sentence_list_label, self.sentence_list)
        self.form.addRow(self.sentence_box_label, self.sentence_box)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.form)
        layout.addWidget(self.sentence_message)
        layout.addWidget(self.matrix)
        layout.addWidget(self.decoded_label)
        # "Knock out:" and a switch per head, each named short, on as many lines as the column needs: the heads'
        # full names side by side made the Training panel 290 px wide, and the canvas's plots too small at 1024.
        self.knock_out_label = QLabel()
        switches = FlowLayout(last_to_far_edge=False)
        switches.add_widgets(self.knock_out_label, *self.knock_out_boxes.values())
        layout.addLayout(switches)
        layout.addWidget(self.exact_match_label)

    def reword(self) -> None:
        """Every text in the current language (at first, and after the language changes)."""
        self.sentence_list_label.setText(tr("Sentence"))
        self.sentence_box_label.setText(tr("Or type one"))
        self.sentence_list.setAccessibleName(tr("Held-out sentence"))
        self.sentence_list.setToolTip(tr("A sentence the model never trains on"))
        self.sentence_box.setAccessibleName(tr("Your sentence"))
        self.sentence_box.setPlaceholderText(tr("el gato negro duerme; press Enter"))
        self.matrix.setAccessibleName(tr("Cross-attention: the words written by the words read"))
        self.decoded_label.setAccessibleName(tr("The sentence as the model writes it"))
        self.exact_match_label.setAccessibleName(tr("Held-out exact match"))
        # Translators: before the Training panel's switches that knock out the translator's heads ("self-attention").
        self.knock_out_label.setText(tr("Knock out:"))
        for head, box in self.knock_out_boxes.items():
            # Translators: a switch under the cross-attention matrix: "Knock out the cross-attention head".
            box.setText(short_head_name(head, self.task.decoder_layers))
            box.setAccessibleName(tr("Knock out {head}").format(head=head_name(head, self.task.decoder_layers)))
            box.setToolTip(tr("The head writes nothing: see what the model does without it (training keeps it in)"))
        self._show_sentence()
        self._show_exact_match()

    # ----- what the view holds ----------------------------------------------------------------------
    @property
    def knocked_out(self) -> frozenset[HeadAt]:
        return frozenset(head for head, box in self.knock_out_boxes.items() if box.isChecked())

    @property
    def sentence(self) -> list[str]:
        return list(self.pair.source)

    # ----- from the panel -----------------------------------------------------------------------------
    def show_model(self, params: Any, metrics: Sequence[Any] = (), read_now: bool = False) -> None:
        """The model PARAMS on the sentence, and its held-out exact match (at once when READ_NOW, else at the pace).
        METRICS: the steps that led to it (TranslationStepMetrics); the first to reach the task's target is said."""
        self._params = params
        if self._pace.due(read_now):
            self._read()
        target = self.task.target_exact_match
        reached = next((item for item in metrics if item.held_out_exact_match >= target), None)
        if reached is not None and not self._target_reached:
            self._target_reached = True  # once a run
            self.announcement.emit(reached_text(100 * target, reached.step))

    def clear(self) -> None:
        """No model yet (a new run is starting)."""
        self._params, self.exact_match, self.decoded_words, self.word_marks = None, None, [], []
        self._target_reached = False
        self.matrix.clear()
        self._show_sentence()
        self._show_exact_match()

    # ----- inside ---------------------------------------------------------------------------------------
    def _on_sentence_chosen(self, index: int) -> None:
        self._choose(self.pairs[index])

    def _on_sentence_typed(self) -> None:
        typed = self.sentence_box.text()
        try:
            pair = translation_of(typed)
            self.task.source_ids(pair.source)
        except ValueError:
            self.sentence_message.setText(bad_sentence_text(typed))
            self.sentence_message.show()
            return
        listed = self.sentence_list.findText(" ".join(pair.source))
        self.sentence_list.blockSignals(True)  # the list shows the typed sentence, or none when it lacks it
        self.sentence_list.setCurrentIndex(listed)
        self.sentence_list.blockSignals(False)
        self._choose(pair)

    def _choose(self, pair: TranslationPair) -> None:
        self.pair = pair
        self.sentence_message.hide()
        self._show_sentence()

    def _on_knock_out_switched(self) -> None:
        self._read()
        self.announcement.emit(self.exact_match_label.text())  # "Held-out exact match with … knocked out: 0.0 % …"

    def _read(self) -> None:
        self._show_sentence()
        if self._params is not None:
            self.exact_match = exact_match_of(forward(self._params, self._held_out, self.knocked_out), self._held_out)
        self._show_exact_match()

    def _show_sentence(self) -> None:
        if self._params is None:
            self.decoded_label.setText("")
            return
        knocked_out = self.knocked_out
        reading = cross_attention_of(self.task, self._params, self.sentence, knocked_out=knocked_out)
        self.matrix.show_weights(reading.weights, reading.target_words, reading.source_words,
                                 any(head[0] == "cross" for head in knocked_out))
        written = reading.target_words[:-1] if reading.target_words[-1:] == [EOS] else reading.target_words
        self.decoded_words, self.word_marks = written, word_marks(written, self.pair.target)
        self.decoded_label.setText(written_html(written, self.pair.target))
        self.decoded_label.setAccessibleDescription(written_plain(written, self.pair.target))

    def _show_exact_match(self) -> None:
        if self.exact_match is None:
            self.exact_match_label.setText("")
            return
        self.exact_match_label.setText(exact_match_text(self.exact_match, len(self.task.held_out), self.knocked_out,
                                                        self.task.decoder_layers))


def listed_pairs(task: TranslationTask) -> list[TranslationPair]:
    """Held-out pairs with a crossing for the list, shortest first."""
    crossing = [pair for pair in task.held_out if pair.has_crossing]
    return sorted(crossing, key=lambda pair: (len(pair.source), pair.source))[:LISTED_SENTENCES]
