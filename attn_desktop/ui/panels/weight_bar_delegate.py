"""Paints a weight cell as a bar behind its percentage."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

from attn_desktop.model import Role
from attn_desktop.ui.palette import ROLE_COLORS
from attn_desktop.ui.panels.score_table_model import ScoreTableModel


class WeightBarDelegate(QStyledItemDelegate):
    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        model = index.model()
        weight = model.bar_weight(index.row()) if isinstance(model, ScoreTableModel) else None
        if weight is not None and weight > 0:
            bar = QColor(ROLE_COLORS[Role.KEY])
            bar.setAlpha(90)
            rect = QRectF(option.rect).adjusted(2, 3, -2, -3)
            rect.setWidth(rect.width() * min(float(weight), 1.0))
            painter.save()
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(bar)
            painter.drawRect(rect)
            painter.restore()
        super().paint(painter, option, index)
