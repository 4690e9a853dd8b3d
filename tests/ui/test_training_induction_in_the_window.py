"""Induction trained in the real window: the window shows both layers' matrices as it learns and keeps answering;
Keep as scene opens an ordinary two-layer scene (dragged, undone, saved, reopened); the Training panel fits a
1024 × 768 projector, presenting or not, with the layout audit clean."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QElapsedTimer, QPointF, Qt, QTimer

from attn_desktop.model import Role
from attn_desktop.model.scene_files import open_scene
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.training import training
from attn_desktop.model.training.induction_task import INDUCTION
from attn_desktop.model.training.layered_maths import forward
from attn_desktop.ui.tools.layout_audit import audit_window
from attn_desktop.ui.tools.walk_audit import audit_walk

from tests.support.audit_criteria import problems_in
from tests.support.in_the_window import drag_on_canvas, on_a_1024_by_768_screen, wait_until_arranged
from tests.support.trained_induction import TrainedTrainer, trained_params

RealTrainer = training.Trainer


def open_training_on_induction(qtbot, window):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # Lessons → Train a Head
    qtbot.waitUntil(lambda: window.docks[DockId.TRAINING].isVisible())
    panel = window.training_panel
    panel.choose_task("induction")
    qtbot.waitUntil(lambda: panel.current_params is not None and panel.steps_taken == 0, timeout=5000)
    return panel


@pytest.fixture
def trained_induction(monkeypatch):
    """The window's trainer starts induction from a trained model (the other tasks train as usual)."""
    def trainer(task, seed, lr=None):
        return TrainedTrainer() if task is INDUCTION else RealTrainer(task, seed, lr=lr)

    trained_params()  # trained here, before the window waits for it
    monkeypatch.setattr(training, "Trainer", trainer)


def written(weight: float) -> tuple[str, str]:
    """A weight as the matrix may write it: "0.87", or in cells too narrow for that ".87" ("1" for 1.00)."""
    text = f"{weight:.2f}"
    return text, "1" if text == "1.00" else text[1:]


def matrix_rows(column) -> list[list[str]]:
    n = column.matrix.reading.n_tokens
    return [[column.matrix.cell_text(row, key) for key in range(n)] for row in range(n)]


@pytest.mark.timing
def test_training_induction_shows_both_layers_in_the_window_and_clicks_are_answered_all_along(qtbot, window):
    panel = open_training_on_induction(qtbot, window)
    ticks, clock = [], QElapsedTimer()
    clock.start()
    timer = QTimer(interval=20)
    timer.timeout.connect(lambda: ticks.append(clock.elapsed()))
    timer.start()
    qtbot.mouseClick(panel.train_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.steps_taken >= 150, timeout=60_000)
    qtbot.mouseClick(panel.pause_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.is_running, timeout=5000)
    timer.stop()
    assert len(ticks) > 20 and np.median(np.diff(ticks)) < 60  # clicks were answered all along
    assert window.training.showing and window.showing_heads  # the example's two layers, large, in the window

    def window_shows_the_panels_model() -> bool:  # the update that paused may still be on its way: read both anew
        expected = forward(panel.current_params, panel.example_tokens, True)
        return np.allclose(window.scene.head(1, 0).attention.weights, expected.attention(1, 0))

    qtbot.waitUntil(window_shows_the_panels_model, timeout=5000)  # the last update of a run reaches the window
    assert [len(layer.heads) for layer in window.scene.layers] == [1, 1]
    assert window.history.stack.count() == 0  # training is not an edit


