"""One head of a multi-head scene: its title, its canvas, its score table and its matrix.

The head's panels are the app's ordinary ones, handed a reading of this head: they draw its
queries, keys and values, and the stream it reads in the two numbers it reads most. The heads
view lays them out: one column per head, or, when the plots would be too small side by side,
one head's canvas at a time over every head's matrix. The title is a button: it chooses this
head, whose canvas the heads view then shows and which the window's docked panels (Scores,
Weights, Output, Grids) show, one head at a time (the view state's shown head).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QWidget

from attn_desktop.language import N_, tr
from attn_desktop.model import Change, HeadReading, Scene, ViewState
from attn_desktop.model.head_reading import input_plane
from attn_desktop.ui.canvas.canvas import AttentionCanvas
from attn_desktop.ui.heads.head_matrix import HeadMatrix
from attn_desktop.ui.panels.score_table import ScoreTablePanel
from attn_desktop.ui.scene_link import follow_scene
from attn_desktop.ui.view_state.key_highlight import KeyHighlight
from attn_desktop.ui.widgets.eliding_button import ElidingButton

TITLE_TIP = N_("Show this head in the Scores, Weights, Output and Grids panels")  # shown as tr(TITLE_TIP)
SWITCH_TIP = N_("Show this head's canvas (and, where the matrices do not fit side by side, its matrix) here, and "
                "this head in the Scores, Weights, Output and Grids panels")


class HeadColumn(QObject):
    """The panels of head HEAD of LAYER, made in PARENT (the heads view's area, which lays them out)."""

    def __init__(self, scene: Scene, view_state: ViewState, layer: int, head: int, parent: QWidget) -> None:
        super().__init__(parent)
        self.scene = scene
        self.view_state = view_state
        self.layer, self.head = layer, head
        self.reading = HeadReading(scene, view_state, at=(layer, head))
        name = scene.head_name(layer, head)
        self.title_button = ElidingButton(name, parent)  # elided where the switch's row is narrow
        self.title_button.setCheckable(True)
        self.title_button.set_tip(tr(TITLE_TIP))
        self.title_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.title_button.clicked.connect(self._choose)
        font = self.title_button.font()
        font.setBold(True)
        self.title_button.setFont(font)
        self.highlight = KeyHighlight(self, view_state, (layer, head))  # a key pointed at in this head's table, lit on its canvas
        self.canvas = AttentionCanvas(self.reading, parent, highlight=self.highlight)
        self.canvas.set_dims(*input_plane(scene, layer, head))
        self.scores = ScoreTablePanel(self.reading, self.highlight, parent)
        self.scores.set_formula_shown(False)  # the worked dot product is the Scores panel's, for the head shown
        self.matrix = HeadMatrix(self.reading, name, parent)
        follow_scene(self, view_state, self._on_view_changed)
        self._show_whether_chosen()

    @property
    def parts(self) -> tuple[QWidget, ...]:
        return self.title_button, self.canvas, self.scores, self.matrix

    @property
    def chosen(self) -> bool:
        """This is the head the view state shows (the one-head panels', and the heads view's one canvas)."""
        return (self.view_state.layer, self.view_state.head) == (self.layer, self.head)

    def set_as_switch(self, on: bool) -> None:
        """The title is one of the switch's buttons (one canvas at a time, ON) or its column's header."""
        self.title_button.set_tip(tr(SWITCH_TIP if on else TITLE_TIP))

    def dispose(self) -> None:
        for part in self.parts:
            part.hide()
            part.deleteLater()
        self.deleteLater()

    def _choose(self) -> None:
        self.view_state.show_head(self.layer, self.head)
        self._show_whether_chosen()  # a click on the chosen head's button leaves it checked

    def _on_view_changed(self, change: Change) -> None:
        self._show_whether_chosen()

    def _show_whether_chosen(self) -> None:
        self.title_button.setChecked(self.chosen)
