"""The weights chart's plot and view box, which draw nothing of their own: their children (the axes, the bars,
the percentages) do. Told so (ItemHasNoContents), Qt neither asks them where they lie nor calls their paint on
each repaint of the chart, which pyqtgraph answers in Python (the view box's area three times and its paint,
which strokes its border with no pen; the plot's area twice): about 15 µs of a drag move's chart paint. The
view box still clips its children to its shape: Qt asks that of an item that clips, contents or none.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsItem


def draw_nothing_of_their_own(plot: pg.PlotItem) -> None:
    """PLOT (a QGraphicsWidget that paints no background) and its view box, if its border has no pen."""
    items: list[QGraphicsItem] = [plot]
    view_box = plot.getViewBox()
    if view_box.border is None or view_box.border.style() == Qt.PenStyle.NoPen:
        items.append(view_box)
    for item in items:
        item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents)
