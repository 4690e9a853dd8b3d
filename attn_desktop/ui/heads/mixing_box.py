"""Each layer's W_O to type into, and each layer's mix for the chosen query: its heads' outputs side by
side times W_O (a layer of one head without W_O passes its output on). A W_O too large to show whole
(a trained induction model's 16 × 32) shows its shape, its numbers a click away (w_o_summary.py).

The heads view puts the box under the heads, W_O left of the lines, or right of the matrices, W_O over
the lines (set_beside). It asks no height for its width: the lines' wrapped height is set as the label's
minimum instead, so the heads' scroll area lays the heads out from their minimum sizes, not from what
they would like.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QResizeEvent, QTextDocument
from PySide6.QtWidgets import QBoxLayout, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from attn_desktop.language import N_, tr
from attn_desktop.model import Change, HeadReading, Scene, ViewState, explain
from attn_desktop.model.commands import Editor
from attn_desktop.model.shown_numbers import shown_vector
from attn_desktop.ui.heads.w_o_summary import WOSummary, shown_whole
from attn_desktop.ui.panels.grid_editor import GridEditor
from attn_desktop.ui.scene_link import follow_scene

MIXING_TIP = N_("Each head's output for the chosen query, side by side, times W_O (beside this line) "
                "gives the layer's output.")  # shown as tr(MIXING_TIP)
LINES_WIDTH_BESIDE = 240  # right of the matrices, the lines wrap to a few lines at least this wide
SPACING = 8


def layer_prefix(index: int) -> str:
    """Before a grid's title, whose W_O it is: "Layer 2 · " (INDEX counted from 0)."""
    # Translators: put before a grid's name, e.g. "Layer 2 · W_O → output"
    return tr("Layer {number} · ").format(number=index + 1)


