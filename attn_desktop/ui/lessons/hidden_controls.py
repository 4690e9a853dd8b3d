"""The controls a lesson file hides from a student: gone from the menus, the toolbar and the keys while it is open.

A hidden command's action is made invisible (a menu leaves it out, and with it the accessibility tree) and
disabled (its shortcut does nothing); its toolbar check box goes with it. A hidden panel (the Code panel, the
Sentence panel, whose every control edits the words) is closed by the layout's declaration (OwnPanels.hidden,
which the opener gives it) and its View-menu entry goes. Grid editing hidden leaves the grids to be read, not typed
into (GridEditor.set_read_only). Opening any other lesson, or a scene,
brings them all back. The scene's own switches (SceneSwitches) enable the causal mask after each change of
the scene: this follows the scene after them and keeps a hidden one disabled.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QToolBar, QWidget

from attn_desktop.model import Change, Scene
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.scene_link import follow_scene

# A lesson file's hidden control (lesson_file.HIDEABLE_CONTROLS) → the command-table actions it hides, and the
# panels that go with their View-menu entries (the opener closes an activity's panel, as a built-in lesson does,
# and keeps the others closed through the layout's declaration). The words are edited only in the Sentence panel
# (add, remove, rename, move; no menu command or key edits them): hiding sentence editing closes it.
HIDDEN_ACTIONS: dict[str, tuple[str, ...]] = {
    "scale-switch": ("scale_action",),
    "causal-switch": ("causal_action",),
    "predict-switch": ("predict_action",),
    "training": ("training_action",),
    "model-heads": ("model_heads_action",),
}
HIDDEN_PANELS: dict[str, DockId] = {"training": DockId.TRAINING, "model-heads": DockId.MODEL_HEADS,
                                    "code-panel": DockId.CODE, "sentence-editing": DockId.SENTENCE}
READ_ONLY_GRIDS = "grid-editing"  # the grids stay in sight, their numbers not to be typed into


def hidden_panels(controls: Iterable[str]) -> frozenset[DockId]:
    """The panels CONTROLS (a lesson file's hidden controls) take out of the window."""
    return frozenset(HIDDEN_PANELS[control] for control in controls if control in HIDDEN_PANELS)


class HiddenControls(QObject):
    def __init__(self, actions: Mapping[str, QAction], docks: Mapping[DockId, QDockWidget], toolbar: QToolBar,
                 switch_boxes: Mapping[str, QWidget], scene: Scene, follow_switches: Callable[[], object],
                 parent: QObject, grids_read_only: Callable[[bool], object] = lambda _read_only: None) -> None:
        """SWITCH_BOXES: a panel's own switch by the control it is ("grids-switch": the Grids panel's No grids).
        FOLLOW_SWITCHES: enables the scene's switches as the scene allows (SceneSwitches.follow_scene).
        GRIDS_READ_ONLY: makes the Grids panel's numbers read-only, or editable again (GridEditor.set_read_only)."""
        super().__init__(parent)
        self.actions, self.docks, self.toolbar, self.follow_switches = actions, docks, toolbar, follow_switches
        self.grids_read_only = grids_read_only
        self.grids_kept = False  # the lesson file keeps the grids' numbers (grid editing hidden)
        self.switch_boxes = switch_boxes
        self.hidden_boxes: tuple[QWidget, ...] = ()  # (each was shown: a box its panel hides stays hidden)
        self.hidden: tuple[QAction, ...] = ()
        follow_scene(self, scene, self._on_scene_changed, follows=Change.SETTINGS | Change.STRUCTURE)

    def hide(self, controls: Iterable[str]) -> None:
        """Hide CONTROLS (a lesson file's names), and bring back any hidden before that it does not name."""
        self.show_all()
        self.hidden = (*(self.actions[name] for control in controls for name in HIDDEN_ACTIONS.get(control, ())),
                       *(self.docks[HIDDEN_PANELS[control]].toggleViewAction() for control in controls
                         if control in HIDDEN_PANELS))
        self.hidden_boxes = tuple(self.switch_boxes[control] for control in controls
                                  if control in self.switch_boxes and not self.switch_boxes[control].isHidden())
        for box in self.hidden_boxes:
            box.hide()
        self.grids_kept = READ_ONLY_GRIDS in controls
        if self.grids_kept:
            self.grids_read_only(True)
        self._apply()

    def show_all(self, *_: object) -> None:
        for action in self.hidden:
            self._set_shown(action, True)
        self.hidden = ()
        for box in self.hidden_boxes:
            box.show()
        self.hidden_boxes = ()
        if self.grids_kept:
            self.grids_read_only(False)
            self.grids_kept = False
        self.follow_switches()  # enabled again by their own rules: the causal mask needs one query per token

    def _on_scene_changed(self, change: Change) -> None:
        if self.hidden and change & (Change.SETTINGS | Change.STRUCTURE):
            self._apply()

    def _apply(self) -> None:
        for action in self.hidden:
            self._set_shown(action, False)

    def _set_shown(self, action: QAction, shown: bool) -> None:
        action.setVisible(shown)
        action.setEnabled(shown)
        for in_toolbar in self.toolbar.actions():  # the check box's place in the toolbar
            box = self.toolbar.widgetForAction(in_toolbar)
            if box is not None and getattr(box, "action", None) is action:
                in_toolbar.setVisible(shown)
