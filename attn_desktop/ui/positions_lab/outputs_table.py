"""The Order page's outputs: each word's output in the sentence's order and in the other, row by row.

A table, not a label of HTML: a drag changes every number on every move, and new text in a wrapped label lays
the whole page out again (every wrapped text measured), while new text in a table's cells only repaints them.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QSizePolicy, QTableWidget, QTableWidgetItem, QWidget

from attn_desktop.language import N_, tr
from attn_desktop.ui.language_link import follow_language

# Translators: the Order page's table's headers: a word's output in the sentence's order, and in the other order
# (on two lines: a presented column is narrow).
HEADERS = ("", N_("output"), N_("other\norder"))


class OutputsTable(QTableWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(HEADERS), parent)
        self.verticalHeader().hide()
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setShowGrid(False)
        self.setWordWrap(True)  # "(0.57, 0.38)" on two lines in a narrow column, never cut to "(0.57, …"
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._reword()
        follow_language(self, self._reword)

    def _reword(self) -> None:
        self.setHorizontalHeaderLabels([tr(header) if header else "" for header in HEADERS])
        self.setAccessibleName(tr("Each word's output in both orders"))

    def show_rows(self, rows: Sequence[tuple[str, str, str]]) -> None:
        """One row per word: its name, its output, its output in the other order. Cells whose text is the
        same stay as they are; the table's height changes only with the number of words (or the font)."""
        if self.rowCount() != len(rows):
            self.setRowCount(len(rows))
        for row, texts in enumerate(rows):
            for column, text in enumerate(texts):
                item = self.item(row, column)
                if item is None:
                    self.setItem(row, column, QTableWidgetItem(text))
                elif item.text() != text:
                    item.setText(text)
        self._fit_height()

    def row_texts(self) -> list[list[str]]:
        """What each row reads, as a student sees it."""
        return [[item.text() if (item := self.item(row, column)) is not None else ""
                 for column in range(self.columnCount())] for row in range(self.rowCount())]

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()  # a narrower column wraps its numbers onto two lines: taller rows

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        # Only a new font or style changes the rows' height (presentation mode). Other changes come too while
        # the window is being taken apart, when the table's header may already be gone.
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit_height()

    def _fit_height(self) -> None:
        self.resizeRowsToContents()
        height = (self.horizontalHeader().sizeHint().height() + self.verticalHeader().length()
                  + 2 * self.frameWidth())
        if self.height() != height or self.minimumHeight() != height:
            self.setFixedHeight(height)
