"""What the user is looking at, as opposed to what the document says.

Which layer and head the one-head panels show is the user's choice of view: it is never saved
as an edit, undo leaves it alone, and two windows on one scene could look at different heads.
The scene knows nothing of it; a HeadReading made with a ViewState follows it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

from attn_desktop.model.layers import Change

ViewSubscriber = Callable[[Change], None]


class ViewState:
    def __init__(self) -> None:
        self.layer = 0
        self.head = 0
        self._subscribers: list[Callable[[], ViewSubscriber | None]] = []

    def show_head(self, layer: int, head: int) -> None:
        """Let the panels that show one head show HEAD of LAYER (a view follows it as after an edit)."""
        if layer < 0 or head < 0:
            raise IndexError(f"there is no head {head + 1} in layer {layer + 1}")
        if (layer, head) != (self.layer, self.head):
            self.layer, self.head = layer, head
            self._notify(Change.VECTORS | Change.SETTINGS)

    def subscribe(self, subscriber: ViewSubscriber) -> Callable[[], None]:
        """Call SUBSCRIBER when the view changes; a bound method is held weakly, as the scene does."""
        reference: Callable[[], ViewSubscriber | None]
        if hasattr(subscriber, "__self__") and hasattr(subscriber, "__func__"):
            reference = weakref.WeakMethod(subscriber)
        else:
            reference = lambda: subscriber
        self._subscribers.append(reference)

        def unsubscribe() -> None:
            if reference in self._subscribers:
                self._subscribers.remove(reference)

        return unsubscribe

    def _notify(self, change: Change) -> None:
        for reference in list(self._subscribers):
            subscriber = reference()
            if subscriber is None:
                self._subscribers.remove(reference)
            else:
                subscriber(change)
