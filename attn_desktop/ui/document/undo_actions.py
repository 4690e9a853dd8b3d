"""The Edit menu's Undo and Redo, each named after the step it would take ("Undo Move k·cat").

Qt's own (QUndoStack.createUndoAction) keeps the prefix it was made with and the step's name as it was pushed,
so after a switch of language the menu read "&Deshacer Move k·cat". These read both when they are shown: the
prefix through tr() and the step's name from its command, whose text is translated whenever it is read.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QUndoStack
from shiboken6 import isValid

from attn_desktop.language import tr
from attn_desktop.ui.document.edit_history import UndoStep
from attn_desktop.ui.language_link import follow_language


def undo_action(stack: QUndoStack, parent: QObject, prefix: str) -> QAction:
    """Undo the last step: PREFIX (marked with N_(), "&Undo") and the step's name in the current language."""
    action = _step_action(stack, parent, prefix, lambda: stack.index() - 1)
    action.triggered.connect(stack.undo)
    stack.undoTextChanged.connect(lambda _text: _word(action, stack, prefix, lambda: stack.index() - 1))  # merged: renamed
    stack.canUndoChanged.connect(action.setEnabled)
    action.setEnabled(stack.canUndo())
    return action


def redo_action(stack: QUndoStack, parent: QObject, prefix: str) -> QAction:
    """Redo the step undone last: PREFIX (marked with N_(), "&Redo") and the step's name in the current language."""
    action = _step_action(stack, parent, prefix, stack.index)
    action.triggered.connect(stack.redo)
    stack.redoTextChanged.connect(lambda _text: _word(action, stack, prefix, stack.index))
    stack.canRedoChanged.connect(action.setEnabled)
    action.setEnabled(stack.canRedo())
    return action


def _step_action(stack: QUndoStack, parent: QObject, prefix: str, step_index: Callable[[], int]) -> QAction:
    """An action worded again at every step taken, undone or redone, and at every switch of language."""
    action = QAction(parent)
    stack.indexChanged.connect(lambda _index: _word(action, stack, prefix, step_index))
    follow_language(action, lambda: _word(action, stack, prefix, step_index))
    _word(action, stack, prefix, step_index)
    return action


def _word(action: QAction, stack: QUndoStack, prefix: str, step_index: Callable[[], int]) -> None:
    if not (isValid(stack) and isValid(action)):
        return  # Qt's stack clears itself as its window is destroyed: nothing left to name
    index = step_index()
    step = stack.command(index) if 0 <= index < stack.count() else None
    name = step.command.text if isinstance(step, UndoStep) else ""
    action.setText(f"{tr(prefix)} {name}" if name else tr(prefix))  # as Qt's: "&Undo Move k·cat", or "&Undo"
