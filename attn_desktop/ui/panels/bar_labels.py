"""The weights chart's percentages over its bars, drawn by one item in the chart's own paint.

As pyqtgraph TextItems each percentage was a rich-text document and an item of its own: a new text laid
its document out again (about 60 µs on a drag move), a move of its bar moved the item (20 µs, through
pyqtgraph's change hooks) and each was painted on its own. Here each text is laid out once per font
(QStaticText) and measured as the TextItem's document measured it (a one-pixel margin round the text),
and one item draws every shown label in pixels, where its anchor puts it by its point, as the matrix
draws its numbers. What the chart reports as drawn (rect_on_screen) is what the paint uses.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QStaticText, QTextDocument, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

TEXT_MARGIN_PX = 1.0  # round the text, inside its box: boxes apart mean texts apart
MEASURED_TEXTS = 512  # the texts kept laid out: every percentage, "masked", "?" and a guess's differences


class BarLabel:
    """One label: its text, the point it stands on (data units: its bar's centre and top), its anchor ((0.5, 1.0):
    centred over the point) and whether it is shown. The calls are TextItem's, which it replaced."""

    def __init__(self, owner: BarLabels, x: float) -> None:
        self._owner = owner
        self._text = ""
        self._pos = QPointF(x, 0.0)
        self.anchor = QPointF(0.5, 1.0)
        self._visible = True

    def toPlainText(self) -> str:  # the calls are TextItem's, which the tests read
        return self._text

    def setText(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self._owner.update()

    def pos(self) -> QPointF:
        return QPointF(self._pos)

    def setPos(self, x: float, y: float) -> None:
        if (x, y) != (self._pos.x(), self._pos.y()):
            self._pos = QPointF(x, y)
            self._owner.update()

    def setAnchor(self, anchor: tuple[float, float]) -> None:
        self.anchor = QPointF(*anchor)
        self._owner.update()

    def isVisible(self) -> bool:
        return self._visible

    def setVisible(self, visible: bool) -> None:
        if visible != self._visible:
            self._visible = visible
            self._owner.update()

    def size(self) -> QSizeF:
        """The label's box in pixels: its text and the margin round it."""
        return self._owner.size_of(self._text)


class BarLabels(QGraphicsItem):
    """Draws its LABELS in COLOR and its font; its area is the plot's view, which the labels stay in."""

    def __init__(self, view_box: pg.ViewBox, color: QColor) -> None:
        super().__init__()
        self._view_box = view_box
        self._bounds = QRectF(view_box.viewRect())
        self._color = QColor(color)
        self._font = QFont()
        self._laid_out: dict[str, tuple[QStaticText, QSizeF]] = {}
        self.labels: list[BarLabel] = []
        view_box.sigTransformChanged.connect(self._follow_view)

    def make(self, count: int) -> list[BarLabel]:
        """COUNT labels, one over each bar (at x = 0, 1, …), empty until given a text."""
        self.labels = [BarLabel(self, float(index)) for index in range(count)]
        self.update()
        return self.labels

    def set_font(self, font: QFont) -> None:
        if font != self._font:
            self._font = QFont(font)
            self._laid_out.clear()
            self.update()

    def size_of(self, text: str) -> QSizeF:
        return QSizeF(self._layout(text)[1])

    def _layout(self, text: str) -> tuple[QStaticText, QSizeF]:
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
            laid_out = self._laid_out[text] = static, document.size()
        return laid_out

    def rect_on_screen(self, label: BarLabel, to_screen: QTransform) -> QRectF:
        """The label's box in the pixels TO_SCREEN maps the chart's data to: by its point, as its anchor says."""
        point = to_screen.map(label.pos())
        size = self.size_of(label.toPlainText())
        return QRectF(point.x() - label.anchor.x() * size.width(), point.y() - label.anchor.y() * size.height(),
                      size.width(), size.height())

    def shown(self) -> list[BarLabel]:
        return [label for label in self.labels if label.isVisible() and self.isVisible()]

    def _follow_view(self, *_: object) -> None:
        view = QRectF(self._view_box.viewRect())
        if view != self._bounds:
            self.prepareGeometryChange()
            self._bounds = view
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(self._bounds)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        to_screen = painter.transform()
        painter.resetTransform()  # the texts are drawn in pixels
        painter.setFont(self._font)
        painter.setPen(self._color)
        for label in self.shown():
            if label.toPlainText():
                static, _ = self._layout(label.toPlainText())
                corner = self.rect_on_screen(label, to_screen).topLeft()
                painter.drawStaticText(corner + QPointF(TEXT_MARGIN_PX, TEXT_MARGIN_PX), static)
        painter.setTransform(to_screen)
