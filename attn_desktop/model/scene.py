"""The scene: the document every view shows.

A Scene owns the tokens, the query/key/value vectors and the settings. Every
change goes through one of its methods, which recomputes attention with the
pure model and then tells each subscriber what kind of thing changed. Views
never patch one another; they redraw from the scene.
"""

from __future__ import annotations

import enum
import os
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from . import explain
from .attention import AttentionResult, attention, causal_mask
from .file_values import MAX_ABS_COORDINATE, MAX_TOKEN_CHARS, MAX_TOKENS, SceneFileError, is_valid_text
from .safe_write import write_json_atomically
from .scene_file import (
    SceneData,
    TakenFrom,
    TrainedHead,
    load_scene_file,
    scene_from_dict,
    scene_to_dict,
    trained_head_fits,
)


class Role(str, enum.Enum):
    QUERY = "query"
    KEY = "key"
    VALUE = "value"
    EMBEDDING = "embedding"  # a word vector x, in a projection scene

    @property
    def symbol(self) -> str:
        return "x" if self is Role.EMBEDDING else self.value[0]  # q, k, v, x: the letters the lesson uses


ATTENTION_ROLES = (Role.QUERY, Role.KEY, Role.VALUE)
GRID_NAMES = ("w_q", "w_k", "w_v")


class Change(enum.Flag):
    """What a notification is about, so a view can skip work it does not need."""

    VECTORS = enum.auto()     # a query, key or value moved: numbers changed
    SELECTION = enum.auto()   # another query was chosen
    SETTINGS = enum.auto()    # scaling or masking switched: numbers changed
    STRUCTURE = enum.auto()   # tokens or shapes changed: rebuild rows and items
    NUMBERS = VECTORS | SETTINGS | STRUCTURE
    ALL = VECTORS | SELECTION | SETTINGS | STRUCTURE


Subscriber = Callable[[Change], None]