def test_keep_as_scene_opens_both_layers_as_a_scene_that_drags_undoes_saves_and_reopens(qtbot, window, tmp_path,
                                                                                          trained_induction):
    panel = open_training_on_induction(qtbot, window)
    qtbot.mouseClick(panel.pick_example_button, Qt.MouseButton.LeftButton)
    tokens = list(panel.example_tokens)
    qtbot.mouseClick(panel.keep_button, Qt.MouseButton.LeftButton)
    assert window.windowTitle().startswith("*Trained model: induction")
    scene = window.scene
    assert [len(layer.heads) for layer in scene.layers] == [1, 1]
    assert scene.tokens == [f"{i}:{letter}" for i, letter in enumerate(INDUCTION.words(tokens))]
    expected = forward(panel.current_params, tokens, True)
    columns = window.heads_view.columns
    for layer, column in enumerate(columns):
        np.testing.assert_allclose(scene.head(layer, 0).attention.weights, expected.attention(layer, 0), atol=1e-12)
        np.testing.assert_allclose(scene.head(layer, 0).attention.weights, panel.circuit.shown_weights(layer),
                                   atol=1e-12)
        weights = expected.attention(layer, 0)
        rows = matrix_rows(column)
        assert all(rows[query][key] in written(weights[query, key]) for query in range(20) for key in range(query + 1))
        assert all(rows[query][key] == "—" for query in range(20) for key in range(query + 1, 20))  # causal: masked

    layer_2_before = scene.head(1, 0).attention.weights.copy()
    canvas_box = window.heads_view.part_boxes["Canvas"]
    assert not canvas_box.isChecked()  # 16-wide heads open with their matrices alone; the canvas is a tick away
    qtbot.mouseClick(canvas_box, Qt.MouseButton.LeftButton)
    wait_until_arranged(qtbot, window)  # the two heads' canvases are laid out and framed
    drag_on_canvas(columns[0].canvas, Role.EMBEDDING, 0, QPointF(60, -60))
    assert window.undo_action.text() == "&Undo Move x·0:" + INDUCTION.vocab[tokens[0]]
    assert not np.array_equal(scene.head(1, 0).attention.weights, layer_2_before)  # layer 2 reads the moved word
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    np.testing.assert_array_equal(scene.head(1, 0).attention.weights, layer_2_before)

    path = tmp_path / "induction.json"
    window.documents._save_to(path)
    reopened = open_scene(path)
    for layer in (0, 1):
        np.testing.assert_allclose(reopened.head(layer, 0).attention.weights, expected.attention(layer, 0),
                                   atol=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
def test_the_panel_on_induction_fits_a_1024_by_768_projector(qtbot, window, monkeypatch, presenting,
                                                             trained_induction):
    on_a_1024_by_768_screen(window, monkeypatch, presenting)
    panel = open_training_on_induction(qtbot, window)
    qtbot.mouseClick(panel.train_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.steps_taken >= 30, timeout=10_000)
    qtbot.mouseClick(panel.pause_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.is_running and panel.circuit.reading is not None, timeout=5000)
    for task in ("reverse", "induction"):  # there and back: the panel keeps its shape
        panel.choose_task(task)
        qtbot.waitUntil(lambda: panel.current_params is not None, timeout=5000)
    wait_until_arranged(qtbot, window)
    assert window.minimumSizeHint().height() <= 768 and window.height() == 768
    assert problems_in({**audit_window(window), **audit_walk(window)}) == []
    dock = window.docks[DockId.TRAINING]
    for widget in (panel.circuit, *panel.circuit.heatmaps.values()):
        assert widget.width() <= dock.width()  # nothing runs out sideways (the dock scrolls up and down)
    assert min(heatmap.width() for heatmap in panel.circuit.heatmaps.values()) >= 100
    window.presentation_action.setChecked(False)



def test_knocking_out_layer_1_reaches_the_large_layer_2_matrix_and_the_title_names_the_induction_model(
        qtbot, window, trained_induction):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # Lessons → Train a Head
    panel = window.training_panel
    qtbot.mouseClick(panel.train_button, Qt.MouseButton.LeftButton)  # the one-head task the panel opens on first
    qtbot.waitUntil(lambda: window.training.showing, timeout=10_000)
    assert window.windowTitle().startswith("Trained head: reverse")
    panel.choose_task("induction")  # training goes on, now of the induction model
    qtbot.waitUntil(lambda: len(window.scene.layers) == 2 and panel.steps_taken >= 5, timeout=10_000)
    qtbot.mouseClick(panel.pause_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.is_running, timeout=5000)
    assert window.windowTitle().startswith("Trained model: induction")  # not the one-head task shown before
    tokens, layer_2 = list(panel.example_tokens), window.heads_view.columns[1]

    def large_matrix_shows(knocked_out) -> bool:
        weights = forward(panel.current_params, tokens, True, knocked_out).attention(1, 0)
        rows = matrix_rows(window.heads_view.columns[1])
        return all(rows[query][key] in written(weights[query, key]) for query in range(20) for key in range(query + 1))

    qtbot.waitUntil(lambda: large_matrix_shows(()), timeout=5000)
    box = panel.circuit.knock_out_boxes[(0, 0)]
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())
    assert box.isChecked()
    knocked_out = forward(panel.current_params, tokens, True, {(0, 0)}).attention(1, 0)
    np.testing.assert_allclose(panel.circuit.shown_weights(1), knocked_out, atol=1e-12)  # the thumbnail
    qtbot.waitUntil(lambda: large_matrix_shows({(0, 0)}), timeout=5000)
    assert window.heads_view.columns[1] is layer_2  # numbers copied in place: the matrix the class looks at
    np.testing.assert_allclose(window.scene.head(1, 0).attention.weights, knocked_out, atol=1e-9)

    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())  # undone: the stripe comes back
    qtbot.waitUntil(lambda: large_matrix_shows(()), timeout=5000)
    assert window.windowTitle().startswith("Trained model: induction") and window.history.stack.count() == 0
