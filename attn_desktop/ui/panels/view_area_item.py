"""An item of a pyqtgraph plot whose area is the plot's whole view (the weights chart's bars and percentages).

Such an item never measures itself again when what it draws changes (a new weight, a new text): its area
changes only with the view (a resize, a new range), which a drag move leaves alone. So a move costs no
geometry change, and Qt, which asks an item for its area before each paint, gets a stored rectangle. The
view box clips its children to the view, so nothing could be drawn outside that area anyway.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QGraphicsItem


class ViewAreaItem(QGraphicsItem):
    def __init__(self, view_box: pg.ViewBox) -> None:
        super().__init__()
        self._view_box = view_box
        self._bounds = QRectF(view_box.viewRect())
        view_box.sigTransformChanged.connect(self._follow_view)

    def _follow_view(self, *_: object) -> None:
        view = QRectF(self._view_box.viewRect())
        if view != self._bounds:
            self.prepareGeometryChange()
            self._bounds = view
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds  # Qt copies it
