"""Scaling and the causal mask: the menu's and toolbar's switches, as undoable edits."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QSignalBlocker
from PySide6.QtGui import QAction

from attn_desktop.language import tr
from attn_desktop.model import Change, Scene
from attn_desktop.model.commands import Editor, switch


class SceneSwitches:
    """Turns the switches' clicks into commands, and keeps the switches showing the scene's settings."""

    def __init__(self, scene: Scene, editor: Editor, show_error: Callable[[str, str], None]) -> None:
        self.scene, self.editor, self.show_error = scene, editor, show_error
        self.scale_action: QAction | None = None
        self.causal_action: QAction | None = None
        self.boxes: Iterable = ()  # toolbar check boxes that mirror the actions

    def bind(self, scale_action: QAction, causal_action: QAction, boxes: Iterable) -> None:
        self.scale_action, self.causal_action, self.boxes = scale_action, causal_action, boxes
        self.follow_scene()

    def set_scale(self, on: bool) -> None:
        self.editor.do(switch(self.scene, "scale", on))

    def set_causal(self, on: bool) -> None:
        try:
            self.editor.do(switch(self.scene, "causal", on))
        except ValueError as error:
            self.follow_scene()
            self.show_error(tr("Causal mask"), str(error))

    def on_scene_changed(self, change: Change) -> None:
        if change & (Change.SETTINGS | Change.STRUCTURE):
            self.follow_scene()

    def follow_scene(self) -> None:
        """The switches show the scene's settings (undo, a file opened); a causal mask needs one query per token
        of one sentence."""
        if self.scale_action is None or self.causal_action is None:
            return
        with QSignalBlocker(self.scale_action), QSignalBlocker(self.causal_action):
            self.scale_action.setChecked(self.scene.scale)
            self.causal_action.setChecked(self.scene.causal)
        for box in self.boxes:
            box.follow_action()  # the blocked actions could not tell their check boxes
        self.causal_action.setEnabled(self._why_no_causal_mask() is None)
        self.causal_action.setToolTip(self._why_no_causal_mask() or tr("Each query sees only itself and earlier tokens"))

    def _why_no_causal_mask(self) -> str | None:
        """Why this scene cannot have a causal mask (the model refuses it too), or None when it can."""
        if self.scene.target_vectors is not None:  # even of the same length: "earlier" needs one sentence
            return tr("A causal mask hides later words of the same sentence; here the queries read another "
                      "sentence, all of it")
        if self.scene.n_queries != self.scene.n_tokens:
            return tr("A causal mask needs one query per token; this scene's queries are not the tokens")
        return None
