"""View → Draw the PCA Plane: the menu's check mark follows what the canvas draws.

The canvas can change plane without the menu (a scene taken from a model opens in
the PCA plane; choosing dimensions with Ctrl+D leaves it), so the action is made
here for the window's command table and kept in step by the canvas. Only a click
switches the plane (`triggered`), never the check mark being set to match.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction

from attn_desktop.geometry.drawn_planes import DrawnPlanes


class PlaneAction:
    def __init__(self, planes: DrawnPlanes, use_pca: Callable[[bool], None]) -> None:
        self.planes, self.use_pca = planes, use_pca
        self.action: QAction | None = None

    def make(self, parent: QObject, text: str) -> QAction:
        """The checkable action, for the command table (ActionSpec.made_by)."""
        self.action = action = QAction(text, parent)
        action.setCheckable(True)
        action.triggered.connect(self._clicked)
        QTimer.singleShot(0, action, self.sync)  # after the table has set the action's defaults
        return action

    def _clicked(self, on: bool) -> None:
        if self.planes.pca_available:
            self.use_pca(on)
        self.sync()

    def sync(self) -> None:
        """Checked while the PCA plane is drawn; enabled while some vector has more than two numbers."""
        if self.action is not None:
            self.action.setEnabled(self.planes.pca_available)
            self.action.setChecked(self.planes.showing_pca)
