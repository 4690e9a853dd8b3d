"""Training a head in the real window: the canvas and matrix follow it, the window stays
responsive, and Keep as scene gives a scene that saves, reopens and shows what an edit breaks."""

import numpy as np
import pytest
from PySide6.QtCore import QElapsedTimer, QPointF, Qt, QTimer
from PySide6.QtWidgets import QLabel

from attn_desktop.model import Role, read
from attn_desktop.model.scene_files import open_scene
from attn_desktop.model.teaching.dock_id import DockId

from tests.support.in_the_window import drag_arrow, matrix_cells

pytest.importorskip("attn_desktop.model.training.training")


def open_training(qtbot, window):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # Lessons → Train a Head
    qtbot.waitUntil(lambda: window.docks[DockId.TRAINING].isVisible())
    return window.training_panel


def train_until_perfect(qtbot, panel, timeout_ms=30_000):
    qtbot.mouseClick(panel.train_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.steps_taken >= 400, timeout=timeout_ms)
    qtbot.mouseClick(panel.pause_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.is_running, timeout=5000)


@pytest.mark.timing
def test_training_shows_the_reverse_pattern_appear_and_the_window_keeps_answering(qtbot, window):
    panel = open_training(qtbot, window)
    ticks, clock = [], QElapsedTimer()
    clock.start()
    timer = QTimer(interval=20)
    timer.timeout.connect(lambda: ticks.append(clock.elapsed()))
    timer.start()
    train_until_perfect(qtbot, panel)
    timer.stop()
    gaps = np.diff(ticks)
    # A click or a menu would have been answered all along: the typical gap between two 20 ms ticks
    # stays near 20 ms. (The panel's own tests hold the worker to tighter figures; on a busy shared
    # machine the whole window's repaint per update leaves fewer ticks, so their count is not held.)
    assert len(ticks) > 20 and np.median(gaps) < 60
    assert window.scene.title == "Trained head: reverse" and window.scene.tokens[0].startswith("0:")
    cells = [[float(text) for text in row] for row in matrix_cells(window)]
    n = len(cells)
    # The anti-diagonal: position i looks at position n−1−i, where its answer is.
    assert [int(np.argmax(row)) for row in cells] == [n - 1 - i for i in range(n)]
    assert not window.windowTitle().startswith("*")  # watching training is not an edit of the student's


def test_keep_as_scene_saves_reopens_and_shows_what_a_drag_breaks(qtbot, window, tmp_path):
    panel = open_training(qtbot, window)
    train_until_perfect(qtbot, panel)
    qtbot.mouseClick(panel.keep_button, Qt.MouseButton.LeftButton)
    assert window.windowTitle().startswith("*Trained head: reverse")
    accuracy_label = window.statusBar().findChild(QLabel, "taskAccuracyLabel")
    qtbot.waitUntil(lambda: "Accuracy on reverse" in accuracy_label.text())
    trained_text = accuracy_label.text()
    assert trained_text.startswith(("Accuracy on reverse: 100.0 %", "Accuracy on reverse: 99."))
    path = tmp_path / "head.json"
    window.documents._save_to(path)
    reopened = open_scene(path)
    assert reopened.to_data().trained_head is not None
    np.testing.assert_allclose(read(reopened).result.weights, window.reading().result.weights, atol=1e-12)
    drag_arrow(window, Role.EMBEDDING, 0, QPointF(-160, 120))  # well away from where it was
    qtbot.waitUntil(lambda: accuracy_label.text() != trained_text, timeout=5000)
    accuracy = float(accuracy_label.text().split(":")[1].split("%")[0])
    assert accuracy < 99.0  # position 0's word vector moved: the head no longer reverses every sequence


def test_training_with_a_kept_head_fits_a_1024_by_768_projector(qtbot, window):
    from attn_desktop.model.training.head_params import init_params
    from attn_desktop.model.training.tasks import TASKS
    from attn_desktop.model.training.trained_head import keep_as_scene

    task = TASKS["reverse"]
    open_training(qtbot, window)
    window.scene.replace(keep_as_scene(task, init_params(task, 0), task.example_tokens()))  # 16-row grids
    window.lessons.show_grids_if_used()
    for presentation in (False, True):
        window.presentation_action.setChecked(presentation)
        window.showNormal()
        window.resize(1024, 768)
        qtbot.waitUntil(lambda: not window.presentation_mode.settling, timeout=5000)
        qtbot.wait(50)
        # Nothing asks for more height than the projector has: tall panels scroll instead.
        assert window.minimumSizeHint().height() <= 768 and window.height() == 768
        assert window.docks[DockId.TRAINING].isVisible()
        # On a projector's screen the plots get the grids' row: training rewrites the grids every step, and beside
        # them the three plots were 145 px high (see panel_sets.panels_shown).
        assert not window.docks[DockId.GRIDS].isVisible()
    window.presentation_action.setChecked(False)


def test_unsaved_work_is_asked_about_once_and_cancel_keeps_it(qtbot, window):
    from PySide6.QtWidgets import QMessageBox

    panel = open_training(qtbot, window)
    window.scale_action.trigger()  # the student's own unsaved edit
    window.question_answers.append(QMessageBox.StandardButton.Cancel)
    qtbot.mouseClick(panel.train_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.is_running, timeout=5000)
    assert window.asked_questions == ["Unsaved changes"]
    assert window.scene.tokens[:3] == ["The", "cat", "sat"] and window.windowTitle().startswith("*")
    qtbot.mouseClick(panel.train_button, Qt.MouseButton.LeftButton)  # again, and this time discard
    qtbot.waitUntil(lambda: window.training.showing, timeout=5000)
    qtbot.waitUntil(lambda: panel.is_running and panel.steps_taken > 20, timeout=10_000)
    assert window.asked_questions == ["Unsaved changes", "Unsaved changes"]  # once per Train, never per update
    assert window.scene.title == "Trained head: reverse"
    qtbot.mouseClick(panel.pause_button, Qt.MouseButton.LeftButton)


def every_tip_in_view(canvas) -> bool:
    """Every arrow of every shown plot has its tip inside its plot's view (what a student sees)."""
    return not canvas.plots.tips_outside_view()


def test_training_keeps_every_arrow_in_view_and_values_on_their_own_scale_when_they_outgrow_q_and_k(qtbot, window):
    panel = open_training(qtbot, window)
    canvas = window.canvas
    train_until_perfect(qtbot, panel)
    # Training stopped: within a few refits every arrow, with its label, is back in the picture.
    qtbot.waitUntil(lambda: every_tip_in_view(canvas), timeout=3000)
    scene = canvas.reading
    queries_and_keys = max(float(np.abs(scene.vectors(role)).max()) for role in (Role.QUERY, Role.KEY))
    values = float(np.abs(scene.vectors(Role.VALUE)).max())
    if max(values, queries_and_keys) / min(values, queries_and_keys) >= 5:
        assert canvas.vo_plot.getViewBox().linkedView(0) is None  # a scale of its own: never a dot
    # Ctrl+0 frames them again and leaves none of them a dot: each plot's longest arrow is a good part of it
    # (sharing one scale, the shorter kind is at least a fifth of the longer).
    qtbot.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    for plot, roles in ((canvas.qk_plot, (Role.QUERY, Role.KEY)), (canvas.vo_plot, (Role.VALUE,))):
        (x_low, x_high), (y_low, y_high) = plot.viewRange()
        longest = max(float(np.hypot(*canvas.drags.tip_of(v, role))) for role in roles for v in scene.vectors(role))
        assert longest > 0.08 * min(x_high - x_low, y_high - y_low), plot.titleLabel.text
