"""Undo and redo for every edit of the scene, on a QUndoStack.

Rather than every widget building its own command, this watches the scene:
each edit (a change of numbers or settings) becomes one snapshot command,
named by what changed ("Move k·cat", "Scaling off", "Edit W_Q"). A drag is
held back until it ends, so one drag is one step however many moves it had.
Opening a file or a lesson starts a new history.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QUndoCommand, QUndoStack

from ..model import Change, Role, Scene
from ..model.scene import GRID_NAMES
from ..model.scene_file import SceneData

ROLE_FIELDS = {Role.QUERY: "queries", Role.KEY: "keys", Role.VALUE: "values", Role.EMBEDDING: "embeddings"}


class SnapshotCommand(QUndoCommand):
    def __init__(self, history: EditHistory, before: SceneData, after: SceneData, text: str) -> None:
        super().__init__(text)
        self.history, self.before, self.after = history, before, after
        self._done = True  # the edit has already happened when the command is pushed

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        self.history.restore(self.after)

    def undo(self) -> None:
        self.history.restore(self.before)


class EditHistory:
    def __init__(self, scene: Scene, parent=None) -> None:
        self.scene = scene
        self.stack = QUndoStack(parent)
        self._state = scene.to_data()  # the scene as of the last recorded step
        self._dragging = False
        self._restoring = False
        scene.subscribe(self._on_scene_changed)

    # ----- drags: one step each ----------------------------------------
    def begin_drag(self) -> None:
        self._dragging = True

    def end_drag(self) -> None:
        self._dragging = False
        self._record()

    # ----- undo / redo --------------------------------------------------
    def restore(self, data: SceneData) -> None:
        self._restoring = True
        try:
            self.scene.restore(data)
        finally:
            self._restoring = False
        self._state = self.scene.to_data()

    def reset(self) -> None:
        """A new document: forget the old steps, and call this state saved."""
        self.stack.clear()
        self._state = self.scene.to_data()
        self.stack.setClean()

    # ----- watching -----------------------------------------------------
    def _on_scene_changed(self, change: Change) -> None:
        if self._restoring:
            return
        if change & Change.STRUCTURE:
            self.reset()  # a file or lesson was opened: its own history starts here
        elif change & (Change.VECTORS | Change.SETTINGS) and not self._dragging:
            self._record()

    def _record(self) -> None:
        after = self.scene.to_data()
        text = describe_edit(self._state, after, self.scene)
        if text is None:
            return  # nothing an undo could change (a cancelled drag, say)
        self.stack.push(SnapshotCommand(self, self._state, after, text))
        self._state = after


def describe_edit(before: SceneData, after: SceneData, scene: Scene) -> str | None:
    """Name an edit by what differs, as the Edit menu shows it; None if nothing does."""
    # In a projection scene q, k and v follow the word vectors; only those are moved by hand.
    roles = (Role.EMBEDDING,) if scene.is_projection else (Role.QUERY, Role.KEY, Role.VALUE)
    moved = [
        f"{role.symbol}·{scene.labels(role)[index]}"
        for role in roles
        for index in _changed_rows(getattr(before, ROLE_FIELDS[role]), getattr(after, ROLE_FIELDS[role]))
    ]
    if moved:
        return f"Move {moved[0]}" if len(moved) == 1 else f"Move {len(moved)} arrows"
    if before.scale != after.scale:
        return "Scaling on" if after.scale else "Scaling off"
    if before.causal != after.causal:
        return "Causal mask on" if after.causal else "Causal mask off"
    if before.use_grids != after.use_grids:
        return "Grids on" if after.use_grids else "No grids"
    for name in GRID_NAMES:
        if getattr(before, name) is not None and not np.array_equal(getattr(before, name), getattr(after, name)):
            return f"Edit {name.upper()}"
    return None


def _changed_rows(before, after) -> list[int]:
    if before is None or after is None or np.shape(before) != np.shape(after):
        return []
    return [int(i) for i in np.nonzero(np.any(np.asarray(before) != np.asarray(after), axis=1))[0]]
