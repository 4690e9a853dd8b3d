"""Undo and redo: the commands users' gestures make, kept on a QUndoStack.

Every edit is a command from model/commands.py (move an arrow, type a grid
number, add a token, switch scaling, a lesson's "Show me"...). `do()` runs it
on the scene and pushes it here; the command carries its own name for the
Edit menu. A drag moves its arrow live and pushes one command on release, so
one drag is one step however many moves it had; consecutive arrow-key nudges
of one arrow merge into one step. Opening a file or a lesson starts a new
history. Coming back to the saved state by any road (scaling off, then on
again) makes the scene unmodified. The stack keeps the last UNDO_LIMIT steps,
so an afternoon of dragging does not grow without bound.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QUndoCommand, QUndoStack
from shiboken6 import isValid

from attn_desktop.model import Scene, SceneData, ViewState
from attn_desktop.model.commands import Command
from attn_desktop.model.files.scene_types import same_contents

UNDO_LIMIT = 1000  # steps; older ones are forgotten (the scene itself is not touched)
MERGEABLE = 1  # QUndoCommand.id() of a step that may merge with the next (its command decides whether)


class UndoStep(QUndoCommand):
    """A command on Qt's stack: undo and redo run it on the scene."""

    def __init__(self, command: Command, scene: Scene, view: ViewState) -> None:
        super().__init__(command.text)
        self.command, self.scene, self.view = command, scene, view
        # QUndoStack.push() calls redo() at once; the history has already run the command
        # (so that a refused command raises to its caller and is never pushed).
        self._skip_first_redo = True

    def redo(self) -> None:
        if self._skip_first_redo:
            self._skip_first_redo = False
            return
        self.command.do(self.scene, self.view)

    def undo(self) -> None:
        self.command.undo(self.scene, self.view)

    def id(self) -> int:
        return MERGEABLE if self.command.merge_key() is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, UndoStep):
            return False
        merged = self.command.merged_with(other.command)
        if merged is None:
            return False
        self.command = merged
        self.setText(merged.text)
        if merged.changes_nothing:
            self.setObsolete(True)  # nudged back where it started: no step at all
        return True


class EditHistory:
    def __init__(self, scene: Scene, view: ViewState, parent: QObject | None = None) -> None:
        """The history of SCENE's edits; VIEW (the window's) is whose chosen query the edits keep on its token."""
        self.scene, self.view = scene, view
        self.stack = QUndoStack(parent)
        self.stack.setUndoLimit(UNDO_LIMIT)  # Qt takes a limit only while the stack is empty
        self._saved_state: SceneData | None = scene.to_data()  # the scene as saved (None: no saved state to return to)
        # Connected before any window's slots: the title and the autosave then see the stack clean already.
        self.stack.indexChanged.connect(self._mark_clean_if_saved)
        self.stack.cleanChanged.connect(self._on_clean_changed)

    def do(self, command: Command) -> None:
        """Run a command and keep it for Undo. A refused command raises ValueError; nothing changes."""
        if command.changes_nothing:
            return  # a drag released where it began, say: nothing an undo could change
        command.do(self.scene, self.view)
        self.stack.push(UndoStep(command, self.scene, self.view))

    def reset(self) -> None:
        """A new document: forget the old steps, and call this state saved."""
        self.stack.clear()
        self._saved_state = self.scene.to_data()
        self.stack.setClean()

    # ----- saved or not --------------------------------------------------
    def _on_clean_changed(self, clean: bool) -> None:
        if not isValid(self.stack):
            return  # Qt's stack clears itself as its window is destroyed: nothing to record
        if clean:
            self._saved_state = self.scene.to_data()  # saved just now (or back at the saved step)
        elif self.stack.cleanIndex() < 0:
            self._saved_state = None  # e.g. restored work: unsaved whatever it looks like

    def _mark_clean_if_saved(self, index: int) -> None:
        if not isValid(self.stack):
            return  # see _on_clean_changed
        if not self.stack.isClean() and self._saved_state is not None and same_contents(self.scene.to_data(), self._saved_state):
            self.stack.setClean()
