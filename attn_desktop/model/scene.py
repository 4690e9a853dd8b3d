"""The scene: the document every view shows.

A scene is tokens, the vectors a user drags (its inputs) and a stack of layers of heads. A
scene of queries, keys and values given directly is one layer of one head without grids; a
projection scene's heads make their queries, keys and values from the word vectors x with
their grids; a layer's W_O mixes its heads' outputs, and a later layer reads the residual
stream, x plus the layers below. A cross-attention scene adds a target sentence: its word
vectors (`target_vectors`) make the queries, the tokens' the keys and values (see layers.py).
One shape for all: whoever reads a scene loops over its layers and heads, and only the file
reader knows which kind it was.

Every change goes through one of its methods, which recomputes attention with the pure model
and then tells each subscriber what kind of thing changed. Views never patch one another;
they redraw from the scene. What a user is looking at (which head, which plane) is not here:
see view_state.py. Reading and writing files is not here either: see scene_files.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model import explain
from attn_desktop.model.attention import causal_mask
from attn_desktop.model.files.scene_types import (
    DirectScene,
    HeadGrids,
    LayerGrids,
    ProjectedScene,
    SceneData,
    TakenFrom,
    TargetSentence,
    TrainedHead,
)
from attn_desktop.model.files.values import (
    MAX_ABS_COORDINATE,
    MAX_TOKEN_CHARS,
    MAX_TOKENS,
    SceneFileError,
    is_valid_text,
)
from attn_desktop.model.layers import ATTENTION_ROLES, GRID_NAMES, Change, Head, Layer, Role, compute_layers
from attn_desktop.model.subscribers import Subscriber, Subscribers


class Scene:
    def __init__(self, data: SceneData) -> None:
        self._subscribers = Subscribers()
        self._set_data(data)

    # ----- construction -------------------------------------------------
    def _set_data(self, data: SceneData) -> None:
        self.title = data.title
        self.tokens = list(data.tokens)
        self.query_tokens = list(data.query_tokens)
        self.scale = bool(data.scale)
        self.causal = bool(data.causal)
        # The model head the vectors were taken from, and a head kept from training: only said, never
        # changed here (edits keep them; trained_head.py reads the trained head with the scene's edits).
        self.taken_from: TakenFrom | None = None
        self.trained_head: TrainedHead | None = None
        self.scalar_values = False
        self.use_grids = True
        # Cross-attention: the target's word vectors, one row per query; None when the tokens make the queries.
        self.target_vectors: np.ndarray | None = None
        if isinstance(data, DirectScene):
            self.inputs = {role: np.array(rows, dtype=np.float64)
                           for role, rows in zip(ATTENTION_ROLES, (data.queries, data.keys, data.values))}
            self.layers = [Layer(heads=[Head(name="", grids=None)], w_o=None)]
            self.scalar_values = data.scalar_values
            self.taken_from = data.taken_from
        else:
            self.inputs = {Role.EMBEDDING: np.array(data.embeddings, dtype=np.float64)}
            self.layers = [Layer(heads=[Head(name=head.name, grids={name: np.array(getattr(head, name), dtype=np.float64)
                                                                    for name in GRID_NAMES})
                                        for head in layer.heads],
                                 w_o=None if layer.w_o is None else np.array(layer.w_o, dtype=np.float64))
                           for layer in data.layers]
            self.use_grids = data.use_grids
            self.trained_head = data.trained_head
            if data.target is not None:
                if data.causal:
                    raise ValueError("a cross-attention scene has no causal mask")
                self.target_vectors = np.array(data.target.embeddings, dtype=np.float64)
        self._recompute()

    def to_data(self, selected: int = 0) -> SceneData:
        """The scene's contents as plain lists, of the kind it was read as; a file keeps SELECTED, the
        query the user had chosen (the scene does not know it: see view_state.py)."""
        if Role.EMBEDDING not in self.inputs:
            queries, keys, values = (self.inputs[role].tolist() for role in ATTENTION_ROLES)
            return DirectScene(tokens=list(self.tokens), scale=self.scale, causal=self.causal, selected=selected,
                               title=self.title, queries=queries, keys=keys, values=values,
                               query_tokens=list(self.query_tokens), scalar_values=self.scalar_values,
                               taken_from=self.taken_from)
        layers = [LayerGrids(heads=[_head_grids(head) for head in layer.heads],
                             w_o=None if layer.w_o is None else layer.w_o.tolist())
                  for layer in self.layers]
        target = None if self.target_vectors is None else TargetSentence(
            tokens=list(self.query_tokens), embeddings=self.target_vectors.tolist())
        return ProjectedScene(tokens=list(self.tokens), scale=self.scale, causal=self.causal, selected=selected,
                              title=self.title, embeddings=self.inputs[Role.EMBEDDING].tolist(), layers=layers,
                              use_grids=self.use_grids, trained_head=self.trained_head, target=target)

    # ----- reading ------------------------------------------------------
    @property
    def input_roles(self) -> tuple[Role, ...]:
        """The roles whose vectors the scene holds and a user drags: x, or q, k and v given directly."""
        return tuple(self.inputs)

    @property
    def roles(self) -> tuple[Role, ...]:
        """Every role a head of this scene draws: its inputs (x, and a target's y), then the queries, keys and
        values they make."""
        target = (Role.TARGET,) if self.target_vectors is not None else ()
        return tuple(dict.fromkeys((*self.input_roles, *target, *ATTENTION_ROLES)))

    def is_draggable(self, role: Role) -> bool:
        """Only the scene's own vectors move (x, a target's y, or q, k and v given); what they make follows."""
        return role in self.inputs or (role is Role.TARGET and self.target_vectors is not None)

    def vectors(self, role: Role) -> np.ndarray:
        """The (rows, width) array of one of the scene's own vectors. Read it; change it with set_vector."""
        if role is Role.TARGET and self.target_vectors is not None:
            return self.target_vectors
        return self.inputs[role]

    def head(self, layer: int, head: int) -> Head:
        return self.layers[layer].heads[head]

    def all_heads(self) -> Iterator[tuple[int, int, Head]]:
        """(layer, head, the head) for every head, layer by layer."""
        for layer_index, layer in enumerate(self.layers):
            for head_index, head in enumerate(layer.heads):
                yield layer_index, head_index, head

    @property
    def n_heads(self) -> int:
        """How many heads the scene has in all."""
        return sum(len(layer.heads) for layer in self.layers)

    @property
    def is_one_head(self) -> bool:
        """One layer of one head: nothing to mix, nothing to choose between."""
        return self.n_heads == 1

    def head_name(self, layer: int, head: int) -> str:
        """"Head 1", "Head 1 · position", or with several layers "Layer 2 · head 1"."""
        name = self.layers[layer].heads[head].name
        if len(self.layers) > 1:
            base = tr("Layer {layer} · head {head}").format(layer=layer + 1, head=head + 1)
        else:
            base = tr("Head {head}").format(head=head + 1)
        if not name or name == f"L{layer + 1}H{head + 1}":  # (a trained model's "L1H1" says what base says)
            return base
        # Translators: a head's number, then the name a scene gives it ("Head 1 · position").
        return tr("{head} · {name}").format(head=base, name=name)

    @property
    def output(self) -> np.ndarray:
        """The scene's output: the last layer's, one row per query (a single head: its output)."""
        return self.layers[-1].output

    def labels(self, role: Role) -> list[str]:
        """The words naming ROLE's rows: the queries and a target's word vectors are the target's."""
        return self.query_tokens if role in (Role.QUERY, Role.TARGET) else self.tokens

    def arrow_name(self, role: Role, index: int) -> str:
        """"k·cat": the name every panel, menu and status line gives this arrow."""
        return explain.arrow_name(role.symbol, self.labels(role)[index])

    @property
    def n_queries(self) -> int:
        return len(self.query_tokens)

    @property
    def n_tokens(self) -> int:
        return len(self.tokens)

    # ----- changing -----------------------------------------------------
    def subscribe(self, subscriber: Subscriber, follows: Change = Change.ALL) -> Callable[[], None]:
        """Call ``subscriber(change)`` after every change of a kind it FOLLOWS; returns an unsubscribe function.

        Subscribers are called in the order they subscribed. A bound method is held by a weak
        reference: once its object is gone it is dropped.
        """
        return self._subscribers.add(subscriber, follows)

    @property
    def subscriber_count(self) -> int:
        return self._subscribers.count

    def one_notification(self) -> AbstractContextManager[None]:
        """Every change made inside the block reaches the views as one notification, at its end."""
        return self._subscribers.one_notification()

    def set_vector(self, role: Role, index: int, vector: Sequence[float]) -> None:
        """Move one arrow. Raises ValueError for a wrong length or a non-finite number."""
        if not self.is_draggable(role):
            raise ValueError(f"in a projection scene the {role.value}s are made by the grids; move a word vector")
        if role is Role.TARGET:
            self.set_target_vector(index, vector)
            return
        self._move_row(self.inputs[role], index, vector, role.value)

    def set_target_vector(self, index: int, vector: Sequence[float]) -> None:
        """Move the word vector of target word `index` (cross-attention): its query follows."""
        if self.target_vectors is None:
            raise ValueError("only a cross-attention scene of word vectors has a target sentence")
        self._move_row(self.target_vectors, index, vector, "target word vector")

    def _move_row(self, current: np.ndarray, index: int, vector: Sequence[float], what: str) -> None:
        """Put VECTOR in row INDEX of CURRENT (one of the scene's own arrays) and recompute, refusing a wrong
        length or a number no file could hold."""
        new = np.asarray(vector, dtype=np.float64)
        if new.shape != current[index].shape:
            raise ValueError(f"a {what} has {current.shape[1]} numbers, got {new.size}")
        # As plain numbers: a drag moves one arrow of a few numbers per mouse move, and NumPy's checks cost
        # several times more than the arithmetic on so few.
        numbers = new.tolist()
        if not all(math.isfinite(number) and abs(number) <= MAX_ABS_COORDINATE for number in numbers):
            raise ValueError(f"coordinates must be finite numbers within ±{MAX_ABS_COORDINATE:g}")
        if current[index].tolist() == numbers:
            return
        current[index] = new
        self._recompute()
        self._notify(Change.VECTORS)

    def grid(self, name: str, layer: int = 0, head: int = 0) -> np.ndarray:
        """W_Q, W_K or W_V of a head, or W_O ("w_o") of a layer that mixes several heads."""
        if name == "w_o":
            w_o = self.layers[layer].w_o
            if w_o is None:
                raise KeyError("only a layer with W_O mixes its heads")
            return w_o
        grids = self.layers[layer].heads[head].grids
        if grids is None:
            raise KeyError("a scene of queries, keys and values given directly has no grids")
        return grids[name]

    def set_grid_cell(self, name: str, row: int, column: int, value: float, layer: int = 0, head: int = 0) -> None:
        """Change one number of a head's W_Q, W_K or W_V, or of a layer's W_O ("w_o")."""
        value = float(value)
        if not np.isfinite(value) or abs(value) > MAX_ABS_COORDINATE:
            raise ValueError(f"grid numbers must be finite and within ±{MAX_ABS_COORDINATE:g}")
        grid = self.grid(name, layer, head)
        if grid[row, column] == value:
            return
        grid[row, column] = value
        self._recompute()
        self._notify(Change.VECTORS)

    def set_use_grids(self, on: bool) -> None:
        """Switch the grids off (q = k = v = x) to see each word match itself, or back on."""
        if bool(on) == self.use_grids:
            return
        if not on:
            grids = self.layers[0].heads[0].grids
            if not self.is_one_head or grids is None or any(grid.shape[0] != grid.shape[1] for grid in grids.values()):
                raise ValueError("switching the grids off needs one head with square grids")
        self.use_grids = bool(on)
        self._recompute()
        self._notify(Change.SETTINGS)

    # ----- editing the sentence -----------------------------------------
    @property
    def is_self_attention(self) -> bool:
        """The queries are the tokens (not a cross-attention scene): editing a token edits its query.

        A target sentence makes it cross-attention even when its words are the source's."""
        return self.target_vectors is None and self.query_tokens == self.tokens

    @property
    def is_cross_attention(self) -> bool:
        """The queries come from other words than the keys: a target sentence, or queries named apart."""
        return not self.is_self_attention

    def own_rows(self) -> tuple[Role, ...]:
        """The inputs with one row per token (not the queries of a cross-attention scene)."""
        return tuple(role for role in self.inputs if role is not Role.QUERY or self.is_self_attention)

    def add_token(self, name: str) -> None:
        """A new token at the end, with vectors of its own that point somewhere new."""
        name = self._checked_name(name)
        direction = _fresh_direction(self.n_tokens)
        for role in self.own_rows():
            old = self.inputs[role]
            if role is Role.VALUE and self.scalar_values:
                row = np.array([old[:, 0].mean()])
            else:
                row = np.zeros(old.shape[1])
                row[: min(2, old.shape[1])] = direction[: min(2, old.shape[1])]
            self.inputs[role] = np.vstack([old, row])
        self._set_tokens([*self.tokens, name])
        self._structure_changed()

    def remove_token(self, index: int) -> None:
        if self.n_tokens == 1:
            raise ValueError("a scene needs at least one token")
        for role in self.own_rows():
            self.inputs[role] = np.delete(self.inputs[role], index, axis=0)
        self._set_tokens([token for i, token in enumerate(self.tokens) if i != index])
        self._structure_changed()

    def rename_token(self, index: int, name: str) -> None:
        name = self._checked_name(name, ignore=index)
        tokens = list(self.tokens)
        tokens[index] = name
        self._set_tokens(tokens)
        self._structure_changed()

    def rename_target_word(self, index: int, name: str) -> None:
        """Rename word INDEX of the target sentence (cross-attention): its query and its y are named anew."""
        if self.target_vectors is None:
            raise ValueError("only a cross-attention scene of word vectors has a target sentence")
        name = self._checked_name(name, ignore=index)
        self.query_tokens = [name if i == index else word for i, word in enumerate(self.query_tokens)]
        self._structure_changed()

    def move_token(self, index: int, new_index: int) -> None:
        """Reorder the sentence; every vector goes with its token."""
        if index == new_index:
            return
        order = list(range(self.n_tokens))
        order.insert(new_index, order.pop(index))
        self.reorder_tokens(order)

    def reorder_tokens(self, order: Sequence[int]) -> None:
        """The tokens in ORDER (token i is the one at ORDER[i] before); every vector goes with its token."""
        order = [int(i) for i in order]
        if sorted(order) != list(range(self.n_tokens)):
            raise ValueError(f"{order} is not an ordering of the {self.n_tokens} tokens")
        for role in self.own_rows():
            self.inputs[role] = self.inputs[role][order]
        self._set_tokens([self.tokens[i] for i in order])
        self._structure_changed()

    def token_rows(self, index: int) -> dict[Role, np.ndarray]:
        """Copies of token `index`'s own vectors (the rows removing it would take away)."""
        return {role: self.inputs[role][index].copy() for role in self.own_rows()}

    def insert_token(self, index: int, name: str, rows: Mapping[Role, np.ndarray]) -> None:
        """Put a token back at `index` with the vectors it had (undoing its removal).

        `rows` is what token_rows() gave.
        """
        name = self._checked_name(name)
        for role in self.own_rows():
            row = np.asarray(rows[role], dtype=np.float64)
            if row.shape != self.inputs[role][0].shape:
                raise ValueError(f"a {role.value} has {self.inputs[role].shape[1]} numbers, got {row.size}")
            self.inputs[role] = np.insert(self.inputs[role], index, row, axis=0)
        self._set_tokens([*self.tokens[:index], name, *self.tokens[index:]])
        self._structure_changed()

    def _set_tokens(self, tokens: list[str]) -> None:
        """New token names; in self-attention the queries are the tokens and follow them."""
        if self.is_self_attention:
            self.query_tokens = list(tokens)
        self.tokens = tokens

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

    def set_scale(self, on: bool) -> None:
        if bool(on) != self.scale:
            self.scale = bool(on)
            self._recompute()
            self._notify(Change.SETTINGS)

    def set_causal(self, on: bool) -> None:
        """Hide each query's later tokens. Refused for a target sentence of any length: its words come after
        none of the source's. (Queries given directly and named apart keep the older rule: one per token.)"""
        if bool(on) == self.causal:
            return
        if on and self.target_vectors is not None:  # (equal lengths too: "earlier" needs one sentence)
            raise ValueError("a causal mask hides later words of the same sentence; in cross-attention the queries "
                             "read another sentence, all of it")
        if on and self.n_queries != self.n_tokens:
            raise ValueError("a causal mask needs exactly one query per token")
        self.causal = bool(on)
        self._recompute()
        self._notify(Change.SETTINGS)

    def replace(self, data: SceneData) -> None:
        """Take another scene's contents (opening a file); views stay subscribed."""
        self._set_data(data)
        self._notify(Change.ALL)

    def restore(self, data: SceneData) -> None:
        """Go back to an earlier state of this same scene (undo, redo).

        When only numbers and settings differ, they are copied in place and
        the views update as after an edit, keeping their zoom and their layout;
        a different set of tokens or shapes is a new structure.
        """
        if _shape_of(data) != _shape_of(self.to_data()):
            self.replace(data)
            return
        self._set_data(data)
        self._notify(Change.VECTORS | Change.SETTINGS)

    # ----- internals ----------------------------------------------------
    def _recompute(self) -> None:
        mask = causal_mask(self.n_queries, self.n_tokens) if self.causal else None
        compute_layers(self.layers, self.inputs, scale=self.scale, mask=mask, use_grids=self.use_grids,
                       target=self.target_vectors)

    def redraw_views(self) -> None:
        """Tell every view to show the scene again though nothing in it changed: the language did (the views
        word their texts anew)."""
        self._notify(Change.ALL)

    def _notify(self, change: Change) -> None:
        self._subscribers.tell(change)


