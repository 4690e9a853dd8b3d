"""Every edit a user makes, as a command that knows how to do and undo itself.

A gesture (a drag released, a cell typed, a token added) builds one command;
the edit history runs it and keeps it for Undo. Each command carries its own
name for the Edit menu ("Move k·cat", "Scaling off"), so nothing has to guess
what changed by comparing two copies of the scene.

Commands are plain data: no Qt here. The Qt side (ui/edit_history.py) wraps
them in QUndoCommands; a script or a test can run them on a bare Scene.

Choosing a query is not an edit, but some edits choose one (dragging a query
arrow chooses it). Such a command keeps the query chosen before and after:
undoing it chooses the earlier one again, unless the user has chosen another
since. The chosen query belongs to the view (view_state.py), not the scene, so a
command runs on both: the scene it edits and the view whose choice it keeps on
the same token when tokens are removed or reordered: the view it is handed,
the window's (the edit history's) or a script's own.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np

from attn_desktop.language import N_, tr
from attn_desktop.model.files.scene_types import SceneData, same_contents
from attn_desktop.model.head_reading import HeadReading
from attn_desktop.model.layers import Role
from attn_desktop.model.scene import Scene
from attn_desktop.model.view_state import ViewState


class Command(Protocol):
    """What the edit history needs of a command."""

    @property
    def text(self) -> str: ...  # its name in the Edit menu: "Move k·cat"

    def do(self, scene: Scene, view: ViewState) -> None: ...  # ValueError (nothing changed): refused

    def undo(self, scene: Scene, view: ViewState) -> None: ...

    @property
    def changes_nothing(self) -> bool: ...  # True: no step is kept (a drag released where it began)

    def merge_key(self) -> Hashable | None: ...  # equal keys in a row may merge into one step

    def merged_with(self, later: Command) -> Command | None: ...


class Editor(Protocol):
    """Where a view sends the commands its gestures make: the edit history, or `RunNow` for a bare scene."""

    def do(self, command: Command) -> None: ...


class RunNow:
    """Runs commands on a scene without keeping them: a panel tested on its own, a script."""

    def __init__(self, scene: Scene, view: ViewState) -> None:
        self.scene, self.view = scene, view

    def do(self, command: Command) -> None:
        command.do(self.scene, self.view)


class _Unmergeable:
    @property
    def changes_nothing(self) -> bool:
        return False

    def merge_key(self) -> Hashable | None:
        return None

    def merged_with(self, later: Command) -> Command | None:
        return None


def _choose(scene: Scene, view: ViewState, expected_now: int, wanted: int) -> None:
    """Choose `wanted` unless the user has chosen another query than `expected_now` meanwhile."""
    if view.chosen_query(scene.n_queries) == expected_now and 0 <= wanted < scene.n_queries:
        view.select_query(wanted)


def _edit_tokens(scene: Scene, view: ViewState, edit: Callable[[], None], query_then: int | None) -> None:
    """Run a token edit with the view's query moved first to QUERY_THEN (None: where it is), so every
    view redrawn by the edit already shows the query on the token it was on. In a cross-attention
    scene the queries are not the tokens: editing the tokens leaves them alone."""
    with view.one_notification():
        if query_then is not None and scene.is_self_attention:
            view.select_query(max(0, query_then))
        edit()


# ----- arrows ---------------------------------------------------------------
@dataclass(frozen=True)
class MoveArrow:
    """One arrow from `before` to `after`: a drag (built on release), a nudge or typed coordinates."""

    role: Role
    index: int
    before: tuple[float, ...]
    after: tuple[float, ...]
    name: str  # "k·cat", fixed when the move was made
    chosen_before: int
    chosen_after: int
    nudge: bool = False  # arrow-key nudges of one arrow in a row merge into one step

    @property
    def text(self) -> str:
        # Translators: an Edit menu step, "Undo Move k·cat": {name} is an arrow's name, k·cat.
        return tr("Move {name}").format(name=self.name)

    def do(self, scene: Scene, view: ViewState) -> None:
        self._move(scene, view, self.after, self.chosen_before, self.chosen_after)

    def undo(self, scene: Scene, view: ViewState) -> None:
        self._move(scene, view, self.before, self.chosen_after, self.chosen_before)

    def _move(self, scene: Scene, view: ViewState, to: tuple[float, ...], chosen_now: int, chosen_then: int) -> None:
        with view.one_notification():
            _choose(scene, view, chosen_now, chosen_then)  # first, so the views redraw the move with it
            scene.set_vector(self.role, self.index, to)

    @property
    def changes_nothing(self) -> bool:
        return self.before == self.after and self.chosen_before == self.chosen_after

    def merge_key(self) -> Hashable | None:
        return ("nudge", self.role, self.index) if self.nudge else None

    def merged_with(self, later: Command) -> Command | None:
        if not isinstance(later, MoveArrow) or later.merge_key() != self.merge_key() or self.merge_key() is None:
            return None
        return replace(self, after=later.after, chosen_after=later.chosen_after)


def move_arrow(shown: HeadReading, role: Role, index: int, before: Sequence[float], after: Sequence[float] | None = None,
               chosen_before: int | None = None, nudge: bool = False) -> MoveArrow:
    """The command for moving arrow (role, index) from `before` to `after`.

    Without `after` the arrow's position now (a drag has already moved it live);
    without `chosen_before` the query chosen now (only a drag of a query arrow chooses one).
    """
    current = shown.vectors(role)[index]
    chosen_now = shown.selected
    return MoveArrow(
        role=role, index=index,
        before=tuple(float(x) for x in before),
        after=tuple(float(x) for x in (current if after is None else after)),
        name=shown.arrow_name(role, index),
        chosen_before=chosen_now if chosen_before is None else chosen_before,
        chosen_after=chosen_now,
        nudge=nudge,
    )


# ----- grids and settings -----------------------------------------------------
@dataclass(frozen=True)
class SetGridCell(_Unmergeable):
    grid: str  # "w_q", "w_k" or "w_v" of a head, or "w_o" of a layer
    row: int
    column: int
    before: float
    after: float
    layer: int = 0
    head: int = 0  # whose W_Q, W_K or W_V

    @property
    def text(self) -> str:
        # Translators: an Edit menu step, "Undo Edit W_Q": {grid} is a grid's name.
        return tr("Edit {grid}").format(grid=self.grid.upper())

    @property
    def changes_nothing(self) -> bool:
        return self.before == self.after

    def do(self, scene: Scene, view: ViewState) -> None:
        scene.set_grid_cell(self.grid, self.row, self.column, self.after, layer=self.layer, head=self.head)

    def undo(self, scene: Scene, view: ViewState) -> None:
        scene.set_grid_cell(self.grid, self.row, self.column, self.before, layer=self.layer, head=self.head)


def set_grid_cell(scene: Scene, grid: str, row: int, column: int, value: float, layer: int = 0,
                  head: int = 0) -> SetGridCell:
    """Type VALUE into one number of a grid: of HEAD of LAYER (W_O: of LAYER)."""
    before = float(scene.grid(grid, layer, head)[row, column])
    return SetGridCell(grid, row, column, before, float(value), layer, head)


SWITCH_NAMES = {  # a setting: its step's name when switched on, and when switched off
    "scale": (N_("Scaling on"), N_("Scaling off")),
    "causal": (N_("Causal mask on"), N_("Causal mask off")),
    "use_grids": (N_("Grids on"), N_("No grids")),
}


@dataclass(frozen=True)
class Switch(_Unmergeable):
    """Scaling, the causal mask or the grids, from `before` to `after`."""

    setting: str  # a key of SWITCH_NAMES
    before: bool
    after: bool

    @property
    def text(self) -> str:
        on_text, off_text = SWITCH_NAMES[self.setting]
        return tr(on_text if self.after else off_text)

    @property
    def changes_nothing(self) -> bool:
        return self.before == self.after

    def do(self, scene: Scene, view: ViewState) -> None:
        self._set(scene, self.after)

    def undo(self, scene: Scene, view: ViewState) -> None:
        self._set(scene, self.before)

    def _set(self, scene: Scene, on: bool) -> None:
        setter = {"scale": scene.set_scale, "causal": scene.set_causal, "use_grids": scene.set_use_grids}[self.setting]
        setter(on)


def switch(scene: Scene | HeadReading, setting: str, on: bool) -> Switch:
    """The command for switching `setting` ("scale", "causal", "use_grids") on or off."""
    if setting not in SWITCH_NAMES:
        raise ValueError(f"there is no setting {setting!r}")
    return Switch(setting, bool(getattr(scene, setting)), bool(on))


# ----- the sentence -------------------------------------------------------------
@dataclass
class AddToken(_Unmergeable):
    """A new token at the end; redo brings back the very vectors it had."""

    name: str
    _rows: dict[Role, np.ndarray] | None = field(default=None, repr=False)

    @property
    def text(self) -> str:
        return tr("Add token \u201c{name}\u201d").format(name=self.name.strip())

    def do(self, scene: Scene, view: ViewState) -> None:
        if self._rows is None:
            scene.add_token(self.name)
            self.name = scene.tokens[-1]
            self._rows = scene.token_rows(scene.n_tokens - 1)
        else:
            scene.insert_token(scene.n_tokens, self.name, self._rows)

    def undo(self, scene: Scene, view: ViewState) -> None:
        scene.remove_token(scene.n_tokens - 1)


@dataclass
class RemoveToken(_Unmergeable):
    index: int
    name: str = ""
    _rows: dict[Role, np.ndarray] | None = field(default=None, repr=False)
    _chosen: int = 0

    @property
    def text(self) -> str:
        return tr("Remove token \u201c{name}\u201d").format(name=self.name)

    def do(self, scene: Scene, view: ViewState) -> None:
        name, rows, chosen = scene.tokens[self.index], scene.token_rows(self.index), view.chosen_query(scene.n_queries)
        # The chosen query stays on its token; the one before takes over when its own token goes.
        then = chosen - 1 if chosen > self.index or chosen == scene.n_queries - 1 else chosen
        _edit_tokens(scene, view, lambda: scene.remove_token(self.index), then)
        self.name, self._rows, self._chosen = name, rows, chosen

    def undo(self, scene: Scene, view: ViewState) -> None:
        assert self._rows is not None, "undo before do"
        rows = self._rows
        _edit_tokens(scene, view, lambda: scene.insert_token(self.index, self.name, rows), self._chosen)


def remove_token(scene: Scene, index: int) -> RemoveToken:
    return RemoveToken(index, scene.tokens[index])


@dataclass(frozen=True)
class RenameToken(_Unmergeable):
    index: int
    old: str
    new: str

    @property
    def text(self) -> str:
        return tr("Rename \u201c{old}\u201d to \u201c{new}\u201d").format(old=self.old, new=self.new.strip())

    @property
    def changes_nothing(self) -> bool:
        return self.new.strip() == self.old

    def do(self, scene: Scene, view: ViewState) -> None:
        scene.rename_token(self.index, self.new)

    def undo(self, scene: Scene, view: ViewState) -> None:
        scene.rename_token(self.index, self.old)


def rename_token(scene: Scene, index: int, name: str) -> RenameToken:
    return RenameToken(index, scene.tokens[index], name)


@dataclass(frozen=True)
class RenameTargetWord(_Unmergeable):
    """Rename a word of a cross-attention scene's target sentence (the source's tokens are RenameToken's)."""

    index: int
    old: str
    new: str

    @property
    def text(self) -> str:
        return tr("Rename target word \u201c{old}\u201d to \u201c{new}\u201d").format(old=self.old, new=self.new.strip())

    @property
    def changes_nothing(self) -> bool:
        return self.new.strip() == self.old

    def do(self, scene: Scene, view: ViewState) -> None:
        scene.rename_target_word(self.index, self.new)

    def undo(self, scene: Scene, view: ViewState) -> None:
        scene.rename_target_word(self.index, self.old)


