"""One head of a multi-head scene, seen as a scene of its own.

The panels that draw a scene (the canvas, the score table, the matrix) take a HeadView
to draw one head beside the others: it reads like a projection scene whose grids are that
head's, and every edit made through it is made to the whole scene (the word vectors are
shared, so a word moved in one head's picture moves in every head). The document tells
its head views of every change after its own subscribers, with its numbers already
recomputed, so a head's panels and the rest of the window never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attn_desktop.model.scene import ATTENTION_ROLES, Change, Role, Scene


class HeadView(Scene):
    def __init__(self, document: Scene, head: int) -> None:
        # Not Scene.__init__: there is no data of its own to read; it is the document's, head HEAD.
        if not document.is_multi_head or not 0 <= head < document.n_heads:
            raise ValueError(f"the scene has no head {head + 1} to show")
        self._subscribers = []
        self._held_back = None
        self._head_views = []
        self.document = document
        self.head = head
        self._read_document()
        document.attach_head_view(self)

    def _read_document(self) -> None:
        document, head = self.document, self.head
        self.title = document.head_name(head)
        self.tokens = document.tokens
        self.query_tokens = document.query_tokens
        self.scalar_values = False
        self.use_grids = True
        self.scale, self.causal, self.selected = document.scale, document.causal, document.selected
        self.trained_head = None
        self.taken_from = None
        self.heads = [document.heads[head]]
        self.head_names = [document.head_names[head]]
        self.grids = document.heads[head]
        self.w_o = None  # one head: nothing to mix
        self.shown_head = 0
        self._vectors = {Role.EMBEDDING: document.vectors(Role.EMBEDDING)}
        self._vectors.update({role: document.head_vectors(head, role) for role in ATTENTION_ROLES})
        self._result = document.head_result(head)

    def document_changed(self, change: Change) -> None:
        """The document changed (and recomputed): read it again, then tell this head's panels."""
        self._read_document()
        self._notify(change)

    # ----- edits go to the document ---------------------------------------
    def set_vector(self, role: Role, index: int, vector: Sequence[float]) -> None:
        self.document.set_vector(role, index, vector)

    def select_query(self, index: int) -> None:
        self.document.select_query(index)  # the query is chosen in every head at once

    def set_grid_cell(self, name: str, row: int, column: int, value: float, head: int | None = None) -> None:
        self.document.set_grid_cell(name, row, column, value, head=self.head)

    def _recompute(self) -> None:
        # Any other edit would change this view's copy of the sentence only: edit the document instead.
        raise TypeError("a head's view is read from its scene; make edits to the scene")

    def close(self) -> None:
        """Stop following the scene (the head's panels are gone)."""
        self.document.detach_head_view(self)
        self._subscribers.clear()


def input_plane(document: Scene, head: int) -> tuple[int, int]:
    """The two numbers of the word vectors that HEAD reads most (0-based, in order): the rows of its
    grids with the most weight. A head that reads two numbers only is drawn exactly where it reads."""
    grids = document.heads[head]
    weight = sum(np.square(grids[name]).sum(axis=1) for name in ("w_q", "w_k", "w_v"))
    first, second = sorted(np.argsort(-weight, kind="stable")[:2].tolist())
    return int(first), int(second)
