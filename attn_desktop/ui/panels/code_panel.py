"""The code panel: the scene as a NumPy script, live, with Copy and a PyTorch check."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontDatabase, QShowEvent, QTextCursor
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from attn_desktop.language import N_, tr
from attn_desktop.model import Change, HeadReading, Scene
from attn_desktop.model.exports.codegen import numpy_code
from attn_desktop.model.exports.torch_check import check_against_torch
from attn_desktop.ui.scene_link import follow_scene, head_reading

COPY_TEXT, COPIED_TEXT = N_("Copy"), N_("Copied")  # shown as tr(...)
COPIED_MS = 1500  # long enough to notice, short enough that the button is ready again at once


class CodePanel(QWidget):
    def __init__(self, scene: Scene | HeadReading, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.reading = head_reading(scene)  # the scene, and the query its script prints
        self._lines: list[str] = []  # what the editor shows, line by line
        self._appendix = ""  # a script after the scene's: a lesson's own (the √d_k lab at its width)
        self.editor = QPlainTextEdit(self)
        self.editor.setReadOnly(True)
        self.editor.setAccessibleName(tr("Code"))
        self.editor.setUndoRedoEnabled(False)
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)  # wrapped code reads as wrong code
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setAccessibleName(tr("Python script of the scene"))  # a screen reader names the field it reads
        self.copy_button = QPushButton(tr(COPY_TEXT), self)
        self.copy_button.setToolTip(tr("Copy the script to the clipboard; it runs with Python and NumPy alone"))
        self.torch_button = QPushButton(tr("Check against PyTorch"), self)
        self.torch_button.setToolTip(tr("Run torch.nn.functional.scaled_dot_product_attention on these Q, K, V "
                                        "and compare its output with the app's"))
        self.torch_result = QLabel(self)
        self.torch_result.setWordWrap(True)
        self.torch_result.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        # One timer, restarted by every click, so quick clicks cannot leave "Copied" showing.
        self._copied_timer = QTimer(self)
        self._copied_timer.setSingleShot(True)
        self._copied_timer.setInterval(COPIED_MS)
        self._copied_timer.timeout.connect(lambda: self.copy_button.setText(tr(COPY_TEXT)))
        self.copy_button.clicked.connect(self.copy_code)
        self.torch_button.clicked.connect(self.check_torch)
        self._lay_out()
        follow_scene(self, self.reading, self._on_scene_changed)  # its edits, and the query the view chooses
        self.refresh()

    def _lay_out(self) -> None:
        # One above the other: side by side they held the whole left column (this panel's tab group) wider
        # than the lesson needs, and wider still in a longer language.
        buttons = QVBoxLayout()
        for button in (self.copy_button, self.torch_button):
            row = QHBoxLayout()
            row.addWidget(button)
            row.addStretch(1)
            buttons.addLayout(row)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(buttons)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.torch_result)

    _stale = False
    _on_screen = True

    def code(self) -> str:
        """The script as shown, ending in a newline like any source file."""
        if self._stale:
            self._stale = False
            self.refresh()
        return "\n".join(self._lines) + "\n"

    def _on_scene_changed(self, change: Change) -> None:
        if change & Change.NUMBERS and self.torch_result.text():
            self.torch_result.clear()  # a comparison of numbers that have since changed would mislead
        if change & (Change.NUMBERS | Change.SELECTION):
            if self._on_screen and self.isVisible():  # (a tab at the back, as on most drag moves: no Qt call)
                self.refresh()
            else:
                self._stale = True  # behind another tab: catch up when shown, not on every drag move

    def set_on_screen(self, on_screen: bool) -> None:
        """Told by the window when this panel's tab comes to the front or goes behind another."""
        self._on_screen = on_screen
        if on_screen and self._stale:
            self._stale = False
            self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        if self._stale:
            self._stale = False
            self.refresh()
        super().showEvent(event)

    def set_appendix(self, code: str) -> None:
        """Show CODE after the scene's script ("" for none): a lesson's lab, live as its controls move."""
        if code != self._appendix:
            self._appendix = code
            if self.isVisible() and self._on_screen:
                self.refresh()
            else:
                self._stale = True

    def refresh(self) -> None:
        lines = numpy_code(self.reading).splitlines()
        if self._appendix:
            lines += ["", ""] + self._appendix.splitlines()
        if len(lines) != len(self._lines):
            self._replace_all("\n".join(lines))
        else:
            self._replace_changed_lines(lines)
        self._lines = lines

    def _replace_changed_lines(self, lines: list[str]) -> None:
        # A drag changes one or two lines. Rewriting just those keeps the scroll position and the selection,
        # and costs a fraction of re-laying out the whole script on every mouse move.
        document = self.editor.document()
        cursor = QTextCursor(document)
        cursor.beginEditBlock()
        for number, (old, new) in enumerate(zip(self._lines, lines)):
            if old != new:
                cursor.setPosition(document.findBlockByNumber(number).position())
                cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
                cursor.insertText(new)
        cursor.endEditBlock()

    def _replace_all(self, text: str) -> None:
        # Replacing the whole text scrolls to the top; a student reading the last lines stays there.
        vertical, horizontal = self.editor.verticalScrollBar(), self.editor.horizontalScrollBar()
        position = vertical.value(), horizontal.value()
        self.editor.setPlainText(text)
        vertical.setValue(position[0])
        horizontal.setValue(position[1])

    def copy_code(self) -> None:
        QApplication.clipboard().setText(self.code())
        self.copy_button.setText(tr(COPIED_TEXT))
        self._copied_timer.start()

    def check_torch(self) -> None:
        # Importing PyTorch the first time takes seconds: show that the app is busy, not frozen.
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            result = check_against_torch(self.reading.scene)
        finally:
            QApplication.restoreOverrideCursor()
        self.torch_result.setText(result.message)
