"""The 32 pairs of a 64-wide head as clock faces, each hand turned by (m − n)·θ_i.

θ_i = base^(−2i/64): the first pair turns a radian per position (its hand spins as m − n grows), the last
hardly moves. One widget paints all 32 faces, in rows of eight (fewer when the panel is narrow): a slider's
move repaints one widget, not 32.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from attn_desktop.language import tr
from attn_desktop.model import Role
from attn_desktop.ui.palette import ROLE_COLORS

MIN_FACE_PX = 22
MAX_FACE_PX = 40
FACES_PER_ROW = 8


class ClockFaces(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.angles = np.zeros(32)  # each pair's turn, radians (read by the tests as a person reads the hands)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setAccessibleName(tr("The 32 pairs of a 64-wide head, each turned by (m − n)·θ_i"))

    def set_angles(self, angles: np.ndarray) -> None:
        self.angles = np.asarray(angles, dtype=float)
        self.update()

    def _columns(self, width: int) -> int:
        return max(1, min(FACES_PER_ROW, width // MIN_FACE_PX))

    def _face(self, width: int) -> float:
        return min(float(MAX_FACE_PX), width / self._columns(width))

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        rows = math.ceil(len(self.angles) / self._columns(width))
        return int(rows * self._face(width)) + 2

    def sizeHint(self) -> QSize:
        return QSize(FACES_PER_ROW * MAX_FACE_PX, self.heightForWidth(FACES_PER_ROW * MAX_FACE_PX))

    def minimumSizeHint(self) -> QSize:
        return QSize(FACES_PER_ROW * MIN_FACE_PX, self.heightForWidth(FACES_PER_ROW * MIN_FACE_PX))

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        columns, face = self._columns(self.width()), self._face(self.width())
        rim = QPen(self.palette().mid().color(), 1)
        hand = QPen(ROLE_COLORS[Role.QUERY], 2)
        hand.setCapStyle(Qt.PenCapStyle.RoundCap)
        for index, angle in enumerate(self.angles):
            box = QRectF((index % columns) * face, (index // columns) * face, face, face).adjusted(2, 2, -2, -2)
            center, radius = box.center(), box.width() / 2
            painter.setPen(rim)
            painter.drawEllipse(box)
            painter.setPen(hand)
            # Angle 0 points up, as a clock's twelve; the hand turns anticlockwise, as RoPE's pairs do.
            painter.drawLine(center, center + QPointF(-math.sin(angle) * radius * 0.85,
                                                      -math.cos(angle) * radius * 0.85))
        painter.end()
