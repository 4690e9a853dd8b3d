"""The Added page's learned positions: lesson 5's trained head, x_i = E[digit] + α·P[position]."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget

from attn_desktop.language import N_, number, tr
from attn_desktop.model.teaching.positions_lab import is_anti_diagonal, learned_head
from attn_desktop.ui.positions_lab.lab_text import set_text, wrapped_label
from attn_desktop.ui.positions_lab.weights_grid import WeightsGrid


class LearnedView(QWidget):
    """Lesson 5's head reversing five digits, with its learned positions at strength α."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.intro = wrapped_label(tr("Lesson 5's trained head reverses five digits. Its x<sub>i</sub> = "
                                      "E[digit] + α·P[position], P learned with the rest:"))
        self.grid = WeightsGrid(N_("Attention of lesson 5's trained head"))
        self.verdict = wrapped_label("")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.intro, self.grid, self.verdict):
            layout.addWidget(widget)
        layout.addStretch(1)  # packed at the top, whatever height the page gives it

    def show_strength(self, strength: float) -> None:
        head = learned_head()
        weights = head.weights(strength)
        self.grid.set_weights(head.tokens, weights)
        if is_anti_diagonal(weights):
            text = tr("α = {strength}: each place looks at its mirror place (the anti-diagonal): the reversal.")
        else:
            text = tr("α = {strength}: without enough position the head cannot tell places apart: "
                      "the two 1s get the same weights, and no row finds its mirror.")
        set_text(self.verdict, text.format(strength=number(strength, 1)))
