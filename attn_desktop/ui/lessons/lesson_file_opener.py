"""File → Open Lesson… and `attn-desktop FILE.attn-lesson`: a teacher's own lesson, opened for a student.

The file is read and checked whole before anything changes (read_lesson_file); a broken or hostile one is one
message, and the window keeps its scene. Opened, the lesson's scene is the window's (a new document with no file,
named by the lesson's title, nothing unsaved), its title, text, exercises and challenges are in the Lesson panel;
the controls it hides are gone (HiddenControls) and the arrows it locks stay where they are, until another
lesson or scene opens. Its `panels` are the layout's declaration while it is open (OwnPanels: Reset Layout and
F11 give the lesson's design), and its Predict, then see rounds run one after the other (PredictRounds).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Protocol

from PySide6.QtWidgets import QDockWidget, QFileDialog, QWidget

from attn_desktop.language import N_, tr
from attn_desktop.model import Scene, SceneFileError, ViewState
from attn_desktop.model.commands import Editor, ReplaceContents, open_contents
from attn_desktop.model.scene_files import contents_as_seen
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.exercise import ShowMe
from attn_desktop.model.teaching.lesson_file import LessonFile
from attn_desktop.model.teaching.lesson_locks import arrow_is_locked
from attn_desktop.model.teaching.lesson_results import read_lesson_file_with_sha256, sha256_of_lesson
from attn_desktop.model.teaching.panel_sets import OwnPanels
from attn_desktop.ui.canvas.drag_controller import ArrowLock
from attn_desktop.ui.lessons.hidden_controls import READ_ONLY_GRIDS, HiddenControls, hidden_panels
from attn_desktop.ui.lessons.lesson_panel import LessonPanel
from attn_desktop.ui.lessons.predict_rounds import PredictRounds

LESSON_FILTER = N_("Lessons (*.attn-lesson);;All files (*)")  # shown with tr()


class LessonDocument(Protocol):
    """The document the lesson's scene opens as (DocumentController)."""

    def maybe_save_changes(self) -> bool: ...
    def start(self, path: Path | None, lesson_id: str | None) -> None: ...
    def dialog_folder(self) -> Path: ...


class LessonFileRoom(Protocol):
    """The window's layout, as a lesson file declares it (DockLayout)."""

    own_panels: OwnPanels

    @property
    def presenting(self) -> bool: ...
    def open_companion(self, name: DockId | None) -> None: ...


def own_panels(lesson: LessonFile) -> OwnPanels:
    """LESSON's panels, in the window and presenting, less those its hidden controls take away."""
    return OwnPanels(window=frozenset(lesson.panels.window), presenting=frozenset(lesson.panels.presenting),
                     hidden=hidden_panels(lesson.hidden_controls))


