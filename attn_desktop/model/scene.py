"""The scene: the document every view shows.

A Scene owns the tokens, the query/key/value vectors and the settings. Every
change goes through one of its methods, which recomputes attention with the
pure model and then tells each subscriber what kind of thing changed. Views
never patch one another; they redraw from the scene.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Sequence

import numpy as np

from .attention import AttentionResult, attention, causal_mask
from .scene_file import (
    MAX_ABS_COORDINATE,
    SceneData,
    SceneFileError,
    load_scene_file,
    scene_from_dict,
    scene_to_dict,
    write_json_atomically,
)


class Role(str, enum.Enum):
    QUERY = "query"
    KEY = "key"
    VALUE = "value"

    @property
    def symbol(self) -> str:
        return self.value[0]  # q, k, v: the letters the lesson uses


class Change(enum.Flag):
    """What a notification is about, so a view can skip work it does not need."""

    VECTORS = enum.auto()     # a query, key or value moved: numbers changed
    SELECTION = enum.auto()   # another query was chosen
    SETTINGS = enum.auto()    # scaling or masking switched: numbers changed
    STRUCTURE = enum.auto()   # tokens or shapes changed: rebuild rows and items
    HIGHLIGHT = enum.auto()   # a key is pointed at (transient, never saved)
    NUMBERS = VECTORS | SETTINGS | STRUCTURE
    ALL = VECTORS | SELECTION | SETTINGS | STRUCTURE | HIGHLIGHT


Subscriber = Callable[[Change], None]


class Scene:
    def __init__(self, data: SceneData) -> None:
        self._subscribers: list[Subscriber] = []
        self.highlighted_key: int | None = None
        self._set_data(data)

    # ----- construction -------------------------------------------------
    @classmethod
    def from_file(cls, path: str | os.PathLike) -> Scene:
        return cls(load_scene_file(path))

    @classmethod
    def from_dict(cls, document: dict) -> Scene:
        return cls(scene_from_dict(document))

    def _set_data(self, data: SceneData) -> None:
        self.title = data.title
        self.tokens = list(data.tokens)
        self.query_tokens = list(data.query_tokens)
        self._vectors = {
            Role.QUERY: np.array(data.queries, dtype=np.float64),
            Role.KEY: np.array(data.keys, dtype=np.float64),
            Role.VALUE: np.array(data.values, dtype=np.float64),
        }
        self.scale = bool(data.scale)
        self.causal = bool(data.causal)
        self.selected = int(data.selected)
        self.highlighted_key = None
        self._recompute()

    def to_data(self) -> SceneData:
        return SceneData(
            tokens=list(self.tokens),
            queries=self._vectors[Role.QUERY].tolist(),
            keys=self._vectors[Role.KEY].tolist(),
            values=self._vectors[Role.VALUE].tolist(),
            query_tokens=list(self.query_tokens),
            scale=self.scale,
            causal=self.causal,
            selected=self.selected,
            title=self.title,
        )

    def to_dict(self) -> dict:
        return scene_to_dict(self.to_data())

    def save(self, path: str | os.PathLike) -> None:
        write_json_atomically(path, self.to_dict())

    # ----- reading ------------------------------------------------------
    @property
    def result(self) -> AttentionResult:
        return self._result

    def vectors(self, role: Role) -> np.ndarray:
        """The (rows, width) array for a role. Read it; change it with set_vector."""
        return self._vectors[role]

    def labels(self, role: Role) -> list[str]:
        return self.query_tokens if role is Role.QUERY else self.tokens

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
        return self._result.weights[self.selected]

    @property
    def selected_output(self) -> np.ndarray:
        return self._result.output[self.selected]

    # ----- changing -----------------------------------------------------
    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber(change)`` after every change; returns an unsubscribe function."""
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber)

    def set_vector(self, role: Role, index: int, vector: Sequence[float]) -> None:
        """Move one arrow. Raises ValueError for a wrong length or a non-finite number."""
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

    def highlight_key(self, index: int | None) -> None:
        if index != self.highlighted_key:
            self.highlighted_key = index
            self._notify(Change.HIGHLIGHT)

    def replace(self, data: SceneData) -> None:
        """Take another scene's contents (opening a file); views stay subscribed."""
        self._set_data(data)
        self._notify(Change.ALL)

    def load(self, path: str | os.PathLike) -> None:
        """Open a file into this scene. On any error the scene is left untouched."""
        self.replace(load_scene_file(path))

    # ----- internals ----------------------------------------------------
    def _recompute(self) -> None:
        mask = causal_mask(self.n_queries, self.n_tokens) if self.causal else None
        self._result = attention(
            self._vectors[Role.QUERY],
            self._vectors[Role.KEY],
            self._vectors[Role.VALUE],
            scale=self.scale,
            mask=mask,
        )

    def _notify(self, change: Change) -> None:
        for subscriber in list(self._subscribers):
            subscriber(change)


__all__ = ["Change", "Role", "Scene", "SceneFileError"]
