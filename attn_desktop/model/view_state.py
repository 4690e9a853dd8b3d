"""What the user is looking at, as opposed to what the document says.

Which layer and head the one-head panels show is the user's choice of view: it is never saved
as an edit, undo leaves it alone, and two windows on one scene could look at different heads.
The scene knows nothing of it; a HeadReading made with a ViewState follows it.
"""

from __future__ import annotations

from collections.abc import Callable

from attn_desktop.model.layers import Change
from attn_desktop.model.subscribers import Subscriber, Subscribers


class ViewState:
    def __init__(self) -> None:
        self.layer = 0
        self.head = 0
        self._subscribers = Subscribers()

    def show_head(self, layer: int, head: int) -> None:
        """Let the panels that show one head show HEAD of LAYER (a view follows it as after an edit)."""
        if layer < 0 or head < 0:
            raise IndexError(f"there is no head {head + 1} in layer {layer + 1}")
        if (layer, head) != (self.layer, self.head):
            self.layer, self.head = layer, head
            self._subscribers.notify(Change.VECTORS | Change.SETTINGS)

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call SUBSCRIBER when the view changes; a bound method is held weakly, as the scene holds it."""
        return self._subscribers.add(subscriber)
