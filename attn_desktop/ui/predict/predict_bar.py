"""The strip over the weights chart while Predict, then see is on: one row that says what to do
now (or how the last round went, and the session's score), with the winner picker and Reveal
while a guess is being made. One row, so that a projector's short bottom row keeps its chart.

The strip is as tall as its longest message (a round's result, the session's score under it) from the moment
it is shown: a message arriving never makes it taller, so Reveal moves neither the chart nor any panel."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QResizeEvent, QTextDocument
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from attn_desktop.language import N_, tr

WINNER_PLACEHOLDER = N_("Winner…")  # shown as tr(WINNER_PLACEHOLDER)
MESSAGE_LINES = 3  # the longest message: a round's result and the session's score under it, or the guess's, wrapped
GUESSING_TEXT = N_("<b>Guess:</b> drag the grey bars, or")  # the message beside the winner box and Reveal


class PredictBar(QWidget):
    winner_chosen = Signal(int)  # the key the student says wins
    reveal_clicked = Signal()
    next_round_clicked = Signal()  # a lesson's next Predict, then see round (offer_next_round)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("predictBar")
        self.message_label = QLabel(self)
        self.message_label.setWordWrap(True)
        self.message_label.setTextFormat(Qt.TextFormat.RichText)
        # The panel's width, whatever the text: a long message wraps instead of widening the dock.
        self.message_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.winner_box = QComboBox(self)
        self.winner_box.setPlaceholderText(tr(WINNER_PLACEHOLDER))
        self.winner_box.setAccessibleName(tr("Which key wins"))
        self.winner_box.setToolTip(tr("Or say only which key wins: your guess gives it all the weight (type its first "
                                      "letters to pick it)"))
        self.winner_box.activated.connect(self.winner_chosen)
        self.reveal_button = QPushButton(tr("Reveal"), self)
        self.reveal_button.setToolTip(tr("Show the real weights beside your guess (Enter)"))
        self.reveal_button.clicked.connect(self.reveal_clicked)
        self.next_round_button = QPushButton(self)  # after Reveal, while a lesson has rounds left
        self.next_round_button.setAutoDefault(True)  # Enter presses it, as Enter revealed the round
        self.next_round_button.clicked.connect(self.next_round_clicked)
        self.next_round_button.hide()
        self._row = layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.message_label, 1)
        layout.addWidget(self.winner_box)
        layout.addWidget(self.reveal_button)
        layout.addWidget(self.next_round_button)
        self.setFixedHeight(self.reserved_height())

    def reserved_height(self) -> int:
        """The strip's height whatever it says: MESSAGE_LINES of text, the guess's message as it wraps beside the
        winner box and Reveal (a longer language's takes a fourth line), or those controls if taller."""
        margins = self._row.contentsMargins()
        text = max(MESSAGE_LINES * self.message_label.fontMetrics().lineSpacing(), self._guess_message_height())
        controls = max(self.winner_box.sizeHint().height(), self.reveal_button.sizeHint().height())
        return max(text, controls) + margins.top() + margins.bottom()

    def _guess_message_height(self) -> int:
        """How tall the guess's message is in the room the controls leave it (none before the strip has a width)."""
        margins = self._row.contentsMargins()
        room = self.width() - margins.left() - margins.right() - self.controls_width() - max(0, self._row.spacing())
        if room <= 0:
            return 0
        document = QTextDocument()
        document.setDefaultFont(self.message_label.font())
        document.setDocumentMargin(0)
        document.setHtml(tr(GUESSING_TEXT))
        document.setTextWidth(room)
        return int(document.size().height() + 0.999)

    def _reserve(self) -> None:
        height = self.reserved_height()
        if height != self.height() or self.minimumHeight() != height:
            self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():  # the panel made wider or narrower: a layout step
            self._reserve()

    def controls_width(self) -> int:
        """The width of the winner box and Reveal, shown or not (after Reveal they make way for the message)."""
        spacing = max(0, self._row.spacing())
        return self.winner_box.sizeHint().width() + spacing + self.reveal_button.sizeHint().width()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # presentation's large type: the lines are taller
            self._reserve()

    def set_tokens(self, tokens: list[str]) -> None:
        """The keys the winner box offers."""
        self.winner_box.clear()
        self.winner_box.addItems(tokens)
        self.winner_box.setCurrentIndex(-1)

    def show_step(self, message: str, tooltip: str, guessing: bool, winner: int = -1) -> None:
        """What to do now (its tooltip: the details); the winner box and Reveal only while guessing."""
        self.message_label.setText(message)
        self.message_label.setToolTip(tooltip)
        self._reserve()  # (the same height for every step: it changes only with the language)
        self.winner_box.setVisible(guessing)
        self.reveal_button.setVisible(guessing)
        if guessing:
            self.next_round_button.hide()
        if self.winner_box.currentIndex() != winner:
            self.winner_box.setCurrentIndex(winner)

    def offer_next_round(self, text: str, tooltip: str) -> None:
        """The button to a lesson's next round, named TEXT ("Next Round (2 of 3)"), with the keys on it: Enter
        (or Space) goes on, as Enter revealed."""
        self.next_round_button.setText(text)
        self.next_round_button.setToolTip(tooltip)
        self.next_round_button.show()
        self.next_round_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def withdraw_next_round(self) -> None:
        self.next_round_button.hide()
