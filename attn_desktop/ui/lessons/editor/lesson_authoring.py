"""Writing a lesson in the app: File → New Lesson from This Scene…, File → Edit Lesson…, the editor's Save Lesson
As…, pointing at the matrix for an exercise, and Student view.

New Lesson takes the window's scene as a scene file keeps it (its switches with it) and the panels shown now.
Saving writes the file atomically, only once it reads back whole (read_back); Student view opens the lesson read
back, exactly as a student's app reads it, with LessonFileOpener.open_lesson. A broken or hostile file to edit is
one message, and the editor keeps the lesson it had.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, QPoint, QRect
from PySide6.QtWidgets import QDockWidget, QFileDialog, QMessageBox, QWidget

from attn_desktop.language import current_language, tr
from attn_desktop.model import Scene, ViewState
from attn_desktop.model.head_reading import read
from attn_desktop.model.scene_files import contents_as_seen, new_scene
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.lesson_check import check_lesson
from attn_desktop.model.teaching.lesson_drafts import lesson_from_scene, read_back, weight_exercise
from attn_desktop.model.teaching.lesson_file import LESSON_SUFFIX, LessonFile, LessonFileError
from attn_desktop.model.teaching.lesson_file_reading import read_lesson_file
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file
from attn_desktop.model.teaching.lesson_quantities import reading_of
from attn_desktop.ui.lessons.editor.lesson_editor import LessonEditor
from attn_desktop.ui.lessons.editor.matrix_pointing import MatrixPointing
from attn_desktop.ui.lessons.lesson_file_opener import LESSON_FILTER
from attn_desktop.ui.panels.matrix_view import MatrixView

GAP = 8  # pixels between the main window and the editor beside it


class StudentView(Protocol):
    """How the window shows a lesson as a student gets it (LessonFileOpener), and takes it away again."""

    def open_lesson(self, lesson: LessonFile) -> bool: ...


class LessonAuthoring(QObject):
    def __init__(self, scene: Scene, view: ViewState, docks: Mapping[DockId, QDockWidget], matrix: MatrixView,
                 student_view: StudentView, leave_student_view: Callable[[], object], dialog_folder: Callable[[], Path],
                 show_error: Callable[[str, str], object], window: QWidget) -> None:
        """LEAVE_STUDENT_VIEW: back to a scene of the window's own, the lesson's hidden controls shown again."""
        super().__init__(window)
        self.scene, self.view, self.docks, self.window = scene, view, docks, window
        self.student_view, self.leave_student_view = student_view, leave_student_view
        self.dialog_folder, self.show_error = dialog_folder, show_error
        self.editor: LessonEditor | None = None
        self.path: Path | None = None  # where the lesson being written was last opened or saved
        self.saved: LessonFile | None = None  # the lesson as it was last opened or saved: closing asks if changed
        self.opening_student_view = False
        self.pointing = MatrixPointing(matrix, self.ask_for_weight, self)
        window.installEventFilter(self)  # the main window closing asks about a lesson not saved, as the editor does

    # ----- File menu ----------------------------------------------------
    def new_from_scene(self) -> None:
        """A new lesson on the window's scene as it is now, showing the panels shown now."""
        if not self.may_replace_lesson():
            return
        shown = [dock_id for dock_id, dock in self.docks.items() if dock.toggleViewAction().isChecked()]
        lesson = lesson_from_scene(contents_as_seen(self.scene, self.view), self.scene.title, current_language(), shown)
        self._edit(lesson, None)

    def choose_and_edit(self) -> bool:
        parent = self.editor if self.editor is not None and self.editor.isVisible() else self.window
        path, _ = QFileDialog.getOpenFileName(parent, tr("Edit Lesson"), str(self.dialog_folder()), tr(LESSON_FILTER))
        return bool(path) and self.edit_path(Path(path))

    def edit_path(self, path: Path) -> bool:
        """The lesson file at PATH in the editor; a file that does not read whole is one message, nothing changed."""
        try:
            lesson = read_lesson_file(path)
        except Exception as error:  # noqa: BLE001 - any file at all can be chosen; none may end in a traceback
            message = str(error) if isinstance(error, LessonFileError) else tr("{file}: {reason}").format(
                file=path, reason=error)
            self.show_error(tr("Cannot open lesson"), message)
            return False
        if not self.may_replace_lesson():
            return False
        self._edit(lesson, path)
        return True

    def save_as(self) -> bool:
        """Ask where, then write the lesson, once it reads back whole; what lesson check finds is said after."""
        if self.editor is None:
            return False
        try:
            lesson = read_back(self.editor.lesson())
        except LessonFileError as error:
            self.show_error(tr("Cannot save lesson"), str(error))
            return False
        suggested = self.path or self.dialog_folder() / f"{file_name_of(lesson.title) or tr('Lesson')}{LESSON_SUFFIX}"
        chosen, _ = QFileDialog.getSaveFileName(self.editor, tr("Save Lesson As"), str(suggested), tr(LESSON_FILTER))
        if not chosen:
            return False
        path = Path(chosen) if chosen.endswith(LESSON_SUFFIX) else Path(chosen + LESSON_SUFFIX)
        try:
            write_lesson_file(lesson, path)
        except OSError as error:
            self.show_error(tr("Cannot save lesson"), tr("{file}: {reason}").format(
                file=path, reason=error.strerror or error))
            return False
        self.path, self.saved = path, self.editor.lesson()
        problems = check_lesson(lesson).problems
        if problems:
            self.show_error(tr("Lesson saved, with problems"), " ".join(problems))
        return True

    # ----- pointing and the student's view -----------------------------------
    def ask_for_weight(self, row: int, column: int, at: tuple[int, int]) -> None:
        """The matrix's cell (ROW, COLUMN) of head AT, asked for in the lesson: a computed weight exercise."""
        if self.editor is None:
            return
        scene = self.editor.lesson().scene
        window_reading = read(self.scene, *at)
        try:
            lesson_reading = reading_of(new_scene(scene), at)  # (the head itself, not the nearest one there is)
        except LessonFileError:
            lesson_reading = None
        if lesson_reading is None or lesson_reading.tokens != window_reading.tokens or \
                lesson_reading.query_tokens != window_reading.query_tokens:
            self.show_error(tr("Cannot ask for this weight"), tr(
                "The window shows another sentence than the lesson's; start a new lesson from this scene."))
            return
        exercise = weight_exercise(scene, row, column, at, self.editor.exercise_ids)
        self.editor.add_exercise(exercise)
        # Said once, politely, by the matrix's own announcement (the window's announcer says it and logs it).
        self.pointing.matrix.announcement.emit(tr("Exercise added to the lesson: {prompt}").format(
            prompt=exercise.prompt), self.pointing.matrix)

    def _switch_student_view(self, on: bool) -> None:
        assert self.editor is not None
        if not on:
            self.leave_student_view()
            return
        try:
            shown = read_back(self.editor.lesson())
        except LessonFileError as error:
            self.show_error(tr("Cannot open lesson"), str(error))
            self.editor.set_student_view(False)
            return
        self.opening_student_view = True
        try:
            opened = self.student_view.open_lesson(shown)
        finally:
            self.opening_student_view = False
        if not opened:
            self.editor.set_student_view(False)

    def another_lesson_shown(self, _lesson_id: object) -> None:
        """A built-in lesson, another lesson file or a scene took the student's view's place: the switch is off."""
        if not self.opening_student_view and self.editor is not None and self.editor.student_view_box.isChecked():
            self.editor.set_student_view(False)

    def may_replace_lesson(self) -> bool:
        """Whether the lesson being written may go: unchanged since it was opened or saved, saved now, or let go."""
        editor = self.editor
        if editor is None or not editor.isVisible() or editor.lesson() == self.saved:
            return True
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(editor, tr("Lesson Editor"), tr("Save the changes to the lesson first?"),
                                      buttons.Save | buttons.Discard | buttons.Cancel, buttons.Save)
        if answer == buttons.Save:
            return self.save_as()
        return answer == buttons.Discard

    # ----- the editor window --------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.window and event.type() == QEvent.Type.Close and not self.may_replace_lesson():
            event.ignore()
            return True
        return False

    def _edit(self, lesson: LessonFile, path: Path | None) -> None:
        if self.editor is None:
            self.editor = LessonEditor(lesson, self.window)
            self.editor.save_requested.connect(self.save_as)
            self.editor.edit_requested.connect(self.choose_and_edit)
            self.editor.student_view_switched.connect(self._switch_student_view)
            self.editor.closed.connect(self._editor_closed)
            self.editor.may_close = self.may_replace_lesson
            self._place_beside_the_window(self.editor)
        else:
            if self.editor.student_view_box.isChecked():
                self.editor.set_student_view(False)
                self.leave_student_view()
            self.editor.set_lesson(lesson)
        self.path, self.saved = path, self.editor.lesson()
        self.pointing.on = True
        self.editor.show()
        self.editor.raise_()
        self.editor.activateWindow()

    def _editor_closed(self) -> None:
        self.pointing.on = False
        if self.editor is not None and self.editor.student_view_box.isChecked():
            self.editor.set_student_view(False)
            self.leave_student_view()

    def _place_beside_the_window(self, editor: LessonEditor) -> None:
        """Beside the window on its trailing side where the screen has room. Else (a 1024 × 768 projector, a
        maximized window) over the window's leading edge, where the Lesson panel and the first plot are: the
        matrix a teacher points at to ask for a weight, and the score table, stay in sight."""
        frame, size = self.window.frameGeometry(), editor.frameGeometry().size()
        leading_is_right = self.window.isRightToLeft()
        beside = QPoint(frame.left() - GAP - size.width() if leading_is_right else frame.right() + GAP, frame.top())
        screen = self.window.screen()
        if screen is None:
            editor.move(beside)
            return
        room = screen.availableGeometry()
        place = beside if room.contains(QRect(beside, size)) else QPoint(
            frame.right() - size.width() if leading_is_right else frame.left(), frame.top())
        place.setX(max(room.left(), min(place.x(), room.right() - size.width())))
        place.setY(max(room.top(), min(place.y(), room.bottom() - size.height())))
        editor.move(place)

def file_name_of(title: str) -> str:
    """TITLE as a file's name to suggest: no folder separators or characters a file system refuses."""
    return "".join(" " if character in '/\\:*?"<>|' or not character.isprintable() else character
                   for character in title).strip(" .")[:100]
