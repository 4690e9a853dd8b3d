"""The Training panel's example sentence: a box to type one in, "Pick another example", and the message for a
typed one the task cannot read. The panel parses what is typed (panel_tasks.parse_typed_example) and says
which sentence to show; translate hides the area (its view has sentences of its own)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from attn_desktop.language import tr

ERROR_STYLE = "color: #B00020;"


class ExampleArea(QWidget):
    typed = Signal(str)  # the text in the box, Enter pressed
    pick_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.box = QLineEdit()
        self.box.returnPressed.connect(lambda: self.typed.emit(self.box.text()))
        self.pick_button = QPushButton(tr("Pick another example"))
        self.pick_button.clicked.connect(self.pick_requested)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet(ERROR_STYLE)
        self.message.hide()
        row = QHBoxLayout()
        row.addWidget(QLabel(tr("Example")))
        row.addWidget(self.box, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.pick_button)
        layout.addWidget(self.message)

    def show_sentence(self, text: str) -> None:
        """TEXT in the box, and no message."""
        self.box.setText(text)
        self.message.clear()
        self.message.hide()

    def show_refusal(self, reason: str) -> None:
        """Why the sentence typed is not one of the task's: the box keeps what was typed."""
        self.message.setText(reason)
        self.message.show()
