"""The plain contents of a scene, as read from a file or about to be written: one class per kind.

Every scene has tokens and a stack of layers of heads. Where its attention's inputs come from
decides its kind, and nothing else does:

- DirectScene gives each token's query, key and value directly (the soft lookup, the first
  lessons, a head taken from a pretrained model). It is one layer of one head without grids.
- ProjectedScene gives each token a word vector x; every head of every layer makes its
  queries, keys and values from the stream it reads with its grids (q = x W_Q, …), a layer's
  W_O mixes its heads' outputs, and the next layer reads x plus that (the residual stream).
  One layer of one head is the projection lesson; one layer of several, the two-heads lesson;
  a head kept from training carries its task in `trained_head`. With a `target` sentence it is
  cross-attention: the target's word vectors make the queries, the tokens' (the source's) the
  keys and values, as a translator's decoder reads the sentence it translates.

Plain lists, as in the file; the Scene turns them into arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

GRID_NAMES = ("w_q", "w_k", "w_v")


@dataclass(frozen=True)
class TrainedHead:
    """A head kept from training, carried by the projection scene that shows its example.

    The scene's own w_q, w_k and w_v are the head's grids, and its word vectors
    start as x_i = E[t_i] + P[i]; this holds the rest of the head: the task it
    was trained on, the example's token ids t_i (indices into the task's
    vocabulary), the embeddings E (V x d_model) and P (L x d_model), and the
    output layer W_O (d_v x V) and b_O (V). Plain lists, as in the file.
    """

    task: str
    token_ids: list[int]
    embed: list[list[float]]
    pos: list[list[float]]
    w_o: list[list[float]]
    b_o: list[float]

    @property
    def d_model(self) -> int:
        return len(self.embed[0])


@dataclass(frozen=True)
class TakenFrom:
    """Where a scene's vectors came from: one head of a pretrained model reading one sentence.

    Layers and heads are counted from 0, as the model's arrays index them. The scene's
    queries and keys are the head's after RoPE turned them (ROPE false: before), its values
    the head's own.
    """

    model: str
    layer: int
    head: int
    sentence: str
    rope: bool = True  # False: q and k as the model made them, before RoPE turned them for their positions


@dataclass(frozen=True)
class TargetSentence:
    """The sentence being written in a cross-attention scene: its words make the queries.

    TOKENS name the queries and EMBEDDINGS are their word vectors y (one row per token, as wide
    as the source's x, since the same grids read both). Plain lists, as in the file."""

    tokens: list[str]
    embeddings: list[list[float]]


@dataclass(frozen=True)
class HeadGrids:
    """One head's three grids (plain lists, as in the file) and the name a lesson gives it."""

    w_q: list[list[float]]
    w_k: list[list[float]]
    w_v: list[list[float]]
    name: str = ""

    @property
    def key_width(self) -> int:
        return len(self.w_q[0])

    @property
    def value_width(self) -> int:
        return len(self.w_v[0])


@dataclass(frozen=True)
class LayerGrids:
    """One layer: its heads, and W_O (heads·d_v × d_out) mixing their outputs side by side.

    Without W_O (None) the layer has one head whose output is the layer's output (W_O = I)."""

    heads: list[HeadGrids]
    w_o: list[list[float]] | None = None


@dataclass(kw_only=True)
class _SceneBase:
    tokens: list[str]
    scale: bool = True
    causal: bool = False
    selected: int = 0
    title: str = ""


@dataclass(kw_only=True)
class DirectScene(_SceneBase):
    """Queries, keys and values given directly; values may be plain numbers (d_v = 1), as in a soft lookup."""

    queries: list[list[float]]
    keys: list[list[float]]
    values: list[list[float]]
    query_tokens: list[str] = field(default_factory=list)  # cross-attention: the queries are not the tokens
    scalar_values: bool = False
    taken_from: TakenFrom | None = None  # a head of a pretrained model (file version 3)

    def __post_init__(self) -> None:
        if not self.query_tokens:
            self.query_tokens = list(self.tokens)


@dataclass(kw_only=True)
class ProjectedScene(_SceneBase):
    """Word vectors and the layers of heads that read them; queries, keys and values are made, not given."""

    embeddings: list[list[float]]
    layers: list[LayerGrids]
    use_grids: bool = True  # False: q = k = v = x (square grids only), to see each word match itself
    trained_head: TrainedHead | None = None  # a one-head scene kept from training (file version 2)
    target: TargetSentence | None = None  # cross-attention: the sentence whose words make the queries (version 6)

    @property
    def query_tokens(self) -> list[str]:
        """The target's words in cross-attention; else every token makes its own query."""
        return self.tokens if self.target is None else self.target.tokens

    @property
    def only_head(self) -> HeadGrids | None:
        """The head of a scene of one layer of one head, else None."""
        if len(self.layers) == 1 and len(self.layers[0].heads) == 1:
            return self.layers[0].heads[0]
        return None


SceneData = DirectScene | ProjectedScene


_COMPARED_WHOLE = (str, bool, int, TrainedHead, TakenFrom, TargetSentence)


def same_contents(a: SceneData, b: SceneData) -> bool:
    """Every field equal, the numbers exactly (an undo restores them exactly).

    The chosen query does not count: choosing one is not an edit.
    """
    if type(a) is not type(b):
        return False
    for item in fields(a):
        if item.name == "selected":
            continue
        x, y = getattr(a, item.name), getattr(b, item.name)
        if item.name == "layers" or x is None or y is None or isinstance(x, _COMPARED_WHOLE):
            if x is not y and x != y:  # frozen dataclasses of lists compare their numbers exactly
                return False
        elif np.shape(x) != np.shape(y) or not np.array_equal(x, y):
            return False
    return True
