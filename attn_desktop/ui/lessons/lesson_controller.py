"""The open lesson: its scene on the canvas, its text in the Lesson panel, and its Show me steps."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget

from attn_desktop.model import Scene, SceneFileError
from attn_desktop.model.commands import ReplaceContents
from attn_desktop.model.scene_files import load_into, read_scene_data
from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.exercises import ShowMe, apply_steps
from attn_desktop.paths import scene_path as builtin_scene_path
from attn_desktop.ui.document.edit_history import EditHistory
from attn_desktop.ui.lessons.lesson_panel import LessonPanel
from attn_desktop.ui.window.window_layout import WindowLayout


class PredictionSwitch(Protocol):
    def follow_lesson(self, lesson_predicts: bool) -> None: ...


class LessonHost(Protocol):
    """What a lesson needs from the window around it."""

    scene: Scene
    history: EditHistory
    lesson_panel: LessonPanel
    docks: dict[str, QDockWidget]
    presentation_action: QAction
    layout_manager: WindowLayout
    predictions: PredictionSwitch  # Predict, then see: on for the lessons that predict

    def maybe_save_changes(self) -> bool: ...
    def show_lesson_code(self, lesson_id: str | None) -> None: ...
    def start_document(self, path: Path | None, lesson_id: str | None) -> None: ...
    def show_error(self, title: str, message: str) -> None: ...
    def update_title(self) -> None: ...


class LessonController:
    def __init__(self, host: LessonHost) -> None:
        self.host = host
        self.current: str | None = None  # the lesson's id, None for a scene of one's own

    def open(self, lesson_id: str) -> bool:
        """Open a built-in lesson: its scene on the canvas, its text and exercises in the Lesson panel."""
        host = self.host
        if not host.maybe_save_changes() or not self.load_builtin(lessons.lesson(lesson_id).scene):
            return False
        host.start_document(None, lesson_id)
        companion = lessons.lesson(lesson_id).companion
        if companion:  # a tab beside the lesson's text; on a projector, in front of it
            host.layout_manager.show_wide(companion)
        if not host.presentation_action.isChecked():  # a projector shows the canvas, not the reading
            host.docks["lessonDock"].show()
            host.docks["lessonDock"].raise_()
        return True

    def show(self, lesson_id: str | None) -> None:
        self.current = lesson_id
        self.host.lesson_panel.show_lesson(lesson_id)
        self.host.predictions.follow_lesson(lessons.lesson(lesson_id).predict if lesson_id else False)
        self.host.show_lesson_code(lesson_id)
        self.show_grids_if_used()

    def show_grids_if_used(self) -> None:
        """The grids matter only when the scene makes its vectors with them (with several heads, the heads
        view shows W_O and the Grids panel makes way: it shows one head's)."""
        grids = self.host.docks["gridsDock"]
        shown_before = grids.isVisible()
        wanted = self.host.scene.is_projection and not self.host.scene.is_multi_head
        grids.setVisible(wanted)
        if wanted:
            grids.raise_()
            if not shown_before:
                self.host.layout_manager.make_room_for_grids()

    def apply_show_me(self, show_me: ShowMe) -> None:
        """Set the canvas up for an exercise; the Lesson panel (and typed answers) stay as they are.

        It is one edit of the scene, like a drag: the title says the scene changed and Ctrl+Z
        gives back the canvas as it was, so nothing needs saving first.
        """
        try:
            shown = Scene(read_scene_data(builtin_scene_path(show_me.scene)))
        except SceneFileError as error:
            self.host.show_error("Cannot open lesson", str(error))
            return
        apply_steps(shown, show_me.steps)  # set up aside, then put in place as one step
        command = ReplaceContents(self.host.scene.to_data(), shown.to_data(), "Show me")
        if command.only_chooses_a_query:  # nothing to undo: just look at the query it means
            self.host.scene.select_query(shown.selected)
        else:
            self.host.history.do(command)  # the history marks the title unsaved
        self.show_grids_if_used()

    def load_builtin(self, name: str) -> bool:
        """One of the scenes that come with the app; False (and one message) if the installation is damaged."""
        try:
            load_into(self.host.scene, builtin_scene_path(name))
        except SceneFileError as error:
            self.host.show_error("Cannot open lesson", str(error))
            return False
        return True
