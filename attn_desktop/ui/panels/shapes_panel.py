"""The shapes panel: the sizes of Q, K, V, QKᵀ and the output, kept true as they change."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QLabel, QWidget

from attn_desktop.model import Change, HeadReading, Scene, explain
from attn_desktop.ui.scene_link import follow_scene, head_reading

MAX_WORD_CHARS = 24  # the widest word the panel's minimum width makes room for


class ShapesPanel(QLabel):
    def __init__(self, scene: Scene | HeadReading, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.reading = head_reading(scene)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.setMargin(8)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        follow_scene(self, self.reading, self._on_scene_changed, follows=Change.STRUCTURE)
        self.refresh()

    def _on_scene_changed(self, change: Change) -> None:
        if change & Change.STRUCTURE:
            self.refresh()

    def refresh(self) -> None:
        scene = self.reading
        self.setText(explain.shapes(scene.n_queries, scene.n_tokens, scene.key_width, scene.value_width,
                                    from_target=scene.target_stream is not None))
        self._ask_for_wrapped_height()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._ask_for_wrapped_height()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._ask_for_wrapped_height()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._ask_for_wrapped_height()

    def minimumSizeHint(self) -> QSize:
        """QLabel's minimum is its widest word. A word of a real language is short, but the pseudo-language's
        padding ("····⟧", longer for a longer text) is one unbreakable run as wide as half a screen, which
        made the window wider than a 1024-pixel screen: the minimum is capped at MAX_WORD_CHARS characters
        (only such a run, never a real word, is then cut at the side)."""
        hint = super().minimumSizeHint()
        cap = self.fontMetrics().horizontalAdvance("n") * MAX_WORD_CHARS + 2 * self.margin()
        return QSize(min(hint.width(), cap), hint.height())

    def _ask_for_wrapped_height(self) -> None:
        """At least the height the wrapped text takes at this width. A dock's layout asks a word-wrapped
        label only for its small minimum and never for its height at the width it gives; in a narrow dock
        a longer translation (Spanish, Arabic) then lost its last line."""
        if self.isVisible() and self.width() > 0:  # a hidden panel (presenting) keeps no stale minimum
            # Measured from the font (QLabel's own answer can lag a font change made while it was hidden).
            lines_width = max(self.contentsRect().width() - 2 * self.margin(), 1)
            needed = self.fontMetrics().boundingRect(0, 0, lines_width, 1 << 20, Qt.TextFlag.TextWordWrap,
                                                     self.text()).height() + 2 * self.margin()
            if needed > 0 and needed != self.minimumHeight():
                self.setMinimumHeight(needed)
