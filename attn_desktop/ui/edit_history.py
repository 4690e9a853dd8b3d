"""Undo and redo for every edit of the scene, on a QUndoStack.

Rather than every widget building its own command, this watches the scene:
each edit (a change of numbers or settings) becomes one snapshot command,
named by what changed ("Move k·cat", "Scaling off", "Edit W_Q"). A drag is
held back until it ends, so one drag is one step however many moves it had;
so is a set-up of many edits that the user asked for at once ("Show me").
Opening a file or a lesson starts a new history. Coming back to the saved
state by any road (scaling off, then on again) makes the scene unmodified.
The history keeps the last UNDO_LIMIT steps: each holds two copies of the
scene, and an afternoon of dragging must not grow without bound.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields

import numpy as np
from PySide6.QtGui import QUndoCommand, QUndoStack

from ..model import Change, Role, Scene
from ..model.scene import GRID_NAMES
from ..model.scene_file import SceneData

UNDO_LIMIT = 1000  # steps; older ones are forgotten (the scene itself is not touched)
ROLE_FIELDS = {Role.QUERY: "queries", Role.KEY: "keys", Role.VALUE: "values", Role.EMBEDDING: "embeddings"}


class SnapshotCommand(QUndoCommand):
    """One edit: the scene before and after, and the query chosen before and after it.

    Choosing a query is not an edit, but dragging a query arrow chooses it: undoing that drag
    chooses the earlier query again, unless the user has chosen another one since.
    """

    def __init__(self, history: EditHistory, before: SceneData, after: SceneData, text: str,
                 chosen_before: int, chosen_after: int) -> None:
        super().__init__(text)
        self.history, self.before, self.after = history, before, after
        self.chosen_before, self.chosen_after = chosen_before, chosen_after
        self._done = True  # the edit has already happened when the command is pushed

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        self.history.restore(self.after, self._chosen(self.chosen_before, self.chosen_after))

    def undo(self) -> None:
        self.history.restore(self.before, self._chosen(self.chosen_after, self.chosen_before))

    def _chosen(self, expected_now: int, wanted: int) -> int | None:
        return wanted if self.history.scene.selected == expected_now else None


class EditHistory:
    def __init__(self, scene: Scene, parent=None) -> None:
        self.scene = scene
        self.stack = QUndoStack(parent)
        self.stack.setUndoLimit(UNDO_LIMIT)  # Qt takes a limit only while the stack is empty
        self._state = scene.to_data()  # the scene as of the last recorded step
        self._saved_state: SceneData | None = self._state  # the scene as saved (None: no saved state to return to)
        self._dragging = False
        self._chosen_at_drag_start = scene.selected
        self._restoring = False
        scene.subscribe(self._on_scene_changed)
        # Connected before any window's slots: the title and the autosave then see the stack clean already.
        self.stack.indexChanged.connect(self._mark_clean_if_saved)
        self.stack.cleanChanged.connect(self._on_clean_changed)

    # ----- drags: one step each ----------------------------------------
    def begin_drag(self) -> None:
        self._dragging = True
        self._chosen_at_drag_start = self.scene.selected  # the drag may choose its query arrow

    def end_drag(self) -> None:
        self._dragging = False
        self._record(chosen_before=self._chosen_at_drag_start)

    @contextmanager
    def one_step(self, text: str) -> Iterator[None]:
        """Every edit made inside this block is one step named `text` (e.g. "Show me")."""
        self.begin_drag()
        try:
            yield
        finally:
            self._dragging = False
            self._record(chosen_before=self._chosen_at_drag_start, text=text)

    # ----- undo / redo --------------------------------------------------
    def restore(self, data: SceneData, selected: int | None = None) -> None:
        self._restoring = True
        try:
            self.scene.restore(data, selected)
        finally:
            self._restoring = False
        self._state = self.scene.to_data()

    def reset(self) -> None:
        """A new document: forget the old steps, and call this state saved."""
        self.stack.clear()
        self._state = self.scene.to_data()
        self._saved_state = self._state
        self.stack.setClean()

    # ----- saved or not --------------------------------------------------
    def _on_clean_changed(self, clean: bool) -> None:
        if clean:
            self._saved_state = self.scene.to_data()  # saved just now (or back at the saved step)
        elif self.stack.cleanIndex() < 0:
            self._saved_state = None  # e.g. restored work: unsaved whatever it looks like

    def _mark_clean_if_saved(self, index: int) -> None:
        if not self.stack.isClean() and self._saved_state is not None and same_scene(self.scene.to_data(), self._saved_state):
            self.stack.setClean()

    # ----- watching -----------------------------------------------------
    def _on_scene_changed(self, change: Change) -> None:
        if self._restoring:
            return
        # Opening a file or a lesson also changes the structure; the window
        # then calls reset(), so only sentence edits stay in the history.
        if change & (Change.STRUCTURE | Change.VECTORS | Change.SETTINGS) and not self._dragging:
            self._record()

    def _record(self, chosen_before: int | None = None, text: str | None = None) -> None:
        after = self.scene.to_data()
        described = describe_edit(self._state, after, self.scene)
        if described is None and same_scene(self._state, after):
            return  # nothing an undo could change (a cancelled drag, say)
        text = text or described or "Edit scene"
        chosen_after = self.scene.selected
        chosen_before = chosen_after if chosen_before is None else chosen_before
        self.stack.push(SnapshotCommand(self, self._state, after, text, chosen_before, chosen_after))
        self._state = after


def same_scene(a: SceneData, b: SceneData) -> bool:
    """Every field equal, the numbers exactly (an undo restores them exactly).

    The chosen query does not count: choosing one is not an edit.
    """
    for field in fields(SceneData):
        if field.name == "selected":
            continue
        x, y = getattr(a, field.name), getattr(b, field.name)
        if x is None or y is None or isinstance(x, (str, bool, int)):
            if x is not y and x != y:
                return False
        elif np.shape(x) != np.shape(y) or not np.array_equal(x, y):
            return False
    return True


def describe_edit(before: SceneData, after: SceneData, scene: Scene) -> str | None:
    """Name an edit by what differs, as the Edit menu shows it; None if nothing does."""
    if before.tokens != after.tokens:
        return describe_sentence_edit(before.tokens, after.tokens)
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


def describe_sentence_edit(before: list[str], after: list[str]) -> str:
    if len(after) > len(before):
        return f"Add token \u201c{after[-1]}\u201d"
    if len(after) < len(before):
        gone = next((name for i, name in enumerate(before) if i >= len(after) or after[i] != name), before[-1])
        return f"Remove token \u201c{gone}\u201d"
    if sorted(before) == sorted(after):
        return "Reorder tokens"
    old, new = next((b, a) for b, a in zip(before, after) if b != a)
    return f"Rename \u201c{old}\u201d to \u201c{new}\u201d"


def _changed_rows(before, after) -> list[int]:
    if before is None or after is None or np.shape(before) != np.shape(after):
        return []
    return [int(i) for i in np.nonzero(np.any(np.asarray(before) != np.asarray(after), axis=1))[0]]