class MixingBox(QWidget):
    def __init__(self, scene: Scene, view_state: ViewState, editor: Editor | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scene = scene
        self.view_state = view_state
        self.editor = editor  # typed numbers in W_O are undoable edits
        self.showing = False  # the heads are shown: see show_layers
        self.beside = False
        self.w_o_editors: list[GridEditor] = []  # one per layer that mixes its heads with a W_O shown whole, in order
        self.w_o_summaries: list[WOSummary] = []  # one per layer whose W_O is too large for that, in order
        self.read_only = False  # W_O to be read, not typed into (a lesson file's hidden grid editing)
        self.mixing_label = QLabel()
        self.mixing_label.setWordWrap(True)
        self.mixing_label.setToolTip(tr(MIXING_TIP))
        self.mixing_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.mixing_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        self.box_layout = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        self.box_layout.setContentsMargins(0, 0, 0, 0)
        self.box_layout.setSpacing(SPACING)
        self.w_o_row = QHBoxLayout()
        self.w_o_row.setSpacing(SPACING)
        self.summaries_column = QVBoxLayout()  # the large W_Os' summaries, one under another
        self.summaries_column.setSpacing(2)
        self.w_o_row.addLayout(self.summaries_column)
        self.box_layout.addLayout(self.w_o_row, 0)
        self.box_layout.addWidget(self.mixing_label, 1)
        follow_scene(self, scene, self._on_change)
        follow_scene(self, view_state, self._on_view_changed)  # another query chosen: its mixing lines

    def hasHeightForWidth(self) -> bool:
        return False  # see the module's note

    def sizeHint(self) -> QSize:
        """No taller than it must be: every other line of the window's height is the heads'."""
        return QSize(super().sizeHint().width(), self.minimumSizeHint().height())

    def show_layers(self, on: bool) -> None:
        """Each layer's W_O editor afresh (ON), or none."""
        self.showing = on
        # Hidden at once: a widget waiting for its deletion would still be drawn (and read) where it was.
        for w_o_editor in self.w_o_editors:
            self.w_o_row.removeWidget(w_o_editor)
            w_o_editor.hide()
            w_o_editor.deleteLater()
        for summary in self.w_o_summaries:
            self.summaries_column.removeWidget(summary)
            summary.hide()
            summary.deleteLater()
        layers = self.scene.layers if on else []
        several = len(layers) > 1
        mixing = [(index, layer.w_o.shape) for index, layer in enumerate(layers) if layer.w_o is not None]
        self.w_o_editors = [self._w_o_editor(index, several) for index, shape in mixing if shown_whole(*shape)]
        self.w_o_summaries = [WOSummary(self.scene, self.view_state, self.editor, index,
                                        layer_prefix(index) if several else "")
                              for index, shape in mixing if not shown_whole(*shape)]
        for w_o_editor in self.w_o_editors:
            self.w_o_row.addWidget(w_o_editor, 0, Qt.AlignmentFlag.AlignTop)
        for summary in self.w_o_summaries:
            self.summaries_column.addWidget(summary)
        if self.read_only:
            self.set_read_only(True)
        self._show_mixing()

    def _w_o_editor(self, layer: int, several: bool) -> GridEditor:
        """LAYER's W_O: typed numbers are undoable edits; as tall as its rows and as wide as its numbers, no
        more (the height is the heads', the width the mixing lines'). With SEVERAL layers it says whose it
        is, as the mixing lines beside it do."""
        w_o_editor = GridEditor(HeadReading(self.scene, self.view_state, at=(layer, 0)), self.editor, names=("w_o",), compact=True,
                                title_prefix=layer_prefix(layer) if several else "")
        w_o_editor.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Maximum)
        return w_o_editor

    def set_read_only(self, read_only: bool) -> None:
        """Each layer's W_O read, not typed into (READ_ONLY), beside the heads and in its window of numbers; so
        too for the editors made afresh for the next scene."""
        self.read_only = read_only
        for w_o_editor in self.w_o_editors:
            w_o_editor.set_read_only(read_only)
        for summary in self.w_o_summaries:
            summary.set_read_only(read_only)

    def width_beside(self) -> int:
        """How wide the box is right of the matrices: its W_O editors', or the lines' least."""
        return max(self._w_o_width(), LINES_WIDTH_BESIDE)

    def _w_o_width(self) -> int:
        """The W_O editors' width side by side, and the summaries' column's."""
        parts = [editor.sizeHint().width() for editor in self.w_o_editors]
        parts += [max(summary.sizeHint().width() for summary in self.w_o_summaries)] if self.w_o_summaries else []
        return sum(parts) + SPACING * max(len(parts) - 1, 0)

    def set_beside(self, beside: bool) -> None:
        """Right of the matrices (W_O over the lines, the box as wide as width_beside) or under the heads."""
        self.beside = beside
        if beside:
            self.box_layout.setDirection(QBoxLayout.Direction.TopToBottom)
            self.setFixedWidth(self.width_beside())
        else:
            self.box_layout.setDirection(QBoxLayout.Direction.LeftToRight)
            self.setMinimumWidth(0)
            self.setMaximumWidth(16_777_215)
        self._fit_lines_height()

    def _fit_lines_height(self) -> None:
        """The lines' height for the width they have (the box asks for none: see the module's note). Worked
        out on a document of their own: a label's height for a width is never less than its minimum."""
        label = self.mixing_label
        w_o = self._w_o_width()
        width = self.width_beside() if self.beside else self.width() - w_o - (SPACING if w_o else 0)
        if width < LINES_WIDTH_BESIDE // 2:  # not laid out yet
            return
        document = QTextDocument()
        document.setDefaultFont(label.font())
        document.setDocumentMargin(0)
        document.setHtml(label.text())
        document.setTextWidth(width - 2 * label.margin())
        needed = math.ceil(document.size().height()) + 2 * label.margin() if label.text() else 0
        if needed != label.minimumHeight():
            label.setMinimumHeight(needed)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest and self.beside and self.width_beside() != self.minimumWidth():
            self.setFixedWidth(self.width_beside())  # W_O's numbers in another type (presentation mode)
        return super().event(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_lines_height()

    def _on_change(self, change: Change) -> None:
        self._show_mixing()

    def _on_view_changed(self, change: Change) -> None:
        if change & Change.SELECTION:
            self._show_mixing()

    def _show_mixing(self) -> None:
        scene = self.scene
        if not self.showing:  # (a drag on the canvas reaches here on every move: no work then)
            if self.mixing_label.text():
                self.mixing_label.clear()
            return
        query = self.view_state.chosen_query(scene.n_queries)
        token, several = scene.query_tokens[query], len(scene.layers) > 1
        lines = []
        for number, layer in enumerate(scene.layers, start=1):
            if layer.w_o is None:  # one head, nothing to mix: its output is the layer's
                formula = f"{explain.arrow_name('out', token)} = {shown_vector(layer.output[query])}"
            else:
                outputs = [head.attention.output[query] for head in layer.heads]
                formula = explain.mixing_formula(token, outputs, layer.output[query])
            name = tr("Layer {number}").format(number=number) if several else tr("Output")
            lines.append(f"<b>{name}</b>: {formula.replace('<', '&lt;')}")
        self.mixing_label.setText("<br>".join(lines))  # the last line is the scene's output
        self._fit_lines_height()

    def mixing_text(self) -> str:
        """The lines, as plain text (what the tests read)."""
        text = self.mixing_label.text().replace("<br>", "\n")
        return text.replace("<b>", "").replace("</b>", "").replace("&lt;", "<")
