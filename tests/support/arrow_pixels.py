"""Where a screenshot shows the strongest arrows, compared with where the model puts their tips.

Not a test module: tests/test_real_window.py reads a screenshot of the real window with it. An arrow is
drawn in its role's colour faded towards white by its weight, so its pixels lie on the line from white to
that colour; a strongly drawn arrow is the set of such pixels near the full colour (labels are drawn
darker, off that line, so they do not count). Directions and length ratios do not depend on the window's
size or the plot's zoom, only on the vectors, so they are read off the pixels and compared with the model.
"""

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from attn_desktop.model import HeadReading, Role

BLEND_TOLERANCE = 10  # how far (in 0-255 steps) a pixel may sit off the white-to-colour line: antialiasing
SEARCH_CONE = 30  # degrees either side of the model's direction in which an arrow's pixels are looked for


@dataclass
class DrawnArrow:
    pixels: int
    tail: np.ndarray  # screen pixels, y pointing up as on the plot
    tip: np.ndarray

    @property
    def direction_degrees(self) -> float:
        along = self.tip - self.tail
        return math.degrees(math.atan2(along[1], along[0]))

    @property
    def length(self) -> float:
        return float(np.linalg.norm(self.tip - self.tail))


def screen_pixels(png: Path) -> np.ndarray:
    """The screenshot as a height × width × 3 array of red, green, blue."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QImage

    image = QImage(str(png)).convertToFormat(QImage.Format.Format_RGB888)
    width, height = image.width(), image.height()
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(height, image.bytesPerLine())
    return rows[:, : width * 3].reshape(height, width, 3).astype(float)


def drawn_in(rgb: np.ndarray, hex_colour: str, strength: float) -> np.ndarray:
    """The (x, y) of pixels in this colour faded towards white by at most 1 - strength."""
    full_ink = 255 - np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)
    ink = 255 - rgb
    share = ink @ full_ink / (full_ink @ full_ink)
    off_line = np.linalg.norm(ink - share[..., None] * full_ink, axis=2)
    ys, xs = np.nonzero((share >= strength) & (off_line <= BLEND_TOLERANCE))
    return np.column_stack([xs, -ys]).astype(float)


def arrow_along(points: np.ndarray, direction: np.ndarray) -> DrawnArrow:
    """The arrow these pixels draw, its tail at the end the model's vector points away from."""
    assert len(points), "no pixels of that colour at that strength"
    along = points @ (direction / np.linalg.norm(direction))
    tail = points[along <= along.min() + 2].mean(axis=0)
    return arrow_from(points, tail, direction)


def arrow_from(points: np.ndarray, tail: np.ndarray, direction: np.ndarray, reach: float = math.inf) -> DrawnArrow:
    """The arrow these pixels draw from a known tail, counting only pixels within SEARCH_CONE degrees of the
    model's direction and within reach: the rest are other widgets (the weights chart's bars share the key
    colour). An arrow that points further off than the cone shows no pixels, so it still fails the test."""
    offset = points - tail
    distance = np.linalg.norm(offset, axis=1)
    turn = np.abs((np.degrees(np.arctan2(offset[:, 1], offset[:, 0])) - degrees(direction) + 180) % 360 - 180)
    near = points[(distance <= reach) & ((turn <= SEARCH_CONE) | (distance < 6))]
    tip = near[np.argmax(np.linalg.norm(near - tail, axis=1))] if len(near) else tail
    return DrawnArrow(len(near), tail, tip)


def degrees(vector: np.ndarray) -> float:
    return math.degrees(math.atan2(vector[1], vector[0]))


def strongest_arrows(shown: HeadReading) -> dict[str, np.ndarray]:
    """The vectors the window draws at full or near-full strength: the chosen query, the key it favours
    most, that key's value and the output."""
    top = int(np.argmax(shown.selected_weights))
    return {
        "query": shown.vectors(Role.QUERY)[shown.selected],
        "top key": shown.vectors(Role.KEY)[top],
        "top value": shown.vectors(Role.VALUE)[top],
        "output": np.asarray(shown.selected_output),
    }
