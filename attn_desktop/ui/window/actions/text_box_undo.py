"""While a text box has the keyboard, the undo and redo keys undo and redo its typing, not the scene.

A QLineEdit claims its platform's own Undo and Redo keys (Ctrl+Z, and Ctrl+Shift+Z on X11)
before any window shortcut sees them. The window's Redo also answers Ctrl+Y, which a line edit
on X11 does not know: without this filter, Ctrl+Y in a half-typed answer would redo a change
of the scene behind it. Installed on the window, it sees the keys the text box let through.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QLineEdit, QPlainTextEdit, QTextEdit


def focused_text_box() -> QLineEdit | QTextEdit | QPlainTextEdit | None:
    """The text box being typed into, if any (read-only text has nothing to undo)."""
    widget = QApplication.focusWidget()
    if isinstance(widget, (QLineEdit, QTextEdit, QPlainTextEdit)) and not widget.isReadOnly():
        return widget
    return None


class TextBoxUndoFirst(QObject):
    """Hands the undo and redo actions' keys to the focused text box; install it on the window."""

    def __init__(self, undo_action: QAction, redo_action: QAction, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._actions = {"undo": undo_action, "redo": redo_action}

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress) or not isinstance(event, QKeyEvent):
            return False
        box = focused_text_box()
        step = self._step_for(event) if box is not None else None
        if step is None:
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # the key goes to the text box as a key press, not to the window's action
            return True
        getattr(box, step)()  # a key press the text box itself did not know, such as Ctrl+Y
        return True

    def _step_for(self, event: QKeyEvent) -> str | None:
        pressed = QKeySequence(event.keyCombination())
        for step, action in self._actions.items():
            if any(pressed.matches(key) == QKeySequence.SequenceMatch.ExactMatch for key in action.shortcuts()):
                return step
        return None