def rename_target_word(scene: Scene, index: int, name: str) -> RenameTargetWord:
    return RenameTargetWord(index, scene.query_tokens[index], name)


@dataclass(frozen=True)
class MoveToken(_Unmergeable):
    index: int
    new_index: int

    @property
    def text(self) -> str:
        return tr("Reorder tokens")

    @property
    def changes_nothing(self) -> bool:
        return self.index == self.new_index

    def do(self, scene: Scene, view: ViewState) -> None:
        _move_token(scene, view, self.index, self.new_index)

    def undo(self, scene: Scene, view: ViewState) -> None:
        _move_token(scene, view, self.new_index, self.index)


def _move_token(scene: Scene, view: ViewState, index: int, new_index: int) -> None:
    """Reorder the sentence; the chosen query stays chosen where its token went."""
    order = list(range(scene.n_tokens))
    order.insert(new_index, order.pop(index))
    _reorder(scene, view, order)


@dataclass(frozen=True)
class ReorderTokens(_Unmergeable):
    """The whole sentence reordered at once (the Positions lab's Shuffle): token i is the one at ORDER[i]."""

    order: tuple[int, ...]
    message: str = N_("Shuffle the sentence")  # marked with N_(): the Edit menu reads it in the language of the day

    @property
    def text(self) -> str:
        return tr(self.message)

    @property
    def changes_nothing(self) -> bool:
        return list(self.order) == sorted(self.order)

    def do(self, scene: Scene, view: ViewState) -> None:
        _reorder(scene, view, list(self.order))

    def undo(self, scene: Scene, view: ViewState) -> None:
        _reorder(scene, view, np.argsort(self.order).tolist())


