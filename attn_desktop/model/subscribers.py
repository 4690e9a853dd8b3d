"""Who is told of a change: the scene's views, and the views that follow what the user looks at."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from attn_desktop.model.layers import Change

Subscriber = Callable[[Change], None]


class Subscribers:
    """Callbacks told of every change, in the order they subscribed.

    A view's method is held weakly: a view that is gone stops being called, and whatever it follows
    never keeps a closed window alive. A plain function is held as given.
    """

    def __init__(self) -> None:
        self._references: list[Callable[[], Subscriber | None]] = []
        self._held_back: Change | None = None  # inside one_notification(): what changed so far

    def add(self, subscriber: Subscriber) -> Callable[[], None]:
        """Tell SUBSCRIBER of every change from now on; returns the function that stops it."""
        reference: Callable[[], Subscriber | None]
        if hasattr(subscriber, "__self__") and hasattr(subscriber, "__func__"):
            reference = weakref.WeakMethod(subscriber)
        else:
            reference = lambda: subscriber
        self._references.append(reference)

        def unsubscribe() -> None:
            if reference in self._references:
                self._references.remove(reference)

        return unsubscribe

    @property
    def count(self) -> int:
        return sum(1 for reference in self._references if reference() is not None)

    def notify(self, change: Change) -> None:
        for reference in list(self._references):
            subscriber = reference()
            if subscriber is None:
                self._references.remove(reference)  # its view is gone
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
