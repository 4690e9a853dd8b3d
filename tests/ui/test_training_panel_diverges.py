"""The Training panel and a learning rate far too large: the box keeps to the command line's range, and a run
that diverges anyway pauses, says at which step in one line with what to do, and keeps the last good head.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from PySide6.QtCore import Qt

from attn_desktop.model.training import training
from attn_desktop.model.training.head_maths import forward
from attn_desktop.model.training.tasks import TASKS
from attn_desktop.model.training.training import MAX_LEARNING_RATE, MIN_LEARNING_RATE, Trainer
from attn_desktop.ui.training.training_panel import TrainingPanel
from attn_desktop.ui.window.startup.app import configure_pyqtgraph


def make_panel(qtbot, **kwargs) -> TrainingPanel:
    configure_pyqtgraph()
    panel = TrainingPanel(**kwargs)
    qtbot.addWidget(panel)  # closed at the end of the test, which stops its thread
    panel.resize(300, 740)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.waitUntil(lambda: panel.current_params is not None, timeout=3000)  # the trainer has reported step 0
    return panel


def type_into(qtbot, box, text: str) -> None:
    """Select what the box holds, type over it and press Enter, as a student would."""
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return)


def same_head(a, b) -> bool:
    return all(np.array_equal(x, y) for (_n, x), (_m, y) in zip(a.arrays(), b.arrays()))


def shows_numbers(panel, params) -> bool:
    """The head and its example sentence's queries, keys, values, weights and answers are all finite."""
    result = forward(params, panel.example_tokens, panel.current_task.causal)
    arrays = [array for _name, array in params.arrays()] + [result.q, result.k, result.v, result.weights, result.logits]
    return all(np.isfinite(array).all() for array in arrays)


def huge_rate_trainer(settings):
    """The app's trainer at a rate far above the box's range (the way a run that diverges anyway is made)."""
    return Trainer(TASKS[settings.task_name], settings.seed, lr=1e200)


@pytest.mark.parametrize("typed", ["1e200", "1e308", "99999", "5", "1.5"])
def test_a_huge_rate_typed_into_the_box_is_held_to_the_range(qtbot, typed):
    panel = make_panel(qtbot)
    assert (panel.rate_box.minimum(), panel.rate_box.maximum()) == (MIN_LEARNING_RATE, MAX_LEARNING_RATE)
    assert f"from {MIN_LEARNING_RATE:g} to {MAX_LEARNING_RATE:g}" in panel.rate_box.toolTip()
    type_into(qtbot, panel.rate_box, typed)
    assert MIN_LEARNING_RATE <= panel.rate_box.value() <= MAX_LEARNING_RATE
    assert panel.settings.learning_rate == panel.rate_box.value()
    qtbot.mouseClick(panel.step_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.steps_taken == 1, timeout=3000)
    # The trainer runs at the rate the box shows, and its first step is a number.
    expected = Trainer(TASKS["reverse"], seed=0, lr=panel.rate_box.value()).step().loss
    assert panel.curves.shown_losses()[0] == expected and math.isfinite(expected)


def test_a_rate_set_above_the_range_is_clamped_to_its_top(qtbot):
    panel = make_panel(qtbot)
    panel.rate_box.setValue(1e200)
    assert panel.rate_box.value() == MAX_LEARNING_RATE


def test_a_run_that_diverges_pauses_says_where_and_keeps_the_last_good_head(qtbot):
    panel = make_panel(qtbot, make_trainer=huge_rate_trainer)
    announced = []
    panel.example_changed.connect(lambda _scene: announced.append(panel.current_params))
    qtbot.mouseClick(panel.train_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "became NaN at step 2" in panel.status_label.text(), timeout=3000)
    text = panel.status_label.text()
    assert "\n" not in text and "try a smaller learning rate" in text and text.startswith("Paused: ")
    assert not panel.is_running and panel.train_button.isEnabled() and not panel.pause_button.isEnabled()
    # Step 2 measured the head step 1 blew up: the panel shows the first head again, the one that was numbers.
    assert same_head(panel.current_params, Trainer(TASKS["reverse"], 0).snapshot())
    assert np.all(np.isfinite(panel.curves.shown_losses())) and panel.curves.shown_points() == 1
    assert all(shows_numbers(panel, params) for params in announced)  # never a blown-up head, not even for a frame
    qtbot.wait(300)
    assert panel.curves.shown_points() == 1  # stopped, not stepping on
    qtbot.mouseClick(panel.step_button, Qt.MouseButton.LeftButton)  # asked again, it says the same
    qtbot.wait(200)
    assert "became NaN at step 2" in panel.status_label.text() and shows_numbers(panel, panel.current_params)


def test_a_loss_that_becomes_nan_mid_run_pauses_on_the_head_before(qtbot, monkeypatch):
    """A step whose loss comes back NaN (monkeypatched at step 6): paused there, the head of step 4 kept."""
    real = training.ONE_HEAD.loss_grads_and_forward
    calls = []

    def nan_at_step_6(params, batch, causal):
        calls.append(True)
        loss, grads, result = real(params, batch, causal)
        return (math.nan if len(calls) == 6 else loss), grads, result

    monkeypatch.setattr(training, "ONE_HEAD", dataclasses.replace(training.ONE_HEAD, loss_grads_and_forward=nan_at_step_6))
    panel = make_panel(qtbot)
    qtbot.mouseClick(panel.train_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Paused: the loss became NaN at step 6: try a smaller learning rate"
                    in panel.status_label.text(), timeout=3000)
    assert not panel.is_running and panel.curves.shown_points() == 5
    monkeypatch.setattr(training, "ONE_HEAD", dataclasses.replace(training.ONE_HEAD, loss_grads_and_forward=real))
    four_steps = Trainer(TASKS["reverse"], 0)
    for _ in range(4):
        four_steps.step()
    assert same_head(panel.current_params, four_steps.snapshot())
    qtbot.mouseClick(panel.reset_button, Qt.MouseButton.LeftButton)  # Reset starts the run again, on numbers
    qtbot.waitUntil(lambda: panel.steps_taken == 0, timeout=3000)
    qtbot.mouseClick(panel.step_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.steps_taken == 1, timeout=3000)
    assert "NaN" not in panel.status_label.text()


def test_a_head_blown_up_by_one_step_is_never_shown(qtbot):
    """Step 1 at a rate far too large leaves weights of about 1e200, all finite, whose scores overflow: the panel
    keeps showing the head before (and Keep as scene keeps that one) until the next step says it diverged."""
    panel = make_panel(qtbot, make_trainer=huge_rate_trainer)
    first = panel.current_params
    qtbot.mouseClick(panel.step_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.steps_taken == 1, timeout=3000)
    qtbot.wait(100)
    assert same_head(panel.current_params, first) and shows_numbers(panel, panel.current_params)
