"""The main window: builds the canvas, panels, docks, menus and status bar around one scene and
connects them to the parts that do the work (documents, lessons, exports, typed numbers)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QCloseEvent, QResizeEvent
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from attn_desktop.language import N_, tr
from attn_desktop.model import Change, HeadReading, Scene, ViewState
from attn_desktop.model.layers import Role
from attn_desktop.model.pretrained.head_kinds import CLEAR_PREVIOUS_TOKEN_HEAD, PREVIOUS_TOKEN_SENTENCE
from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE
from attn_desktop.model.scene_files import new_scene
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.progress import ProgressStore
from attn_desktop.model.teaching.screen_description import ScreenDescription, activity_of, describe_screen
from attn_desktop.ui.accessibility.announcer import Announcer
from attn_desktop.ui.accessibility.description_panel import DescriptionPanel
from attn_desktop.ui.accessibility.focus_ring import FocusRings
from attn_desktop.ui.accessibility.reading_order import ReadingOrder
from attn_desktop.ui.canvas.canvas import AttentionCanvas
from attn_desktop.ui.canvas.coordinate_dialog import CoordinateDialog
from attn_desktop.ui.canvas.drag_controller import ArrowLock
from attn_desktop.ui.document.autosave import Autosaver, LeftWork
from attn_desktop.ui.document.document_controller import DocumentController, lesson_for_file
from attn_desktop.ui.document.edit_history import EditHistory
from attn_desktop.ui.document.qt_dialogs import QtDocumentDialogs
from attn_desktop.ui.document.scene_exports import SceneExports
from attn_desktop.ui.heads.heads_view import HeadsView
from attn_desktop.ui.language.rewording import remember_source
from attn_desktop.ui.lessons.challenges_panel import ChallengesPanel
from attn_desktop.ui.lessons.editor.lesson_authoring import LessonAuthoring
from attn_desktop.ui.lessons.hidden_controls import HiddenControls
from attn_desktop.ui.lessons.lesson_code import LessonCode
from attn_desktop.ui.lessons.lesson_controller import LessonController
from attn_desktop.ui.lessons.lesson_file_opener import LessonFileOpener
from attn_desktop.ui.lessons.lesson_panel import LessonPanel
from attn_desktop.ui.lessons.lesson_results_controller import LessonResultsController
from attn_desktop.ui.lessons.predict_rounds import PredictRounds
from attn_desktop.ui.lessons.your_lessons_menu import YourLessonsMenu
from attn_desktop.ui.panels.code_panel import CodePanel
from attn_desktop.ui.panels.grid_editor import GridEditor
from attn_desktop.ui.panels.matrix_view import MatrixView
from attn_desktop.ui.panels.output_panel import OutputPanel
from attn_desktop.ui.panels.score_table import ScoreTablePanel
from attn_desktop.ui.panels.sentence_panel import SentencePanel
from attn_desktop.ui.panels.shapes_panel import ShapesPanel
from attn_desktop.ui.panels.weights_chart import WeightsChart
from attn_desktop.ui.positions_lab.positions_lab_panel import PositionsLabPanel
from attn_desktop.ui.predict.prediction_controller import PredictionController
from attn_desktop.ui.predict.weights_panel import WeightsPanel
from attn_desktop.ui.pretrained.pretrained_controller import ModelController
from attn_desktop.ui.pretrained.pretrained_heads_panel import ModelHeadsPanel
from attn_desktop.ui.scaling_lab.scaling_lab_panel import ScalingLabPanel
from attn_desktop.ui.scene_link import follow_scene
from attn_desktop.ui.settings import remember_language
from attn_desktop.ui.training.training_controller import TrainingController
from attn_desktop.ui.training.training_panel import TrainingPanel
from attn_desktop.ui.view_state.key_highlight import KeyHighlight
from attn_desktop.ui.view_state.weights_veil import WeightsVeil
from attn_desktop.ui.window import language_switch
from attn_desktop.ui.window.about import show_about
from attn_desktop.ui.window.actions.menu_id import MenuId
from attn_desktop.ui.window.actions.scene_switches import SceneSwitches
from attn_desktop.ui.window.actions.snap_steps import SnapSteps
from attn_desktop.ui.window.actions.table import build_actions, fill_menus
from attn_desktop.ui.window.actions.text_box_undo import TextBoxUndoFirst
from attn_desktop.ui.window.actions.toolbar import MainToolBar
from attn_desktop.ui.window.app_icon import app_icon
from attn_desktop.ui.window.layout.canvas_or_heads import show_canvas_or_heads
from attn_desktop.ui.window.layout.central_stack import CentralStack
from attn_desktop.ui.window.layout.dock_layout import BOTTOM, LEFT, RIGHT, DockLayout, DockSpec
from attn_desktop.ui.window.layout.layout_store import LayoutStore
from attn_desktop.ui.window.layout.mirrored_docks import corner_on_reading_side, on_reading_side
from attn_desktop.ui.window.layout.presentation_mode import PresentationMode
from attn_desktop.ui.window.layout.screen_fit import ScreenFit, fit_to_screen
from attn_desktop.ui.window.status.status_bar import fill_status_bar


class MainWindow(QMainWindow):
    def __init__(self, scene: Scene, scene_path: Path | None = None, progress: ProgressStore | None = None,
                 view: ViewState | None = None) -> None:
        """A window on SCENE, looked at through VIEW: its own unless its owner hands it one (the query a file
        chose, or another window's view to share)."""
        super().__init__()
        self.scene = scene
        self.view_state = view if view is not None else ViewState()  # what the user looks at in this window
        self.shown = HeadReading(scene, self.view_state)
        self.progress = progress if progress is not None else ProgressStore()
        self.setObjectName("MainWindow")
        self.setWindowIcon(app_icon())
        self.announcer = Announcer(self)  # what a screen reader is told, and the Description panel's log
        self.focus_rings = FocusRings(self)  # a ring round the control that has the keys, seen from the back
        self.reading_order = ReadingOrder(self)  # where Tab goes next: the panels as they stand (see focusNextPrevChild)
        self.highlight = KeyHighlight(self, self.view_state)  # the key pointed at in the score table, lit on the canvas
        self.veil = WeightsVeil(self, self.view_state)  # Predict, then see: the weights hidden until the student has guessed
        self.canvas = AttentionCanvas(self.shown, self, highlight=self.highlight, veil=self.veil)
        self.history = EditHistory(scene, self.view_state, self)
        self.heads_view = HeadsView(scene, self.view_state, self.history, self)  # a scene with several heads shows them here instead
        self.central_stack = CentralStack([self.canvas, self.heads_view], self)
        self.setCentralWidget(self.central_stack)
        self.autosaver = Autosaver(scene, self.view_state, self)
        self.canvas.arrow_moved.connect(self.history.do)  # one command per released drag or nudge
        self.canvas.announcement.connect(self.announcer.announce)  # one per nudge or released drag
        self.heads_view.arrow_moved.connect(self.history.do)
        self.heads_view.announcement.connect(self.announcer.announce)
        fit_to_screen(self, 1480, 920)  # first: the docks take their sizes as shares of the window
        if self.screen() is not None:
            self.heads_view.fit_parts_to_screen(self.screen().availableGeometry().height())
        self._build_panels()
        self._build_docks()
        # Maximised or presenting (full screen), never left larger than the screen.
        self.screen_fit = ScreenFit(self, lambda: self.presentation_mode.presenting)
        self.dialogs = QtDocumentDialogs(self)
        show_error, show_status = self.dialogs.show_error, self.dialogs.show_status
        self.predictions = PredictionController(self.shown, self.veil, self.weights_chart, self.weights_panel.predict_bar,
                                                self.canvas.drags, self.progress, self)
        self.lesson_code = LessonCode(scene, self.code_panel, self.scaling_lab, self.predictions)
        self.lessons = LessonController(scene, self.view_state, self.history, self.lesson_panel, self.docks[DockId.LESSON],
                                        self.docks[DockId.GRIDS], self.dock_layout, self.predictions,
                                        self.lesson_code.show, show_error, self.canvas)
        self.documents = DocumentController(scene, self.history, self.autosaver, self.dialogs, self.lessons,
                                            self._window_for_restored, scene_path)
        self.lessons.document = self.documents
        # After the lessons' slot has put the scene back and hidden the button that had the keys.
        self.lesson_panel.fresh_scene_requested.connect(self._keys_to_the_drawing)
        self.coordinates = CoordinateDialog(self, self.shown, self.history, self.canvas, show_error, show_status)
        self.exports = SceneExports(self.shown, self.documents, self, self.dialogs)  # pictures of this window
        self.switches = SceneSwitches(scene, self.history, show_error)
        self.training = TrainingController(scene, self.history, self.documents, self.training_panel, self)
        self.model_heads = ModelController(scene, self.view_state, self.documents, self.model_heads_panel,
                                           self.docks[DockId.MODEL_HEADS],
                                           lambda: self.dock_layout.show_wide(DockId.MODEL_HEADS), self.dialogs, parent=self)
        self.positions_lab.real_head_requested.connect(  # lesson 10's head: its previous-token line, then RoPE off
            lambda: self.model_heads.open_head_reading(*CLEAR_PREVIOUS_TOKEN_HEAD, PREVIOUS_TOKEN_SENTENCE,
                                                       self.lessons.current))
        self.positions_lab.rope_switched.connect(self.model_heads.set_rope)
        self._build_actions()
        # Verdicts, milestones, a model loaded, a knock-out's effect: each said once, politely, and logged.
        for part in (self.lesson_panel, self.challenges_panel, self.predictions, self.training_panel, self.model_heads,
                     self.matrix_view, self.score_panel):
            part.announcement.connect(self.announcer.announce)
        self.canvas.drags.dragging.connect(self._hold_undo_during_drag)
        # The words that say what is true catch up where the hand rests or lets go, not at every move's frame.
        self.canvas.drags.dragging.connect(self.challenges_panel.hold_during_drag)
        self.canvas.drags.dragging.connect(self.description_panel.hold_during_drag)
        self.heads_view.dragging.connect(self._hold_undo_during_drag)
        self.unprotected_label, self.progress_notice_label = fill_status_bar(
            self.statusBar(), scene, (self.autosaver, self.progress), (self.canvas.drag_moved, self.heads_view.drag_moved))
        for drawing in (self.canvas, self.heads_view):
            drawing.edit_requested.connect(self.coordinates.type_coordinates)
        # Undo or a file can flip a setting.
        follow_scene(self, scene, self.switches.on_scene_changed, follows=Change.SETTINGS | Change.STRUCTURE)
        follow_scene(self, scene, lambda change: show_canvas_or_heads(self, change), follows=Change.STRUCTURE)
        show_canvas_or_heads(self, Change.STRUCTURE)
        self.lessons.show(lesson_for_file(scene_path))
        self.documents.update_title()

    def _build_panels(self) -> None:
        scene, shown = self.scene, self.shown  # the document, and the head the one-head panels show
        self.score_panel = ScoreTablePanel(shown, self.highlight, veil=self.veil)
        self.output_panel = OutputPanel(shown, veil=self.veil)
        self.weights_chart = WeightsChart(shown)
        self.weights_panel = WeightsPanel(self.weights_chart)  # the chart, and Predict, then see's strip over it
        self.matrix_view = MatrixView(shown, veil=self.veil)
        self.shapes_panel = ShapesPanel(shown)
        self.lesson_panel = LessonPanel(self.progress)
        self.grid_editor = GridEditor(shown, self.history)  # typed numbers and words: undoable commands
        self.challenges_panel = ChallengesPanel(shown, self.progress, veil=self.veil)
        self.description_panel = DescriptionPanel(shown, self.announcer, self.describe_screen)  # what a screen reader says
        self.lesson_panel.lesson_shown.connect(self.challenges_panel.follow_lesson)
        self.lesson_panel.lesson_shown.connect(self.description_panel.follow_activity)
        self.veil.changed.connect(self.description_panel.follow_activity)  # the weights hidden or shown again
        self.code_panel = CodePanel(self.reading())
        self.sentence_panel = SentencePanel(scene, self.history)
        self.training_panel = TrainingPanel()
        self.model_heads_panel = ModelHeadsPanel(DEFAULT_SENTENCE)
        self.scaling_lab = ScalingLabPanel()
        self.scaling_lab.width_changed.connect(lambda _: self.lesson_code.show(self.lessons.current))
        self.positions_lab = PositionsLabPanel(shown, self.history)  # its Shuffle: an undoable edit

    def _build_docks(self) -> None:
        self.dock_layout = DockLayout(self, scene_uses_grids=lambda: bool(self.scene.head(0, 0).grids),
                                      predicting=lambda: self.weights_panel.guessing)
        for spec, widget in (
            # Translators: the titles of the window's panels (docks), also in View's list of panels.
            (DockSpec(DockId.LESSON, N_("Lesson"), LEFT), self.lesson_panel),
            (DockSpec(DockId.CHALLENGES, N_("Challenges"), LEFT), self.challenges_panel),
            (DockSpec(DockId.CODE, N_("Code"), LEFT), self.code_panel),
            (DockSpec(DockId.SENTENCE, N_("Sentence"), LEFT), self.sentence_panel),
            (DockSpec(DockId.TRAINING, N_("Training"), LEFT), self.training_panel),  # it scrolls itself
            (DockSpec(DockId.MODEL_HEADS, N_("Model heads"), LEFT, scrolls=True), self.model_heads_panel),
            (DockSpec(DockId.SCALING_LAB, N_("√d_k lab"), LEFT), self.scaling_lab),
            (DockSpec(DockId.POSITIONS_LAB, N_("Positions lab"), LEFT), self.positions_lab),
            (DockSpec(DockId.GRIDS, N_("Grids"), BOTTOM), self.grid_editor),
            (DockSpec(DockId.SCORE, N_("Scores"), RIGHT), self.score_panel),
            (DockSpec(DockId.MATRIX, N_("Attention matrix"), RIGHT), self.matrix_view),
            (DockSpec(DockId.OUTPUT, N_("Output"), BOTTOM), self.output_panel),
            (DockSpec(DockId.WEIGHTS, N_("Weights"), BOTTOM), self.weights_panel),
            (DockSpec(DockId.SHAPES, N_("Shapes"), BOTTOM), self.shapes_panel),
            (DockSpec(DockId.DESCRIPTION, N_("Description"), LEFT), self.description_panel),
        ):
            dock = self.dock_layout.add_dock(replace(spec, title=tr(spec.title)), widget)
            remember_source(dock, "windowTitle", spec.title)  # a language switch words it from its own source
        self.docks: dict[DockId, QDockWidget] = self.dock_layout.docks
        # A dock tells when its tab comes to the front; the Code panel skips work while it is behind.
        self.docks[DockId.CODE].visibilityChanged.connect(self.code_panel.set_on_screen)
        self.dock_layout.arrange_defaults()
        self.presentation_mode = PresentationMode(self, self.dock_layout)
        self.layout_store = LayoutStore(self, self.dock_layout, self.presentation_mode)

    def _build_actions(self) -> None:
        """The command table's actions (see actions/table.py), menus and toolbar; those used by name are kept."""
        self.menu_actions = actions = build_actions(self, self)
        self.undo_action, self.redo_action = actions["undo_action"], actions["redo_action"]
        self.scale_action, self.causal_action = actions["scale_action"], actions["causal_action"]
        self.snap_action, self.predict_action = actions["snap_action"], actions["predict_action"]
        self.presentation_action, self.recent_menu = actions["presentation_action"], actions.menus["recent_menu"]
        self.snap = SnapSteps(self.canvas, self.snap_action, actions.groups["snap_step_actions"])
        self.predictions.bind_action(self.predict_action.setChecked)
        self.predictions.revealed.connect(lambda: self.lesson_code.show(self.lessons.current))
        # Typing in a text box: these keys undo and redo the typing, not the scene behind it.
        self.installEventFilter(TextBoxUndoFirst(self.undo_action, self.redo_action, self))
        self.toolbar = MainToolBar(self.reading(), actions, self)
        self.query_picker, self.toolbar_boxes = self.toolbar.query_picker, self.toolbar.boxes
        self.addToolBar(self.toolbar)
        self.menus = fill_menus(self, actions, {MenuId.VIEW: [dock.toggleViewAction() for dock in self.docks.values()]})
        self.switches.bind(self.scale_action, self.causal_action, self.toolbar_boxes.values())
        switch_boxes = {"grids-switch": self.grid_editor.no_grids_box}
        hidden = HiddenControls(actions.actions, self.docks, self.toolbar, switch_boxes, self.scene,
                                self.switches.follow_scene, self, self._grids_read_only)
        rounds = PredictRounds(self.predictions, self.weights_panel.predict_bar, self.scene, self.view_state, self)
        self.lesson_files = LessonFileOpener(self.scene, self.view_state, self.history, self.documents,
                                             self.lesson_panel, self.docks[DockId.LESSON], hidden,
                                             self._lock_arrows, self.dock_layout, rounds, self.dialogs.show_error,
                                             self)
        # Hand in and collect (issue 45): Hand In… only while a lesson file is open.
        self.lesson_results = LessonResultsController(self.lesson_files, self.lesson_panel, self.documents,
                                                      self.dialogs.show_error, self.dialogs.show_status, self)
        self.hand_in_action = self.menu_actions["hand_in_action"]
        self.lesson_files.lesson_changed.append(
            lambda: self.hand_in_action.setEnabled(self.lesson_files.lesson is not None))
        self.hand_in_action.setEnabled(False)
        # Writing a lesson: New Lesson from This Scene…, Edit Lesson…, the editor beside the window (issue 45).
        self.lesson_authoring = LessonAuthoring(self.scene, self.view_state, self.docks, self.matrix_view,
                                                self.lesson_files, lambda: self.lessons.show(None),
                                                self.documents.dialog_folder, self.dialogs.show_error, self)
        self.lesson_panel.lesson_shown.connect(self.lesson_authoring.another_lesson_shown)
        self.lesson_panel.arrow_pointed_at.connect(self._point_at_arrow)
        self.your_lessons = YourLessonsMenu(self.menus[MenuId.LESSONS], actions["lessons_folder_action"],
                                            self.lesson_files.open_path, self.documents.dialog_folder, self)

    def _point_at_arrow(self, arrow: tuple[Role, int]) -> None:
        """A lesson's text named an arrow and the student clicked it: that arrow chosen on the canvas (its ring
        drawn, the arrow keys move it, a screen reader says it), and a query chosen as the query too."""
        role, index = arrow
        if role is Role.QUERY and index < self.scene.n_queries:
            self.view_state.select_query(index)
        if index < len(self.canvas.drags.arrows.get(role, ())):
            self.canvas.setFocus(Qt.FocusReason.OtherFocusReason)
            self.canvas.drags.focus_arrow(arrow)

    def _grids_read_only(self, read_only: bool) -> None:
        """A lesson file's hidden grid editing: the Grids panel's numbers and each layer's W_O beside the heads."""
        self.grid_editor.set_read_only(read_only)
        self.heads_view.mixing_box.set_read_only(read_only)

    def reading(self, layer: int = 0, head: int = 0) -> HeadReading:
        """Head HEAD of LAYER as this window's view looks at it (the chosen query is the view's)."""
        return HeadReading(self.scene, self.view_state, at=(layer, head))

    def describe_screen(self) -> ScreenDescription:
        """The screen in four parts for a screen reader: the activity open and the head on the canvas, its weights
        left unsaid while the class guesses them (the Description panel shows it, F1 says it)."""
        activity = activity_of(self.lessons.current, self.dock_layout.activity.companion)
        return describe_screen(activity, self.shown, weights_hidden=self.veil.on)

    @property
    def showing_heads(self) -> bool:
        """Several heads side by side where the canvas was: the window's layout made way for them."""
        return self.dock_layout.showing_heads

    # ----- small handlers ------------------------------------------------
    def _hold_undo_during_drag(self, dragging: bool) -> None:
        """Undo mid-drag would step back under the drag, which then records its move on the wrong state."""
        self.undo_action.setEnabled(not dragging and self.history.stack.canUndo())
        self.redo_action.setEnabled(not dragging and self.history.stack.canRedo())

    def _lock_arrows(self, is_locked: ArrowLock | None) -> None:
        """A lesson file's locked arrows, fixed on the canvas and in each head's of the heads side by side."""
        self.canvas.drags.lock(is_locked)
        self.heads_view.lock_arrows(is_locked)

    def _keys_to_the_drawing(self) -> None:
        """The keys on the scene just brought back (Start afresh): Tab picks an arrow, the arrow keys move it.
        Qt would hand them to the lesson's text, which shows no sign of having them and passes Tab out of the
        panel. Several heads: to the first head's canvas shown (the heads view itself takes no keys)."""
        drawing: QWidget = self.canvas
        if self.central_stack.currentWidget() is self.heads_view:
            drawing = next((column.canvas for column in self.heads_view.columns if column.canvas.isVisible()),
                           self.heads_view)
        drawing.setFocus(Qt.FocusReason.OtherFocusReason)

    # ----- lessons and the document (see LessonController, DocumentController) ----
    def open_lesson(self, lesson_id: str) -> bool:
        return self.lessons.open(lesson_id)

    @property
    def scene_path(self) -> Path | None:
        return self.documents.path

    def _window_for_restored(self, left: LeftWork) -> MainWindow:
        """Work of a second window that ended unsaved: back in a window of its own."""
        window = MainWindow(new_scene(left.data), left.source, self.progress)
        window.documents.restore_work(left)
        window.move(self.pos() + QPoint(40, 40))  # beside this one, not hidden exactly behind it
        window.show()
        return window

    # ----- docks on the reading side (see mirrored_docks.py) ---------------
    def addDockWidget(self, area: Qt.DockWidgetArea, dock: QDockWidget, *orientation: Qt.Orientation) -> None:
        super().addDockWidget(on_reading_side(area, self.isRightToLeft()), dock, *orientation)

    def dockWidgetArea(self, dock: QDockWidget) -> Qt.DockWidgetArea:
        return on_reading_side(super().dockWidgetArea(dock), self.isRightToLeft())

    def setCorner(self, corner: Qt.Corner, area: Qt.DockWidgetArea) -> None:
        right_to_left = self.isRightToLeft()
        super().setCorner(corner_on_reading_side(corner, right_to_left), on_reading_side(area, right_to_left))

    # ----- presentation, layout and window state --------------------------
    def set_presentation(self, on: bool) -> None:
        """Full screen, large type, thick arrows: for a projector (see PresentationMode)."""
        self.presentation_mode.set_presentation(on, after_font_change=self._present_drawings)

    def _present_drawings(self, on: bool) -> None:
        for drawing in (self.canvas, self.heads_view):
            drawing.set_presentation(on)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.presentation_mode.settling:  # the window manager's resizes after entering or leaving presentation
            self.presentation_mode.arrange()
        else:
            self.dock_layout.window_resized()

    def restore_window_state(self) -> bool:
        """The window and docks as they were last time on a screen of this size; False if never."""
        restored = self.layout_store.restore()
        self.lessons.show_grids_if_used()
        return restored

    def save_window_state(self) -> None:
        self.layout_store.save()

    def reset_layout(self) -> None:
        self.dock_layout.reset()
        self.lessons.show_grids_if_used()

    def show_about(self) -> None:
        show_about(self)

    def switch_language(self, code: str) -> None:
        """View → Language: the whole window in the language CODE at once, and the next time it starts."""
        right_to_left = self.isRightToLeft()
        language_switch.switch_language(self, self.scene, self.documents.update_title, code,
                                        self.lessons.follow_language)
        remember_language(code)
        if self.isRightToLeft() != right_to_left:  # the docks change sides with the reading direction
            self.dock_layout.follow_direction()
        else:  # longer words widened a panel's minimum: the design shared out again, so that back is as before
            self.dock_layout.arrange()

    def focusNextPrevChild(self, next: bool) -> bool:
        # Tab and Shift+Tab in reading order, from where the panels stand now (reading_order.py).
        return self.reading_order.move_focus(next) or super().focusNextPrevChild(next)

    def close_keeping_work(self) -> None:
        """Close as File → Quit does, unsaved work kept for the next start rather than asked about (Ctrl+C)."""
        self.documents.keep_for_next_start()
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.documents.close():
            event.ignore()
            return
        self.save_window_state()  # the everyday window, also when closed during a presentation
        self.presentation_action.setChecked(False)
        self.training_panel.shutdown()  # the training thread ends with its window
        self.model_heads.shutdown()  # and so does the model's
        super().closeEvent(event)