class Scene:
    def __init__(self, data: SceneData) -> None:
        # A view's method is held weakly: a view that is gone stops being called, and the
        # scene never keeps a closed window alive. A plain function is held as given.
        self._subscribers: list[Callable[[], Subscriber | None]] = []
        self._held_back: Change | None = None  # inside one_notification(): what changed so far
        self._set_data(data)

    # ----- construction -------------------------------------------------
    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Scene:
        return cls(load_scene_file(path))

    @classmethod
    def from_dict(cls, document: dict[str, Any]) -> Scene:
        return cls(scene_from_dict(document))

    def _set_data(self, data: SceneData) -> None:
        self.title = data.title
        self.tokens = list(data.tokens)
        self.query_tokens = list(data.query_tokens)
        self.scalar_values = data.scalar_values
        self._vectors = {
            Role.QUERY: np.array(data.queries, dtype=np.float64),
            Role.KEY: np.array(data.keys, dtype=np.float64),
            Role.VALUE: np.array(data.values, dtype=np.float64),
        }
        self.grids: dict[str, np.ndarray] = {}
        self.use_grids = data.use_grids
        if data.is_projection:
            self._vectors[Role.EMBEDDING] = np.array(data.embeddings, dtype=np.float64)
            self.grids = {name: np.array(getattr(data, name), dtype=np.float64) for name in GRID_NAMES}
        self.scale = bool(data.scale)
        self.causal = bool(data.causal)
        self.selected = int(data.selected)
        # A head kept from training (never changed here; trained_head.py reads it with the scene's edits).
        self.trained_head: TrainedHead | None = data.trained_head
        # The model head the vectors were taken from (only said, never changed here: edits keep it).
        self.taken_from: TakenFrom | None = data.taken_from
        self._recompute()

    def to_data(self) -> SceneData:
        data = SceneData(
            tokens=list(self.tokens),
            queries=self._vectors[Role.QUERY].tolist(),
            keys=self._vectors[Role.KEY].tolist(),
            values=self._vectors[Role.VALUE].tolist(),
            query_tokens=list(self.query_tokens),
            scale=self.scale,
            causal=self.causal,
            selected=self.selected,
            title=self.title,
            scalar_values=self.scalar_values,
            taken_from=self.taken_from,
        )
        if self.is_projection:
            data.embeddings = self._vectors[Role.EMBEDDING].tolist()
            data.w_q, data.w_k, data.w_v = (self.grids[name].tolist() for name in GRID_NAMES)
            data.use_grids = self.use_grids
            data.trained_head = self.trained_head
            if not trained_head_fits(data):  # a word added or removed: no longer the head's sentence
                data.trained_head = None
        return data

    def to_dict(self) -> dict[str, Any]:
        return scene_to_dict(self.to_data())

    def save(self, path: str | os.PathLike[str]) -> None:
        write_json_atomically(path, self.to_dict())

    # ----- reading ------------------------------------------------------
    @property
    def result(self) -> AttentionResult:
        return self._result

    @property
    def is_projection(self) -> bool:
        """True when queries, keys and values are made from word vectors by the grids."""
        return Role.EMBEDDING in self._vectors

    @property
    def roles(self) -> tuple[Role, ...]:
        """The roles this scene has vectors for."""
        return (Role.EMBEDDING, *ATTENTION_ROLES) if self.is_projection else ATTENTION_ROLES

    def is_draggable(self, role: Role) -> bool:
        """In a projection scene only the word vectors move; q, k and v follow from them."""
        return role is Role.EMBEDDING or not self.is_projection

    def effective_grid(self, name: str) -> np.ndarray:
        """The grid in force: the stored one, or the identity with the grids switched off."""
        grid = self.grids[name]
        return grid if self.use_grids else np.eye(grid.shape[0])

    def vectors(self, role: Role) -> np.ndarray:
        """The (rows, width) array for a role. Read it; change it with set_vector."""
        return self._vectors[role]

    def labels(self, role: Role) -> list[str]:
        return self.query_tokens if role is Role.QUERY else self.tokens

    def arrow_name(self, role: Role, index: int) -> str:
        """"k·cat": the name every panel, menu and status line gives this arrow."""
        return explain.arrow_name(role.symbol, self.labels(role)[index])

    @property
    def n_queries(self) -> int:
        return len(self.query_tokens)

    @property
    def n_tokens(self) -> int:
        return len(self.tokens)

    @property
    def key_width(self) -> int:
        return int(self._vectors[Role.KEY].shape[1])

    @property
    def value_width(self) -> int:
        return int(self._vectors[Role.VALUE].shape[1])

    @property
    def selected_token(self) -> str:
        return self.query_tokens[self.selected]

    @property
    def selected_weights(self) -> np.ndarray:
        return np.asarray(self._result.weights[self.selected])

    @property
    def selected_output(self) -> np.ndarray:
        return np.asarray(self._result.output[self.selected])

    # ----- changing -----------------------------------------------------
    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber(change)`` after every change; returns an unsubscribe function.

        Subscribers are called in the order they subscribed. A bound method is held by a weak
        reference: once its object is gone it is dropped.
        """
        reference: Callable[[], Subscriber | None]
        if hasattr(subscriber, "__self__") and hasattr(subscriber, "__func__"):
            reference = weakref.WeakMethod(subscriber)
        else:
            reference = lambda: subscriber
        self._subscribers.append(reference)

        def unsubscribe() -> None:
            if reference in self._subscribers:
                self._subscribers.remove(reference)

        return unsubscribe

    @property
    def subscriber_count(self) -> int:
        return sum(1 for reference in self._subscribers if reference() is not None)

    @contextmanager
    def one_notification(self) -> Iterator[None]:
        """Every change made inside the block reaches the views as one notification, at its end
        (a command that moves an arrow and chooses a query redraws the panels once, not twice)."""
        if self._held_back is not None:  # already inside one: the outer block notifies
            yield
            return
        self._held_back = Change(0)
        try:
            yield
        finally:
            change, self._held_back = self._held_back, None
            if change:
                self._notify(change)

    def set_vector(self, role: Role, index: int, vector: Sequence[float]) -> None:
        """Move one arrow. Raises ValueError for a wrong length or a non-finite number."""
        if not self.is_draggable(role):
            raise ValueError(f"in a projection scene the {role.value}s are made by the grids; move a word vector")
        current = self._vectors[role]
        new = np.asarray(vector, dtype=np.float64)
        if new.shape != current[index].shape:
            raise ValueError(f"a {role.value} has {current.shape[1]} numbers, got {new.size}")
        if not np.all(np.isfinite(new)) or np.any(np.abs(new) > MAX_ABS_COORDINATE):
            raise ValueError(f"coordinates must be finite numbers within ±{MAX_ABS_COORDINATE:g}")
        if np.array_equal(current[index], new):
            return
        current[index] = new
        self._recompute()
        self._notify(Change.VECTORS)

    def set_grid_cell(self, name: str, row: int, column: int, value: float) -> None:
        """Change one number of W_Q, W_K or W_V (a projection scene)."""
        value = float(value)
        if not np.isfinite(value) or abs(value) > MAX_ABS_COORDINATE:
            raise ValueError(f"grid numbers must be finite and within ±{MAX_ABS_COORDINATE:g}")
        grid = self.grids[name]
        if grid[row, column] == value:
            return
        grid[row, column] = value
        self._recompute()
        self._notify(Change.VECTORS)

    def set_use_grids(self, on: bool) -> None:
        """Switch the grids off (q = k = v = x) to see each word match itself, or back on."""
        if bool(on) == self.use_grids:
            return
        if not on and any(grid.shape[0] != grid.shape[1] for grid in self.grids.values()):
            raise ValueError("switching the grids off needs square grids")
        self.use_grids = bool(on)
        self._recompute()
        self._notify(Change.SETTINGS)

    # ----- editing the sentence -----------------------------------------
    def add_token(self, name: str) -> None:
        """A new token at the end, with vectors of its own that point somewhere new."""
        name = self._checked_name(name)
        n = self.n_tokens
        self_attention = self.query_tokens == self.tokens
        direction = _fresh_direction(n)
        for role in self.roles:
            if role is Role.QUERY and not self_attention:
                continue  # cross-attention: the queries are not the tokens
            old = self._vectors[role]
            if role is Role.VALUE and self.scalar_values:
                row = np.array([old[:, 0].mean()])
            else:
                row = np.zeros(old.shape[1])
                row[: min(2, old.shape[1])] = direction[: min(2, old.shape[1])]
            self._vectors[role] = np.vstack([old, row])
        self.tokens = [*self.tokens, name]
        if self_attention:
            self.query_tokens = list(self.tokens)
        self._structure_changed()

    def remove_token(self, index: int) -> None:
        if self.n_tokens == 1:
            raise ValueError("a scene needs at least one token")
        self_attention = self.query_tokens == self.tokens
        for role in self.roles:
            if role is not Role.QUERY or self_attention:
                self._vectors[role] = np.delete(self._vectors[role], index, axis=0)
        del self.tokens[index]
        if self_attention:
            self.query_tokens = list(self.tokens)
            if self.selected > index or self.selected == self.n_queries:
                self.selected -= 1
        self._structure_changed()

    def rename_token(self, index: int, name: str) -> None:
        name = self._checked_name(name, ignore=index)
        self_attention = self.query_tokens == self.tokens
        self.tokens[index] = name
        if self_attention:
            self.query_tokens = list(self.tokens)
        self._structure_changed()

    def move_token(self, index: int, new_index: int) -> None:
        """Reorder the sentence; every vector goes with its token."""
        if index == new_index:
            return
        order = list(range(self.n_tokens))
        order.insert(new_index, order.pop(index))
        self_attention = self.query_tokens == self.tokens
        for role in self.roles:
            if role is not Role.QUERY or self_attention:
                self._vectors[role] = self._vectors[role][order]
        self.tokens = [self.tokens[i] for i in order]
        if self_attention:
            self.query_tokens = list(self.tokens)
            self.selected = order.index(self.selected)  # the chosen query stays chosen where it went
        self._structure_changed()

    def token_rows(self, index: int) -> dict[Role, np.ndarray]:
        """Copies of token `index`'s own vectors (the rows removing it would take away)."""
        self_attention = self.query_tokens == self.tokens
        return {role: self._vectors[role][index].copy() for role in self.roles
                if role is not Role.QUERY or self_attention}

    def insert_token(self, index: int, name: str, rows: Mapping[Role, np.ndarray]) -> None:
        """Put a token back at `index` with the vectors it had (undoing its removal).

        `rows` is what token_rows() gave; the chosen query stays on the same token.
        """
        name = self._checked_name(name)
        self_attention = self.query_tokens == self.tokens
        for role in self.roles:
            if role is not Role.QUERY or self_attention:
                row = np.asarray(rows[role], dtype=np.float64)
                if row.shape != self._vectors[role][0].shape:
                    raise ValueError(f"a {role.value} has {self._vectors[role].shape[1]} numbers, got {row.size}")
                self._vectors[role] = np.insert(self._vectors[role], index, row, axis=0)
        self.tokens.insert(index, name)
        if self_attention:
            self.query_tokens = list(self.tokens)
            if self.selected >= index and self.n_queries > 1:
                self.selected += 1
        self._structure_changed()

    def _checked_name(self, name: str, ignore: int | None = None) -> str:
        name = name.strip()
        if not name:
            raise ValueError("a token needs a name")
        if len(name) > MAX_TOKEN_CHARS:
            raise ValueError(f"token names are limited to {MAX_TOKEN_CHARS} characters")
        if not is_valid_text(name):  # a file could not hold it: the scene would no longer save
            raise ValueError("the name holds a broken character (like half an emoji)")
        if self.n_tokens >= MAX_TOKENS and ignore is None:
            raise ValueError(f"scenes are limited to {MAX_TOKENS} tokens")
        return name

    def _structure_changed(self) -> None:
        self._recompute()
        self._notify(Change.ALL)

    def select_query(self, index: int) -> None:
        if not 0 <= index < self.n_queries:
            raise IndexError(f"there is no query {index}")
        if index != self.selected:
            self.selected = index
            self._notify(Change.SELECTION)

    def set_scale(self, on: bool) -> None:
        if bool(on) != self.scale:
            self.scale = bool(on)
            self._recompute()
            self._notify(Change.SETTINGS)

    def set_causal(self, on: bool) -> None:
        if bool(on) == self.causal:
            return
        if on and self.n_queries != self.n_tokens:
            raise ValueError("a causal mask needs exactly one query per token")
        self.causal = bool(on)
        self._recompute()
        self._notify(Change.SETTINGS)

    def replace(self, data: SceneData) -> None:
        """Take another scene's contents (opening a file); views stay subscribed."""
        self._set_data(data)
        self._notify(Change.ALL)

    def restore(self, data: SceneData, selected: int | None = None) -> None:
        """Go back to an earlier state of this same scene (undo, redo).

        When only numbers and settings differ, they are copied in place and
        the views update as after an edit, keeping their zoom, their layout and
        the chosen query (or choosing `selected`, for an edit that chose it);
        a different set of tokens or shapes is a new structure.
        """
        same_shape = (
            data.tokens == self.tokens and data.query_tokens == self.query_tokens
            and data.is_projection == self.is_projection
            and all(np.shape(getattr(data, name)) == self._vectors[role].shape
                    for role, name in ((Role.QUERY, "queries"), (Role.KEY, "keys"), (Role.VALUE, "values")))
        )
        if not same_shape:
            self.replace(data)
            return
        previous = self.selected
        chosen = previous if selected is None else selected
        self._set_data(data)
        # Choosing a query is not an edit: undo and redo leave the chosen one where the user put it.
        self.selected = chosen
        change = Change.VECTORS | Change.SETTINGS
        self._notify(change | Change.SELECTION if chosen != previous else change)

    def load(self, path: str | os.PathLike[str]) -> None:
        """Open a file into this scene. On any error the scene is left untouched."""
        self.replace(load_scene_file(path))

    # ----- internals ----------------------------------------------------
    def _recompute(self) -> None:
        if self.is_projection:
            x = self._vectors[Role.EMBEDDING]
            for role, name in zip(ATTENTION_ROLES, GRID_NAMES):
                self._vectors[role] = x @ self.effective_grid(name)
        mask = causal_mask(self.n_queries, self.n_tokens) if self.causal else None
        self._result = attention(
            self._vectors[Role.QUERY],
            self._vectors[Role.KEY],
            self._vectors[Role.VALUE],
            scale=self.scale,
            mask=mask,
        )

    def _notify(self, change: Change) -> None:
        if self._held_back is not None:
            self._held_back |= change
            return
        for reference in list(self._subscribers):
            subscriber = reference()
            if subscriber is None:
                self._subscribers.remove(reference)  # its view is gone
            else:
                subscriber(change)


def _fresh_direction(index: int) -> np.ndarray:
    """A unit vector for the index-th token, turned by the golden angle from the one before,
    so a new token never lands on an existing one by default."""
    angle = index * 2.399963229728653  # the golden angle, in radians
    return np.array([np.cos(angle), np.sin(angle)])


__all__ = ["ATTENTION_ROLES", "GRID_NAMES", "Change", "Role", "Scene", "SceneFileError"]
