"""The induction model's heads on the chosen example, side by side, each with a switch that knocks it out.

Under the heads' attention squares: each head's two scores, previous-token and induction (the mean
weight on the key before, and on the key after the earlier occurrence, over 1,000 fresh sequences; see
model/training/induction_circuit.py), the accuracy on those sequences, and whether (a previous-token head in layer 1 and an induction head in the last layer, both
at CIRCUIT_THRESHOLD or more).

Knocking a head out only changes what is shown: the squares are the model run with that head writing
nothing (so layer 2's stripe falls at once when layer 1's head goes), and the scores and accuracy are
read again with it out; the window's large matrices follow (the panel hands it the model without the head).
Training itself always runs with every head in, and never sees the switches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QGridLayout, QLabel, QVBoxLayout, QWidget

from attn_desktop.language import N_, number, tr
from attn_desktop.language.numbers import significant, whole_number
from attn_desktop.model.training.induction_circuit import CIRCUIT_THRESHOLD, CircuitReading
from attn_desktop.model.training.induction_task import InductionTask
from attn_desktop.model.training.layered_maths import HeadAt, forward
from attn_desktop.model.training.training import EVALUATION_COUNT
from attn_desktop.ui.training.attention_heatmap import AttentionHeatmap
from attn_desktop.ui.training.circuit_reader import CircuitReader

READING_TEXT = N_("Reading the circuit…")


def head_name(head: HeadAt) -> str:
    layer, index = head
    return tr("Layer {layer} · head {head}").format(layer=layer + 1, head=index + 1)


def layer_name(head: HeadAt) -> str:
    return tr("Layer {layer}").format(layer=head[0] + 1)


class CircuitView(QWidget):
    heads_shown = Signal()  # the squares show another model, example or set of heads knocked out
    knock_out_switched = Signal()  # another set of heads is knocked out (the window shows the model without them)
    announcement = Signal(str)  # a knock-out's effect on the accuracy, once its reading is in: for a screen reader

    def __init__(self, task: InductionTask, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.task = task
        self.heads: list[HeadAt] = [(layer, head) for layer in range(task.n_layers) for head in range(task.n_heads)]
        self.heatmaps: dict[HeadAt, AttentionHeatmap] = {}
        self.knock_out_boxes: dict[HeadAt, QCheckBox] = {}
        self.titles: dict[HeadAt, QLabel] = {}
        self.reading: CircuitReading | None = None  # the last reading, of the heads knocked out now
        self._effect_awaited = False  # a knock-out was switched: its effect is said when its reading comes
        self._params: Any = None
        self._tokens: list[int] = []
        self.reader = CircuitReader(self)
        self.reader.read.connect(self._on_read)
        self._build()
        self.reword()

    def _build(self) -> None:
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        for column, head in enumerate(self.heads):
            # Only the layer when it has one head: two squares side by side fit a narrow dock in presentation mode.
            title = QLabel()
            heatmap = AttentionHeatmap(head_name(head))
            box = QCheckBox(tr("Knock out"))
            box.setToolTip(tr("The head writes nothing: see what the model does without it (training keeps it in)"))
            box.toggled.connect(self._on_knock_out_switched)
            for row, widget in enumerate((title, heatmap, box)):
                grid.addWidget(widget, row, column)
            self.heatmaps[head], self.knock_out_boxes[head], self.titles[head] = heatmap, box, title
        self.scores_label = QLabel()
        self.scores_label.setWordWrap(True)
        self.accuracy_label = QLabel()
        self.accuracy_label.setWordWrap(True)
        self.formed_label = QLabel()
        self.formed_label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(grid)
        layout.addWidget(self.scores_label)
        layout.addWidget(self.accuracy_label)
        layout.addWidget(self.formed_label)

    def reword(self) -> None:
        """Every text in the current language (at first, and after the language changes)."""
        for head in self.heads:
            # Only the layer when it has one head: two squares side by side fit a narrow dock in presentation mode.
            name = head_name(head) if self.task.n_heads > 1 else layer_name(head)
            self.titles[head].setText(f"<b>{name}</b>")
            self.heatmaps[head].set_name(head_name(head))
            # Translators: a screen reader's name for a head's knock-out switch: "Knock out layer 1 · head 1".
            self.knock_out_boxes[head].setAccessibleName(tr("Knock out {head}").format(head=head_name(head).lower()))
        self.scores_label.setAccessibleName(tr("Each head's scores"))
        self.accuracy_label.setAccessibleName(tr("Accuracy with these heads"))
        self.formed_label.setAccessibleName(tr("Circuit formed"))
        self._show_reading()
        for heatmap in self.heatmaps.values():
            heatmap.update()  # "knocked out" across a square

    # ----- what the view holds ----------------------------------------------------------------------
    @property
    def knocked_out(self) -> frozenset[HeadAt]:
        return frozenset(head for head, box in self.knock_out_boxes.items() if box.isChecked())

    def shown_weights(self, layer: int, head: int = 0) -> Any:
        return self.heatmaps[(layer, head)].shown_weights()

    # ----- from the panel -----------------------------------------------------------------------------
    def show_model(self, params: Any, tokens: Sequence[int], read_now: bool = False) -> None:
        """The model PARAMS on the example TOKENS; its circuit read again (at once when READ_NOW)."""
        self._params, self._tokens = params, list(tokens)
        self._show_example()
        self.reader.ask(self.task, params, self.knocked_out, at_once=read_now)

    def show_example(self, tokens: Sequence[int]) -> None:
        """Another example under the same model: the squares change, the scores (of fresh sequences) do not."""
        self._tokens = list(tokens)
        self._show_example()

    def clear(self) -> None:
        """No model yet (a new run is starting): nothing shown, and readings still under way are dropped."""
        self._params, self.reading, self._effect_awaited = None, None, False
        self.reader.forget()
        for heatmap in self.heatmaps.values():
            heatmap.clear()
        self._show_reading()

    def shutdown(self) -> None:
        self.reader.shutdown()

    # ----- inside ---------------------------------------------------------------------------------------
    def _on_knock_out_switched(self) -> None:
        self.reading = None  # the last one was of other heads
        self._effect_awaited = self._params is not None  # said once its reading comes
        self._show_reading()
        if self._params is not None:
            self._show_example()
            self.reader.ask(self.task, self._params, self.knocked_out, at_once=True)
        self.knock_out_switched.emit()

    def _show_example(self) -> None:
        if self._params is None:
            return
        knocked_out = self.knocked_out
        result = forward(self._params, self._tokens, self.task.causal, knocked_out)
        labels = self.task.words(self._tokens)
        for head, heatmap in self.heatmaps.items():
            heatmap.show_weights(result.attention(*head), labels, head in knocked_out)
        self.heads_shown.emit()

    def _on_read(self, reading: CircuitReading, knocked_out: frozenset[HeadAt]) -> None:
        if knocked_out != self.knocked_out:
            return  # a switch was flipped since it was asked for; its own reading is on the way
        self.reading = reading
        self._show_reading()
        if self._effect_awaited:
            self._effect_awaited = False
            self.announcement.emit(self.accuracy_label.text())  # "Accuracy with Layer 1 · head 1 knocked out: …"

    def _show_reading(self) -> None:
        reading = self.reading
        self.scores_label.setText("" if reading is None else "\n".join(scores_text(reading, head) for head in self.heads))
        if reading is None:
            self.accuracy_label.setText(tr(READING_TEXT) if self._params is not None else "")
            self.formed_label.setText("")
            return
        self.accuracy_label.setText(accuracy_text(reading, self.knocked_out))
        self.formed_label.setText(formed_text(reading))


def accuracy_text(reading: CircuitReading, knocked_out: frozenset[HeadAt]) -> str:
    """"Accuracy: 91.2 % of 1,000 fresh sequences", saying which heads are knocked out."""
    accuracy, count = number(100 * reading.accuracy, 1), whole_number(EVALUATION_COUNT)
    if not knocked_out:
        return tr("Accuracy: {accuracy} % of {count} fresh sequences").format(accuracy=accuracy, count=count)
    # Translators: {heads} names the heads knocked out: "Layer 1 · head 1, Layer 2 · head 1".
    return tr("Accuracy with {heads} knocked out: {accuracy} % of {count} fresh sequences").format(
        heads=", ".join(head_name(head) for head in sorted(knocked_out)), accuracy=accuracy, count=count)


def scores_text(reading: CircuitReading, head: HeadAt) -> str:
    """"Layer 1 · head 1: previous-token 0.57 · induction 0.03"."""
    # Translators: a head's two scores under the induction heads' squares (previous-token and induction heads).
    return tr("{head}: previous-token {previous} · induction {induction}").format(
        head=head_name(head), previous=number(reading.previous_token[head], 2),
        induction=number(reading.induction[head], 2))


def formed_text(reading: CircuitReading) -> str:
    """Whether both heads of the circuit are there, with the two scores that say so."""
    (_, previous), (_, induction) = reading.previous_token_head, reading.induction_head
    shown = {"previous": number(previous, 2), "induction": number(induction, 2),
             "threshold": significant(CIRCUIT_THRESHOLD, 6)}
    if reading.formed:
        return tr("Circuit formed (previous-token {previous}, induction {induction}: both at least {threshold})").format(
            **shown)
    return tr("Circuit not formed (previous-token {previous}, induction {induction}: both must reach {threshold})"
              ).format(**shown)
