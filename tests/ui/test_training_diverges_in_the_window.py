"""A run that diverges in the real window: the Training panel pauses and says so, and Keep as scene keeps the
last good head, whose every number (word vectors, grids, the matrix of weights) is a number."""

import numpy as np
from PySide6.QtCore import Qt

from attn_desktop.model import Role
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.training import training

from tests.support.in_the_window import matrix_cells


class HugeRateTrainer(training.Trainer):
    """The app's trainer at a rate far above the panel's range: it diverges at step 2."""

    def __init__(self, task, seed, lr=None, **kwargs):
        super().__init__(task, seed, lr=1e200, **kwargs)


def test_keep_as_scene_after_a_divergence_keeps_the_last_good_head(qtbot, window, monkeypatch):
    monkeypatch.setattr(training, "Trainer", HugeRateTrainer)  # the panel's next trainer (Reset builds it)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # Lessons → Train a Head
    panel = window.training_panel
    qtbot.waitUntil(lambda: window.docks[DockId.TRAINING].isVisible())
    qtbot.mouseClick(panel.reset_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.steps_taken == 0, timeout=3000)
    qtbot.mouseClick(panel.train_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "the loss became NaN at step 2" in panel.status_label.text(), timeout=5000)
    assert not panel.is_running and "try a smaller learning rate" in panel.status_label.text()
    qtbot.mouseClick(panel.keep_button, Qt.MouseButton.LeftButton)
    assert window.windowTitle().startswith("*Trained head: reverse")
    assert np.isfinite(window.scene.vectors(Role.EMBEDDING)).all()
    assert all(np.isfinite(grid).all() for grid in window.scene.head(0, 0).grids.values())
    cells = [[float(text) for text in row] for row in matrix_cells(window)]
    assert cells and np.isfinite(cells).all()
    assert np.allclose(np.sum(cells, axis=1), 1.0, atol=0.02)  # each query's weights, shown rounded, add up to 1
