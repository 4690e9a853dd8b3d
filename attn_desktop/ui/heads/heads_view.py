"""Every head of a multi-head scene side by side, and how W_O mixes them.

In a scene with several heads this takes the canvas's place in the window: one column per
head (canvas, score table, matrix: small multiples, all for the same chosen query) and under
them each layer's mix for the chosen query, its heads' outputs side by side times W_O, with
every layer's W_O to type into (a layer of one head without W_O passes its output on). A word vector
dragged in one head's canvas moves in every head; only the heads that read the numbers it
changed change their pattern. The window says, after every new structure, whether it shows
the heads (show_heads): hidden behind the canvas, the view builds nothing.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCheckBox, QFrame, QHBoxLayout, QLabel, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from attn_desktop.model import Change, HeadReading, Scene, ViewState, explain
from attn_desktop.model.commands import Editor
from attn_desktop.ui.heads.head_column import HeadColumn
from attn_desktop.ui.panels.grid_editor import GridEditor
from attn_desktop.ui.scene_link import follow_scene

ROOM_FOR_EVERY_PART = 1000  # screen lines from which each head shows its score table as well by default
PART_NAMES = ("Canvas", "Scores", "Matrix")
MIXING_TIP = ("Each head's output for the chosen query, side by side, times W_O (beside this line) "
              "gives the layer's output.")


class HeadsView(QWidget):
    # What any head's canvas says, passed on: the window records drags and shows their read-outs.
    arrow_moved = Signal(object)  # a MoveArrow, already shown
    drag_moved = Signal(str)
    edit_requested = Signal(object, int)
    dragging = Signal(bool)

    def __init__(self, document: Scene, view_state: ViewState, editor: Editor | None = None, parent=None) -> None:
        super().__init__(parent)
        self.document = document
        self.view_state = view_state
        self.editor = editor  # typed numbers in W_O are undoable edits
        self.w_o_editors: list[GridEditor] = []  # one per layer that mixes its heads with W_O, in order
        self.presenting = False
        self.showing = False  # the window shows the heads: see show_heads
        self.columns: list[HeadColumn] = []
        self.part_boxes = {name: QCheckBox(name) for name in PART_NAMES}
        for box in self.part_boxes.values():
            box.setChecked(True)
            box.setToolTip("Show this panel in every head")
            box.toggled.connect(self._show_chosen_parts)
        self.columns_row = QHBoxLayout()
        self.columns_row.setSpacing(8)
        self.columns_row.setContentsMargins(0, 0, 0, 0)
        self.mixing_label = QLabel()
        self.mixing_label.setWordWrap(True)
        self.mixing_label.setToolTip(MIXING_TIP)
        self.mixing_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.mixing_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
        # On a small screen the heads scroll rather than push the window past the screen's edge.
        self.columns_area = QWidget()  # (also what a picture of the heads shows)
        self.columns_area.setLayout(self.columns_row)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidget(self.columns_area)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        parts_row = QHBoxLayout()
        parts_row.addWidget(QLabel("Each head shows:"))
        for box in self.part_boxes.values():
            parts_row.addWidget(box)
        parts_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 4)
        layout.setSpacing(2)
        layout.addLayout(parts_row)
        layout.addWidget(self.scroll_area, 1)
        mixing_row = QHBoxLayout()
        self.w_o_row = QHBoxLayout()
        mixing_row.addLayout(self.w_o_row, 0)
        mixing_row.addWidget(self.mixing_label, 1)
        layout.addLayout(mixing_row)
        follow_scene(self, document, self._on_document_changed)
        follow_scene(self, view_state, self._on_view_changed)  # another query chosen: its mixing line

    def _on_document_changed(self, change: Change) -> None:
        self._show_mixing()  # (a new structure's heads come with show_heads, which the window calls next)

    def show_heads(self, on: bool) -> None:
        """The window shows the heads (ON), or the canvas: build a column for every head afresh, or none.
        The window calls it after every new structure (another scene, other words)."""
        self.showing = on
        self._build_columns()
        self._build_w_o_editors()

    def _on_view_changed(self, change: Change) -> None:
        if change & Change.SELECTION:
            self._show_mixing()

    def _build_columns(self) -> None:
        for column in self.columns:
            self.columns_row.removeWidget(column)
            column.deleteLater()
        self.columns = []
        if self.showing:
            for layer, head, _ in self.document.all_heads():
                column = HeadColumn(self.document, self.view_state, layer, head, self)
                self._pass_on_signals(column)
                if self.presenting:
                    column.canvas.set_presentation(True)
                self.columns_row.addWidget(column, 1)
                self.columns.append(column)
        self._show_chosen_parts()
        self._show_mixing()

    def _build_w_o_editors(self) -> None:
        """Each layer's W_O, left to right under the heads (a layer of one head without W_O has none)."""
        for w_o_editor in self.w_o_editors:
            self.w_o_row.removeWidget(w_o_editor)
            w_o_editor.deleteLater()
        layers = self.document.layers if self.showing else []
        self.w_o_editors = [self._w_o_editor(index, len(layers) > 1)
                            for index, layer in enumerate(layers) if layer.w_o is not None]
        for w_o_editor in self.w_o_editors:
            self.w_o_row.addWidget(w_o_editor, 0, Qt.AlignmentFlag.AlignTop)

    def _w_o_editor(self, layer: int, several: bool) -> GridEditor:
        """LAYER's W_O: typed numbers are undoable edits; as tall as its rows and as wide as its numbers, no
        more (the height is the heads', the width the mixing lines'). With SEVERAL layers it says whose it
        is, as the mixing lines beside it do."""
        w_o_editor = GridEditor(HeadReading(self.document, self.view_state, at=(layer, 0)), self.editor, names=("w_o",), compact=True,
                                title_prefix=f"Layer {layer + 1} · " if several else "")
        w_o_editor.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Maximum)
        return w_o_editor

    def fit_parts_to_screen(self, screen_height: int) -> None:
        """Three panels a head need the height of a large screen; on a classroom projector (768 lines)
        the score tables start hidden, a tick away."""
        self.part_boxes["Scores"].setChecked(screen_height >= ROOM_FOR_EVERY_PART)

    def _show_chosen_parts(self) -> None:
        canvas, scores, matrix = (self.part_boxes[name].isChecked() for name in PART_NAMES)
        for column in self.columns:
            column.show_parts(canvas, scores, matrix)

    def _pass_on_signals(self, column: HeadColumn) -> None:
        canvas = column.canvas
        canvas.arrow_moved.connect(self.arrow_moved)
        canvas.drag_moved.connect(self.drag_moved)
        canvas.edit_requested.connect(self.edit_requested)
        canvas.drags.dragging.connect(self.dragging)

    def set_presentation(self, on: bool) -> None:
        """Large type and thick arrows in every head's canvas, as in the main canvas."""
        self.presenting = on
        for column in self.columns:
            column.canvas.set_presentation(on)

    def _show_mixing(self) -> None:
        document = self.document
        if not self.showing:  # (a drag on the canvas reaches here on every move: no work then)
            if self.mixing_label.text():
                self.mixing_label.clear()
            return
        query = self.view_state.chosen_query(document.n_queries)
        token, several = document.query_tokens[query], len(document.layers) > 1
        lines = []
        for number, layer in enumerate(document.layers, start=1):
            if layer.w_o is None:  # one head, nothing to mix: its output is the layer's
                formula = f"{explain.arrow_name('out', token)} = {explain.vector(layer.output[query])}"
            else:
                outputs = [head.attention.output[query] for head in layer.heads]
                formula = explain.mixing_formula(token, outputs, layer.output[query])
            lines.append(f"<b>{f'Layer {number}' if several else 'Output'}</b>: {formula.replace('<', '&lt;')}")
        self.mixing_label.setText("<br>".join(lines))  # the last line is the scene's output

    def mixing_text(self) -> str:
        """The line under the heads, as plain text (what the tests read)."""
        text = self.mixing_label.text().replace("<br>", "\n")
        return text.replace("<b>", "").replace("</b>", "").replace("&lt;", "<")
