"""A sentence across the top of the canvas, wrapped to its width: what a scene taken from a model holds.

Kept in the canvas itself (not a widget beside it), so it is in every picture of the
canvas that is copied or exported, and it moves with the canvas in presentation mode.
"""

from __future__ import annotations

import html

import pyqtgraph as pg
from PySide6.QtWidgets import QSizePolicy

NOTICE_POINTS = 9.0  # a little smaller than the plots' titles: a note, not a heading
NOTICE_MARGIN_PX = 24  # the layout's own margins round the text


class CanvasNotice(pg.LabelItem):
    def __init__(self) -> None:
        super().__init__("", justify="left")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.sentence = ""
        self._shown: tuple[str, float, float] | None = None  # what was last wrapped, at which width and size

    def show_sentence(self, sentence: str, width_px: float, scale: float) -> None:
        """Wrap SENTENCE to WIDTH_PX in type SCALE times the everyday size; fixed as tall as its lines."""
        if (sentence, width_px, scale) == self._shown:
            return  # as it is: setting the text again would lay the canvas out again
        self._shown = (sentence, width_px, scale)
        self.sentence = sentence
        self.item.setTextWidth(max(width_px - NOTICE_MARGIN_PX, 80.0))
        self.setText(html.escape(sentence), size=f"{NOTICE_POINTS * scale:.1f}pt", color="#333333")
        height = self.item.boundingRect().height()
        self.setMinimumHeight(height)
        self.setMaximumHeight(height)
        self.setToolTip(sentence)
