"""The open lesson: its scene on the canvas, its text in the Lesson panel, and its Show me steps."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtWidgets import QDockWidget

from attn_desktop.language import N_, current_language, shown_languages, tr
from attn_desktop.model import Scene, SceneFileError, ViewState
from attn_desktop.model.commands import Editor, ReplaceContents, open_contents
from attn_desktop.model.files.scene_types import SceneData
from attn_desktop.model.scene_files import (
    contents_as_seen,
    new_scene,
    read_scene_data,
    scene_data_from_document,
    scene_document,
)
from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.exercises import ShowMe, ShowMeStep, apply_steps
from attn_desktop.model.teaching.lesson_words import SCENES_OF_TWO_LANGUAGES, in_students_words
from attn_desktop.paths import scene_path as builtin_scene_path
from attn_desktop.ui.lessons.lesson_panel import LessonPanel


class PredictionSwitch(Protocol):
    def follow_lesson(self, lesson_predicts: bool) -> None: ...


class NamedArrows(Protocol):
    """The canvas, which keeps the labels of the arrows a lesson's text names (AttentionCanvas.name_arrows_of)."""

    def name_arrows_of(self, lesson_text: str) -> None: ...


def lesson_words(lesson: lessons.Lesson) -> str:
    """Everything the Lesson panel says of LESSON: its formula, explanation and steps."""
    return " ".join(tr(text) for text in (lesson.formula, lesson.explanation, *lesson.steps) if text)


class LessonDocument(Protocol):
    """The document a lesson's scene opens as (see DocumentController)."""

    def maybe_save_changes(self) -> bool: ...
    def start(self, path: Path | None, lesson_id: str | None) -> None: ...
    def lesson_scene_as_it_comes(self) -> None: ...


class LessonRoom(Protocol):
    """The window's layout, as a lesson arranges it (see DockLayout)."""

    @property
    def presenting(self) -> bool: ...
    @property
    def showing_heads(self) -> bool: ...  # several heads where the canvas was: the one-head docks made way
    def show_wide(self, name: DockId) -> None: ...

    subject: frozenset[DockId]  # the lesson's panels that show its subject: presented too

    def open_companion(self, name: DockId | None) -> None: ...
    def make_room_for_grids(self) -> None: ...


