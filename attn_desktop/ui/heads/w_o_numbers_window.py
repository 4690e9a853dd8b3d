"""A layer's W_O, every number, in a window of its own: opened from its summary beside the heads
(w_o_summary.py) when W_O is too large to show whole there. Typed numbers are undoable edits, as in
every other grid; a W_O wider than the screen's share scrolls."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QDialog, QHeaderView, QVBoxLayout, QWidget

from attn_desktop.language import tr
from attn_desktop.model import HeadReading, Scene, ViewState
from attn_desktop.model.commands import Editor
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.panels.grid_editor import GRID_TITLES, GridEditor

SCREEN_SHARE = 0.8  # of the screen, at most, for the window


class WONumbersWindow(QDialog):
    def __init__(self, scene: Scene, view_state: ViewState, editor: Editor | None, layer: int,
                 title_prefix: str, parent: QWidget) -> None:
        super().__init__(parent)
        title = GRID_TITLES["w_o"]  # (marked where it is defined)
        self._title = lambda: self.setWindowTitle(f"{title_prefix}{tr(title)}")
        self._title()
        follow_language(self, self._title)
        w_o = scene.layers[layer].w_o
        rows = w_o.shape[0] if w_o is not None else 0
        reading = HeadReading(scene, view_state, at=(layer, 0))
        self.grid_editor = GridEditor(reading, editor, names=("w_o",), compact=True, title_prefix=title_prefix,
                                      rows_in_view=rows)
        layout = QVBoxLayout(self)
        layout.addWidget(self.grid_editor)
        # Every column as wide as its numbers (not squeezed to the window's width): the table scrolls instead.
        table = self.grid_editor.tables["w_o"]
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        margins = layout.contentsMargins()
        wanted = QSize(table.maximumWidth() + 2 * margins.left() + 24, self.sizeHint().height())
        screen = parent.screen().availableGeometry() if parent.screen() is not None else None
        if screen is not None:
            wanted = wanted.boundedTo(screen.size() * SCREEN_SHARE)
        self.resize(wanted)
