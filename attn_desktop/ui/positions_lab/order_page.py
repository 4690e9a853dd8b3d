"""The Positions lab's first page, Order: attention alone cannot tell word order.

The scene's sentence and the same words in another order ("the dog chased the cat", "the cat chased the
dog"), each with its attention matrix, and each word's output in both: the same, only in another row.
Shuffle reorders the scene's own words (one undoable edit: the Attention matrix panel's rows and columns
move with their words); First order puts them back as they were when the lab first saw the sentence.
"""

from __future__ import annotations

import html

import numpy as np
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from attn_desktop.language import N_, tr
from attn_desktop.model.shown_numbers import shown_vector
from attn_desktop.model.teaching.positions_lab import LabHead, OrderComparison, compare_orders, other_order
from attn_desktop.ui.positions_lab.lab_text import set_text, wrapped_label
from attn_desktop.ui.positions_lab.outputs_table import OutputsTable
from attn_desktop.ui.positions_lab.weights_grid import WeightsGrid

SHOWN_NUMBERS = 2  # of each output: a narrow panel shows the first two (the canvas draws those)


class OrderPage(QWidget):
    shuffle_requested = Signal()
    first_order_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.intro = wrapped_label(tr("<b>Attention alone cannot tell word order.</b> The same words in another "
                                      "order, no positions:"))
        self.first_label, self.second_label = wrapped_label(""), wrapped_label("")
        self.first_grid = WeightsGrid(N_("Attention in the sentence's order"))
        self.second_grid = WeightsGrid(N_("Attention in the other order"))
        self.outputs_label = wrapped_label("")  # what to see in the outputs
        self.outputs_table = OutputsTable()
        self.shuffle_button = QPushButton(tr("Shuffle"))
        self.shuffle_button.setToolTip(tr("Put the scene's words in a random order (Edit → Undo takes it back)"))
        self.first_order_button = QPushButton(tr("First order"))
        self.first_order_button.setToolTip(tr("The words back in the order the lab first saw them in"))
        self.shuffle_button.clicked.connect(self.shuffle_requested)
        self.first_order_button.clicked.connect(self.first_order_requested)
        self.comparison: OrderComparison | None = None
        self._lay_out()

    def _lay_out(self) -> None:
        buttons = QHBoxLayout()
        buttons.addWidget(self.shuffle_button)
        buttons.addWidget(self.first_order_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.intro, self.first_label, self.first_grid, self.second_label, self.second_grid,
                       self.outputs_label, self.outputs_table):
            layout.addWidget(widget)
        layout.addLayout(buttons)
        layout.addStretch(1)

    def show_head(self, head: LabHead | None, causal: bool, back_to_first: bool) -> None:
        """HEAD's sentence beside its words in the lab's other order; BACK_TO_FIRST: the words are shuffled."""
        self.first_order_button.setEnabled(back_to_first)
        self.shuffle_button.setEnabled(head is not None and len(head.tokens) > 1)
        if head is None:
            self.comparison = None
            self.first_label.setText(tr(NO_SENTENCE))
            for widget in (self.first_grid, self.second_grid, self.second_label, self.outputs_label,
                           self.outputs_table):
                widget.hide()
            return
        self.comparison = shown = compare_orders(head, other_order(len(head.tokens)))
        # Translators: a sentence quoted on the Order page: the language's quotation marks around {sentence}.
        quoted = tr("“{sentence}”")
        set_text(self.first_label, quoted.format(sentence=html.escape(" ".join(shown.tokens))))
        set_text(self.second_label, quoted.format(sentence=html.escape(" ".join(shown.second_tokens))))
        self.first_grid.set_weights(shown.tokens, shown.first.weights)
        self.second_grid.set_weights(shown.second_tokens, shown.second.weights)
        set_text(self.outputs_label, verdict_text(shown, causal))
        self.outputs_table.show_rows(output_rows(shown))
        for widget in (self.first_grid, self.second_grid, self.second_label, self.outputs_label, self.outputs_table):
            widget.show()


NO_SENTENCE = N_("This page needs a scene whose queries are its own words, read by a first-layer head "
                 "(open lesson 10's scene, or any sentence).")


def verdict_text(shown: OrderComparison, causal: bool = False) -> str:
    """What to see in the outputs of both orders; CAUSAL: with a word on the mask the lab leaves out."""
    verdict = (tr("<b>Every word's output is the same in both orders</b>, only in another row:")
               if shown.outputs_only_reordered() else tr("<b>The outputs differ</b> between the orders:"))
    if not causal:
        return verdict
    # Translators: {verdict} is the sentence on the outputs ("The outputs differ between the orders:").
    return tr("{verdict}<br><i>The lab leaves out the scene's causal mask: a mask that lets each word see only "
              "the words before it is itself a kind of position.</i>").format(verdict=verdict)


def output_rows(shown: OrderComparison) -> list[tuple[str, str, str]]:
    """Each word, its output in the sentence's order and in the other order."""
    return [(token, vector_text(shown.first.output[index]), vector_text(shown.second.output[shown.order.index(index)]))
            for index, token in enumerate(shown.tokens)]


def vector_text(vector: np.ndarray) -> str:
    return shown_vector(vector[:SHOWN_NUMBERS].tolist(), more=len(vector) > SHOWN_NUMBERS)
