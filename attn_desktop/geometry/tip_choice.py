"""Which arrow a press takes when several tips stand under the pointer.

Two tips a few pixels apart have overlapping handles, and the arrow drawn on
top would always win; the student means the tip nearest the pointer, so the
others yield to it. Tips at the very same point (in lesson 3, k·cat lies
under q·sat) take turns for drags: the arrow dragged from there last time
yields to the next, so starting a drag there again reaches the one underneath.
Clicks do not take turns: the arrow on top takes them.

Plain numbers in view pixels, no Qt (like label_layout.py): the canvas reads
its tips at each press and tells every arrow whether it may take a click or a
drag from it; an arrow that may not lets the press pass to the next one under
the pointer.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

SHARED_TIP_PX = 1.0  # tips closer than this stand at the same point: drags there take turns


@dataclass(frozen=True)
class Tip:
    """An arrow's tip on screen."""

    key: Hashable  # which arrow; the canvas uses (role, index)
    x: float
    y: float
    draggable: bool = True  # an arrow that cannot be dragged never takes a press from another


@dataclass(frozen=True)
class PressRights:
    """The arrows that may take a click, and those that may take a drag, from one press."""

    clicks: frozenset[Hashable]
    drags: frozenset[Hashable]


def _gap(first: Tip, second: Tip) -> float:
    return math.hypot(first.x - second.x, first.y - second.y)


def _distance(tip: Tip, point: tuple[float, float]) -> float:
    return math.hypot(tip.x - point[0], tip.y - point[1])


class TipTurns:
    """The choice of tip for each press, and whose turn it is at a shared point.

    `tips` are given in a fixed order (the canvas: queries, keys, values, word vectors, each by
    token); turns at a shared point go round in that order.
    """

    def __init__(self) -> None:
        self.last_dragged: Hashable | None = None  # dragged from a shared point, the last time

    def forget(self) -> None:
        """The arrows were made anew (another scene, a token added): no turn is pending."""
        self.last_dragged = None

    def rights_at(self, point: tuple[float, float], tips: Sequence[Tip], reach_px: float) -> PressRights:
        """Who may take a press at `point`; tips within `reach_px` of it are under the pointer."""
        under = [tip for tip in tips if _distance(tip, point) <= reach_px]
        order = {tip.key: place for place, tip in enumerate(tips)}
        clicks = frozenset(tip.key for tip in tips if not self._yields(tip, under, point, order, drag=False))
        drags = frozenset(tip.key for tip in tips if not self._yields(tip, under, point, order, drag=True))
        return PressRights(clicks, drags)

    def started_dragging(self, key: Hashable, tips: Sequence[Tip]) -> list[Hashable]:
        """Arrow `key` is being dragged: the arrows it leaves behind at its tip, in order.

        Only a drag from a shared point starts the turns there.
        """
        dragged = next((tip for tip in tips if tip.key == key), None)
        underneath = [] if dragged is None else [
            tip.key for tip in tips if tip.key != key and tip.draggable and _gap(tip, dragged) <= SHARED_TIP_PX]
        self.last_dragged = key if underneath else None
        return underneath

    def _yields(self, me: Tip, under: Sequence[Tip], point: tuple[float, float], order: dict[Hashable, int],
                drag: bool) -> bool:
        """Whether another arrow under the pointer should take the press instead of `me`."""
        rivals = [tip for tip in under if tip.key != me.key and tip.draggable]
        shared = [tip for tip in rivals if _gap(tip, me) <= SHARED_TIP_PX]
        mine = _distance(me, point)
        if any(_distance(tip, point) < mine for tip in rivals if tip not in shared):
            return True
        if not (drag and shared):
            return False
        # Turns go round the arrows at this point in the fixed order, starting after the one dragged
        # from here last time; with no such one, the arrow on top (asked first) takes the drag.
        keys = sorted([me.key, *(tip.key for tip in shared)], key=order.__getitem__)
        if self.last_dragged not in keys:
            return False
        return me.key != keys[(keys.index(self.last_dragged) + 1) % len(keys)]


__all__ = ["SHARED_TIP_PX", "PressRights", "Tip", "TipTurns"]
