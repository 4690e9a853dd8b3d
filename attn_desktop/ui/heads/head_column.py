"""One head of a multi-head scene, drawn whole: its canvas, its score table and its matrix.

The head's panels are the app's ordinary ones, handed a reading of this head: they draw its
queries, keys and values, and the stream it reads in the two numbers it reads most. The title
is a button: it puts this head in the window's docked panels (Scores, Weights, Output, Grids),
which show one head at a time (the view state's shown head).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget

from attn_desktop.model import Change, HeadReading, Scene, ViewState
from attn_desktop.model.head_reading import input_plane
from attn_desktop.ui.canvas.canvas import AttentionCanvas
from attn_desktop.ui.panels.matrix_view import MatrixView
from attn_desktop.ui.panels.score_table import ScoreTablePanel
from attn_desktop.ui.scene_link import follow_scene
from attn_desktop.ui.view_state.key_highlight import KeyHighlight

TITLE_TIP = "Show this head in the Scores, Weights, Output and Grids panels"
MATRIX_SHARE = 0.45  # of the column's height, at most, for the matrix beside the canvas


class HeadColumn(QWidget):
    def __init__(self, document: Scene, view_state: ViewState, layer: int, head: int, parent=None) -> None:
        super().__init__(parent)
        self.document = document
        self.view_state = view_state
        self.layer, self.head = layer, head
        self.view = HeadReading(document, view_state, at=(layer, head))
        self.title_button = QPushButton(document.head_name(layer, head))
        self.title_button.setCheckable(True)
        self.title_button.setToolTip(TITLE_TIP)
        self.title_button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.title_button.clicked.connect(lambda: self.view_state.show_head(self.layer, self.head))
        font = self.title_button.font()
        font.setBold(True)
        self.title_button.setFont(font)
        self.highlight = KeyHighlight(self, view_state, (layer, head))  # a key pointed at in this head's table, lit on its canvas
        self.canvas = AttentionCanvas(self.view, self, highlight=self.highlight)
        self.canvas.set_dims(*input_plane(document, layer, head))
        self.scores = ScoreTablePanel(self.view, self.highlight, self)
        self.scores.set_formula_shown(False)  # the worked dot product is the Scores panel's, for the head shown
        self.matrix = MatrixView(self.view, self)
        self.parts_layout = layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.title_button)
        layout.addWidget(self.canvas, 5)
        layout.addWidget(self.scores, 0)
        layout.addWidget(self.matrix, 3)
        follow_scene(self, view_state, self._on_view_changed)
        self._show_whether_shown()

    def show_parts(self, canvas: bool, scores: bool, matrix: bool) -> None:
        """Which of the head's panels show (every head shows the same ones, so they line up)."""
        self.canvas.setVisible(canvas)
        self.scores.setVisible(scores)
        self.matrix.setVisible(matrix)
        self.parts_layout.setStretchFactor(self.matrix, 3 if canvas else 1)
        self.matrix.setMaximumHeight(max(1, int(self.height() * (MATRIX_SHARE if canvas else 1.0))))  # alone, the matrix takes the height

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        # The matrix asks for room for every number; beside a canvas it takes at most this share and
        # leaves the canvas the rest (squeezed, it hides its numbers and says so; its tooltip gives them).
        share = MATRIX_SHARE if self.canvas.isVisibleTo(self) else 1.0
        self.matrix.setMaximumHeight(max(1, int(self.height() * share)))

    def _on_view_changed(self, change: Change) -> None:
        self._show_whether_shown()

    def _show_whether_shown(self) -> None:
        self.title_button.setChecked((self.view_state.layer, self.view_state.head) == (self.layer, self.head))
