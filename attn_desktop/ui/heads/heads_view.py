"""Every head of a multi-head scene, and how W_O mixes them.

In a scene with several heads this takes the canvas's place in the window: every head's panels
(canvas, score table, matrix: small multiples, all for the same chosen query) and each layer's mix
for the chosen query, its heads' outputs side by side times W_O, with every layer's W_O to type into
(a layer of one head without W_O passes its output on). A word vector dragged in one head's canvas
moves in every head; only the heads that read the numbers it changed change their pattern. The
window says, after every new structure, whether it shows the heads (show_heads): hidden behind the
canvas, the view builds nothing.

Where the view is wide enough for every head's three plots at a size a class can drag in, the heads
stand in columns side by side. Where it is not (a classroom projector, a window beside the lesson),
the heads' titles become a switch and one head's canvas shows at a time, the whole width, over every
head's matrix side by side: a drag in one head still visibly changes one matrix and not the other.
The plots get their height first; the matrices the room for their numbers; W_O and the output line
go right of the matrices when there is room there, under them otherwise (see geometry/heads_room.py).

A scene whose heads make vectors wider than the canvas's plane (a trained induction model's: 16 numbers)
is drawn there as a slice of two numbers; what its heads do is in their matrices. Such a scene opens with
the matrices alone, as large as the view (the Canvas and Scores boxes unticked, a tick away). Where the
matrices do not all show their numbers side by side (twenty tokens each on a classroom screen), one
head's matrix shows at a time, chosen with the heads' titles, as its canvas is.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSignalBlocker, QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QBoxLayout, QCheckBox, QFrame, QHBoxLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from attn_desktop.geometry.heads_room import (
    canvas_height_for_plots,
    matrices_fit_side_by_side,
    mixing_fits_beside,
    plots_show_heads_whole,
    side_by_side_fits,
)
from attn_desktop.language import N_, tr
from attn_desktop.model import Change, Scene, ViewState
from attn_desktop.model.commands import Editor
from attn_desktop.model.layers import ATTENTION_ROLES
from attn_desktop.ui.canvas.canvas import PRESENTATION_SCALE
from attn_desktop.ui.canvas.drag_controller import ArrowLock
from attn_desktop.ui.heads.head_column import HeadColumn
from attn_desktop.ui.heads.mixing_box import MixingBox
from attn_desktop.ui.panels.grid_editor import GridEditor
from attn_desktop.ui.scene_link import follow_scene

ROOM_FOR_EVERY_PART = 1000  # screen lines from which each head shows its score table as well by default
PART_NAMES = (N_("Canvas"), N_("Scores"), N_("Matrix"))  # the boxes' keys; shown as tr(name)
SPACING = 8  # between the heads' columns


class HeadsView(QWidget):
    # What any head's canvas says, passed on: the window records drags and shows their read-outs.
    arrow_moved = Signal(object)  # a MoveArrow, already shown
    drag_moved = Signal(str)
    edit_requested = Signal(object, int)
    dragging = Signal(bool)
    announcement = Signal(str, object)  # what a step on a head's canvas changed (text, accessible source)

    def __init__(self, scene: Scene, view_state: ViewState, editor: Editor | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scene = scene
        self.view_state = view_state
        self.presenting = False
        self.showing = False  # the window shows the heads: see show_heads
        self.columns: list[HeadColumn] = []
        self.arrow_lock: ArrowLock | None = None  # a lesson file's locked arrows, fixed in every head's canvas
        self.one_at_a_time = False  # one head's canvas shows, chosen with the heads' titles (see _arrange)
        self.matrices_one_at_a_time = False  # the chosen head's matrix only: they do not fit side by side
        self.mixing_beside = False  # W_O and the output line right of the matrices, not under them
        self.matrices_first = False  # the scene's heads are wider than the plane: its matrices alone by default
        self.screen_height = 0  # of the screen the window opened on (fit_parts_to_screen)
        self._arranged: tuple | None = None  # what _arrange last arranged for: a resize that changes none of it does nothing
        self.part_boxes = {name: QCheckBox(tr(name)) for name in PART_NAMES}
        for box in self.part_boxes.values():
            box.setChecked(True)
            box.setToolTip(tr("Show this panel in every head"))
            box.toggled.connect(self._show_chosen_parts)
        self._build_rows()
        self.mixing_box = MixingBox(scene, view_state, editor)
        self.main_layout = layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)  # (every line counts on a projector of 768 lines)
        layout.setSpacing(2)
        layout.addLayout(self._top_row())
        layout.addWidget(self.scroll_area, 1)
        layout.addWidget(self.mixing_box)
        follow_scene(self, view_state, self._on_view_changed)  # another head shown: its canvas
        # A part that asks for other room (presentation's type, another scene's words) may leave the canvases too
        # much or too little: see _give_canvases_their_room.
        for watched in (self.columns_area, self.mixing_box):
            watched.installEventFilter(self)

    def minimumSizeHint(self) -> QSize:
        """Without heads (a scene of one head), none: the window's switch back to the canvas must not keep
        the room of the heads' top row (a 1024-pixel window grew past its screen)."""
        return super().minimumSizeHint() if self.showing else QSize(0, 0)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest and self.showing:
            self._give_canvases_their_room()
        return False

    # ----- building ---------------------------------------------------------
    def _build_rows(self) -> None:
        """The heads' titles, canvases, score tables and matrices, each a row with a place per head."""
        self.titles_row, self.canvas_row, self.scores_row, self.matrix_row = (QHBoxLayout() for _ in range(4))
        self.bottom_row = QHBoxLayout()  # the matrices, and W_O and the output line when they fit beside
        self.bottom_row.addLayout(self.matrix_row, 1)
        self.columns_area = QWidget()  # (also what a picture of the heads shows)
        self.rows_layout = rows = QVBoxLayout(self.columns_area)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(2)
        for row, stretch in ((self.titles_row, 0), (self.canvas_row, 3), (self.scores_row, 0), (self.bottom_row, 1)):
            row.setSpacing(SPACING)
            rows.addLayout(row, stretch)
        # On a small screen the heads scroll rather than push the window past the screen's edge.
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidget(self.columns_area)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)

    def _top_row(self) -> QBoxLayout:
        """The heads' titles when they are a switch (one canvas at a time), and which panels each head shows:
        on one line, or the boxes under the switch when both do not fit one (see _place_titles)."""
        self.top_row = row = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.switch_row = QHBoxLayout()
        self.switch_row.setSpacing(2)
        self.switch_label = QLabel(tr("Plots of:"))  # (one head's canvas at a time: the titles after it choose whose)
        self.switch_label.setToolTip(tr("The heads do not all fit side by side here: click a head to show its plots "
                                        "(and its matrix, where the matrices do not fit either)"))
        self.switch_label.hide()
        switch_line = QHBoxLayout()
        switch_line.addWidget(self.switch_label)
        switch_line.addLayout(self.switch_row)
        switch_line.addStretch(1)
        row.addLayout(switch_line, 1)
        self.parts_line = QWidget()
        parts = QHBoxLayout(self.parts_line)
        parts.setContentsMargins(0, 0, 0, 0)
        parts.addWidget(QLabel(tr("Each head shows:")))
        for box in self.part_boxes.values():
            parts.addWidget(box)
        row.addWidget(self.parts_line, 0, Qt.AlignmentFlag.AlignRight)
        return row

    def show_heads(self, on: bool) -> None:
        """The window shows the heads (ON), or the canvas: build every head's panels afresh, or none.
        The window calls it after every new structure (another scene, other words)."""
        self.showing = on
        if on:
            self._choose_parts_for_the_scene()
        self._build_columns()
        self.mixing_box.show_layers(on)
        self._arrange(again=True)

    def _build_columns(self) -> None:
        for column in self.columns:
            for part, row in zip(column.parts, (self.switch_row, self.canvas_row, self.scores_row, self.matrix_row)):
                row.removeWidget(part)
                self.titles_row.removeWidget(part)
            column.dispose()
        self.columns = []
        if self.showing:
            for layer, head, _ in self.scene.all_heads():
                column = HeadColumn(self.scene, self.view_state, layer, head, self.columns_area)
                self._pass_on_signals(column)
                if self.presenting:
                    column.canvas.set_presentation(True)
                self.canvas_row.addWidget(column.canvas, 1)
                self.scores_row.addWidget(column.scores, 1)
                self.matrix_row.addWidget(column.matrix, 1)
                self.columns.append(column)

    def lock_arrows(self, is_locked: ArrowLock | None) -> None:
        """The arrows IS_LOCKED says are fixed in every head's canvas, now and in those made later (None: free)."""
        self.arrow_lock = is_locked
        for column in self.columns:
            column.canvas.drags.lock(is_locked)

    def _pass_on_signals(self, column: HeadColumn) -> None:
        canvas = column.canvas
        canvas.arrow_moved.connect(self.arrow_moved)
        canvas.drag_moved.connect(self.drag_moved)
        canvas.announcement.connect(self.announcement)
        canvas.edit_requested.connect(self.edit_requested)
        canvas.drags.dragging.connect(self.dragging)
        if self.arrow_lock is not None:
            canvas.drags.lock(self.arrow_lock)

    # ----- which parts show, and where ---------------------------------------
    def fit_parts_to_screen(self, screen_height: int) -> None:
        """Three panels a head need the height of a large screen; on a classroom projector (768 lines)
        the score tables start hidden, a tick away."""
        self.screen_height = screen_height
        self.part_boxes["Scores"].setChecked(screen_height >= ROOM_FOR_EVERY_PART and not self.matrices_first)

    def _choose_parts_for_the_scene(self) -> None:
        """Heads wider than the canvas's plane: the matrices alone (see the module's note); back to a scene of
        plane-wide heads, the canvas and (on a large screen) the scores. A scene of the same kind keeps what
        the user ticked."""
        widths = [head.vectors[role].shape[1] for _, _, head in self.scene.all_heads() for role in ATTENTION_ROLES]
        matrices_first = not plots_show_heads_whole(widths)
        if matrices_first == self.matrices_first:
            return
        self.matrices_first = matrices_first
        with QSignalBlocker(self.part_boxes["Canvas"]), QSignalBlocker(self.part_boxes["Scores"]):
            self.part_boxes["Canvas"].setChecked(not matrices_first)
            self.fit_parts_to_screen(self.screen_height)

    def set_presentation(self, on: bool) -> None:
        """Large type and thick arrows in every head's canvas, as in the main canvas; the plots need more room."""
        self.presenting = on
        for column in self.columns:
            column.canvas.set_presentation(on)
        self._arrange(again=True)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.showing:  # (hidden behind the canvas, the view does no work: presentation mode resizes it too)
            self._arrange()
            self._give_canvases_their_room()

    def _show_chosen_parts(self) -> None:
        self._arrange(again=True)

    def _room_width(self) -> int:
        margins = self.main_layout.contentsMargins()
        return self.width() - margins.left() - margins.right()

    def _arrange(self, again: bool = False) -> None:
        """Columns side by side if every head's plots fit so, else one head's canvas at a time; the mixing
        box right of the matrices or under them. Nothing to do when none of what decides it changed."""
        width, line_scale = self._room_width(), PRESENTATION_SCALE if self.presenting else 1.0
        canvas, scores, matrix = (self.part_boxes[name].isChecked() for name in PART_NAMES)
        shown = (canvas, scores, matrix)
        chosen = next((index for index, column in enumerate(self.columns) if column.chosen), 0)
        numbers_widths = [column.matrix.width_for_numbers() for column in self.columns]
        matrices_apart = matrix and not matrices_fit_side_by_side(width, numbers_widths, SPACING)
        one_at_a_time = matrices_apart or not side_by_side_fits(width, len(self.columns), SPACING, line_scale)
        matrices = self._matrices_width(matrices_apart, chosen)
        mixing = self.mixing_box.width_beside()  # (both grow with the type)
        beside = matrix and mixing_fits_beside(width, matrices, mixing, SPACING)
        one_line = not one_at_a_time or self._switch_fits_beside_boxes(width)
        decided = (one_at_a_time, matrices_apart, beside, shown, chosen, line_scale, len(self.columns), mixing,
                   one_line)
        if decided == self._arranged and not again:
            return
        self._arranged = decided
        self.one_at_a_time, self.matrices_one_at_a_time, self.mixing_beside = one_at_a_time, matrices_apart, beside
        self._place_titles(one_at_a_time)
        self.top_row.setDirection(QBoxLayout.Direction.LeftToRight if one_line else QBoxLayout.Direction.TopToBottom)
        self._show_parts(shown, chosen, canvas_height_for_plots(line_scale))
        self._place_mixing_box(beside)
        self._give_canvases_their_room()

    def _give_canvases_their_room(self) -> None:
        """The plots get their height first, down to a floor: when the heads would not fit, the canvases give
        way rather than the matrices (and the query's row) scroll out of view. Score tables ticked on a
        screen too low for them take their room from the canvases too (the lesson says so), down to half."""
        canvases = [column.canvas for column in self.columns if not column.canvas.isHidden()]
        if not canvases:
            return
        wanted = (canvas_height_for_plots(PRESENTATION_SCALE if self.presenting else 1.0)
                  + max(canvas.plots.title_height_beyond_usual() for canvas in canvases))  # a taller script's titles
        others = self.columns_area.minimumSizeHint().height() - canvases[0].minimumHeight()
        floor = wanted // 2 if self.part_boxes["Scores"].isChecked() else wanted * 9 // 10
        height = max(min(wanted, self._room_for_heads() - others), floor)
        for canvas in canvases:
            if canvas.minimumHeight() != height:
                canvas.setMinimumHeight(height)

    def _room_for_heads(self) -> int:
        """The height the heads' scroll area has: the view's, less its top row and the mixing box under it."""
        layout = self.main_layout
        margins, spacing = layout.contentsMargins(), layout.spacing()
        taken = margins.top() + margins.bottom() + self.top_row.sizeHint().height() + spacing
        if not self.mixing_beside:
            taken += self.mixing_box.minimumSizeHint().height() + spacing
        return self.height() - taken

    def _switch_fits_beside_boxes(self, width: int) -> bool:
        # The titles counted as short as they elide to: one line of elided titles leaves the plots more height
        # than two lines of whole ones (which, in Spanish or presentation type, took 27 px from plots of 200).
        buttons = sum(column.title_button.minimumSizeHint().width() + 2 for column in self.columns)
        buttons += self.switch_label.sizeHint().width() + 6
        return buttons + self.top_row.spacing() + self.parts_line.sizeHint().width() <= width

    def _place_titles(self, as_switch: bool) -> None:
        """The heads' titles: a switch in the top row, or each over its column."""
        row = self.switch_row if as_switch else self.titles_row
        self.switch_label.setVisible(as_switch and bool(self.columns))
        for column in self.columns:
            button = column.title_button
            self.titles_row.removeWidget(button)
            self.switch_row.removeWidget(button)
            row.addWidget(button, 0 if as_switch else 1)
            column.set_as_switch(as_switch)
            button.show()

    def _show_parts(self, shown: tuple[bool, bool, bool], chosen: int, canvas_height: int) -> None:
        canvas, scores, matrix = shown
        for index, column in enumerate(self.columns):
            drawn = canvas and (not self.one_at_a_time or index == chosen)
            column.canvas.setVisible(drawn)
            column.canvas.setMinimumHeight(canvas_height if drawn else 0)  # the plots' height first
            column.scores.setVisible(scores)
            column.matrix.setVisible(matrix and (not self.matrices_one_at_a_time or index == chosen))
        # Alone, the matrices take the height (an empty canvas row's stretch would keep half of it).
        self.rows_layout.setStretchFactor(self.canvas_row, 3 if canvas else 0)
        self.rows_layout.setStretchFactor(self.bottom_row, 1 if canvas else 3)

    def _place_mixing_box(self, beside: bool) -> None:
        """W_O and the output lines right of the matrices, or under the heads (outside their scroll area)."""
        (self.main_layout if beside else self.bottom_row).removeWidget(self.mixing_box)
        (self.bottom_row if beside else self.main_layout).addWidget(self.mixing_box, 0)
        self.mixing_box.set_beside(beside)
        self.mixing_box.show()

    def _matrices_width(self, one_at_a_time: bool, chosen: int) -> int:
        """The width the matrices shown need: their numbers' (every head's side by side, or the chosen one's)."""
        shown = self.columns[chosen:chosen + 1] if one_at_a_time else self.columns
        needs = [max(column.matrix.minimumSizeHint().width(), column.matrix.width_for_numbers()) for column in shown]
        return sum(needs) + SPACING * max(len(shown) - 1, 0)

    # ----- W_O and the mixing lines (the mixing box's) ---------------------------
    @property
    def w_o_editors(self) -> list[GridEditor]:
        return self.mixing_box.w_o_editors

    @property
    def mixing_label(self) -> QLabel:
        return self.mixing_box.mixing_label

    def mixing_text(self) -> str:
        """The lines under (or beside) the heads, as plain text (what the tests read)."""
        return self.mixing_box.mixing_text()

    def _on_view_changed(self, change: Change) -> None:
        if change & Change.SETTINGS:  # (another head shown: its canvas, when one shows at a time)
            self._arrange()
