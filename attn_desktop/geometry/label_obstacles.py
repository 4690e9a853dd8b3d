"""The shapes arrow labels keep off (shafts, heads, leader lines), and the test of a label's box against them.

Plain geometry in view pixels, no Qt, like label_layout.py, which uses it: boxes are (left, top, right,
bottom) tuples; an arrow's parts are convex shapes. A plot's shapes are kept in a ShapeIndex from frame to
frame. A spot is tested against them one at a time, or many spots at once with NumPy: a label with no room
by its tip tries a few hundred spots, and a crowded plot (a 64-token scene) has hundreds of shapes.
"""

from __future__ import annotations

import math
from itertools import chain

import numpy as np

Box = tuple[float, float, float, float]
Point = tuple[float, float]
# A convex shape for the fast overlap test: its bounding box, then each edge's normal (nx, ny) with the
# interval the shape covers along it. A box overlaps the shape unless one of these axes separates them.
Obstacle = tuple[float, float, float, float, tuple[tuple[float, float, float, float], ...]]

CROWD = 40  # with more shapes than this, a spot is tested only against those whose boxes it touches
AXES = 3  # a shape has at most this many axes besides its box's: a head's three edges, a shaft's two sides


def convex_obstacle(points: list[Point], margin: float = 0.0) -> Obstacle:
    """The overlap-test form of a convex polygon (points in order), grown by `margin` on every side.

    Only the axes the bounding box does not already test are kept, one per direction: a parallel
    edge's axis gives the same interval, and an upright or level edge's is the box's own.
    """
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    axes = []
    directions: list[tuple[float, float]] = []
    count = len(points)
    x1, y1 = points[0]
    for index in range(count):  # (the head of every arrow a drag move changes: plain loops, no generators)
        x0, y0 = x1, y1
        x1, y1 = points[index + 1 - count]  # the next corner: the first again after the last
        length = math.hypot(x1 - x0, y1 - y0)
        if length < 1e-9:
            continue
        nx, ny = (y0 - y1) / length, (x1 - x0) / length
        if abs(nx) < 1e-12 or abs(ny) < 1e-12:
            continue
        for ox, oy in directions:
            if abs(nx * ox + ny * oy) > 1 - 1e-12:
                break
        else:
            directions.append((nx, ny))
            projections = [x * nx + y * ny for x, y in points]
            axes.append((nx, ny, min(projections) - margin, max(projections) + margin))
    return min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin, tuple(axes)


def segment_obstacle(x0: float, y0: float, x1: float, y1: float, half_width: float) -> Obstacle:
    """A straight stroke (an arrow's shaft, a leader line) of this half width: a rectangle along it.

    Worked out directly (a leader is tested for every spot that needs one): its box, and the two
    axes along and across the stroke.
    """
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1e-9:  # a square round the point: its box is the whole test
        return x0 - half_width, y0 - half_width, x0 + half_width, y0 + half_width, ()
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    reach_x, reach_y = abs(uy) * half_width, abs(ux) * half_width
    box = (min(x0, x1) - reach_x, min(y0, y1) - reach_y, max(x0, x1) + reach_x, max(y0, y1) + reach_y)
    if abs(ux) < 1e-12 or abs(uy) < 1e-12:  # upright or level: the box is the rectangle
        return *box, ()
    along_0, along_1 = x0 * ux + y0 * uy, x1 * ux + y1 * uy
    across = y0 * ux - x0 * uy
    axes = ((ux, uy, min(along_0, along_1), max(along_0, along_1)),
            (-uy, ux, across - half_width, across + half_width))
    return *box, axes


def box_hits(box: Box, obstacle: Obstacle) -> bool:
    """Whether a box and a convex obstacle overlap (separating axes)."""
    x0, y0, x1, y1 = box
    o0, o1, o2, o3, axes = obstacle
    if x0 >= o2 or o0 >= x1 or y0 >= o3 or o1 >= y1:
        return False
    cx, cy, half_w, half_h = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
    for nx, ny, low, high in axes:
        centre = cx * nx + cy * ny
        reach = half_w * abs(nx) + half_h * abs(ny)
        if centre + reach <= low or centre - reach >= high:
            return False
    return True


