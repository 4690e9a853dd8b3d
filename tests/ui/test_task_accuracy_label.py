"""The accuracy of a head kept from training, shown under the canvas as the student edits it."""

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QVBoxLayout, QWidget

from attn_desktop.model import Role, Scene, ViewState, read
from attn_desktop.model.commands import ReplaceContents, move_arrow
from attn_desktop.model.training.example_sentence import example_scene_data
from attn_desktop.model.training.head_params import init_params
from attn_desktop.model.training.tasks import TASKS
from attn_desktop.model.training.trained_head import keep_as_scene, task_accuracy
from attn_desktop.model.training.training import train
from attn_desktop.ui.canvas.canvas import AttentionCanvas
from attn_desktop.ui.training import task_accuracy_label
from attn_desktop.ui.training.task_accuracy_label import TaskAccuracyLabel
from attn_desktop.ui.view_state.key_highlight import KeyHighlight
from attn_desktop.ui.window.startup.app import configure_pyqtgraph

from tests.support.in_the_window import drag_on_canvas

REVERSE = TASKS["reverse"]


@pytest.fixture(scope="module")
def reverse_head():
    return train(REVERSE, REVERSE.default_steps, seed=0).snapshot()


@pytest.fixture
def scene(reverse_head):
    return Scene(keep_as_scene(REVERSE, reverse_head, REVERSE.example_tokens()))


def shown(qtbot, scene, with_canvas=False):
    """The label (and, if asked, a canvas on the same scene) in a small window."""
    host = QWidget()
    # Deleted by Qt when the test closes it, not later by Python's garbage collector in another test's event
    # loop (which takes a canvas's pyqtgraph items apart before Qt has finished with them).
    host.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    qtbot.addWidget(host)
    layout = QVBoxLayout(host)
    canvas = None
    if with_canvas:
        configure_pyqtgraph()
        canvas = AttentionCanvas(scene, highlight=KeyHighlight())
        layout.addWidget(canvas)
        canvas.arrow_moved.connect(lambda command: command.do(scene, ViewState()))  # the history's part: keep the release
    label = TaskAccuracyLabel(scene, host)
    layout.addWidget(label)
    host.resize(900, 600)
    host.show()
    qtbot.waitExposed(host)
    qtbot.wait(100)  # the canvas frames its plots
    label.host = host  # the window lives as long as the test holds the label
    return label, canvas


def far_from_queries(scene, index, distance=30.0):
    """A word vector moved far along the direction that makes its key grow towards the queries."""
    toward = read(scene).grids["w_k"] @ read(scene).vectors(Role.QUERY).mean(axis=0)
    return scene.vectors(Role.EMBEDDING)[index] + distance * toward / np.linalg.norm(toward)


def test_a_kept_head_shows_its_accuracy_on_its_task(qtbot, scene):
    label, _ = shown(qtbot, scene)
    assert label.isVisible()
    assert label.text() == "Accuracy on reverse: 100.0 % of 1,000 fresh sequences"
    assert "position embedding" in label.toolTip()


def test_a_scene_without_a_trained_head_shows_nothing(qtbot):
    plain = Scene(example_scene_data(REVERSE, init_params(REVERSE, 0), REVERSE.example_tokens()))
    label, _ = shown(qtbot, plain)
    assert not label.isVisible() and label.text() == ""


def test_a_scene_without_a_trained_head_is_not_evaluated_as_its_arrows_move(qtbot, monkeypatch):
    """Nothing to show: a drag's moves cost no evaluation and no event of the label's (a drag frame each)."""
    plain = Scene(example_scene_data(REVERSE, init_params(REVERSE, 0), REVERSE.example_tokens()))
    label, _ = shown(qtbot, plain)
    evaluations = []
    monkeypatch.setattr(task_accuracy_label, "task_accuracy", lambda s: evaluations.append(1))
    for step in range(5):
        plain.set_vector(Role.EMBEDDING, 1, plain.vectors(Role.EMBEDDING)[1] + 0.1)
        qtbot.wait(5)
    assert not evaluations and not label.isVisible() and label.text() == ""


def test_a_moved_word_vector_drops_the_accuracy_and_undo_brings_it_back(qtbot, scene):
    label, _ = shown(qtbot, scene)
    command = move_arrow(read(scene), Role.EMBEDDING, 0, scene.vectors(Role.EMBEDDING)[0], far_from_queries(scene, 0))
    command.do(scene, ViewState())
    qtbot.waitUntil(lambda: label.accuracy < 0.7)  # from 100 %: far more sequences wrong
    assert label.text() == f"Accuracy on reverse: {task_accuracy(scene) * 100:.1f} % of 1,000 fresh sequences"
    command.undo(scene, ViewState())
    qtbot.waitUntil(lambda: label.text().startswith("Accuracy on reverse: 100.0 %"))


def test_a_burst_of_changes_is_evaluated_once(qtbot, scene, monkeypatch):
    label, _ = shown(qtbot, scene)
    evaluations = []
    real = task_accuracy_label.task_accuracy
    monkeypatch.setattr(task_accuracy_label, "task_accuracy", lambda s: evaluations.append(1) or real(s))
    for step in range(5):
        scene.set_vector(Role.EMBEDDING, 1, scene.vectors(Role.EMBEDDING)[1] + 0.1)
    read(scene).select_query(3)
    qtbot.wait(50)
    assert len(evaluations) == 1 and label.accuracy == task_accuracy(scene)


def test_a_real_drag_updates_the_accuracy_as_the_arrow_moves(qtbot, scene):
    label, canvas = shown(qtbot, scene, with_canvas=True)
    before, start = label.text(), scene.vectors(Role.EMBEDDING)[0].copy()
    seen = []
    drag_on_canvas(canvas, Role.EMBEDDING, 0, QPointF(-250, 180), steps=6,
                   after_each_move=lambda step: (qtbot.wait(5), seen.append(label.text())))
    qtbot.wait(20)
    assert not np.allclose(scene.vectors(Role.EMBEDDING)[0], start)  # the drag moved x·0
    assert label.accuracy == task_accuracy(scene) and label.text() != before
    assert len(set(seen)) > 1  # it followed the drag, not only the release


def test_after_a_slow_evaluation_it_waits_for_the_button_to_be_released(qtbot, scene, monkeypatch):
    label, _ = shown(qtbot, scene)
    held = [True]
    monkeypatch.setattr(task_accuracy_label, "mouse_button_held", lambda: held[0])
    label.last_seconds = 1.0  # as if the last evaluation had taken a second
    scene.set_vector(Role.EMBEDDING, 0, far_from_queries(scene, 0))
    qtbot.wait(150)
    assert label.text().startswith("Accuracy on reverse: 100.0 %")  # not yet: the button is held
    held[0] = False
    qtbot.waitUntil(lambda: label.accuracy < 0.7)  # from 100 %: far more sequences wrong


def test_opening_another_scene_hides_it_and_undo_shows_it_again(qtbot, scene):
    label, _ = shown(qtbot, scene)
    plain = example_scene_data(REVERSE, init_params(REVERSE, 0), REVERSE.example_tokens())
    command = ReplaceContents(scene.to_data(), plain, "Open")
    command.do(scene, ViewState())
    qtbot.waitUntil(lambda: not label.isVisible())
    command.undo(scene, ViewState())
    qtbot.waitUntil(label.isVisible)
    assert label.text().startswith("Accuracy on reverse: 100.0 %")
