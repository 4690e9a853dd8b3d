"""The shapes panel: the sizes of Q, K, V, QKᵀ and the output, kept true as they change."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from attn_desktop.language import tr
from attn_desktop.model import Change, HeadReading, Scene
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
        self.setText(shapes_text(scene.n_queries, scene.n_tokens, scene.key_width, scene.value_width))


def shapes_text(n_queries: int, n_tokens: int, key_width: int, value_width: int) -> str:
    """The matrices' shapes in the student's language: "Q, K, V are 3 × 2. QKᵀ is 3 × 3, one row per query. …"."""
    if n_queries == n_tokens and key_width == value_width:
        sizes = tr("Q, K, V are {rows} × {columns}.").format(rows=n_tokens, columns=key_width)
    else:
        sizes = tr("Q is {queries} × {key_width}, K is {tokens} × {key_width}, V is {tokens} × {value_width}.").format(
            queries=n_queries, tokens=n_tokens, key_width=key_width, value_width=value_width)
    return tr("{sizes} QKᵀ is {queries} × {tokens}, one row per query. "
              "The output is {queries} × {value_width}, one mixed vector per query.").format(
        sizes=sizes, queries=n_queries, tokens=n_tokens, value_width=value_width)