class LessonController:
    """Opens the lessons. The document it opens them in is given once both exist (the document
    shows its lesson through this controller): `document` before the first `open`."""

    def __init__(self, scene: Scene, view: ViewState, editor: Editor, panel: LessonPanel, lesson_dock: QDockWidget,
                 grids_dock: QDockWidget, room: LessonRoom, predictions: PredictionSwitch,
                 show_code: Callable[[str | None], object], show_error: Callable[[str, str], object],
                 canvas: NamedArrows | None = None) -> None:
        self.scene, self.view, self.editor = scene, view, editor  # the scene, and the window's view of it
        self.panel, self.room, self.predictions = panel, room, predictions
        self.canvas = canvas  # keeps the labels of the arrows the lesson's text names
        self.lesson_dock, self.grids_dock = lesson_dock, grids_dock
        self.show_code, self.show_error = show_code, show_error
        self.document: LessonDocument | None = None
        self.progress = panel.progress  # also the lessons' scenes as the student left them, and the last lesson
        self.current: str | None = None  # the lesson's id, None for a scene of one's own
        self.scene_is_the_lessons = False  # the scene was opened as the current lesson's, never saved as a file
        panel.open_lesson_requested.connect(self.open)
        panel.show_me_requested.connect(self.apply_show_me)
        panel.fresh_scene_requested.connect(self.start_afresh)

    def open(self, lesson_id: str) -> bool:
        """Open a built-in lesson: its scene on the canvas (as the student left it, if they changed it), its
        text and exercises in the Lesson panel. The lesson left keeps its scene too (see keep_scene)."""
        document = self.document
        if document is None:
            raise RuntimeError("a lesson opens in a document: give the controller its document first")
        if not document.maybe_save_changes():
            return False
        kept = self._load_kept(lesson_id)
        if not kept and not self.load_builtin(lessons.lesson(lesson_id).scene):
            return False
        document.start(None, lesson_id)
        self.scene_is_the_lessons = True  # after start: showing a document's lesson says nothing about its scene
        self.panel.show_kept_scene(kept)
        self.view.show_head(*lessons.lesson(lesson_id).first_head)
        companion = lessons.lesson(lesson_id).companion
        self.room.open_companion(companion)  # another lesson's panel (the √d_k lab) closes
        if companion:  # a tab beside the lesson's text; on a projector, in front of it
            self.room.show_wide(companion)
        if not self.room.presenting:  # a projector shows the canvas, not the reading
            self.lesson_dock.show()
            self.lesson_dock.raise_()
        return True

    def reopen_last(self) -> bool:
        """At a start without a file: the lesson the last run was on (the first start: the default scene's),
        on its scene as the student left it."""
        last = self.progress.last_lesson()
        known = [item.id for item in lessons.LESSONS]
        return self.open(last if last in known else lessons.DEFAULT_SCENE_LESSON)

    def keep_scene(self) -> bool:
        """Before the scene is replaced or the window closes: a lesson's scene stays with the lessons, changed
        or not, so nothing needs asking (True). A scene of one's own is the document's to ask about (False)."""
        if not self.scene_is_the_lessons or self.current is None:
            return False
        left = scene_document(self.scene, self.view)
        self.progress.leave_lesson(self.current, None if as_it_comes(self.current, left) else left)
        return True

    def follow_language(self) -> None:
        """The language has just changed: the lesson's scene, left as it comes, comes in the new language's
        words; one the student changed keeps its words, and the lesson offers Start afresh (in the new one)."""
        if not self.scene_is_the_lessons or self.current is None:
            return
        if not as_it_comes(self.current, scene_document(self.scene, self.view), any_query=True):
            self.panel.show_kept_scene(True)
            return
        chosen = self.view.chosen_query(self.scene.n_queries)  # looking at another word changes nothing
        if self.load_builtin(lessons.lesson(self.current).scene) and self.document is not None:
            self.view.select_query(chosen)
            self.document.lesson_scene_as_it_comes()  # still nothing the student changed: no "*"
        if self.canvas is not None:
            self.canvas.name_arrows_of(lesson_words(lessons.lesson(self.current)))

    def start_afresh(self) -> None:
        """The lesson's scene as it comes, in place of the one the student left: one step Ctrl+Z takes back."""
        if self.current is not None:
            replaced = self._replace_scene(lessons.lesson(self.current).scene, (), N_("Start the lesson afresh"))
            if replaced and self.scene_is_the_lessons and self.document is not None:
                self.document.lesson_scene_as_it_comes()  # nothing in it changed: no "*" in the title
        self.panel.show_kept_scene(False)

    def show(self, lesson_id: str | None) -> None:
        self.current = lesson_id
        self.scene_is_the_lessons = False  # a document shown with a lesson: opened as the lesson's once open says so
        self.panel.show_lesson(lesson_id)
        if self.canvas is not None:
            self.canvas.name_arrows_of(lesson_words(lessons.lesson(lesson_id)) if lesson_id else "")
        self.room.subject = frozenset(lessons.lesson(lesson_id).presents if lesson_id else ())
        self.predictions.follow_lesson(lessons.lesson(lesson_id).predict if lesson_id else False)
        self.show_code(lesson_id)
        self.show_grids_if_used()

    def show_grids_if_used(self) -> None:
        """The grids matter only when the head on the canvas makes its vectors with them (with several heads,
        the heads view shows W_O and the Grids panel makes way: it shows one head's)."""
        grids = self.grids_dock
        wanted = not self.room.showing_heads and bool(self.scene.head(0, 0).grids)
        if not (wanted and grids.isVisible()):
            # Shown or hidden as the activity declares (a lab's lesson makes them make way), never by hand: a
            # panel hidden by hand stays closed.
            self.room.make_room_for_grids()
        if grids.isVisible():
            grids.raise_()

    def apply_show_me(self, show_me: ShowMe) -> None:
        """Set the canvas up for an exercise; the Lesson panel (and typed answers) stay as they are.

        It is one edit of the scene, like a drag: the title says the scene changed and Ctrl+Z
        gives back the canvas as it was, so nothing needs saving first.
        """
        self._replace_scene(show_me.scene, show_me.steps, N_("Show me"))

    def _replace_scene(self, name: str, steps: Sequence[ShowMeStep], message: str) -> bool:
        """The built-in scene NAME, set up by STEPS, in place of the scene as one undoable edit called MESSAGE
        (marked with N_(), translated whenever the Edit menu reads it); False if the installation is damaged."""
        try:
            shown_view = ViewState()
            shown = new_scene(lesson_scene_data(name), shown_view)
        except SceneFileError as error:
            self.show_error(tr("Cannot open lesson"), str(error))
            return False
        apply_steps(shown, shown_view, steps)  # set up aside, then put in place as one step
        command = ReplaceContents(contents_as_seen(self.scene, self.view), contents_as_seen(shown, shown_view), message)
        if command.only_chooses_a_query:  # nothing to undo: just look at the query it means
            self.view.select_query(shown_view.chosen_query(shown.n_queries))
        else:
            self.editor.do(command)  # the history marks the title unsaved
        self.show_grids_if_used()
        return True

    def _load_kept(self, lesson_id: str) -> bool:
        """The lesson's scene as the student left it changed, if they did; one this version cannot open is set
        aside beside the progress file (ProgressStore.set_aside_kept_scene)."""
        damaged = self.progress.kept_scene_problem(lesson_id)  # not an object, or what JSON cannot hold
        if damaged is not None:
            self.progress.set_aside_kept_scene(lesson_id, damaged)
            return False
        kept = self.progress.kept_lesson_scene(lesson_id)
        if kept is None:
            return False
        if as_it_comes(lesson_id, kept):  # kept in another language (by an earlier version): as it comes in this one
            self.progress.leave_lesson(lesson_id, None)
            return False
        try:
            open_contents(self.scene, scene_data_from_document(kept), self.view)
        except SceneFileError as error:  # a newer version's, or damaged: kept aside, never dropped
            self.progress.set_aside_kept_scene(lesson_id, str(error))
            return False  # the lesson's own scene, then
        return True

    def load_builtin(self, name: str) -> bool:
        """One of the scenes that come with the app; False (and one message) if the installation is damaged."""
        try:
            open_contents(self.scene, lesson_scene_data(name), self.view)
        except SceneFileError as error:
            self.show_error(tr("Cannot open lesson"), str(error))
            return False
        return True


def lesson_scene_data(name: str, language: str | None = None) -> SceneData:
    """The built-in scene NAME as a lesson opens it: its sentence's words in the student's language (or LANGUAGE)."""
    return in_students_words(read_scene_data(builtin_scene_path(name)), language,
                             keep_words=name in SCENES_OF_TWO_LANGUAGES)


def as_it_comes(lesson_id: str, document: dict[str, Any], any_query: bool = False) -> bool:
    """Whether the scene DOCUMENT is LESSON_ID's own as a lesson opens it in any language the app speaks: a
    scene opened in one language and left untouched is untouched after a switch to another. ANY_QUERY: with
    whichever query chosen. (False if the installation is damaged: the scene is then kept as it is.)"""
    name = lessons.lesson(lesson_id).scene

    def compared(scene: dict[str, Any]) -> dict[str, Any]:
        return {key: value for key, value in scene.items() if not (any_query and key == "selected")}

    try:
        return any(compared(document) == compared(scene_document(lesson_scene_data(name, code)))
                   for code in dict.fromkeys([current_language(), *shown_languages()]))
    except SceneFileError:
        return False
