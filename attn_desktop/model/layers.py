"""Layers of heads, and what they compute: the numbers every panel reads.

A head reads a stream of vectors (one row per token). With grids it makes its queries, keys and
values from that stream (q = x W_Q, k = x W_K, v = x W_V); without grids (a scene that gives
them directly) it takes them as given. It then attends. A layer puts its heads' outputs side by
side and mixes them with W_O (or, with one head and no W_O, passes that head's output on), and
the next layer reads the residual stream: what the layer read plus what it wrote.

Cross-attention heads read two streams: the target's (the sentence being written) makes the
queries, the source's (the sentence being read) the keys and values. The residual stream runs
on the target's side, one row per query, as in a translator's decoder; the source is read as it
is by every layer, as a decoder reads the encoder's final stream.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from attn_desktop.model.attention import AttentionResult, attention


class Role(str, enum.Enum):
    QUERY = "query"
    KEY = "key"
    VALUE = "value"
    EMBEDDING = "embedding"  # a word vector x, in a projection scene
    TARGET = "target"  # a target word's vector y, in a cross-attention scene: it makes that word's query

    @property
    def symbol(self) -> str:
        return _SYMBOLS.get(self, self.value[0])  # q, k, v, x, y: the letters the lesson uses


_SYMBOLS = {Role.EMBEDDING: "x", Role.TARGET: "y"}


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

    # The views ask "change & Change.X" some thirty times per drag move. enum.Flag answers by building the
    # flag anew through its class (four Python calls); every combination exists already (_COMBINATIONS),
    # so the answer is looked up. The same flags come out, as the same objects.
    def __and__(self, other: object) -> Change:
        if type(other) is not Change:
            return NotImplemented
        return _COMBINATIONS[self._value_ & other._value_]

    def __or__(self, other: object) -> Change:
        if type(other) is not Change:
            return NotImplemented
        return _COMBINATIONS[self._value_ | other._value_]

    def __bool__(self) -> bool:
        return self._value_ != 0


_COMBINATIONS = [Change(bits) for bits in range(Change.ALL._value_ + 1)]


@dataclass(eq=False)
class Head:
    """One head: its grids (None when its queries, keys and values are given) and, once computed,
    the stream it read, its queries, keys and values, and its attention."""

    name: str
    grids: dict[str, np.ndarray] | None
    # EMBEDDING: the stream it read; TARGET (cross-attention): the target's stream its queries were made from
    vectors: dict[Role, np.ndarray] = field(default_factory=dict)
    result: AttentionResult | None = None
    # Cross-attention: the target's stream its queries were made from (None: from EMBEDDING, as in self-attention).
    target_stream: np.ndarray | None = None

    def compute(self, stream: np.ndarray | None, given: Mapping[Role, np.ndarray], *, scale: bool,
                mask: np.ndarray | None, use_grids: bool, target: np.ndarray | None = None) -> None:
        self.target_stream = None
        if self.grids is None or stream is None:
            self.vectors = {role: given[role] for role in ATTENTION_ROLES}
        else:
            self.vectors = {Role.EMBEDDING: stream}
            self.target_stream = target
            if target is not None:  # drawn after x, before the queries it makes
                self.vectors[Role.TARGET] = target
            for role, name in zip(ATTENTION_ROLES, GRID_NAMES):
                grid = self.grids[name] if use_grids else np.eye(self.grids[name].shape[0])
                read = target if role is Role.QUERY and target is not None else stream
                self.vectors[role] = read @ grid
        self.result = attention(self.vectors[Role.QUERY], self.vectors[Role.KEY], self.vectors[Role.VALUE],
                                scale=scale, mask=mask)

    @property
    def attention(self) -> AttentionResult:
        assert self.result is not None, "a head is read after its scene computed it"
        return self.result


@dataclass(eq=False)
class Layer:
    """The heads of one layer and W_O (heads·d_v × d_out); None: one head whose output is the layer's."""

    heads: list[Head]
    w_o: np.ndarray | None
    joined_output: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    output: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))

    def compute(self, stream: np.ndarray | None, given: Mapping[Role, np.ndarray], *, scale: bool,
                mask: np.ndarray | None, use_grids: bool, target: np.ndarray | None = None) -> None:
        for head in self.heads:
            head.compute(stream, given, scale=scale, mask=mask, use_grids=use_grids, target=target)
        # (One head: its output as it is; np.hstack would copy it, on every drag move.)
        self.joined_output = self.heads[0].attention.output if len(self.heads) == 1 else \
            np.hstack([head.attention.output for head in self.heads])
        self.output = self.joined_output @ self.w_o if self.w_o is not None else self.joined_output


def compute_layers(layers: list[Layer], inputs: Mapping[Role, np.ndarray], *, scale: bool,
                   mask: np.ndarray | None, use_grids: bool, target: np.ndarray | None = None) -> None:
    """Every layer in turn: layer 1 reads the word vectors, each later one the residual stream.

    With a TARGET (cross-attention: its word vectors make the queries) the layers' outputs, one
    row per query, join the target's stream, and every layer reads the source's word vectors."""
    stream = inputs.get(Role.EMBEDDING)
    for index, layer in enumerate(layers):
        layer.compute(stream, inputs, scale=scale, mask=mask, use_grids=use_grids, target=target)
        if index + 1 == len(layers):
            break
        if target is not None:
            target = target + layer.output
        elif stream is not None:
            stream = stream + layer.output
