"""A short list of heads (the Find heads panel's lists): choosing one, by a click or Enter, asks for it."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QSizePolicy, QWidget

from attn_desktop.language import number, tr

LIST_ROWS_IN_VIEW = 5  # a list taller than this scrolls
HEAD_ROLE = Qt.ItemDataRole.UserRole


def head_item_text(layer: int, head: int, share: float) -> str:
    return tr("Layer {layer}, head {head} \u2014 {share} %").format(layer=layer, head=head, share=number(100 * share, 1))


class HeadList(QListWidget):
    """A short list of heads, as tall as its rows (up to LIST_ROWS_IN_VIEW, then it scrolls)."""

    head_chosen = Signal(int, int)

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(name)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.itemClicked.connect(self._choose)
        self.itemActivated.connect(self._choose)  # Enter (and a double click)

    def show_heads(self, heads: list[tuple[int, int, str]], empty_text: str) -> None:
        self.clear()
        for layer, head, text in heads:
            item = QListWidgetItem(text)
            item.setData(HEAD_ROLE, (layer, head))
            self.addItem(item)
        if not heads:
            item = QListWidgetItem(empty_text)
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.addItem(item)
        self._fit_height()

    def heads(self) -> list[tuple[int, int]]:
        return [self.item(row).data(HEAD_ROLE) for row in range(self.count()) if self.item(row).data(HEAD_ROLE)]

    def _fit_height(self) -> None:
        rows = min(max(self.count(), 1), LIST_ROWS_IN_VIEW)
        row_height = self.sizeHintForRow(0) if self.count() else self.fontMetrics().height() + 4
        self.setFixedHeight(rows * row_height + 2 * self.frameWidth() + 2)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit_height()

    def _choose(self, item: QListWidgetItem) -> None:
        head = item.data(HEAD_ROLE)
        if head:
            self.head_chosen.emit(*head)
