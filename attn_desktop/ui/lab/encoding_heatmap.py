"""The sinusoidal encoding as a picture: positions down, dimensions across, −1 blue to +1 red.

The first dimensions change from one position to the next (fast waves: stripes); the last hardly at all
(slow ones: a flat colour), so every position gets a pattern of its own.
"""

from __future__ import annotations

import pyqtgraph as pg

from attn_desktop.model.teaching.positions_lab import HEATMAP_POSITIONS, HEATMAP_WIDTH, encoding_heatmap
from attn_desktop.ui.lab.lab_plot import PLOT_HEIGHT, make_still
from attn_desktop.ui.plot_style import cache_axes_and_grid


class EncodingHeatmap(pg.PlotWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        plot = self.getPlotItem()
        make_still(plot)
        plot.setLabel("bottom", "dimension")
        plot.setLabel("left", "position")
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
        self.setToolTip(f"PE for positions 0 to {HEATMAP_POSITIONS - 1} (down) in {HEATMAP_WIDTH} dimensions "
                        "(across): sin and cos, each pair a slower wave than the one before")
