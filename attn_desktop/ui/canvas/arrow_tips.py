"""The arrows' tips kept on the scene's vectors, and what each moved arrow's tooltip says.

A drag move changes one row of one role's vectors. Comparing each role's vectors with those its arrows last
showed finds that row without asking every arrow (a crowded scene has 192). A tooltip never shows while a
mouse button is held (Qt wakes tooltips only on moves with no button down), so the arrows a drag moves are
described once, when it ends.
"""

from __future__ import annotations

import numpy as np

from attn_desktop.model import HeadReading, Role
from attn_desktop.ui.canvas.arrow_item import ArrowItem
from attn_desktop.ui.canvas.drag_controller import DragController


class ArrowTips:
    """Moves the ARROWS (the canvas's own table, read as it is at each sync) to the vectors of their role."""

    def __init__(self, arrows: dict[Role, list[ArrowItem]], drags: DragController) -> None:
        self.arrows = arrows
        self.drags = drags
        self._drawn_vectors: dict[Role, np.ndarray] = {}  # each role's vectors as the arrows last showed them
        self._tooltips_due: set[tuple[Role, int]] = set()  # arrows moved mid-drag, described once it ends

    def sync(self, reading: HeadReading, weights: np.ndarray, number_line: bool, only_moved: bool) -> None:
        """Every arrow's tip on its vector (values on a NUMBER_LINE: as tall as their WEIGHTS). ONLY_MOVED: look
        only at the vectors that changed since the last sync; the tips then depend on nothing else, unless drawn
        in a PCA plane or, for values on a number line, at the height of their weights."""
        mid_drag = self.drags.dragged_arrow() is not None
        for role in reading.roles:
            on_number_line = role is Role.VALUE and number_line
            vectors = reading.vectors(role)
            previous = self._drawn_vectors.get(role)
            if (only_moved and previous is not None and previous.shape == vectors.shape and not on_number_line
                    and not self.drags.planes.showing_pca):
                # A drag move changes one role's vectors: the others are the same bytes as last time.
                if vectors.tobytes() == previous.tobytes():
                    continue
                indices = np.flatnonzero(np.any(vectors != previous, axis=1)).tolist()
            else:
                indices = range(len(vectors))
            self._drawn_vectors[role] = vectors.copy()
            items = self.arrows[role]
            for index in indices:
                item, vector = items[index], vectors[index]
                if on_number_line:
                    item.set_base(float(vector[0]), 0.0)
                    moved = item.set_tip(float(vector[0]), float(weights[index]))
                else:
                    moved = item.set_tip(*self.drags.tip_of(vector, role))
                if moved and mid_drag:
                    self._tooltips_due.add((role, index))
                elif moved:
                    item.setToolTip(self.drags.describe(role, index))

    def describe_moved_arrows(self, reading: HeadReading) -> None:
        """The tooltips of the arrows a drag moved, once it is over."""
        due, self._tooltips_due = self._tooltips_due, set()
        for role, index in due:
            if index < len(self.arrows[role]) and role in reading.roles:
                self.arrows[role][index].setToolTip(self.drags.describe(role, index))
