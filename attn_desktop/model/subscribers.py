"""Who is told of a change: the scene's views, and the views that follow what the user looks at."""

from __future__ import annotations

import weakref
from collections.abc import Callable

from attn_desktop.model.layers import Change

Subscriber = Callable[[Change], None]


class Subscribers:
    """Callbacks told of every change, in the order they subscribed.

    A view's method is held weakly: a view that is gone stops being called, and whatever it follows
    never keeps a closed window alive. A plain function is held as given.
    """

    def __init__(self) -> None:
        self._references: list[Callable[[], Subscriber | None]] = []

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