_NOWHERE: Obstacle = (math.inf, math.inf, -math.inf, -math.inf, ())  # an empty slot: overlaps nothing


class ShapeIndex:
    """A plot's arrow shapes, in slots of `per_owner` for each arrow, to ask which of them a box touches.

    Kept between frames: a drag move changes only a few arrows, and only their slots are written
    again. A few shapes are simply all tested; a crowd's bounding boxes are kept in arrays too, so
    one vectorised comparison picks the handful a spot's box touches. Every shape is also kept as a row
    of numbers (its box, then its axes), to test many spots at once (`hits_many`).

    With `shaft_slot`, each owner's shape in that slot is its shaft: the one part of an arrow an essential
    label may cover when nothing near its tip is free (`shafts_covered`).
    """

    def __init__(self, owners: int, per_owner: int = 2, shapes: list[Obstacle] | None = None,
                 shaft_slot: int | None = None) -> None:
        size = owners * per_owner
        self.per_owner = per_owner
        slots = np.arange(size)
        self._shafts = slots % per_owner == shaft_slot if shaft_slot is not None else slots < 0
        self.shapes: list[Obstacle] = list(shapes) if shapes is not None else [_NOWHERE] * size
        self.crowded = size > CROWD
        if self.crowded:
            boxes = np.array([shape[:4] for shape in self.shapes], dtype=float).reshape(-1, 4)
            self._lefts, self._tops, self._rights, self._bottoms = (boxes[:, side].copy() for side in range(4))
            self._objects = np.empty(size, dtype=object)
            self._objects[:] = self.shapes
        self._rows = np.array([_row(shape) for shape in self.shapes], dtype=float).reshape(-1, 4 + 4 * AXES)

    @classmethod
    def of(cls, obstacles: list[Obstacle]) -> ShapeIndex:
        """An index of these shapes, one slot each."""
        return cls(len(obstacles), 1, obstacles)

    @classmethod
    def of_owners(cls, shapes: list[list[Obstacle]], per_owner: int, shaft_slot: int | None = None) -> ShapeIndex:
        """An index of each owner's shapes (at most `per_owner` each), in slots in the owners' order; the
        shape in `shaft_slot` of each is a shaft."""
        padding = [[_NOWHERE] * (per_owner - count) for count in range(per_owner + 1)]
        slots = [shape for owned in shapes for shape in (*owned, *padding[len(owned)])]
        return cls(len(shapes), per_owner, slots, shaft_slot)

    def set(self, owner: int, shapes: list[Obstacle]) -> None:
        """The shapes of one owner (at most `per_owner` of them)."""
        first = owner * self.per_owner
        for slot in range(first, first + self.per_owner):
            shape = shapes[slot - first] if slot - first < len(shapes) else _NOWHERE
            self.shapes[slot] = shape
            self._rows[slot] = _row(shape)
            if self.crowded:
                self._objects[slot] = shape
                self._lefts[slot], self._tops[slot], self._rights[slot], self._bottoms[slot] = shape[:4]

    def touching(self, left: float, top: float, right: float, bottom: float) -> list[Obstacle]:
        """The shapes whose bounding boxes overlap this box (a few may not touch the box itself)."""
        if not self.crowded:
            return [shape for shape in self.shapes
                    if not (left >= shape[2] or shape[0] >= right or top >= shape[3] or shape[1] >= bottom)]
        near = (self._lefts < right) & (self._rights > left) & (self._tops < bottom) & (self._bottoms > top)
        near_shapes: list[Obstacle] = self._objects[near].tolist()
        return near_shapes

    def hit(self, box: Box, leaders: list[Obstacle]) -> bool:
        """Whether the box overlaps any shape or leader line."""
        return any(box_hits(box, shape) for shape in self.touching(*box)) or \
            any(box_hits(box, leader) for leader in leaders)

    def hits_a_head(self, box: Box) -> bool:
        """Whether the box overlaps a shape that is not a shaft (a head, a tip, a dot)."""
        left, top, right, bottom = box
        if self.crowded:
            near = (self._lefts < right) & (self._rights > left) & (self._tops < bottom) & (self._bottoms > top)
            slots = np.flatnonzero(near & ~self._shafts).tolist()
        else:
            slots = [slot for slot in range(len(self.shapes)) if not self._shafts[slot]]
        return any(box_hits(box, self.shapes[slot]) for slot in slots)

    def hits_many(self, boxes: np.ndarray) -> np.ndarray:
        """For each box (a row of left, top, right, bottom), whether it overlaps any shape: the test of
        box_hits, for all the boxes and the shapes near them at once."""
        spot, _ = self._overlaps(boxes)
        return np.bincount(spot, minlength=len(boxes)) > 0

    def shafts_covered(self, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each box: whether it overlaps a shape that is not a shaft (a head, a tip, a dot), and the
        summed thickness of the shafts it covers (a thick shaft hidden reads worse than a thin one)."""
        spot, slot = self._overlaps(boxes)
        shafts = self._shafts[slot]
        others = np.bincount(spot[~shafts], minlength=len(boxes)) > 0
        rows = self._rows[slot[shafts]]
        # A shaft is a thin rectangle: its thickness is its narrowest extent, across it (or across its box).
        extents = np.column_stack((rows[:, 2] - rows[:, 0], rows[:, 3] - rows[:, 1],
                                   *(rows[:, 7 + 4 * axis] - rows[:, 6 + 4 * axis] for axis in range(AXES))))
        thickness = extents.min(axis=1)
        return others, np.bincount(spot[shafts], weights=thickness, minlength=len(boxes))

    def _overlaps(self, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each pair of a box and a shape that overlap (box_hits), as two arrays: the box's row, the shape's slot."""
        lefts, tops, rights, bottoms = (boxes[:, side, None] for side in range(4))
        rows = self._rows
        slots = np.flatnonzero((rows[:, 0] < rights.max()) & (rows[:, 2] > lefts.min()) &
                               (rows[:, 1] < bottoms.max()) & (rows[:, 3] > tops.min()))
        rows = rows[slots]
        overlap = (lefts < rows[:, 2]) & (rows[:, 0] < rights) & (tops < rows[:, 3]) & (rows[:, 1] < bottoms)
        # Only the pairs whose boxes overlap need their axes tested: a few per spot, of hundreds.
        spot, shape = np.nonzero(overlap)
        if not len(spot):
            return spot, shape
        axes = rows[shape, 4:].reshape(-1, AXES, 4)
        nx, ny, low, high = axes[..., 0], axes[..., 1], axes[..., 2], axes[..., 3]
        x0, y0, x1, y1 = (boxes[spot, side, None] for side in range(4))
        centre = (x0 + x1) / 2 * nx + (y0 + y1) / 2 * ny
        reach = (x1 - x0) / 2 * np.abs(nx) + (y1 - y0) / 2 * np.abs(ny)
        separated = ((centre + reach <= low) | (centre - reach >= high)).any(axis=1)
        return spot[~separated], slots[shape[~separated]]


_NO_AXIS = (0.0, 0.0, -math.inf, math.inf)  # separates nothing: pads a shape's axes to AXES


# The padding after a shape's own axes, by how many it has (all numbers, flat).
_PADDING = [tuple(value for _ in range(AXES - count) for value in _NO_AXIS) for count in range(AXES + 1)]


def _row(shape: Obstacle) -> list[float]:
    """A shape as one row of numbers: its box, then AXES axes (nx, ny, low, high), padded."""
    axes = shape[4]
    return [*shape[:4], *chain.from_iterable(axes), *_PADDING[len(axes)]]
