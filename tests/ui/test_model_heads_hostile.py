"""A model whose numbers overflow, in the window: one message, and the window keeps the model and
the scene it had (File → Open Model…, and opening a head from the Model heads panel)."""

import dataclasses

import numpy as np
import pytest
from PySide6.QtCore import Qt

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained import head_scene, pack
from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE

from tests.support.tiny_llama import every_weight, write_tiny_llama


@pytest.fixture
def loaded_panel(qtbot, window, monkeypatch, tiny_model_path):
    """The Model heads panel with the tiny model loaded and the default sentence run."""
    monkeypatch.setattr(pack, "find_pack_model", lambda: tiny_model_path)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)  # Lessons → Heads of a Real Model…
    panel = window.model_heads_panel
    qtbot.waitUntil(lambda: panel.run is not None and panel.run.sentence == DEFAULT_SENTENCE, timeout=10_000)
    return panel


def _click_head(qtbot, panel, layer, head):
    qtbot.mouseClick(panel.grid, Qt.MouseButton.LeftButton, pos=panel.grid.cell_rect(layer, head).center())


def test_a_model_whose_numbers_overflow_is_one_dialog_and_the_model_before_stays(qtbot, window, loaded_panel,
                                                                                  tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    huge = tmp_path / "huge.gguf"
    write_tiny_llama(huge, layer_count=1, tensors=every_weight(1e30))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(huge), ""))
    model_text, run, scene_before = loaded_panel.model_label.text(), loaded_panel.run, window.scene.to_data()
    window.menu_actions["open_model_action"].trigger()  # File → Open Model…
    qtbot.waitUntil(lambda: bool(window.shown_errors), timeout=10_000)
    qtbot.wait(100)
    assert len(window.shown_errors) == 1
    title, message = window.shown_errors[0]
    assert title == "Cannot open model" and "\n" not in message
    assert message.startswith("huge.gguf: layer 0's queries, keys and values overflow")
    assert loaded_panel.model_label.text() == model_text and loaded_panel.run is run
    assert window.scene.to_data() == scene_before


def test_a_head_beyond_a_scenes_numbers_is_one_message_and_the_scene_stays(qtbot, window, loaded_panel):
    result = loaded_panel.result
    huge = dataclasses.replace(result.run, queries=result.run.queries.astype(np.float64) * 1e200,
                               keys=result.run.keys.astype(np.float64) * 1e200)
    loaded_panel.result = dataclasses.replace(result, run=huge)
    scene_before, title_before = window.scene.to_data(), window.windowTitle()
    _click_head(qtbot, loaded_panel, 1, 2)
    assert len(window.shown_errors) == 1
    title, message = window.shown_errors[0]
    assert title == "Cannot open head" and "\n" not in message and "beyond a scene's" in message
    assert window.scene.to_data() == scene_before and window.windowTitle() == title_before


def test_a_head_the_scene_cannot_compute_leaves_the_scene_as_it_was(qtbot, window, loaded_panel, monkeypatch):
    """Whatever the scene itself refuses while taking a head, it goes back to what it had."""
    checked = head_scene.scene_data_for_head

    def unchecked(run, layer, head, rope=True):  # numbers whose scores overflow, past the head's own checks
        data = checked(run, layer, head, rope)
        return dataclasses.replace(data, queries=[[1e200] * len(row) for row in data.queries],
                                   keys=[[1e200] * len(row) for row in data.keys])

    _click_head(qtbot, loaded_panel, 0, 1)  # first a head that opens, so the scene before is a head too
    assert "Layer 0, head 1" in window.windowTitle()
    monkeypatch.setattr(head_scene, "scene_data_for_head", unchecked)
    scene_before, title_before = window.scene.to_data(), window.windowTitle()
    _click_head(qtbot, loaded_panel, 1, 3)
    assert [title for title, _ in window.shown_errors] == ["Cannot open head"]
    assert "overflow" in window.shown_errors[0][1]
    assert window.scene.to_data() == scene_before and window.windowTitle() == title_before
    np.testing.assert_allclose(window.reading().result.weights.sum(axis=-1), 1.0)