def _reorder(scene: Scene, view: ViewState, order: list[int]) -> None:
    """The chosen query stays chosen where its token went."""
    then = order.index(view.chosen_query(scene.n_queries)) if scene.is_self_attention else None
    _edit_tokens(scene, view, lambda: scene.reorder_tokens(order), then)


# ----- many changes as one step ---------------------------------------------------
@dataclass(frozen=True)
class ReplaceContents(_Unmergeable):
    """The whole scene set at once (a lesson's "Show me" opens a scene and moves arrows in it).

    It keeps both states because what it replaces can be anything the student had made.
    """

    before: SceneData
    after: SceneData
    message: str  # marked with N_() ("Show me"): the Edit menu reads it in the language of the day

    @property
    def text(self) -> str:
        return tr(self.message)

    @property
    def only_chooses_a_query(self) -> bool:
        """The same contents: at most another query is chosen, which is not an edit."""
        return same_contents(self.before, self.after)

    @property
    def changes_nothing(self) -> bool:
        return self.only_chooses_a_query and self.before.selected == self.after.selected

    def do(self, scene: Scene, view: ViewState) -> None:
        open_contents(scene, self.after, view, restore=True)

    def undo(self, scene: Scene, view: ViewState) -> None:
        open_contents(scene, self.before, view, restore=True)


def open_contents(scene: Scene, data: SceneData, view: ViewState, restore: bool = False) -> None:
    """Give SCENE the contents DATA (a file opened, a state restored), VIEW choosing the query DATA had chosen.

    RESTORE: an earlier state of the same scene, whose views keep their zoom and layout.
    """
    with view.one_notification():
        view.select_query(min(max(0, data.selected), max(0, len(data.query_tokens) - 1)))
        (scene.restore if restore else scene.replace)(data)
