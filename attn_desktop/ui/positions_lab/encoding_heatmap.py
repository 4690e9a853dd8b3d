"""The sinusoidal encoding as a picture: positions down, dimensions across, −1 blue to +1 red.

The first dimensions change from one position to the next (fast waves: stripes); the last hardly at all
(slow ones: a flat colour), so every position gets a pattern of its own.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

from attn_desktop.language import tr
from attn_desktop.model.teaching.positions_lab import HEATMAP_POSITIONS, HEATMAP_WIDTH, encoding_heatmap
from attn_desktop.ui.language.plot_direction import keep_left_to_right
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.plot_style import cache_axes_and_grid
from attn_desktop.ui.positions_lab.lab_plot import PLOT_HEIGHT, make_still


class EncodingHeatmap(pg.PlotWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        keep_left_to_right(self)  # x to the right and the y axis on the left, in Arabic too
        plot = self.getPlotItem()
        make_still(plot)
        plot.invertY(True)  # position 0 at the top, as a table of vectors reads
        cache_axes_and_grid(plot)
        self.encoding = encoding_heatmap()
        # ImageItem's first axis runs along x: dimensions across, positions down.
        self.image = pg.ImageItem(self.encoding.T, levels=(-1.0, 1.0))
        self.image.setColorMap(pg.colormap.get("CET-D1"))
        plot.addItem(self.image)
        plot.setXRange(0, HEATMAP_WIDTH, padding=0)
        plot.setYRange(0, HEATMAP_POSITIONS, padding=0)
        self.setFixedHeight(PLOT_HEIGHT)
        self._reword()
        follow_language(self, self._reword)

    def _reword(self) -> None:
        plot = self.getPlotItem()
        # Translators: the axes of the picture of the sinusoidal encoding (Positions lab, Added page).
        plot.setLabel("bottom", tr("dimension"))
        plot.setLabel("left", tr("position"))
        self.setToolTip(tr("PE for positions 0 to {last} (down) in {width} dimensions (across): sin and cos, "
                           "each pair a slower wave than the one before").format(last=HEATMAP_POSITIONS - 1,
                                                                                width=HEATMAP_WIDTH))
