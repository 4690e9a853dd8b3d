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

from attn_desktop.model import explain
from attn_desktop.model.attention import AttentionResult, attention, causal_mask
from attn_desktop.model.files.multi_head_file import HeadGrids
from attn_desktop.model.files.safe_write import write_json_atomically
from attn_desktop.model.files.scene_file import (
    SceneData,
    TakenFrom,
    TrainedHead,
    load_scene_file,
    scene_from_dict,
    scene_to_dict,
    trained_head_fits,
)
from attn_desktop.model.files.values import (
    MAX_ABS_COORDINATE,
    MAX_TOKEN_CHARS,
    MAX_TOKENS,
    SceneFileError,
    is_valid_text,
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
        # Views of single heads of a multi-head scene (head_view.py), told after every change.
        self._head_views: list[weakref.ref[Any]] = []
        self.shown_head = 0
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
        # A projection scene's grids, one set per head (one head unless the scene has W_O to mix several);
        # `grids` is the set of the head shown by the panels that show one head.
        self.heads: list[dict[str, np.ndarray]] = []
        self.head_names: list[str] = []
        self.w_o: np.ndarray | None = None
        self.grids: dict[str, np.ndarray] = {}
        self.use_grids = data.use_grids
        self.shown_head = 0
        if data.is_projection:
            self._vectors[Role.EMBEDDING] = np.array(data.embeddings, dtype=np.float64)
            head_grids = data.heads or [HeadGrids(w_q=data.w_q or [], w_k=data.w_k or [], w_v=data.w_v or [])]
            self.heads = [{name: np.array(getattr(head, name), dtype=np.float64) for name in GRID_NAMES}
                          for head in head_grids]
            self.head_names = [head.name for head in head_grids]
            self.grids = self.heads[0]
            if data.w_o is not None:
                self.w_o = np.array(data.w_o, dtype=np.float64)
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
        if self.is_multi_head and self.w_o is not None:
            data.embeddings = self._vectors[Role.EMBEDDING].tolist()
            data.heads = [HeadGrids(w_q=grids["w_q"].tolist(), w_k=grids["w_k"].tolist(), w_v=grids["w_v"].tolist(),
                                    name=head_name)
                          for grids, head_name in zip(self.heads, self.head_names)]
            data.w_o = self.w_o.tolist()
            data.queries, data.keys, data.values = (self._head_vectors[0][role].tolist() for role in ATTENTION_ROLES)
        elif self.is_projection:
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

    @property
    def is_multi_head(self) -> bool:
        """Several heads read the word vectors, and W_O mixes their outputs (file version 4)."""
        return self.w_o is not None

    @property
    def n_heads(self) -> int:
        return max(1, len(self.heads))

    def head_vectors(self, head: int, role: Role) -> np.ndarray:
        """Head HEAD's queries, keys or values (the word vectors for Role.EMBEDDING)."""
        if role is Role.EMBEDDING or not self.is_projection:
            return self._vectors[role]
        return self._head_vectors[head][role]

    def head_result(self, head: int) -> AttentionResult:
        return self._head_results[head] if self.is_projection else self._result

    def head_name(self, head: int) -> str:
        """"Head 1", or "Head 1 · position" when the scene names it."""
        name = self.head_names[head] if head < len(self.head_names) else ""
        return f"Head {head + 1} · {name}" if name else f"Head {head + 1}"

    @property
    def joined_output(self) -> np.ndarray:
        """The heads' outputs side by side, one row per query (n × heads·d_v): what W_O mixes."""
        return np.hstack([self.head_result(head).output for head in range(self.n_heads)])

    @property
    def mixed_output(self) -> np.ndarray:
        """The scene's output: the heads' outputs side by side times W_O (a single head: its output)."""
        return self.joined_output @ self.w_o if self.w_o is not None else self._result.output

    def show_head(self, head: int) -> None:
        """Let the panels that show one head (canvas, scores, matrix, grids) show HEAD."""
        if not 0 <= head < self.n_heads:
            raise IndexError(f"there is no head {head + 1}")
        if head != self.shown_head:
            self.shown_head = head
            self._show_chosen_head()
            self._notify(Change.VECTORS | Change.SETTINGS)

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

    def grid(self, name: str, head: int | None = None) -> np.ndarray:
        """W_Q, W_K or W_V of HEAD (the shown head when None), or W_O ("w_o") of a multi-head scene."""
        if name == "w_o":
            if self.w_o is None:
                raise KeyError("only a scene with several heads has W_O")
            return self.w_o
        return self.heads[self.shown_head if head is None else head][name]

    def set_grid_cell(self, name: str, row: int, column: int, value: float, head: int | None = None) -> None:
        """Change one number of W_Q, W_K or W_V (a projection scene; of HEAD, or of the shown head),
        or of W_O ("w_o")."""
        value = float(value)
        if not np.isfinite(value) or abs(value) > MAX_ABS_COORDINATE:
            raise ValueError(f"grid numbers must be finite and within ±{MAX_ABS_COORDINATE:g}")
        grid = self.grid(name, head)
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
            and len(data.heads or [None]) == self.n_heads and data.is_multi_head == self.is_multi_head
            and all(np.shape(getattr(data, name)) == self._vectors[role].shape
                    for role, name in ((Role.QUERY, "queries"), (Role.KEY, "keys"), (Role.VALUE, "values")))
        )
        if not same_shape:
            self.replace(data)
            return
        previous = self.selected
        chosen = previous if selected is None else selected
        shown_head = self.shown_head
        self._set_data(data)
        # Choosing a query (or a head to show) is not an edit: undo and redo leave it where the user put it.
        self.selected = chosen
        self.shown_head = shown_head
        self._show_chosen_head()
        change = Change.VECTORS | Change.SETTINGS
        self._notify(change | Change.SELECTION if chosen != previous else change)

    def load(self, path: str | os.PathLike[str]) -> None:
        """Open a file into this scene. On any error the scene is left untouched."""
        self.replace(load_scene_file(path))

    # ----- internals ----------------------------------------------------
    def _recompute(self) -> None:
        mask = causal_mask(self.n_queries, self.n_tokens) if self.causal else None
        if not self.is_projection:
            self._result = attention(self._vectors[Role.QUERY], self._vectors[Role.KEY], self._vectors[Role.VALUE],
                                     scale=self.scale, mask=mask)
            return
        x = self._vectors[Role.EMBEDDING]
        self._head_vectors = [
            {role: x @ (grids[name] if self.use_grids else np.eye(grids[name].shape[0]))
             for role, name in zip(ATTENTION_ROLES, GRID_NAMES)}
            for grids in self.heads
        ]
        self._head_results = [
            attention(vectors[Role.QUERY], vectors[Role.KEY], vectors[Role.VALUE], scale=self.scale, mask=mask)
            for vectors in self._head_vectors
        ]
        self._show_chosen_head()

    def _show_chosen_head(self) -> None:
        """The single-head reading (vectors(), result, grids) is the shown head's."""
        if self.is_projection:
            self.shown_head = min(self.shown_head, self.n_heads - 1)
            self.grids = self.heads[self.shown_head]
            self._vectors.update(self._head_vectors[self.shown_head])
            self._result = self._head_results[self.shown_head]

    def attach_head_view(self, view: Any) -> None:
        """VIEW (a HeadView of this scene) is told of every change after this scene's own subscribers,
        and only while it exists and its head does."""
        self._head_views.append(weakref.ref(view))

    def detach_head_view(self, view: Any) -> None:
        self._head_views = [reference for reference in self._head_views if reference() not in (None, view)]

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
        for view_reference in list(self._head_views):
            view = view_reference()
            if view is None or view.head >= self.n_heads or not self.is_multi_head:
                self._head_views.remove(view_reference)  # gone, or its head is: it shows nothing more
            else:
                view.document_changed(change)


def _fresh_direction(index: int) -> np.ndarray:
    """A unit vector for the index-th token, turned by the golden angle from the one before,
    so a new token never lands on an existing one by default."""
    angle = index * 2.399963229728653  # the golden angle, in radians
    return np.array([np.cos(angle), np.sin(angle)])


__all__ = ["ATTENTION_ROLES", "GRID_NAMES", "Change", "Role", "Scene", "SceneFileError"]
