"""A drop-down of the query tokens; choosing one selects that query."""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker
from PySide6.QtWidgets import QComboBox, QWidget

from attn_desktop.language import tr
from attn_desktop.model import Change, HeadReading, Scene
from attn_desktop.ui.scene_link import follow_scene, head_reading


class QueryPicker(QComboBox):
    def __init__(self, scene: Scene | HeadReading, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.reading = head_reading(scene)  # whose chosen query it shows: the view's
        self.setToolTip(tr("The token whose query is compared with every key"))
        self.setAccessibleName(tr("Query token"))
        # As wide as the names, up to about 14 characters: a 40-character name would push the toolbar's
        # switches off a 1024-pixel screen. The list that drops down shows every name whole.
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(14)
        self.currentIndexChanged.connect(self._on_index_changed)
        follow_scene(self, self.reading, self._on_scene_changed, follows=Change.STRUCTURE | Change.SELECTION)
        self._fill()

    def _fill(self) -> None:
        with QSignalBlocker(self):  # writing the scene's state back must not read as a new choice
            self.clear()
            self.addItems(self.reading.query_tokens)
            self.setCurrentIndex(self.reading.selected)

    def _on_index_changed(self, index: int) -> None:
        if index >= 0:
            self.reading.select_query(index)

    def _on_scene_changed(self, change: Change) -> None:
        if change & Change.STRUCTURE:
            self._fill()
        elif change & Change.SELECTION:
            with QSignalBlocker(self):
                self.setCurrentIndex(self.reading.selected)
