"""Attention → Snap to Grid and its Snap Step choices: the step the canvas's drags land on."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QAction, QActionGroup


class SnappingCanvas(Protocol):
    snap_step: float  # 0: no snapping


class SnapSteps:
    def __init__(self, canvas: SnappingCanvas, switch: QAction, steps: QActionGroup) -> None:
        self.canvas, self.switch, self.steps = canvas, switch, steps

    def apply(self, on: bool) -> None:
        """The switch turned ON or off, or (ON) a step picked."""
        if on and not self.switch.isChecked():
            self.switch.setChecked(True)  # picking a step turns snapping on; that calls back here
            return
        chosen = self.steps.checkedAction()
        self.canvas.snap_step = float(chosen.data()) if on and chosen else 0.0