def _head_grids(head: Head) -> HeadGrids:
    grids = head.grids or {}
    return HeadGrids(w_q=grids["w_q"].tolist(), w_k=grids["w_k"].tolist(), w_v=grids["w_v"].tolist(), name=head.name)


def _shape_of(data: SceneData) -> tuple[object, ...]:
    """What must match for an undo to copy numbers in place: the tokens, the kind and every array's shape."""
    if isinstance(data, DirectScene):
        arrays: tuple[object, ...] = tuple(np.shape(rows) for rows in (data.queries, data.keys, data.values))
        return ("direct", tuple(data.tokens), tuple(data.query_tokens), arrays)
    layers = tuple((tuple(tuple(np.shape(getattr(head, name)) for name in GRID_NAMES) for head in layer.heads),
                    None if layer.w_o is None else np.shape(layer.w_o)) for layer in data.layers)
    target = None if data.target is None else (tuple(data.target.tokens), np.shape(data.target.embeddings))
    return ("projected", tuple(data.tokens), np.shape(data.embeddings), layers, target)


def _fresh_direction(index: int) -> np.ndarray:
    """A unit vector for the index-th token, turned by the golden angle from the one before,
    so a new token never lands on an existing one by default."""
    angle = index * 2.399963229728653  # the golden angle, in radians
    return np.array([np.cos(angle), np.sin(angle)])


__all__ = ["ATTENTION_ROLES", "GRID_NAMES", "Change", "Head", "Layer", "Role", "Scene", "SceneFileError"]
