"""How well a head kept from training still does its task, as the student edits it."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from attn_desktop.language import number, tr
from attn_desktop.language.numbers import whole_number
from attn_desktop.model import Change, Scene
from attn_desktop.model.training.trained_head import task_accuracy, task_of
from attn_desktop.model.training.training import EVALUATION_COUNT
from attn_desktop.ui.scene_link import follow_scene

# Above this, one recomputation is too slow to repeat on every mouse move of a drag (a frame is
# about 16 ms and the panels redraw too): the label then waits for the button to be released.
SLOW_SECONDS = 0.020
RETRY_MS = 50  # while waiting for the release: how often to look again


class TaskAccuracyLabel(QLabel):
    """"Accuracy on reverse: 99.6 % of 1,000 fresh sequences" for a scene with a trained head; hidden otherwise.

    When the numbers change, the accuracy is recomputed once the events queued
    now have been handled (a 0 ms single-shot timer), so a burst of changes
    (an undo that moves several things, a drag's moves queued behind a slow
    paint) costs one evaluation, and the canvas is redrawn first. An
    evaluation takes about 6 ms for reverse, so during a drag the accuracy
    follows the arrow live; only if one took longer than SLOW_SECONDS (a slow
    machine) does the label wait while a mouse button is held, and show the
    accuracy when the drag is released.
    """

    def __init__(self, scene: Scene, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("taskAccuracyLabel")
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.scene = scene
        self.accuracy: float | None = None
        self.last_seconds = 0.0  # how long the last evaluation took
        self._pending = QTimer(self)
        self._pending.setSingleShot(True)
        self._pending.setInterval(0)
        self._pending.timeout.connect(self.recompute)
        follow_scene(self, scene, self._scene_changed, follows=Change.NUMBERS)
        self.recompute()

    def _scene_changed(self, change: Change) -> None:
        if change & Change.NUMBERS and not self._nothing_to_show():  # (another query: nothing the head is tested on)
            self._pending.start(0)

    def _nothing_to_show(self) -> bool:
        """A scene without a kept head, and the label already empty and hidden: an evaluation would find
        no head and leave it so. Skipped, a drag move of such a scene (almost every one) costs the label nothing."""
        return self.scene.trained_head is None and self.accuracy is None and self.isHidden() and not self.text()

    def recompute(self) -> None:
        """Evaluate the edited head now (or, after a slow evaluation, once no mouse button is held)."""
        if self.last_seconds > SLOW_SECONDS and mouse_button_held():
            self._pending.start(RETRY_MS)
            return
        started = time.perf_counter()
        self.accuracy = task_accuracy(self.scene)
        self.last_seconds = time.perf_counter() - started
        if self.accuracy is None:
            if self.text():
                self.clear()  # clear() asks for a new layout even when there is nothing to clear
            self.setToolTip("")
            self.setVisible(False)
            return
        task_name = tr(task_of(self.scene).title).lower()
        self.setText(tr("Accuracy on {task}: {accuracy} % of {count} fresh sequences").format(
            task=task_name, accuracy=number(self.accuracy * 100, 1), count=whole_number(EVALUATION_COUNT)))
        self.setToolTip(tr(
            "The head kept from training on {task}, with your edits: the grids as they are now, and "
            "each word vector you moved taken as a new position embedding (what every sentence has at that place). "
            "It answers {count} random sequences it never saw in training; this is the share it gets right."
        ).format(task=task_name, count=whole_number(EVALUATION_COUNT)))
        if self.parentWidget() is not None:  # alone, show() would open it as a window of its own
            self.setVisible(True)


def mouse_button_held() -> bool:
    """True while the user holds a mouse button (a drag under way), as the window system reports it."""
    return QApplication.mouseButtons() != Qt.MouseButton.NoButton
