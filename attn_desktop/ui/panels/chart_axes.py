"""The weights chart's two axes, which keep their area between changes instead of working it out at each ask.

In each paint of the chart Qt asks an axis, which is kept as a pixmap (plot_style.cache_axes_and_grid), for
its area three times (does it meet the repainted part; the painter's options; the pixmap), and pyqtgraph's
axis works it out each time in Python: its own rectangle, and with a grid the view's too, mapped between
items. That was a quarter of the chart's paint on a drag move (35 µs of 0.17 ms). The area changes only when
the axis or its view changes size or place (QGraphicsWidget.geometryChanged), when pyqtgraph says it does
(prepareGeometryChange, on a new grid or font) and when a style changes (the tick length, the labels'
overlap margin): the axes here forget it then, and work it out again, with pyqtgraph's code, at the next ask.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QRectF

from attn_desktop.ui.panels.token_axis import TokenAxis


class _AreaKept(pg.AxisItem):
    """Mixed into an axis class, ahead of it."""

    _area: QRectF | None = None  # also while pyqtgraph's constructor runs

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.geometryChanged.connect(self._forget_area)

    def boundingRect(self) -> QRectF:
        if self._area is None:
            self._area = super().boundingRect()
        return self._area  # Qt copies it

    def _forget_area(self, *_: object) -> None:
        self._area = None

    def prepareGeometryChange(self) -> None:
        self._forget_area()
        super().prepareGeometryChange()

    def setStyle(self, **kwargs: object) -> None:
        self._forget_area()
        super().setStyle(**kwargs)

    def linkToView(self, view: pg.ViewBox) -> None:
        super().linkToView(view)
        self._forget_area()
        view.geometryChanged.connect(self._forget_area)  # the grid covers the view


class WeightAxis(_AreaKept):
    """The vertical axis, of weights, whose grid lines cross the chart."""

    def __init__(self) -> None:
        super().__init__("left")


class NamesAxis(_AreaKept, TokenAxis):
    """The names under the bars (token_axis.py)."""
