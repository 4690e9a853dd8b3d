"""A drop-down whose closed box ends a text too long for it with "…" instead of cutting it mid-letter.

Qt's combo box clips its current text at the arrow: "2. Three vectors from one wor". The lesson picker in a
narrow left column shows "2. Three vectors from one…" instead; the list that drops down, and the tooltip
the lesson panel sets, have every title whole. With no item chosen it shows its placeholder, greyed, as
Qt's own box does (a teacher's lesson file open: its title).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPaintEvent, QPalette
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStylePainter


class ElidingComboBox(QComboBox):
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QStylePainter(self)
        option = self._style_option()
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        option.currentText = self._elided(option)
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)

    def shown_text(self) -> str:
        """The current text as the closed box draws it (elided where it does not fit)."""
        return self._elided(self._style_option())

    def _style_option(self) -> QStyleOptionComboBox:
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        if self.currentIndex() < 0 and self.placeholderText():  # (Qt's own paint does this; this paint is ours)
            option.currentText = self.placeholderText()
            option.palette.setBrush(QPalette.ColorRole.ButtonText, option.palette.placeholderText())
        return option

    def _elided(self, option: QStyleOptionComboBox) -> str:
        room = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                           QStyle.SubControl.SC_ComboBoxEditField, self)
        return self.fontMetrics().elidedText(option.currentText, Qt.TextElideMode.ElideRight, room.width())
