"""Arrow shafts and heads collected, then drawn with one painter call per pen or colour.

A layer of 192 arrows drawn one by one costs two pen changes and two draw calls from Python per
arrow; most of them share a handful of pens (emphasis comes in 20 steps). Collected here, the
shafts of one pen go to Qt in one drawLines call, and the heads of one look (fill, and the outline
a faint head keeps) follow with no pen or brush change between them, each in one call. Heads are
drawn after every shaft of the batch, so a head is never crossed by another arrow's shaft; a layer
makes one batch per z level, so queries stay above keys.
"""

from __future__ import annotations

from enum import Flag, auto
from typing import TypeVar

from PySide6.QtCore import QLineF
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF

WHITE = QColor(255, 255, 255)


Key = TypeVar("Key")
Tool = TypeVar("Tool")  # a pen, a colour, or both
Shape = TypeVar("Shape")  # a line or a polygon


class Parts(Flag):
    """Which parts of a batch of arrows to draw: every shaft (with halos and dots) comes before any head
    (with grab rings), so a picture of some arrows can be split where others are drawn between them."""

    SHAFTS = auto()
    HEADS = auto()
    ALL = SHAFTS | HEADS


class ShapeBatch:
    def __init__(self) -> None:
        self._shafts: dict[tuple, tuple[QPen, list[QLineF]]] = {}
        self._filled_heads: dict[tuple, tuple[tuple[QPen, QColor], list[QPolygonF]]] = {}
        self._open_heads: dict[tuple, tuple[QPen, list[QPolygonF]]] = {}

    def add_shaft(self, key: tuple, pen: QPen, line: QLineF) -> None:
        """KEY names the pen's look (colour, width, dash): arrows that look alike share one call."""
        _add_to_group(self._shafts, key, pen, line)

    def add_filled_head(self, key: tuple, pen: QPen, color: QColor, head: QPolygonF) -> None:
        """A head filled with COLOR and outlined with PEN (no pen: none), in one call; KEY names both, and orders
        the groups (see _draw_heads)."""
        _add_to_group(self._filled_heads, key, (pen, color), head)

    def add_open_head(self, key: tuple, pen: QPen, head: QPolygonF) -> None:
        """An outlined head on white (keys, when roles are told apart by shape as well as colour); KEY names the pen
        and orders the groups."""
        _add_to_group(self._open_heads, key, pen, head)

    def flush(self, painter: QPainter, parts: Parts = Parts.ALL) -> None:
        """Draw everything collected (or only its PARTS), shafts first, and start empty again."""
        if Parts.SHAFTS in parts:
            for pen, lines in self._shafts.values():
                painter.setPen(pen)
                painter.drawLines(lines)
        if Parts.HEADS in parts:
            self._draw_heads(painter)
        self._shafts.clear()
        self._filled_heads.clear()
        self._open_heads.clear()

    def _draw_heads(self, painter: QPainter) -> None:
        # Groups in the order of their keys (the faintest first: a stronger head lies over a fainter one where
        # they meet), not in the order they were met: a layer's picture leaves out the arrows being changed, and
        # an order that hung on them would put two unchanged overlapping heads the other way round in a picture
        # than on the screen around it (a faint head's outline over another's fill shows).
        if self._filled_heads:
            for _, ((pen, color), heads) in sorted(self._filled_heads.items()):
                painter.setPen(pen)
                painter.setBrush(color)
                for head in heads:
                    painter.drawPolygon(head)
        if self._open_heads:
            painter.setBrush(WHITE)
            for _, (pen, heads) in sorted(self._open_heads.items()):
                painter.setPen(pen)
                for head in heads:
                    painter.drawPolygon(head)


def _add_to_group(groups: dict[Key, tuple[Tool, list[Shape]]], key: Key, tool: Tool, shape: Shape) -> None:
    """Add SHAPE to the group drawn with TOOL (a pen or a colour), which KEY names."""
    group = groups.get(key)
    if group is None:
        groups[key] = (tool, [shape])
    else:
        group[1].append(shape)
