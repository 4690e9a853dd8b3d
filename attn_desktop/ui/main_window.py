"""The main window: composes the canvas and the panels around one scene."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

from PySide6.QtCore import QPoint, QSignalBlocker, QStandardPaths
from PySide6.QtWidgets import (
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QToolBar,
)

from .. import APP_NAME, __version__
from ..model import Change, Role, Scene, SceneFileError
from ..model.csv_export import scores_csv, weights_csv
from ..model.exercises import ShowMe, parse_numbers
from ..model.export import export_json_text
from ..model.safe_write import write_text_atomically
from ..paths import DEFAULT_SCENE
from ..paths import scene_path as builtin_scene_path
from ..progress import ProgressStore
from .actions import build_actions, fill_menus, fill_toolbar
from .autosave import Autosaver, LeftWork, find_left_work
from .canvas import AttentionCanvas
from .challenges_panel import ChallengesPanel
from .code_panel import CodePanel
from .edit_history import EditHistory
from .export_actions import ask_png_scale, export_file
from .file_problems import failure_text, read_only
from .grid_editor import GridEditor
from .image_export import copy_image_to_clipboard, render_png, render_svg
from .lesson_controller import LessonController
from .lesson_panel import LessonPanel
from .matrix_view import MatrixView
from .output_panel import OutputPanel
from .query_picker import QueryPicker
from .score_table import ScoreTablePanel
from .sentence_panel import SentencePanel
from .settings import forget_recent, recent_files, remember_recent
from .shapes_panel import ShapesPanel
from .text_box_undo import TextBoxUndoFirst
from .unprotected_work_label import UnprotectedWorkLabel
from .weights_chart import WeightsChart
from .window_layout import BOTTOM, LEFT, RIGHT, DockSpec, WindowLayout

SCENE_FILTER = "Attention scenes (*.json);;All files (*)"
RECOVERY_NOTICE_MS = 60_000  # a damaged recovery copy was set aside: long enough to be read after the start
def app_icon_for_window():
    from .app import app_icon  # app.py imports this module; import at call time

    return app_icon()


def documents_folder() -> Path:
    """The user's Documents folder where there is one, else their home folder."""
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documents) if documents and Path(documents).is_dir() else Path.home()


def file_stem_for_title(title: str) -> str:
    """A file name for an unsaved scene: "The cat sat on the mat" -> "the-cat-sat-on-the-mat"."""
    stem = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return stem if stem and stem != "untitled" else "attention"


def with_json_suffix(path: str) -> str:
    """A name typed without an extension gets .json, so the file shows in the Open dialog."""
    return path if Path(path).suffix else path + ".json"


def lesson_for_scene(path: Path | None) -> str | None:
    """The lesson that goes with a scene: the default scene is the scaled-attention lesson."""
    return "scaled-attention" if path is None or path == builtin_scene_path(DEFAULT_SCENE) else None


STATUS_HINT = (
    "Drag an arrow tip (double-click it to type exact numbers). "
    "Click a query arrow or a matrix row to choose the query. Esc cancels a drag."
)


