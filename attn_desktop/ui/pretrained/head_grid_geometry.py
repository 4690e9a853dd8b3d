"""Where the grid of every head (pattern_thumbnails.py) puts each thumbnail: layers down, heads across, a
wider gap and a band over each group of query heads that read one key/value head, the headings' room.
Plain arithmetic on the grid's shape, its cell size and what its font measures."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPoint, QRect

MIN_CELL = 16  # px: a thumbnail smaller than this shows no pattern a class can see
READABLE_CELL = 26  # px: a 24-px thumbnail and its gap, what a class reads from the back of the room
MAX_CELL = 72
GAP = 2  # px between thumbnails
GROUP_GAP = 6  # px more between heads that read different key/value heads: the groups show as blocks


@dataclass(frozen=True)
class GridGeometry:
    layers: int
    heads: int
    group: int  # query heads per key/value head; 1: every head has its own
    cell: int  # a thumbnail's side and the gap after it
    label_width: int  # the layers' labels ("L29") left of the grid
    line_height: int  # the font's

    def grouped(self) -> bool:
        """Groups shown only when there are at least two: one group of every head is no sharing to see."""
        return 1 < self.group < self.heads

    def group_gap(self) -> int:
        return GROUP_GAP if self.grouped() else 0

    def group_count(self) -> int:
        return -(-self.heads // self.group) if self.grouped() else 1

    def band_height(self) -> int:
        return self.line_height + 4 if self.grouped() else 0

    def header_height(self) -> int:
        return self.band_height() + self.line_height + 4

    def gaps_width(self) -> int:
        return (self.group_count() - 1) * self.group_gap()

    def column_left(self, head: int) -> int:
        """Heads at equal steps, and GROUP_GAP more before each new key/value group."""
        return self.label_width + head * self.cell + (head // self.group) * self.group_gap()

    def fitted_cell(self, width: int) -> int:
        """Cells as wide as WIDTH allows, within MIN_CELL..MAX_CELL."""
        room = width - self.label_width - 2 - self.gaps_width()
        return int(min(MAX_CELL, max(MIN_CELL, room // max(self.heads, 1))))

    def readable_width(self) -> int:
        """The width that gives every head of a layer a READABLE_CELL side by side."""
        return self.label_width + self.heads * READABLE_CELL + self.gaps_width() + 2

    def height(self) -> int:
        return self.header_height() + self.layers * self.cell + 2

    def cell_rect(self, layer: int, column_left: int) -> QRect:
        """Where a head's thumbnail is drawn, in the widget's coordinates (COLUMN_LEFT: its column's left edge)."""
        return QRect(column_left, self.header_height() + layer * self.cell, self.cell - GAP, self.cell - GAP)

    def head_at(self, point: QPoint) -> tuple[int, int] | None:
        """The head under a point; None over the labels, the band or a gap between groups."""
        cell = self.cell
        x, y = point.x() - self.label_width, point.y() - self.header_height()
        if x < 0 or y < 0:
            return None
        group = self.group if self.grouped() else 1
        group_span = group * cell + self.group_gap()
        group_index, inside = divmod(x, group_span)
        if inside >= group * cell:
            return None  # between two groups
        layer, head = y // cell, group_index * group + inside // cell
        if layer >= self.layers or head >= self.heads:
            return None
        return int(layer), int(head)
