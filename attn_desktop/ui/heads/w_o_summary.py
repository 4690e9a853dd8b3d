"""A layer's W_O too large to show whole beside the heads (a trained induction model's is 16 × 32: 512
numbers): its name and shape, and a button that opens its numbers in a window of their own, to read and
type into. A grid clipped to its first few rows and columns would pass for the whole of W_O."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from attn_desktop.language import ntr, tr
from attn_desktop.model import Scene, ViewState
from attn_desktop.model.commands import Editor
from attn_desktop.ui.heads.w_o_numbers_window import WONumbersWindow
from attn_desktop.ui.language_link import follow_language
from attn_desktop.ui.panels.grid_editor import GRID_TITLES, SHORT_GRID_TITLES

W_O_CELLS_SHOWN_WHOLE = (4, 8)  # the most rows and columns a W_O shows as a grid beside the heads (lesson 7's: 4 × 4)


def shown_whole(rows: int, columns: int) -> bool:
    """Whether a W_O of ROWS × COLUMNS shows as a grid beside the heads, every number in view."""
    return rows <= W_O_CELLS_SHOWN_WHOLE[0] and columns <= W_O_CELLS_SHOWN_WHOLE[1]


class WOSummary(QWidget):
    """W_O of LAYER: "Layer 1 · W_O → output 16 × 32" and "Numbers…", which opens them (TITLE_PREFIX: whose)."""

    def __init__(self, scene: Scene, view_state: ViewState, editor: Editor | None, layer: int,
                 title_prefix: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scene, self.view_state, self.editor = scene, view_state, editor
        self.layer, self.title_prefix = layer, title_prefix
        self.dialog: WONumbersWindow | None = None  # made when first asked for
        self.read_only = False  # its numbers read, not typed into (set_read_only)
        self.label = QLabel()
        self.label.setAccessibleName(f"{title_prefix}W_O")
        self.open_button = QPushButton()
        self._reword()
        follow_language(self, self._reword)
        self.open_button.clicked.connect(self.open_numbers)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        layout.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(1)

    def _reword(self) -> None:
        layers = self.scene.layers
        if self.layer >= len(layers) or layers[self.layer].w_o is None:
            return  # a summary left from a scene before this one: the heads view builds a new one when shown
        rows, columns = self.shape
        prefix = self.title_prefix
        short_title, title = SHORT_GRID_TITLES["w_o"], GRID_TITLES["w_o"]  # (marked where they are defined)
        self.label.setText(f"<b>{prefix}{tr(short_title)}</b>&nbsp; {rows} × {columns}")
        self.label.setToolTip(tr("{grid}: {rows} rows (the heads' outputs, side by side) × {columns} columns "
                                 "(the layer's output), {count} numbers").format(
            grid=prefix + tr(title), rows=rows, columns=columns, count=rows * columns))
        self.open_button.setText(tr("Numbers…"))
        self.open_button.setToolTip(ntr("Show W_O's {count} number in a window of its own, to read and type into",
                                        "Show W_O's {count} numbers in a window of their own, to read and type into",
                                        rows * columns).format(count=rows * columns))

    @property
    def shape(self) -> tuple[int, int]:
        w_o = self.scene.layers[self.layer].w_o
        assert w_o is not None, "a summary is made for a layer that mixes its heads with W_O"
        return int(w_o.shape[0]), int(w_o.shape[1])

    def open_numbers(self) -> None:
        """W_O's every number in a window of its own, beside the heads (typed numbers are undoable edits)."""
        if self.dialog is None:
            self.dialog = WONumbersWindow(self.scene, self.view_state, self.editor, self.layer,
                                          self.title_prefix, self)
            if self.read_only:
                self.dialog.grid_editor.set_read_only(True)
        self.dialog.show()
        self.dialog.raise_()
        self.dialog.activateWindow()

    def set_read_only(self, read_only: bool) -> None:
        """W_O's numbers to read, not type into (READ_ONLY), in its window of numbers."""
        self.read_only = read_only
        if self.dialog is not None:
            self.dialog.grid_editor.set_read_only(read_only)