class MainWindow(QMainWindow):
    def __init__(self, scene: Scene, scene_path: Path | None = None, progress: ProgressStore | None = None) -> None:
        super().__init__()
        self.scene = scene
        self.scene_path = scene_path
        self.progress = progress if progress is not None else ProgressStore()
        self._last_dir = documents_folder()  # where file dialogs open when the scene has no file
        self.setObjectName("MainWindow")
        self.setWindowIcon(app_icon_for_window())
        self.canvas = AttentionCanvas(scene, self)
        self.setCentralWidget(self.canvas)
        self.history = EditHistory(scene, self)
        self.autosaver = Autosaver(scene, self)
        self.autosaver.source_path = scene_path
        self._restored_windows: list[MainWindow] = []  # more than one crashed window's work to bring back
        self.canvas.drag_started.connect(self.history.begin_drag)
        self.canvas.drag_ended.connect(self.history.end_drag)
        self.history.stack.indexChanged.connect(self._on_history_changed)
        self.history.stack.cleanChanged.connect(self.update_title)
        self._fit_to_screen(1480, 920)  # first: the docks take their sizes as shares of the window
        self._build_panels()
        self._build_docks()
        self.lessons = LessonController(self)
        build_actions(self)
        # Typing in a text box: these keys undo and redo the typing, not the scene behind it.
        self.installEventFilter(TextBoxUndoFirst(self.undo_action, self.redo_action, self))
        self._build_toolbar()
        fill_menus(self, {"&View": [dock.toggleViewAction() for dock in self.docks.values()]})
        self._sync_settings()
        # A normal widget stays; drag read-outs are temporary messages shown over it.
        self.statusBar().addWidget(QLabel(STATUS_HINT))
        self.unprotected_label = UnprotectedWorkLabel(self)  # stays until autosave works again
        self.statusBar().addPermanentWidget(self.unprotected_label)
        self.autosaver.protection_changed.connect(self.unprotected_label.show_problem)
        self.canvas.drag_moved.connect(lambda text: self.statusBar().showMessage(text, 4000))
        self.canvas.edit_requested.connect(self.type_coordinates)
        scene.subscribe(self._on_scene_changed)
        self.lessons.show(lesson_for_scene(scene_path))
        self.update_title()

    def _build_panels(self) -> None:
        scene = self.scene
        self.score_panel = ScoreTablePanel(scene)
        self.output_panel = OutputPanel(scene)
        self.weights_chart = WeightsChart(scene)
        self.matrix_view = MatrixView(scene)
        self.shapes_panel = ShapesPanel(scene)
        self.lesson_panel = LessonPanel(self.progress)
        self.lesson_panel.open_lesson_requested.connect(self.open_lesson)
        self.lesson_panel.show_me_requested.connect(self.apply_show_me)
        self.grid_editor = GridEditor(scene)
        self.challenges_panel = ChallengesPanel(scene, self.progress)
        self.code_panel = CodePanel(scene)
        self.sentence_panel = SentencePanel(scene)

    def _build_docks(self) -> None:
        self.layout_manager = WindowLayout(self)
        for spec, widget in (
            (DockSpec("lessonDock", "Lesson", LEFT), self.lesson_panel),
            (DockSpec("challengesDock", "Challenges", LEFT), self.challenges_panel),
            (DockSpec("codeDock", "Code", LEFT), self.code_panel),
            (DockSpec("sentenceDock", "Sentence", LEFT), self.sentence_panel),
            (DockSpec("gridsDock", "Grids", BOTTOM), self.grid_editor),
            (DockSpec("scoreDock", "Scores", RIGHT), self.score_panel),
            (DockSpec("matrixDock", "Attention matrix", RIGHT), self.matrix_view),
            (DockSpec("outputDock", "Output", BOTTOM), self.output_panel),
            (DockSpec("weightsDock", "Weights", BOTTOM), self.weights_chart),
            (DockSpec("shapesDock", "Shapes", BOTTOM), self.shapes_panel),
        ):
            self.layout_manager.add_dock(spec, widget)
        self.docks = self.layout_manager.docks
        # A dock tells when its tab comes to the front; the Code panel skips work while it is behind.
        self.docks["codeDock"].visibilityChanged.connect(self.code_panel.set_on_screen)
        self.layout_manager.arrange_defaults()

    def _fit_to_screen(self, width: int, height: int) -> None:
        """The preferred size, but never bigger than the screen (classroom laptops can be 1024 × 768)."""
        screen = self.screen().availableGeometry() if self.screen() else None
        if screen is not None and screen.width() > 0:
            width, height = min(width, int(screen.width() * 0.95)), min(height, int(screen.height() * 0.92))
        self.resize(width, height)

    def _build_toolbar(self) -> None:
        self.toolbar = toolbar = QToolBar("Query and settings", self)
        toolbar.setObjectName("mainToolBar")
        toolbar.setMovable(False)
        toolbar.addWidget(QLabel(" Query: "))
        self.query_picker = QueryPicker(self.scene, toolbar)
        toolbar.addWidget(self.query_picker)
        toolbar.addSeparator()
        self.toolbar_boxes = fill_toolbar(self, toolbar)
        self.addToolBar(toolbar)

    # ----- following the scene -----------------------------------------
    def _on_scene_changed(self, change: Change) -> None:
        if change & (Change.SETTINGS | Change.STRUCTURE):
            self._sync_settings()
        if change & Change.STRUCTURE:
            self.update_title()

    def _sync_settings(self) -> None:
        with QSignalBlocker(self.scale_action), QSignalBlocker(self.causal_action):
            self.scale_action.setChecked(self.scene.scale)
            self.causal_action.setChecked(self.scene.causal)
        for box in self.toolbar_boxes.values():
            box.follow_action()  # the blocked actions could not tell their check boxes
        one_query_per_token = self.scene.n_queries == self.scene.n_tokens
        self.causal_action.setEnabled(one_query_per_token)
        self.causal_action.setToolTip(
            "Each query sees only itself and earlier tokens" if one_query_per_token
            else "A causal mask needs one query per token; this scene's queries are not the tokens"
        )

    def choose_dims(self) -> None:
        width = max(self.scene.key_width, self.scene.value_width)
        if width <= 2:
            self.statusBar().showMessage("Every vector here has at most two numbers; the canvas shows them all.", 4000)
            return
        current = ", ".join(str(d + 1) for d in self.canvas.dims)
        text, ok = QInputDialog.getText(
            self, "Canvas dimensions", f"Which two of the {width} numbers should the canvas draw (e.g. 1, 3)?",
            text=current,
        )
        if not ok:
            return
        numbers = parse_numbers(text, 2)
        try:
            if len(numbers) != 2 or not all(n.is_integer() for n in numbers):
                raise ValueError("type two whole numbers, like 1, 3")
            self.canvas.set_dims(int(numbers[0]) - 1, int(numbers[1]) - 1)
        except ValueError as error:
            self.show_error("Canvas dimensions", f"{error} (1 to {width})")

    def _step_query(self, step: int) -> None:
        self.scene.select_query((self.scene.selected + step) % self.scene.n_queries)

    def _apply_snap(self, on: bool) -> None:
        if on and not self.snap_action.isChecked():
            self.snap_action.setChecked(True)  # picking a step turns snapping on; that calls back here
            return
        chosen = self.snap_step_actions.checkedAction()
        self.canvas.snap_step = float(chosen.data()) if on and chosen else 0.0

    def _set_causal(self, on: bool) -> None:
        try:
            self.scene.set_causal(on)
        except ValueError as error:
            self._sync_settings()
            self.show_error("Causal mask", str(error))

    def update_title(self) -> None:
        name = self.scene_path.name if self.scene_path else (self.scene.title or "Untitled")
        unsaved = "*" if not self.history.stack.isClean() else ""
        self.setWindowTitle(f"{unsaved}{name} — {APP_NAME}")

    def type_coordinates(self, role: Role, index: int) -> None:
        """Double-click on a tip: type exact coordinates (the way to make two keys exactly equal)."""
        name = f"{role.symbol}·{self.scene.labels(role)[index]}"
        current = self.scene.vectors(role)[index]
        prompt = f"New coordinates for {name} ({len(current)} numbers, e.g. 1.5, -0.2):"
        text, problem = ", ".join(f"{value:g}" for value in current), ""
        while True:
            # A refused answer comes back in the box with the reason above it, to be corrected, not retyped.
            refused = text if problem else None
            text, ok = QInputDialog.getText(
                self, "Exact coordinates", f"{problem}\n\n{prompt}" if problem else prompt, text=text
            )
            if not ok:
                return
            problem = self._coordinates_problem(role, index, name, text)
            if not problem:
                return
            if text == refused:  # OK again on the same refused text: say why once more, and stop asking
                self.show_error("Exact coordinates", problem)
                return

    def _coordinates_problem(self, role: Role, index: int, name: str, text: str) -> str:
        """Set the typed coordinates; what was wrong with them, or "" when they were taken."""
        width = len(self.scene.vectors(role)[index])
        numbers = parse_numbers(text, width)
        if len(numbers) != width:
            return f"{name} needs {width} numbers; \"{text}\" has {len(numbers)}."
        try:
            self.scene.set_vector(role, index, numbers)
        except ValueError as error:
            return f"{name}: {error}"
        return ""

    # ----- lessons (see LessonController) ---------------------------------
    def open_lesson(self, lesson_id: str) -> bool:
        return self.lessons.open(lesson_id)

    def apply_show_me(self, show_me: ShowMe) -> None:
        self.lessons.apply_show_me(show_me)

    @property
    def current_lesson(self) -> str | None:
        return self.lessons.current

    # ----- files --------------------------------------------------------
    def open_scene(self, path: Path) -> bool:
        """Open a scene file; on any problem say so and keep the current scene."""
        if not self.maybe_save_changes():
            return False
        try:
            self.scene.load(path)
        except Exception as error:  # noqa: BLE001 - any file at all can be chosen; none may end in a traceback
            message = str(error) if isinstance(error, SceneFileError) else f"{path}: {failure_text(error)}"
            self.show_error("Cannot open scene", message)
            return False
        self.start_document(Path(path), lesson_for_scene(Path(path)))
        remember_recent(Path(path))
        return True

    def start_document(self, path: Path | None, lesson_id: str | None) -> None:
        self.scene_path = path
        self.autosaver.source_path = path
        self.history.reset()
        self.autosaver.discard()
        self.lessons.show(lesson_id)
        self.update_title()

    def choose_and_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open Scene", str(self._dialog_dir()), SCENE_FILTER)
        if path:
            self._last_dir = Path(path).parent
            self.open_scene(Path(path))

    def save(self) -> bool:
        """Save to the scene's file, or ask for one; True once the work is safely on disk."""
        return self._save_to(self.scene_path) if self.scene_path else self.choose_and_save()

    def choose_and_save(self) -> bool:
        suggestion = self._dialog_dir() / f"{self._file_stem()}.json"
        path, _ = QFileDialog.getSaveFileName(self, "Save Scene As", str(suggestion), SCENE_FILTER)
        return bool(path) and self._save_to(Path(with_json_suffix(path)))

    def _save_to(self, path: Path) -> bool:
        """Save; on any failure say why and keep the work and its `*` (False)."""
        if read_only(path):  # the writer would refuse it too; asking first leaves the file untouched
            return self._offer_copy_elsewhere(path)
        try:
            self.scene.save(path)  # atomic: a crash mid-save leaves the old file whole
        except PermissionError:
            return self._offer_copy_elsewhere(path)
        except Exception as error:  # noqa: BLE001 - a full disk or anything else: the work stays in the window
            self.show_error("Cannot save scene", f"{path}: {failure_text(error)}")
            return False
        self.scene_path = Path(path)
        self._last_dir = self.scene_path.parent
        self.autosaver.source_path = self.scene_path
        self.history.stack.setClean()
        self.autosaver.discard()
        remember_recent(self.scene_path)
        self.update_title()
        return True

    def _offer_copy_elsewhere(self, path: Path) -> bool:
        """The file is read-only (or its folder cannot be written): offer Save As; True once saved."""
        buttons = QMessageBox.StandardButton
        why = "is read-only" if read_only(path) else "cannot be written (permission denied)"
        answer = QMessageBox.question(
            self, "Cannot save scene", f"{path.name} {why}. Save a copy elsewhere?",
            buttons.Save | buttons.Cancel, buttons.Save,
        )
        return answer == buttons.Save and self.choose_and_save()

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        paths = recent_files()
        for path in paths:
            action = self.recent_menu.addAction(path.name)
            action.setToolTip(str(path))
            action.triggered.connect(lambda checked=False, path=path: self._open_recent(path))
        if not paths:
            self.recent_menu.addAction("(no recent scenes)").setEnabled(False)

    def _open_recent(self, path: Path) -> None:
        if not os.path.lexists(path):
            forget_recent(path)
            self.show_error("Cannot open scene", f"{path}: the file is no longer there")
            return
        self.open_scene(path)

    # ----- presentation and window state --------------------------------
    def set_presentation(self, on: bool) -> None:
        """Full screen, large type, thick arrows: for a projector (see WindowLayout)."""
        self.layout_manager.set_presentation(on, after_font_change=self.canvas.set_presentation)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.layout_manager.window_resized()

    def restore_window_state(self) -> None:
        """The window and docks as they were last time on a screen of this size."""
        self.layout_manager.restore_window_state()
        self.lessons.show_grids_if_used()

    def save_window_state(self) -> None:
        self.layout_manager.save_window_state()

    def new_scene(self) -> None:
        if not self.maybe_save_changes():
            return
        if self.lessons.load_builtin(DEFAULT_SCENE):
            self.scene.title = "Untitled"
            self.start_document(None, lesson_for_scene(None))

    def maybe_save_changes(self) -> bool:
        """Before the scene is replaced: True if it may go (saved, discarded or never changed)."""
        if self.history.stack.isClean():
            return True
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self, "Unsaved changes", "The scene has changes that are not saved. Save them first?",
            buttons.Save | buttons.Discard | buttons.Cancel, buttons.Save,
        )
        if answer == buttons.Save:
            return self.save()
        return answer == buttons.Discard

    def closeEvent(self, event) -> None:
        if not self.maybe_save_changes():
            event.ignore()
            return
        self.autosaver.discard()
        self.save_window_state()  # the everyday window, also when closed during a presentation
        self.presentation_action.setChecked(False)
        super().closeEvent(event)

    def _on_history_changed(self) -> None:
        self.update_title()
        if self.history.stack.isClean():
            self.autosaver.discard()
        else:
            self.autosaver.schedule()

    def offer_to_restore(self) -> None:
        """Offer back, one by one, the work of windows that ended without saving (a crash, a kill).

        Only copies whose window is gone are offered: another window still running keeps its own.
        The first work restored comes into this window, any further one into a window of its own.
        """
        left_behind, notices = find_left_work(self.autosaver.folder)
        if notices:  # damaged copies, set aside: say so, but never stop the start for them
            self.statusBar().showMessage(" ".join(notices), RECOVERY_NOTICE_MS)
        restored_here = False
        for left in left_behind:
            if not self._ask_to_restore(left, elsewhere=restored_here):
                left.remove()  # that window's copy only, as the question says
                continue
            if restored_here:
                self._restored_windows.append(self._window_for_restored(left))
            else:
                self.restore_work(left)
                restored_here = True

    def _ask_to_restore(self, left: LeftWork, elsewhere: bool) -> bool:
        name = left.source.name if left.source else "never saved"
        when = time.strftime("%H:%M on %d %b", time.localtime(left.saved_at))
        where = " It opens in a window of its own." if elsewhere else ""
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self, "Restore unsaved work?",
            f"A session ended before its work was saved: \u201c{left.data.title or 'Untitled'}\u201d ({name}), "
            f"copied at {when}. Restore it?{where} No deletes this copy.",
            buttons.Yes | buttons.No, buttons.Yes,
        )
        return answer == buttons.Yes

    def restore_work(self, left: LeftWork) -> None:
        self.scene.replace(left.data)
        self.start_document(left.source, None)
        self.history.stack.resetClean()  # restored work is still unsaved
        self.update_title()
        # Protected at once, not at the next edit: a second crash must not lose it. The dead
        # window's copy goes only once ours holds the work.
        self.autosaver.adopt(left)
        self.autosaver.write_now()

    def _window_for_restored(self, left: LeftWork) -> MainWindow:
        window = MainWindow(Scene(left.data), left.source, self.progress)
        window.restore_work(left)
        window.move(self.pos() + QPoint(40, 40))  # beside this one, not hidden exactly behind it
        window.show()
        return window

    def choose_and_export(self) -> None:
        export_file(self, "Results", self._suggested_name("-results.json"), "JSON (*.json)",
                    lambda path: write_text_atomically(path, export_json_text(self.scene)))

    def export_picture(self, kind: str) -> None:
        """The canvas and the matrix, as a PNG (at a chosen scale) or an SVG, for handouts."""
        scale = ask_png_scale(self) if kind == "png" else 1.0
        if scale is None:
            return
        export_file(self, kind.upper(), self._suggested_name(f".{kind}"), f"{kind.upper()} (*.{kind})",
                    lambda path: render_png(self, path, scale) if kind == "png" else render_svg(self, path))

    def export_csv(self, what: str) -> None:
        make_text = {"weights": weights_csv, "scores": scores_csv}[what]
        export_file(self, "CSV", self._suggested_name(f"-{what}.csv"), "CSV (*.csv)",
                    lambda path: write_text_atomically(path, make_text(self.scene)))

    def _suggested_name(self, ending: str) -> Path:
        return self._dialog_dir() / f"{self._file_stem()}{ending}"

    def _copy_picture(self) -> None:
        copy_image_to_clipboard(self)
        self.statusBar().showMessage("Picture of the canvas and matrix copied", 3000)

    def _file_stem(self) -> str:
        return self.scene_path.stem if self.scene_path else file_stem_for_title(self.scene.title)

    def _dialog_dir(self) -> Path:
        return self.scene_path.parent if self.scene_path else self._last_dir

    def show_error(self, title: str, message: str) -> None:
        QMessageBox.critical(self, title, message)

    # ----- layout -------------------------------------------------------
    def reset_layout(self) -> None:
        self.layout_manager.reset()
        self.lessons.show_grids_if_used()

    def _show_about(self) -> None:
        QMessageBox.about(
            self,
            f"About {APP_NAME}",
            f"<b>{APP_NAME}</b> {__version__}<p>Drag the query, key and value arrows and watch "
            "scaled dot-product attention recompute: softmax(QKᵀ/√d_k)·V.</p><p>Works fully offline.</p>",
        )
