"""What the user is looking at, as opposed to what the document says.

The chosen query, the head the one-head panels show, the key the pointer is on and whether the
weights are veiled are the user's view: never an edit, undo leaves them alone (unless the edit
itself chose a query, as dragging a query arrow does), and the scene knows nothing of them. A
scene file keeps the chosen query only so that a reopened scene looks as it was left.

A window owns its view and hands it to whatever reads or edits for it; two windows share a view only
when their owner gives them the same one. A script or a test reads a scene through a view of its own
(head_reading.read).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

from attn_desktop.model.layers import Change
from attn_desktop.model.subscribers import Subscriber, Subscribers


class ViewState:
    def __init__(self) -> None:
        self.layer = 0
        self.head = 0
        self.query = 0  # the chosen query's row; a reading keeps it within the scene's queries
        self.highlighted_key: tuple[tuple[int, int], int] | None = None  # ((layer, head), key) the pointer is on
        self.weights_veiled = False  # Predict, then see: the weights hidden until a guess is revealed
        self._subscribers = Subscribers()

    def show_head(self, layer: int, head: int) -> None:
        """Let the panels that show one head show HEAD of LAYER (a view follows it as after an edit)."""
        if layer < 0 or head < 0:
            raise IndexError(f"there is no head {head + 1} in layer {layer + 1}")
        if (layer, head) != (self.layer, self.head):
            self.layer, self.head = layer, head
            self._notify(Change.VECTORS | Change.SETTINGS)

    def select_query(self, index: int) -> None:
        """Choose the query of row INDEX in every head at once (the reading checks it against the scene)."""
        if index < 0:
            raise IndexError(f"there is no query {index}")
        if index != self.query:
            self.query = index
            self._notify(Change.SELECTION)

    def chosen_query(self, n_queries: int) -> int:
        """The chosen query's row in a scene of N_QUERIES queries (the last, if the choice is past them)."""
        return max(0, min(self.query, n_queries - 1))

    def highlight_key(self, pointed: tuple[tuple[int, int], int] | None) -> None:
        """Light up a key's arrow while the pointer is on its row: ((layer, head), key), or None."""
        self.highlighted_key = pointed

    def set_weights_veiled(self, on: bool) -> None:
        self.weights_veiled = bool(on)

    # ----- following changes ----------------------------------------------
    def subscribe(self, subscriber: Subscriber, follows: Change = Change.ALL) -> Callable[[], None]:
        """Call SUBSCRIBER when another query or head is chosen (if it FOLLOWS that kind of change); a bound
        method is held weakly."""
        return self._subscribers.add(subscriber, follows)

    def one_notification(self) -> AbstractContextManager[None]:
        """Every change made inside the block reaches the views as one notification, at its end."""
        return self._subscribers.one_notification()

    def _notify(self, change: Change) -> None:
        self._subscribers.tell(change)

