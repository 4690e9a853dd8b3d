"""Who is told of a change: the scene's views, and the views that follow what the user looks at."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from attn_desktop.model.layers import Change

Subscriber = Callable[[Change], None]


class Subscribers:
    """Callbacks told of the changes they follow, in the order they subscribed.

    A view's method is held weakly: a view that is gone stops being called, and whatever it follows
    never keeps a closed window alive. A plain function is held as given.
    """

    def __init__(self) -> None:
        # Each subscriber's reference, and the kinds of change it follows as the flags' bits: a drag move
        # tells some twenty views of its new numbers, and the half that follow only new tokens or settings
        # are passed over with one integer test, not called to ask the flag themselves (a Python call each).
        self._references: list[tuple[Callable[[], Subscriber | None], int]] = []
        self._held_back: Change | None = None  # inside one_notification(): what changed so far

    def add(self, subscriber: Subscriber, follows: Change = Change.ALL) -> Callable[[], None]:
        """Tell SUBSCRIBER of every change of the kinds it FOLLOWS from now on (a change of other kinds
        too, if any of its kinds is among them); returns the function that stops it."""
        reference: Callable[[], Subscriber | None]
        if hasattr(subscriber, "__self__") and hasattr(subscriber, "__func__"):
            reference = weakref.WeakMethod(subscriber)
        else:
            reference = lambda: subscriber
        entry = (reference, follows._value_)
        self._references.append(entry)

        def unsubscribe() -> None:
            if entry in self._references:
                self._references.remove(entry)

        return unsubscribe

    @property
    def count(self) -> int:
        return sum(1 for reference, _ in self._references if reference() is not None)

    def notify(self, change: Change) -> None:
        kinds = change._value_
        for entry in list(self._references):
            if not kinds & entry[1]:
                continue  # nothing it follows
            subscriber = entry[0]()
            if subscriber is None:
                self._references.remove(entry)  # its view is gone
            else:
                subscriber(change)

    # ----- one notification for many changes ---------------------------------
    @contextmanager
    def one_notification(self) -> Iterator[None]:
        """Every change told inside the block reaches the subscribers as one notification, at its end
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
                self.notify(change)

    def tell(self, change: Change) -> None:
        """Notify of CHANGE now, or at the end of the one_notification block it happens in."""
        if self._held_back is not None:
            self._held_back |= change
        else:
            self.notify(change)
