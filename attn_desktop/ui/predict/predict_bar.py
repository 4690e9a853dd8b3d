"""The strip over the weights chart while Predict, then see is on: one row that says what to do
now (or how the last round went, and the session's score), with the winner picker and Reveal
while a guess is being made. One row, so that a projector's short bottom row keeps its chart."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from attn_desktop.language import N_, tr

WINNER_PLACEHOLDER = N_("Winner…")  # shown as tr(WINNER_PLACEHOLDER)


class PredictBar(QWidget):
    winner_chosen = Signal(int)  # the key the student says wins
    reveal_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("predictBar")
        self.message_label = QLabel(self)
        self.message_label.setWordWrap(True)
        self.message_label.setTextFormat(Qt.TextFormat.RichText)
        # The panel's width, whatever the text: a long message wraps instead of widening the dock.
        self.message_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.winner_box = QComboBox(self)
        self.winner_box.setPlaceholderText(tr(WINNER_PLACEHOLDER))
        self.winner_box.setAccessibleName(tr("Which key wins"))
        self.winner_box.setToolTip(tr("Or say only which key wins: your guess gives it all the weight (type its first "
                                      "letters to pick it)"))
        self.winner_box.activated.connect(self.winner_chosen)
        self.reveal_button = QPushButton(tr("Reveal"), self)
        self.reveal_button.setToolTip(tr("Show the real weights beside your guess (Enter)"))
        self.reveal_button.clicked.connect(self.reveal_clicked)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.message_label, 1)
        layout.addWidget(self.winner_box)
        layout.addWidget(self.reveal_button)

    def set_tokens(self, tokens: list[str]) -> None:
        """The keys the winner box offers."""
        self.winner_box.clear()
        self.winner_box.addItems(tokens)
        self.winner_box.setCurrentIndex(-1)

    def show_step(self, message: str, tooltip: str, guessing: bool, winner: int = -1) -> None:
        """What to do now (its tooltip: the details); the winner box and Reveal only while guessing."""
        self.message_label.setText(message)
        self.message_label.setToolTip(tooltip)
        self.winner_box.setVisible(guessing)
        self.reveal_button.setVisible(guessing)
        if self.winner_box.currentIndex() != winner:
            self.winner_box.setCurrentIndex(winner)
