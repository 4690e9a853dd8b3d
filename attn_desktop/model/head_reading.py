"""One head of a scene, read: what the canvas, the score table, the matrix and the other panels show.

A HeadReading answers for one head of one layer — its tokens, the stream it reads, its queries,
keys and values, its attention — always from the scene as it is now; it holds no numbers of its
own and changes nothing. A panel that draws a head is handed a reading; its gestures become
commands on `reading.scene`, like every other edit. Every reading looks through a ViewState,
which says which query is chosen; a reading made without a head of its own shows the head the
view shows. A window owns its view and makes its readings from it; a script or a test reads a
scene with `read`, through a view of its own.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from attn_desktop.model.attention import AttentionResult
from attn_desktop.model.files.scene_types import TakenFrom, TrainedHead
from attn_desktop.model.layers import Change, Head, Layer, Role
from attn_desktop.model.scene import Scene
from attn_desktop.model.subscribers import Subscriber
from attn_desktop.model.view_state import ViewState


class HeadReading:
    def __init__(self, scene: Scene, view: ViewState, at: tuple[int, int] | None = None) -> None:
        """Head AT = (layer, head) of SCENE as VIEW looks at it; without AT, whichever head VIEW shows."""
        self.scene = scene
        self.view = view
        self._fixed = at
        # The head last looked up, with what it was looked up from: a drag reads a reading some thirty
        # times per move, and a scene's layers are only replaced (never changed in place) by a new structure.
        self._found: tuple[list[Layer], tuple[int, int], tuple[int, int], Head] | None = None

    # ----- which head ----------------------------------------------------
    @property
    def location(self) -> tuple[int, int]:
        """(layer, head), counted from 0: the view's choice where there is one, kept within the scene."""
        return self._find()[2]

    def _find(self) -> tuple[list[Layer], tuple[int, int], tuple[int, int], Head]:
        layers = self.scene.layers
        wanted = (self.view.layer, self.view.head) if self._fixed is None else self._fixed
        found = self._found
        if found is None or found[0] is not layers or found[1] != wanted:
            layer = min(wanted[0], len(layers) - 1)
            head = min(wanted[1], len(layers[layer].heads) - 1)
            found = self._found = (layers, wanted, (layer, head), layers[layer].heads[head])
        return found

    @property
    def layer(self) -> int:
        return self.location[0]

    @property
    def head(self) -> int:
        return self.location[1]

    @property
    def _head(self) -> Head:
        return self._find()[3]

    @property
    def exists(self) -> bool:
        """False once the scene no longer has this (fixed) head: a reading of a closed scene's head."""
        if self._fixed is None:
            return True
        layer, head = self._fixed
        return layer < len(self.scene.layers) and head < len(self.scene.layers[layer].heads)

    # ----- following changes ----------------------------------------------
    def subscribe(self, subscriber: Subscriber, follows: Change = Change.ALL) -> Callable[[], None]:
        """Call SUBSCRIBER after every change of the scene, and when the view chooses another query or head
        (the changes of the kinds it FOLLOWS)."""
        unsubscribers = [self.scene.subscribe(subscriber, follows), self.view.subscribe(subscriber, follows)]

        def unsubscribe() -> None:
            for each in unsubscribers:
                each()

        return unsubscribe

    def select_query(self, index: int) -> None:
        """Choose a query (not an edit: the query is chosen in every head at once)."""
        if not 0 <= index < self.n_queries:
            raise IndexError(f"there is no query {index}")
        self.view.select_query(index)

    # ----- the scene's own --------------------------------------------------
    @property
    def tokens(self) -> list[str]:
        return self.scene.tokens

    @property
    def query_tokens(self) -> list[str]:
        return self.scene.query_tokens

    @property
    def n_tokens(self) -> int:
        return self.scene.n_tokens

    @property
    def n_queries(self) -> int:
        return self.scene.n_queries

    @property
    def selected(self) -> int:
        """The chosen query's row: the view's choice, kept within the scene's queries (after a removal)."""
        # Asked some twenty times per drag move: a choice within the queries, as it nearly always is, without
        # the calls that keep one within them.
        query = self.view.query
        return query if 0 <= query < len(self.scene.query_tokens) else self.view.chosen_query(self.n_queries)

    @property
    def selected_token(self) -> str:
        return self.query_tokens[self.selected]

    @property
    def scale(self) -> bool:
        return self.scene.scale

    @property
    def causal(self) -> bool:
        return self.scene.causal

    @property
    def scalar_values(self) -> bool:
        return self.scene.scalar_values

    @property
    def use_grids(self) -> bool:
        return self.scene.use_grids

    @property
    def taken_from(self) -> TakenFrom | None:
        return self.scene.taken_from

    @property
    def trained_head(self) -> TrainedHead | None:
        return self.scene.trained_head

    def labels(self, role: Role) -> list[str]:
        return self.scene.labels(role)

    def arrow_name(self, role: Role, index: int) -> str:
        return self.scene.arrow_name(role, index)

    # ----- the head's own ---------------------------------------------------
    @property
    def roles(self) -> tuple[Role, ...]:
        """The roles this head draws: the stream it reads (when it reads one), then q, k and v."""
        return tuple(self._head.vectors)

    def is_draggable(self, role: Role) -> bool:
        """The scene's own vectors move (layer 1's stream is the word vectors); what is made from them follows."""
        return self.layer == 0 and self.scene.is_draggable(role)

    def vectors(self, role: Role) -> np.ndarray:
        """The (rows, width) array of one role of this head."""
        return self._head.vectors[role]

    @property
    def target_stream(self) -> np.ndarray | None:
        """Cross-attention: the target's stream this head made its queries from, one row per query (layer 1's:
        the target's word vectors); None when the queries come from the stream it reads, or are given."""
        return self._head.target_stream

    @property
    def result(self) -> AttentionResult:
        return self._find()[3].attention

    @property
    def grids(self) -> dict[str, np.ndarray]:
        """The head's W_Q, W_K and W_V (empty when its vectors are given directly)."""
        return self._head.grids or {}

    @property
    def key_width(self) -> int:
        return int(self._head.vectors[Role.KEY].shape[1])

    @property
    def value_width(self) -> int:
        return int(self._head.vectors[Role.VALUE].shape[1])

    @property
    def selected_weights(self) -> np.ndarray:
        return np.asarray(self.result.weights[self.selected])

    @property
    def selected_output(self) -> np.ndarray:
        return np.asarray(self.result.output[self.selected])


def read(scene: Scene, layer: int = 0, head: int = 0) -> HeadReading:
    """HEAD of LAYER of SCENE (the first head: a one-head scene's only one) as a script or a test reads it:
    through a view of its own, which no window shares."""
    return HeadReading(scene, ViewState(), at=(layer, head))


def input_plane(scene: Scene, layer: int, head: int) -> tuple[int, int]:
    """The two numbers of the stream that a head reads most (0-based, in order): the rows of its
    grids with the most weight. A head that reads two numbers only is drawn exactly where it reads."""
    grids = scene.head(layer, head).grids
    if not grids:
        return 0, 1
    weight = sum(np.square(grids[name]).sum(axis=1) for name in ("w_q", "w_k", "w_v"))
    first, second = sorted(np.argsort(-weight, kind="stable")[:2].tolist())
    return int(first), int(second)


__all__ = ["HeadReading", "input_plane", "read"]
