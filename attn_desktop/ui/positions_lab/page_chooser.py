"""The Positions lab's chooser of pages: four buttons, two by two, one of them pressed.

A tab bar would need its four titles in one row: wider than the lab's narrow column in presentation's large
type, where it would hide the last behind scroll arrows. Two rows of two always show all four.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QButtonGroup, QGridLayout, QPushButton, QWidget

from attn_desktop.language import tr

COLUMNS = 2


class PageChooser(QWidget):
    chosen = Signal(int)  # the page's index, when the user presses its button

    def __init__(self, titles: tuple[str, ...], parent: QWidget | None = None) -> None:
        """TITLES in English (marked N_ where they are written): the buttons show them translated."""
        super().__init__(parent)
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.buttons: list[QPushButton] = []
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        for index, title in enumerate(titles):
            button = QPushButton(tr(title))
            button.setCheckable(True)
            self.group.addButton(button, index)
            self.buttons.append(button)
            layout.addWidget(button, index // COLUMNS, index % COLUMNS)
        self.buttons[0].setChecked(True)
        self.group.idClicked.connect(self.chosen)

    @property
    def current(self) -> int:
        return self.group.checkedId()

    def choose(self, index: int) -> None:
        """Press page INDEX's button without a click (the page is shown by whoever calls)."""
        self.buttons[index].setChecked(True)
