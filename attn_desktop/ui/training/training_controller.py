"""Training in the window: while a head trains, the canvas and every panel show its example.

The Training panel announces the example sentence under the head as it is now
(at most about 30 times a second, from its worker thread). The first time,
the window's scene becomes that example, as a new untitled document (after
asking about unsaved work); after that each update is copied into the scene in
place, so the views keep their zoom and only redraw. Training updates are not
edits: they never enter the undo history. Opening anything else (a file, a
lesson, New) ends the showing and pauses training, so a trained head never
writes over the student's own scene.

*Keep as scene* pauses training and opens the head as it is now as an ordinary
projection scene carrying the whole head (model/trained_head.py): unsaved,
draggable, savable, with the task's accuracy recomputed as it is edited. For induction it opens the two
layers on the example as an ordinary scene of two layers (model/training/induction_document.py). For translate
it opens the cross-attention head on the panel's sentence as a cross-attention scene: the target's words read the
source's (model/training/translation_scene.py).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject

from attn_desktop.model import Change, Scene, SceneData
from attn_desktop.model.commands import open_contents
from attn_desktop.model.training.induction_document import induction_scene_data
from attn_desktop.model.training.induction_task import InductionTask
from attn_desktop.model.training.trained_head import keep_as_scene
from attn_desktop.model.training.translation_scene import cross_head_scene_data
from attn_desktop.model.training.translation_task import TranslationTask
from attn_desktop.ui.document.document_controller import DocumentController
from attn_desktop.ui.document.edit_history import EditHistory
from attn_desktop.ui.scene_link import follow_scene
from attn_desktop.ui.training.training_panel import TrainingPanel


class TrainingController(QObject):
    def __init__(self, scene: Scene, history: EditHistory, documents: DocumentController, panel: TrainingPanel,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.scene, self.history, self.documents, self.panel = scene, history, documents, panel
        self.showing = False  # the window's scene is the training example
        self._writing = False  # the change under way is ours, not a file or lesson opened
        self._asking = False  # the unsaved-work question is open
        panel.example_changed.connect(self.show_example)
        panel.keep_requested.connect(self.keep_as_scene)
        follow_scene(panel, scene, self._on_scene_changed, follows=Change.STRUCTURE)

    def show_example(self, data: SceneData) -> None:
        scene = self.scene
        if self._asking:
            return  # the question about unsaved work is open: updates queued behind it wait
        if not self.showing:
            if not self.panel.is_running:
                return  # the panel's own example before any training: the student's scene stays
            if not self._may_replace_the_scene():
                return
            self._write(lambda: open_contents(scene, self.panel.example_scene() or data, self.history.view))
            self.documents.start(None, None)
            self.showing = True
            self.panel.train()  # paused while asking; on again now the window shows it
            return
        title_before = scene.title
        self._write(lambda: scene.restore(data))  # the chosen query stays (the last, if it is past the tokens)
        if scene.title != title_before:
            self.documents.update_title()  # another task chosen: the window names the model it shows now
        if self.history.stack.count():
            self.history.reset()  # a drag made mid-training is overtaken by training: nothing to undo into

    def _may_replace_the_scene(self) -> bool:
        """Training pauses while the student is asked about unsaved work (a modal question runs the
        event loop, and further updates must not ask again); True if the scene may go."""
        self.panel.pause()
        self._asking = True
        try:
            return self.documents.maybe_save_changes()
        finally:
            self._asking = False

    def keep_as_scene(self) -> None:
        """The head as it is now, as a scene of its own to drag, save and export (unsaved until saved)."""
        params = self.panel.current_params
        if params is None:
            return  # nothing trained yet: Step or Train first
        self.panel.pause()
        if not self.showing and not self.documents.maybe_save_changes():
            return
        task = self.panel.current_task
        if isinstance(task, InductionTask):  # its layers as a scene of their own (no edited head to test yet)
            data: SceneData = induction_scene_data(task, params, self.panel.example_tokens)
        elif isinstance(task, TranslationTask) and self.panel.translation is not None:
            data = cross_head_scene_data(task, params, self.panel.translation.sentence)
        else:
            data = keep_as_scene(task, params, self.panel.example_tokens)
        self._write(lambda: open_contents(self.scene, data, self.history.view))
        self.showing = False
        self.documents.start_new_work()

    def _write(self, change: Callable[[], None]) -> None:
        self._writing = True
        try:
            change()
        finally:
            self._writing = False

    def _on_scene_changed(self, change: Change) -> None:
        if self.showing and not self._writing and change & Change.STRUCTURE:
            self.showing = False  # another document came in: training no longer shows in the window
            self.panel.pause()
