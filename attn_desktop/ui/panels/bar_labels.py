"""The weights chart's percentages over its bars, drawn by one item in the chart's own paint.

As pyqtgraph TextItems each percentage was a rich-text document and an item of its own: a new text laid
its document out again (about 60 µs on a drag move), a move of its bar moved the item (20 µs, through
pyqtgraph's change hooks) and each was painted on its own. Here each text is laid out once per font
(QStaticText) and measured as the TextItem's document measured it (a one-pixel margin round the text),
and one item draws every shown label in pixels, where its anchor puts it by its point, as the matrix
draws its numbers. What the chart reports as drawn (rect_on_screen) is what the paint uses.
"""

from __future__ import annotations

from typing import cast

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QStaticText, QTextDocument, QTransform
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from attn_desktop.ui.panels.view_area_item import ViewAreaItem

TEXT_MARGIN_PX = 1.0  # round the text, inside its box: boxes apart mean texts apart
MEASURED_TEXTS = 512  # the texts kept laid out: every percentage, "masked", "?" and a guess's differences


class BarLabel:
    """One label: its text, the point it stands on (data units: its bar's centre and top), its anchor ((0.5, 1.0):
    centred over the point), its text laid out and its box's size in pixels, and whether it is shown. The calls are
    TextItem's, which it replaced; the chart's placement and paint, on every drag move, read the plain attributes."""

    def __init__(self, owner: BarLabels, x: float) -> None:
        self._owner = owner
        self.text = ""
        self.lay_out()
        self.x, self.y = x, 0.0
        self.anchor_x, self.anchor_y = 0.5, 1.0
        self.visible = True

    @property
    def anchor(self) -> QPointF:
        return QPointF(self.anchor_x, self.anchor_y)

    def toPlainText(self) -> str:  # the calls are TextItem's, which the tests read
        return self.text

    def setText(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.lay_out()
            self._owner.update()

    def pos(self) -> QPointF:
        return QPointF(self.x, self.y)

    def setPos(self, x: float, y: float) -> None:
        if x != self.x or y != self.y:
            self.x, self.y = x, y
            self._owner.update()

    def setAnchor(self, anchor: tuple[float, float]) -> None:
        if anchor != (self.anchor_x, self.anchor_y):
            self.anchor_x, self.anchor_y = anchor
            self._owner.update()

    def isVisible(self) -> bool:
        return self.visible

    def setVisible(self, visible: bool) -> None:
        if visible != self.visible:
            self.visible = visible
            self._owner.update()

    def lay_out(self) -> None:
        """The label's text laid out in its layer's font, and its box (the margin round the text included)."""
        self.static, self.width, self.height = self._owner.lay_out(self.text)


class BarLabels(ViewAreaItem):
    """Draws its LABELS in COLOR and its font; its area is the plot's view, which the labels stay in."""

    def __init__(self, view_box: pg.ViewBox, color: QColor) -> None:
        super().__init__(view_box)
        self._color = QColor(color)
        self._font = QFont()
        self._laid_out: dict[str, tuple[QStaticText, float, float]] = {}  # each text, and its box's width, height
        self.labels: list[BarLabel] = []

    def make(self, count: int) -> list[BarLabel]:
        """COUNT labels, one over each bar (at x = 0, 1, …), empty until given a text."""
        self.labels = [BarLabel(self, float(index)) for index in range(count)]
        self.update()
        return self.labels

    def set_font(self, font: QFont) -> None:
        if font != self._font:
            self._font = QFont(font)
            self._laid_out.clear()
            for label in self.labels:
                label.lay_out()
            self.update()

    def lay_out(self, text: str) -> tuple[QStaticText, float, float]:
        """TEXT laid out in the layer's font, and the width and height in pixels of its box."""
        laid_out = self._laid_out.get(text)
        if laid_out is None:
            if len(self._laid_out) >= MEASURED_TEXTS:
                self._laid_out.clear()
            static = QStaticText(text)
            static.setTextFormat(Qt.TextFormat.PlainText)
            static.prepare(QTransform(), self._font)
            document = QTextDocument()  # measured as the TextItem's document was: the same boxes, the same gaps
            document.setDocumentMargin(TEXT_MARGIN_PX)
            document.setDefaultFont(self._font)
            document.setPlainText(text)
            size = document.size()
            laid_out = self._laid_out[text] = static, size.width(), size.height()
        return laid_out

    def rect_on_screen(self, label: BarLabel, to_screen: QTransform) -> QRectF:
        """The label's box in the pixels TO_SCREEN maps the chart's data to: by its point, as its anchor says."""
        x, y = cast(tuple[float, float], to_screen.map(label.x, label.y))  # the pair of numbers (no QPointF)
        width, height = label.width, label.height
        return QRectF(x - label.anchor_x * width, y - label.anchor_y * height, width, height)

    def shown(self) -> list[BarLabel]:
        return [label for label in self.labels if label.visible] if self.isVisible() else []

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        to_screen = painter.transform()
        painter.resetTransform()  # the texts are drawn in pixels
        painter.setFont(self._font)
        painter.setPen(self._color)
        for label in self.labels:
            if label.visible and label.text:
                x, y = cast(tuple[float, float], to_screen.map(label.x, label.y))  # rect_on_screen's corner, the same sums
                painter.drawStaticText(QPointF(x - label.anchor_x * label.width + TEXT_MARGIN_PX,
                                               y - label.anchor_y * label.height + TEXT_MARGIN_PX), label.static)
        painter.setTransform(to_screen)
