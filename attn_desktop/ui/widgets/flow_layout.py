"""A row of widgets that goes on to the next line when the panel is too narrow for it.

A QHBoxLayout asks for the sum of its widgets' widths: a heading and a button beside it, both longer in
Spanish or the pseudo-language, widened the lesson's column and with it narrowed the canvas's plots on a
1024 screen. Here the row asks only for its widest widget; the others go under it when they do not fit.
On a line of two or more, the space left over goes before the last widget (a button at the far edge), or,
for a row of equal buttons, after them all.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QStyle, QWidget

SPACING_PX = 6


class FlowLayout(QLayout):
    def __init__(self, parent: QWidget | None = None, last_to_far_edge: bool = True) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._last_to_far_edge = last_to_far_edge
        self.setSpacing(SPACING_PX)
        self.setContentsMargins(0, 0, 0, 0)

    def add_widgets(self, *widgets: QWidget) -> None:
        for widget in widgets:
            self.addWidget(widget)

    # ----- QLayout's bookkeeping -------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:
        """All on one line."""
        shown = self._shown()
        width = sum(item.sizeHint().width() for item in shown) + self.spacing() * max(0, len(shown) - 1)
        height = max((item.sizeHint().height() for item in shown), default=0)
        return self._with_margins(QSize(width, height))

    def minimumSize(self) -> QSize:
        """The widest widget, each on its own line."""
        shown = self._shown()
        return self._with_margins(QSize(max((item.minimumSize().width() for item in shown), default=0),
                                        max((item.minimumSize().height() for item in shown), default=0)))

    # ----- placing -----------------------------------------------------------
    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def _with_margins(self, size: QSize) -> QSize:
        margins = self.contentsMargins()
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def _lines(self, width: int) -> list[list[tuple[QLayoutItem, int]]]:
        """The widgets line by line, each with its width: as wide as it asks, never wider than the line."""
        lines: list[list[tuple[QLayoutItem, int]]] = [[]]
        used = 0
        for item in self._shown():
            item_width = max(item.minimumSize().width(), min(item.sizeHint().width(), width))
            if lines[-1] and used + self.spacing() + item_width > width:
                lines.append([])
                used = 0
            used += (self.spacing() if lines[-1] else 0) + item_width
            lines[-1].append((item, item_width))
        return [line for line in lines if line]

    def _place(self, rect: QRect, move: bool) -> int:
        """Lay the widgets out in RECT (only measure unless MOVE); the height they take."""
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        owner = self.parentWidget()
        direction = owner.layoutDirection() if owner is not None else Qt.LayoutDirection.LeftToRight
        top = area.y()
        for number, line in enumerate(self._lines(area.width())):
            if number:
                top += self.spacing()
            heights = [_height(item, width) for item, width in line]
            line_height = max(heights)
            if move:
                left = area.x()
                left_over = area.width() - sum(width for _, width in line) - self.spacing() * (len(line) - 1)
                for index, ((item, width), height) in enumerate(zip(line, heights)):
                    if self._last_to_far_edge and index and index == len(line) - 1:
                        left += max(0, left_over)
                    box = QRect(QPoint(left, top + (line_height - height) // 2), QSize(width, height))
                    item.setGeometry(QStyle.visualRect(direction, area, box))  # right to left: mirrored
                    left += width + self.spacing()
            top += line_height
        return top - rect.y() + margins.bottom()


def _height(item: QLayoutItem, width: int) -> int:
    return item.heightForWidth(width) if item.hasHeightForWidth() else item.sizeHint().height()


__all__ = ["FlowLayout"]
