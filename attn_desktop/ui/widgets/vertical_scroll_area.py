"""A scroll area that scrolls up and down only, and asks for the width its content needs to be read.

A QScrollArea asks for a few dozen pixels whatever it holds, so a column narrowed to its panels' least
widths (a 1024 screen) cut a tall panel's content at the side and scrolled it sideways: the Training
panel's task text, its Reset button and its curves. This one passes its content's least width on (with the
scroll bar's), so the column is never narrower than the content, and the content wraps into its height.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QStyle, QWidget


class VerticalScrollArea(QScrollArea):
    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(content)
        content.installEventFilter(self)  # its least width changes with its texts (another language)

    def minimumSizeHint(self) -> QSize:
        content = self.widget()
        least = super().minimumSizeHint()
        if content is None:
            return least
        # The scroll bar's width is kept whether it shows or not: the column does not change as the panel grows.
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
        return QSize(content.minimumSizeHint().width() + bar + 2 * self.frameWidth(), least.height())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        content = self.widget()
        if content is not None and watched is content and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
            self._fit_height(content)
        return super().eventFilter(watched, event)

    def _fit_height(self, content: QWidget) -> None:
        """The content as tall as its texts now need at its width, at once: a text that grew a line (another
        task's description, a larger font) waited for the scroll area's next resize, its last lines cut."""
        layout = content.layout()
        if layout is None or not layout.hasHeightForWidth():
            return
        layout.activate()
        width = self.viewport().width()
        height = max(self.viewport().height(), content.heightForWidth(width), content.minimumSizeHint().height())
        if content.size() != QSize(width, height):
            content.resize(width, height)


__all__ = ["VerticalScrollArea"]
