"""A head's attention pattern as a small image: its weights as colour indices of viridis (masked cells grey),
at most MAX_THUMBNAIL_TOKENS a side. The grid of every head (pattern_thumbnails.py) draws these."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QImage

MAX_THUMBNAIL_TOKENS = 64  # longer sentences are sampled down: a thumbnail has only so many pixels
MASKED_RGB = (240, 240, 240)  # as the Attention matrix panel
MASKED_LEVEL = 255  # colour index of a masked cell; weights use 0..254


def colour_table() -> list[int]:
    """Viridis in MASKED_LEVEL steps, then the masked cells' grey: an indexed image's colours."""
    lut = np.asarray(pg.colormap.get("viridis").getLookupTable(0.0, 1.0, MASKED_LEVEL, alpha=False), dtype=np.uint32)
    table = [int(0xFF000000 | (r << 16) | (g << 8) | b) for r, g, b in lut]
    r, g, b = MASKED_RGB
    return table + [0xFF000000 | (r << 16) | (g << 8) | b]


def thumbnail_levels(weights: np.ndarray) -> np.ndarray:
    """(layers, heads, n, n) weights -> colour indices, masked (future) cells MASKED_LEVEL; at most
    MAX_THUMBNAIL_TOKENS a side."""
    n = weights.shape[-1]
    if n > MAX_THUMBNAIL_TOKENS:
        picked = np.linspace(0, n - 1, MAX_THUMBNAIL_TOKENS).round().astype(int)
        weights = weights[:, :, picked][:, :, :, picked]
        rows, columns = np.meshgrid(picked, picked, indexing="ij")
    else:
        rows, columns = np.indices((n, n))
    levels = np.clip(np.rint(weights * (MASKED_LEVEL - 1)), 0, MASKED_LEVEL - 1).astype(np.uint8)
    levels[..., columns > rows] = MASKED_LEVEL
    return np.ascontiguousarray(levels)


def thumbnail_image(levels: np.ndarray, side: int, colours: list[int]) -> QImage:
    """One head's LEVELS (side, side) as an image in COLOURS (colour_table())."""
    image = QImage(levels.data, side, side, side, QImage.Format.Format_Indexed8)
    image.setColorTable(colours)
    return image.copy()  # owns its pixels: the array may go
