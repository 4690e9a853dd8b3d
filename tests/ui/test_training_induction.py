"""The Training panel on induction, driven as a student drives it: the task chosen from the list, Train and Step
clicked, letters typed, heads knocked out with their switches.

The numbers are the model's own: both heads' squares are layered_maths.forward's weights on the example,
the marks on the curves are loss_drop's, the accuracy is read_circuit's. A model trained once (INDUCTION,
seed 0) stands in for a long run where a test needs a trained one.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from PySide6.QtCore import Qt

from attn_desktop.model.scene import Scene
from attn_desktop.model.training.induction_circuit import loss_drop, read_circuit
from attn_desktop.model.training.induction_task import INDUCTION
from attn_desktop.model.training.layered_maths import forward
from attn_desktop.model.training.training import Trainer
from attn_desktop.ui.training.training_panel import TrainingPanel
from attn_desktop.ui.window.startup.app import configure_pyqtgraph

from tests.support.trained_induction import trained_params, trained_trainer

DOCK_SIZE = (300, 1100)  # the dock's width on a 1024 × 768 screen; it scrolls, so the panel is as tall as it likes


def make_panel(qtbot, **kwargs) -> TrainingPanel:
    configure_pyqtgraph()
    panel = TrainingPanel(**kwargs)
    qtbot.addWidget(panel)  # closed at the end of the test, which stops its threads
    panel.resize(*DOCK_SIZE)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.waitUntil(lambda: panel.current_params is not None, timeout=3000)
    return panel


@pytest.fixture
def trained_panel(qtbot) -> TrainingPanel:
    """A panel whose induction starts from the trained model (trained here first: it takes a few seconds)."""
    trained_params()
    return make_panel(qtbot, make_trainer=trained_trainer)


def choose_induction(qtbot, panel) -> None:
    """The last task but one of the list (translate follows), chosen with the keyboard."""
    panel.task_box.setFocus()
    qtbot.keyClick(panel.task_box, Qt.Key.Key_End)
    qtbot.keyClick(panel.task_box, Qt.Key.Key_Up)
    assert panel.current_task.name == "induction"
    qtbot.waitUntil(lambda: panel.steps_taken == 0 and panel.current_params is not None
                    and panel.circuit.reading is not None, timeout=5000)


def click(qtbot, widget) -> None:
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def type_into(qtbot, box, text: str) -> None:
    click(qtbot, box)
    qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return)


def switch_knock_out(qtbot, panel, layer: int) -> None:
    box = panel.circuit.knock_out_boxes[(layer, 0)]
    click(qtbot, box)
    qtbot.waitUntil(lambda: panel.circuit.reading is not None, timeout=5000)


def assert_heads_shown_as_computed(panel, knocked_out=()) -> None:
    result = forward(panel.current_params, panel.example_tokens, True, knocked_out)
    for layer in (0, 1):
        np.testing.assert_array_equal(panel.circuit.shown_weights(layer), result.attention(layer, 0))


def shown_percent(panel) -> float:
    return float(panel.circuit.accuracy_label.text().split(":")[1].split("%")[0])


@pytest.mark.timing
def test_training_induction_shows_both_heads_on_the_example_live_and_as_the_model_computes(qtbot):
    panel = make_panel(qtbot)
    assert not panel.circuit.isVisible()  # reverse: one head, no circuit
    choose_induction(qtbot, panel)
    assert panel.circuit.isVisible() and panel.example_box.text() == "QDKWNRHBTCFJPMDKWNRH"
    assert panel.rate_box.value() == pytest.approx(INDUCTION.default_lr)
    assert_heads_shown_as_computed(panel)
    qtbot.keyClick(panel.pace_box, Qt.Key.Key_End)  # as fast as possible
    shown = []
    panel.circuit.heads_shown.connect(lambda: shown.append(panel.circuit.shown_weights(1)))
    scenes = []
    panel.example_changed.connect(scenes.append)
    click(qtbot, panel.train_button)
    qtbot.waitUntil(lambda: panel.steps_taken >= 20, timeout=5000)
    started, count_before, scenes_before = time.perf_counter(), len(shown), len(scenes)
    qtbot.wait(1000)
    seconds = time.perf_counter() - started
    rate, window_rate = (len(shown) - count_before) / seconds, (len(scenes) - scenes_before) / seconds
    click(qtbot, panel.pause_button)
    qtbot.waitUntil(lambda: "Paused" in panel.status_label.text(), timeout=5000)
    assert rate >= 5, f"the heads were shown only {rate:.1f} times a second"
    assert len({array.tobytes() for array in shown}) > 5  # they changed as the model learned
    assert_heads_shown_as_computed(panel)
    # The window's large matrices follow a few times a second (the panel's squares get every update), and
    # the last scene handed to it is the model as it stopped.
    assert 0 < window_rate <= 8, f"the window was handed {window_rate:.1f} scenes a second"
    last = scenes[-1]
    expected = forward(panel.current_params, panel.example_tokens, True)
    assert np.allclose(Scene(last).head(1, 0).attention.weights, expected.attention(1, 0), atol=1e-12)
    reading = read_circuit(INDUCTION, panel.current_params)
    accuracy_text = f"Accuracy: {100 * reading.accuracy:.1f} % of 1,000 fresh sequences"
    qtbot.waitUntil(lambda: panel.circuit.accuracy_label.text() == accuracy_text, timeout=5000)  # the last reading
    assert panel.circuit.scores_label.text().splitlines() == [
        f"Layer 1 · head 1: previous-token {reading.previous_token[0, 0]:.2f} · induction {reading.induction[0, 0]:.2f}",
        f"Layer 2 · head 1: previous-token {reading.previous_token[1, 0]:.2f} · induction {reading.induction[1, 0]:.2f}",
    ]


@pytest.mark.slow  # trains until the loss drops (about 230 steps)
def test_the_plateau_and_the_drop_are_marked_where_loss_drop_says(qtbot):
    panel = make_panel(qtbot)
    choose_induction(qtbot, panel)
    for count in range(1, 4):
        click(qtbot, panel.step_button)
        qtbot.waitUntil(lambda: panel.steps_taken == count, timeout=5000)  # noqa: B023 - waited for at once
    marks = panel.drop_marks
    assert marks.plateau.isVisible() and marks.plateau_steps == (1.0, 3.0)  # on the plateau so far
    assert marks.drop_step is None and not marks.drop_lines[0].isVisible()

    qtbot.keyClick(panel.pace_box, Qt.Key.Key_End)
    click(qtbot, panel.train_button)
    qtbot.waitUntil(lambda: marks.drop_step is not None, timeout=60_000)
    click(qtbot, panel.pause_button)
    qtbot.waitUntil(lambda: "Paused" in panel.status_label.text(), timeout=5000)
    steps, losses = panel.curves.shown_steps(), panel.curves.shown_losses()
    plateau_end, drop = loss_drop(losses.tolist(), len(INDUCTION.vocab))
    assert drop is not None and plateau_end is not None and plateau_end < drop
    assert marks.plateau_steps == (steps[0], steps[plateau_end])
    assert marks.drop_step == steps[drop] and marks.drop_label.format == f"drop at step {steps[drop]:.0f}"
    assert all(line.isVisible() and line.value() == steps[drop] for line in marks.drop_lines)

    click(qtbot, panel.reset_button)  # a new run: no marks until it has losses of its own
    qtbot.waitUntil(lambda: panel.steps_taken == 0, timeout=5000)
    assert marks.drop_step is None and marks.plateau_steps is None and not marks.plateau.isVisible()


@pytest.mark.slow  # trains the model it knocks heads out of (500 steps, once per session)
def test_knocking_out_layer_1s_head_drops_the_accuracy_and_the_stripe_and_switching_it_on_brings_them_back(qtbot, trained_panel):
    panel = trained_panel
    choose_induction(qtbot, panel)
    weights = [array.copy() for _name, array in panel.current_params.arrays()]
    trained_accuracy = shown_percent(panel)
    assert trained_accuracy > 90 and panel.circuit.formed_label.text().startswith("Circuit formed")
    stripe_before = panel.circuit.shown_weights(1)

    switch_knock_out(qtbot, panel, 0)
    assert panel.circuit.accuracy_label.text().startswith("Accuracy with Layer 1 · head 1 knocked out:")
    assert shown_percent(panel) < 40
    assert panel.circuit.formed_label.text().startswith("Circuit not formed")
    assert panel.circuit.heatmaps[(0, 0)].knocked_out and not panel.circuit.heatmaps[(1, 0)].knocked_out
    assert_heads_shown_as_computed(panel, knocked_out=[(0, 0)])  # layer 2 reads a stream without layer 1's output
    assert not np.array_equal(panel.circuit.shown_weights(1), stripe_before)
    assert all(np.array_equal(a, b) for a, (_n, b) in zip(weights, panel.current_params.arrays()))  # untouched

    switch_knock_out(qtbot, panel, 0)  # on again: everything as before
    assert shown_percent(panel) == trained_accuracy
    np.testing.assert_array_equal(panel.circuit.shown_weights(1), stripe_before)
    assert not panel.circuit.heatmaps[(0, 0)].knocked_out


def test_training_goes_on_with_every_head_in_while_one_is_knocked_out(qtbot):
    panel = make_panel(qtbot)
    choose_induction(qtbot, panel)
    switch_knock_out(qtbot, panel, 1)
    for count in (1, 2, 3):
        click(qtbot, panel.step_button)
        qtbot.waitUntil(lambda: panel.steps_taken == count, timeout=5000)  # noqa: B023 - waited for at once
    trainer = Trainer(INDUCTION, seed=0)
    for _ in range(3):
        trainer.step()
    assert all(np.array_equal(a, b) for (_n, a), (_m, b) in zip(panel.current_params.arrays(),
                                                                trainer.snapshot().arrays()))
    assert_heads_shown_as_computed(panel, knocked_out=[(1, 0)])


def test_a_bad_typed_sequence_gives_one_message_and_changes_nothing(qtbot, trained_panel):
    panel = trained_panel
    choose_induction(qtbot, panel)
    shown = []
    panel.circuit.heads_shown.connect(lambda: shown.append(True))
    before, shown_before = list(panel.example_tokens), panel.circuit.shown_weights(1)
    for typed, message in (("QDKW", "induction sequences have 20 letters; found 4"),
                           ("QDKWNRHBTCFJPMDKWNRZ", '"Z" is not among the induction letters; use A to X')):
        type_into(qtbot, panel.example_box, typed)
        assert panel.example_message.isVisible() and panel.example_message.text() == message
        assert panel.example_tokens == before and shown == []
        np.testing.assert_array_equal(panel.circuit.shown_weights(1), shown_before)

    type_into(qtbot, panel.example_box, "a b c d e f g h a b c d e f g h i j k l")  # spaces and small letters are fine
    assert not panel.example_message.isVisible()
    assert panel.example_box.text() == "ABCDEFGHABCDEFGHIJKL"
    assert panel.example_tokens == list(range(8)) * 2 + [8, 9, 10, 11]
    assert len(shown) == 1 and [label.split(":")[1] for label in panel.example_scene().tokens] == list("ABCDEFGHABCDEFGHIJKL")
    assert_heads_shown_as_computed(panel)
    assert panel.circuit.shown_weights(1)[9, 2] > 0.5  # the second B looks just after the first B: at C


def test_a_new_random_example_is_20_letters_with_a_repeat_shown_by_both_heads(qtbot, trained_panel):
    panel = trained_panel
    choose_induction(qtbot, panel)
    before = list(panel.example_tokens)
    click(qtbot, panel.pick_example_button)
    assert panel.example_tokens != before and len(panel.example_tokens) == 20
    assert panel.example_box.text() == "".join(INDUCTION.words(panel.example_tokens))
    assert len(set(panel.example_tokens)) < 20  # a stretch of it comes back
    assert_heads_shown_as_computed(panel)


def test_choose_task_by_name_and_back_again(qtbot):
    panel = make_panel(qtbot)
    panel.choose_task("induction")
    assert panel.task_box.currentText() == "Induction" and panel.circuit.isVisible()
    qtbot.waitUntil(lambda: panel.current_params is not None and panel.steps_taken == 0, timeout=5000)
    click(qtbot, panel.step_button)
    qtbot.waitUntil(lambda: panel.steps_taken == 1, timeout=5000)
    assert panel.drop_marks.plateau.isVisible()
    panel.choose_task("reverse")
    assert not panel.circuit.isVisible() and not panel.drop_marks.plateau.isVisible()
    assert panel.example_box.text() == "3 1 4 1 5"
    with pytest.raises(KeyError, match="no task 'sorting'"):
        panel.choose_task("sorting")
    assert panel.current_task.name == "reverse"