class LessonFileOpener:
    def __init__(self, scene: Scene, view: ViewState, editor: Editor, document: LessonDocument, panel: LessonPanel,
                 lesson_dock: QDockWidget, hidden: HiddenControls, lock_arrows: Callable[[ArrowLock | None], object],
                 room: LessonFileRoom, rounds: PredictRounds, show_error: Callable[[str, str], object],
                 parent: QWidget) -> None:
        """LOCK_ARROWS: fixes the arrows a lesson locks on the canvas (DragController.lock; None frees them).
        ROOM: the layout, which shows the lesson's panels and closes another activity's (Training, a lab), as
        opening a built-in lesson does."""
        self.scene, self.view, self.editor, self.document = scene, view, editor, document
        self.lock_arrows, self.room, self.rounds = lock_arrows, room, rounds
        self.panel, self.lesson_dock, self.hidden = panel, lesson_dock, hidden
        self.show_error, self.parent = show_error, parent
        self.lesson: LessonFile | None = None  # the lesson file open, None once another lesson or scene is
        # Which lesson a hand-in answers (the hash of the bytes read) and since when: see lesson_results.py.
        self.lesson_sha256 = ""
        self.opened_at = datetime.now(timezone.utc)
        self.lesson_changed: list[Callable[[], object]] = []  # called when a lesson file opens or closes
        panel.lesson_shown.connect(self._another_lesson_shown)
        panel.lesson_file_show_me_requested.connect(self.apply_show_me)

    def choose_and_open(self) -> bool:
        path, _ = QFileDialog.getOpenFileName(self.parent, tr("Open Lesson"), str(self.document.dialog_folder()),
                                              tr(LESSON_FILTER))
        return bool(path) and self.open_path(Path(path))

    def open_path(self, path: Path) -> bool:
        """Read and check the whole file, then open it; on any problem one message, and nothing changes."""
        try:
            lesson, sha256 = read_lesson_file_with_sha256(path)
        except Exception as error:  # noqa: BLE001 - any file at all can be chosen; none may end in a traceback
            message = str(error) if isinstance(error, SceneFileError) else tr("{file}: {reason}").format(
                file=path, reason=error)
            self.show_error(tr("Cannot open lesson"), message)
            return False
        return self.open_lesson(lesson, sha256)

    def open_lesson(self, lesson: LessonFile, sha256: str = "") -> bool:
        """LESSON's scene in place of the window's (after asking about unsaved changes), its texts, exercises and
        challenges in the Lesson panel, its hidden controls gone. SHA256: of the file it was read from (none:
        the hash of the file it would be)."""
        if not self.document.maybe_save_changes():
            return False
        try:
            open_contents(self.scene, copy.deepcopy(lesson.scene), self.view)
        except SceneFileError as error:  # checked on reading: a scene that cannot open is a damaged install
            self.show_error(tr("Cannot open lesson"), str(error))
            return False
        self.scene.title = lesson.title  # the window's title names the teacher's lesson (and Save As suggests it)
        self.document.start(None, None)  # a document of its own, with no file: its lesson is shown below
        self.view.show_head(*lesson.first_head)
        self.panel.show_lesson_file(lesson, self.scene)
        self.lesson = lesson
        self.lesson_sha256, self.opened_at = sha256 or sha256_of_lesson(lesson), datetime.now(timezone.utc)
        # Locked grids are kept as hidden grid editing keeps them: to be read, not typed into.
        self.hidden.hide((*lesson.hidden_controls, *((READ_ONLY_GRIDS,) if "grids" in lesson.locked else ())))
        locked = lesson.locked
        self.lock_arrows(partial(arrow_is_locked, locked, self.scene) if locked else None)
        self.rounds.start(lesson.predict_rounds)  # (before the panels: a round brings the weights chart)
        self.room.own_panels = own_panels(lesson)
        self.room.open_companion(None)  # the lesson's panels shown, the rest closed, and shared out for them
        if not self.room.presenting and DockId.LESSON in (lesson.panels.window or (DockId.LESSON,)):
            self.lesson_dock.show()  # (closed by hand before: the lesson's text is what the student opened)
            self.lesson_dock.raise_()
        self._tell_lesson_changed()
        return True

    def apply_show_me(self, show_me: ShowMe) -> None:
        """An exercise's Show me: the lesson's own scene (or a built-in one) set up by its steps, in place of the
        scene as one edit, like a drag (Ctrl+Z gives the canvas back), the exercises staying as they are."""
        if self.lesson is None:
            return
        shown_view = ViewState()
        try:
            shown = self.lesson.show_me_scene(show_me, shown_view)
        except (SceneFileError, ValueError) as error:  # a step the scene changed under (checked on reading)
            self.show_error(tr("Cannot open lesson"), str(error))
            return
        command = ReplaceContents(contents_as_seen(self.scene, self.view), contents_as_seen(shown, shown_view),
                                  N_("Show me"))
        if command.only_chooses_a_query:  # nothing to undo: just look at the query it means
            self.view.select_query(shown_view.chosen_query(shown.n_queries))
        else:
            self.editor.do(command)

    def _another_lesson_shown(self, _lesson_id: object) -> None:
        """A built-in lesson or a scene took the lesson file's place: its hidden controls come back."""
        self.lesson = None
        self.room.own_panels = OwnPanels()  # (before the lesson shown declares its panels)
        self.rounds.stop()
        self.hidden.show_all()
        self.lock_arrows(None)
        self._tell_lesson_changed()

    def _tell_lesson_changed(self) -> None:
        for callback in self.lesson_changed:
            callback()
