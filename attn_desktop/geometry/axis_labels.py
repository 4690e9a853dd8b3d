"""Which of a row of names fit beside each other along an axis (a matrix's column or row labels), and where.

Every name that fits its own cell is drawn there. A name wider than its cell may use the room a short
neighbour ("it") leaves, so each is tried at its own width, centred on its cell, not at the widest name's
width; these are tried in the order given (the ones the class reads the answer from first), so when there
truly is no room for all, those come first. A name that does not fit whole is then given the free room round
its cell to be shortened in ("becau…"), and only a name that not even that fits is left out.

Where the names do not all fit across their columns, the panel writes them turned upright instead, each over its
own column (as BertViz does): then a name takes only a line's height along the axis, and turned_length says how
tall a band the names need above the cells.

Plain numbers in, plain numbers out: the panel measures the text and paints it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class AxisLabel:
    index: int  # the cell it names
    start: float  # the room it is drawn in, along the axis (the text centred in it)
    end: float
    whole: bool  # False: the name must be shortened to fit (end - start - gap)


def place_axis_labels(centres: Sequence[float], lengths: Sequence[float], bounds: tuple[float, float],
                      gap: float, order: Sequence[int], shortest: float) -> list[AxisLabel]:
    """Labels for the cells at CENTRES whose names are LENGTHS long, within BOUNDS and GAP apart, tried in ORDER.

    A name that cannot be placed whole gets the free room round its centre if a SHORTEST name fits in it."""
    low, high = bounds
    placed: dict[int, AxisLabel] = {}
    for index in order:  # names that fit their own cells never stand in each other's way
        start, end = _centred(centres[index], lengths[index] + gap, low, high)
        if end - start <= _own_cell(index, centres, low, high) + 1e-9:
            placed[index] = AxisLabel(index, start, end, True)
    for index in order:  # longer names whole where their neighbours leave room, most important first
        if index in placed:
            continue
        start, end = _centred(centres[index], lengths[index] + gap, low, high)
        if not any(_overlap(start, end, label) for label in placed.values()):
            placed[index] = AxisLabel(index, start, end, True)
    for index in order:  # the rest shortened into the room left round their cells
        if index in placed:
            continue
        room = _free_room(centres[index], lengths[index] + gap, low, high, placed.values())
        if room is not None and room[1] - room[0] - gap >= shortest - 1e-9:
            placed[index] = AxisLabel(index, room[0], room[1], False)
    return [placed[index] for index in sorted(placed)]


def _own_cell(index: int, centres: Sequence[float], low: float, high: float) -> float:
    """The room between the middles to either side of a cell's centre: the cell's width."""
    before = centres[index - 1] if index > 0 else 2 * low - centres[index]
    after = centres[index + 1] if index + 1 < len(centres) else 2 * high - centres[index]
    return min(centres[index] - before, after - centres[index])


def _centred(centre: float, length: float, low: float, high: float) -> tuple[float, float]:
    """LENGTH centred on CENTRE, moved inside [LOW, HIGH] where it would run past an end."""
    start = centre - length / 2
    start = min(max(start, low), high - length) if length <= high - low else low
    return start, start + length


def _overlap(start: float, end: float, label: AxisLabel) -> bool:
    return start < label.end - 1e-9 and label.start < end - 1e-9


def _free_room(centre: float, length: float, low: float, high: float,
               placed: Iterable[AxisLabel]) -> tuple[float, float] | None:
    """The free room round CENTRE that no placed label takes, at most LENGTH long, centred on CENTRE as far as
    the free room allows (a last column's name leans inwards); None when a placed label covers the centre."""
    left, right = low, high
    for label in placed:
        if label.start <= centre <= label.end:
            return None
        if label.end <= centre:
            left = max(left, label.end)
        else:
            right = min(right, label.start)
    length = min(length, right - left)
    start = min(max(centre - length / 2, left), right - length)
    return start, start + length


def turned_length(lengths: Sequence[float], gap: float, limit: float) -> float:
    """How far names turned upright over their columns reach up from the cells: the longest of LENGTHS and GAP,
    but at most LIMIT (a longer name is shortened to fit, not let push the cells down the panel)."""
    return min(max(lengths, default=0.0) + gap, limit)

