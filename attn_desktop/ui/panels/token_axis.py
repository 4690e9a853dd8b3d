"""The weights chart's bottom axis: one name under each bar, never running into the next.

pyqtgraph draws every tick label centred under its tick whether or not it
fits, so "The cat sat on the mat" became "Thecatsat…". Here each name is drawn
whole if all fit side by side; else elided if each keeps a few letters; else
turned upright (reading upwards, elided to a few letters), and thinned to
every second or third bar only when even upright names are wider than a bar.
The chart's tooltip gives every bar's full name.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFont, QFontInfo, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsSceneResizeEvent

UPRIGHT_CHARS = 6  # an upright name takes at most about this many letters' height
MIN_LABEL_PIXELS = 10.0  # names are never set smaller than this ...
MIN_LABEL_SHARE = 0.8  # ... nor below this share of the tick font (presentation mode enlarges it)
SHORTEST_ELIDED = "Mmm…"  # side by side, a cut name must keep about this much to be worth reading


@dataclass(frozen=True)
class TickLabel:
    index: int  # the bar it names
    text: str  # as drawn (maybe elided)
    rect: QRectF  # where it is drawn, in the axis's coordinates (upright labels: their upright extent)
    upright: bool


Layout = tuple[QFont, list[TickLabel]]  # the names' font, and each name where it is drawn
Line = tuple[QPen, QPointF, QPointF]  # pyqtgraph's drawing of a line: its pen and ends


class TokenAxis(pg.AxisItem):
    tokens: tuple[str, ...] = ()  # a class default: pyqtgraph's constructor already lays the axis out

    def __init__(self) -> None:
        super().__init__("bottom")

    def set_tokens(self, tokens: list[str]) -> None:
        self.tokens = tuple(tokens)
        self.setTicks([[(index, "") for index in range(len(self.tokens))]])  # tick marks; names drawn here
        self._fit_height()

    def _font(self) -> QFont:
        return self.style["tickFont"] or QFont()

    def _text_top(self) -> float:
        return max(0, self.style["tickLength"]) + self.style["tickTextOffset"][1]

    def label_layout(self) -> list[TickLabel]:
        """The names as drawn at the current width and font (tooltips have them whole)."""
        return self._layout()[1]

    def label_font(self) -> QFont:
        """The font the names are drawn in: the tick font, or smaller (never below a readable size) when
        upright names would otherwise have to skip bars."""
        return self._layout()[0]

    def _layout(self) -> tuple[QFont, list[TickLabel]]:
        font = QFont(self._font())
        count = len(self.tokens)
        low, high = self.range
        bounds = self.mapRectFromParent(self.geometry())
        if count == 0 or high <= low or bounds.width() <= 0:
            return font, []
        slot = bounds.width() / (high - low)  # pixels from one bar to the next
        centres = [bounds.left() + (index - low) * slot for index in range(count)]
        metrics = QFontMetricsF(font)
        line, top = metrics.height(), self._text_top()
        room = slot - metrics.averageCharWidth()  # a gap of about a letter between names
        if all(metrics.horizontalAdvance(token) <= room for token in self.tokens) or \
                room >= metrics.horizontalAdvance(SHORTEST_ELIDED):
            labels = []
            for index, token in enumerate(self.tokens):
                text = metrics.elidedText(token, Qt.TextElideMode.ElideRight, room)
                width = metrics.horizontalAdvance(text)
                labels.append(TickLabel(index, text, QRectF(centres[index] - width / 2, top, width, line), False))
            return font, labels
        if line + 2 > slot:  # upright names wider than a bar: smaller type before skipping any
            smallest = max(MIN_LABEL_PIXELS, MIN_LABEL_SHARE * QFontInfo(font).pixelSize())
            pixels = max(smallest, QFontInfo(font).pixelSize() * (slot - 2) / (line + 2))
            font.setPixelSize(max(1, int(pixels)))
            metrics = QFontMetricsF(font)
            line = metrics.height()
        longest = self._upright_length(metrics)
        every = max(1, math.ceil((line + 2) / slot))
        labels = []
        for index in range(0, count, every):
            text = metrics.elidedText(self.tokens[index], Qt.TextElideMode.ElideRight, longest)
            length = metrics.horizontalAdvance(text)
            labels.append(TickLabel(index, text, QRectF(centres[index] - line / 2, top, line, length), True))
        return font, labels

    def _upright_length(self, metrics: QFontMetricsF) -> float:
        widest = max((metrics.horizontalAdvance(token) for token in self.tokens), default=0.0)
        return min(widest, metrics.averageCharWidth() * UPRIGHT_CHARS + metrics.horizontalAdvance("…"))

    def _fit_height(self) -> None:
        """Room under the axis for the names: one line, or the longest upright name."""
        font, labels = self._layout()
        extent = max((label.rect.height() for label in labels), default=QFontMetricsF(font).height())
        height = math.ceil(self._text_top() + extent + 2)
        if self.fixedHeight != height:
            self.setHeight(height)

    def resizeEvent(self, event: QGraphicsSceneResizeEvent | None = None) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def setStyle(self, **kwargs: object) -> None:
        super().setStyle(**kwargs)
        if hasattr(self, "style"):  # the tick font changes the names' room
            self._fit_height()

    def generateDrawSpecs(self, painter: QPainter) -> tuple[Line, list[Line], Layout] | None:
        specs = super().generateDrawSpecs(painter)
        if specs is None:
            return None
        axis, ticks, _ = specs
        self._fit_height()
        return axis, ticks, self._layout()

    def drawPicture(self, painter: QPainter, axisSpec: Line, tickSpecs: list[Line], layout: Layout) -> None:
        super().drawPicture(painter, axisSpec, tickSpecs, [])
        font, labels = layout
        painter.setFont(font)
        painter.setPen(self.textPen())
        for label in labels:
            if not label.upright:
                painter.drawText(label.rect, int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextDontClip), label.text)
                continue
            painter.save()
            # Turned a quarter left, the name reads upwards and ends at the axis.
            painter.translate(label.rect.center().x(), label.rect.top())
            painter.rotate(-90)
            box = QRectF(-label.rect.height(), -label.rect.width() / 2, label.rect.height(), label.rect.width())
            painter.drawText(box, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), label.text)
            painter.restore()
