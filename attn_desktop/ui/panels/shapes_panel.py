"""The shapes panel: the sizes of Q, K, V, QKᵀ and the output, kept true as they change."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from attn_desktop.model import Change, HeadReading, Scene, explain
from attn_desktop.ui.scene_link import follow_scene, head_reading


class ShapesPanel(QLabel):
    def __init__(self, scene: Scene | HeadReading, parent=None) -> None:
        super().__init__(parent)
        self.scene = head_reading(scene)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.setMargin(8)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        follow_scene(self, self.scene, self._on_scene_changed)
        self.refresh()

    def _on_scene_changed(self, change: Change) -> None:
        if change & Change.STRUCTURE:
            self.refresh()

    def refresh(self) -> None:
        scene = self.scene
        self.setText(explain.shapes(scene.n_queries, scene.n_tokens, scene.key_width, scene.value_width))
