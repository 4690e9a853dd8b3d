"""RoPE on and off in the window: the Model heads panel's "RoPE on" box opens a head with q and k from before the
turns, and opens the head on the canvas again the other way, its query kept. With a tiny random model (always),
and with SmolLM2's previous-token head, whose diagonal the matrix shows going and coming back (when the pack is
installed)."""

import dataclasses

import numpy as np
import pytest
from PySide6.QtCore import Qt

from tests.support.in_the_window import matrix_cells

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained import pack
from attn_desktop.model.pretrained.head_kinds import CLEAR_PREVIOUS_TOKEN_HEAD, PREVIOUS_TOKEN_SENTENCE
from attn_desktop.model.pretrained.head_scene import scene_data_for_head
from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE, LlamaModel
from attn_desktop.model.scene_files import save_scene

LAYER, HEAD = 1, 2


@pytest.fixture(scope="module")
def tiny_run(tiny_model_path):
    return LlamaModel.load(tiny_model_path).run(DEFAULT_SENTENCE)


def open_heads(qtbot, window, sentence=DEFAULT_SENTENCE, timeout=10_000):
    """Lessons → Heads of a Real Model… by its key, and the sentence's run in the panel."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    panel = window.model_heads_panel
    qtbot.waitUntil(lambda: panel.run is not None and panel.run.sentence == DEFAULT_SENTENCE, timeout=timeout)
    if sentence != DEFAULT_SENTENCE:
        panel.sentence_box.selectAll()
        qtbot.keyClicks(panel.sentence_box, sentence)
        qtbot.keyClick(panel.sentence_box, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: panel.run is not None and panel.run.sentence == sentence, timeout=timeout)
    qtbot.wait(20)
    return panel


def click_head(qtbot, panel, layer, head):
    qtbot.mouseClick(panel.grid, Qt.MouseButton.LeftButton, pos=panel.grid.cell_rect(layer, head).center())


def click_rope_box(qtbot, panel):
    box = panel.rope_box
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=box.rect().center())


def click_query_row(qtbot, window, row):
    view = window.matrix_view
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.cell_rect(row, 0).center().toPoint())


def shown_matrix(window) -> np.ndarray:
    """The matrix panel's numbers as a student reads them (a masked cell as 0)."""
    return np.array([[float(text) if text != "—" else 0.0 for text in row] for row in matrix_cells(window)])


def previous_token_cells(window) -> list[float]:
    """The cells just below the diagonal: each token's weight on the token before it."""
    matrix = shown_matrix(window)
    return [matrix[row, row - 1] for row in range(1, len(matrix))]


def test_unticking_rope_on_opens_the_head_again_without_rope_keeping_its_query(qtbot, window, pack_is_tiny, tiny_run):
    panel = open_heads(qtbot, window)
    assert panel.rope_box.isChecked() and panel.rope_box.isVisible()
    click_head(qtbot, panel, LAYER, HEAD)
    click_query_row(qtbot, window, 4)
    np.testing.assert_allclose(shown_matrix(window), tiny_run.attention[LAYER, HEAD], atol=0.006)

    click_rope_box(qtbot, panel)
    without = tiny_run.attention_without_rope(LAYER)[HEAD]
    assert not panel.rope_box.isChecked() and window.model_heads.rope is False
    np.testing.assert_allclose(shown_matrix(window), without, atol=0.006)
    assert np.abs(without - tiny_run.attention[LAYER, HEAD]).max() > 0.05  # a change a student can see
    assert window.reading().selected == 4  # the query chosen stays chosen
    assert "(RoPE off)" in window.windowTitle() and not window.windowTitle().startswith("*")
    assert "RoPE off: q and k as the model made them" in window.canvas.plots.notice.sentence
    assert "RoPE off" in window.statusBar().currentMessage()

    click_rope_box(qtbot, panel)
    np.testing.assert_allclose(shown_matrix(window), tiny_run.attention[LAYER, HEAD], atol=0.006)
    assert window.reading().selected == 4 and "RoPE" not in window.windowTitle()
    assert "already turned by RoPE" in window.canvas.plots.notice.sentence
    assert window.shown_errors == []


def test_with_rope_off_any_head_clicked_in_the_grid_opens_off(qtbot, window, pack_is_tiny, tiny_run):
    panel = open_heads(qtbot, window)
    assert window.scene.taken_from is None  # the default scene: nothing to open again
    with qtbot.waitSignal(window.model_heads.rope_set, timeout=1000) as told:  # a lesson's box can follow it
        click_rope_box(qtbot, panel)
    assert told.args == [False]
    assert "the next head opened shows it" in window.statusBar().currentMessage()
    for layer, head in ((0, 1), (1, 3)):
        click_head(qtbot, panel, layer, head)
        np.testing.assert_allclose(window.reading().result.weights,
                                   tiny_run.attention_without_rope(layer)[head], rtol=0, atol=1e-9)
        assert window.scene.taken_from.rope is False


def test_set_rope_on_a_head_opened_from_a_file_loads_the_model_without_blocking(qtbot, window, pack_is_tiny,
                                                                                 tiny_run, tmp_path):
    """A lesson's check box calls set_rope with the model not loaded: the model loads on its thread, runs the
    head's sentence, and the head opens again with RoPE, its query kept."""
    path = tmp_path / "off.json"
    save_scene(scene_data_for_head(tiny_run, LAYER, HEAD, rope=False), path)
    assert window.documents.open_scene(path)
    click_query_row(qtbot, window, 3)
    controller = window.model_heads
    assert window.model_heads_panel.model is None
    controller.set_rope(True)
    assert window.scene.taken_from.rope is False  # not yet: the model is loading on its own thread
    assert "Loading tiny-llama to open layer 1, head 2 again" in window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: window.scene.taken_from.rope, timeout=10_000)
    np.testing.assert_allclose(window.reading().result.weights, tiny_run.attention[LAYER, HEAD], atol=1e-6)
    assert window.reading().selected == 3 and window.model_heads_panel.rope_box.isChecked()
    assert window.shown_errors == []


def test_set_rope_without_the_pack_says_so_and_keeps_the_head(qtbot, window, monkeypatch, tiny_run, tmp_path):
    def missing():
        raise pack.ModelUnavailable("The model pack is not installed.")

    monkeypatch.setattr(pack, "find_pack_model", missing)
    path = tmp_path / "off.json"
    save_scene(scene_data_for_head(tiny_run, LAYER, HEAD, rope=False), path)
    assert window.documents.open_scene(path)
    window.model_heads.set_rope(True)
    assert "Cannot open the head again with RoPE on" in window.statusBar().currentMessage()
    assert window.scene.taken_from.rope is False and window.shown_errors == []


# ----- SmolLM2 (the optional pack) ------------------------------------------------------------------------------
@pytest.mark.slow
def test_smollm2_s_previous_token_head_loses_its_diagonal_with_rope_off_and_gets_it_back(qtbot, window,
                                                                                         smollm2_installed):
    panel = open_heads(qtbot, window, PREVIOUS_TOKEN_SENTENCE, timeout=60_000)
    click_rope_box(qtbot, panel)  # off before opening: the head opens off
    click_head(qtbot, panel, *CLEAR_PREVIOUS_TOKEN_HEAD)
    assert window.scene.tokens[:3] == ["the", "dog", "chased"] and "(RoPE off)" in window.windowTitle()
    off = previous_token_cells(window)
    # "dog" still looks at "the" (of two tokens it can see); from "chased" on, no token favours the one before
    assert np.mean(off) < 0.17 and max(off[1:]) < 0.5
    click_rope_box(qtbot, panel)
    on = previous_token_cells(window)
    assert np.mean(on) > 0.79 and min(on) > 0.4
    assert window.shown_errors == []


@pytest.mark.parametrize("presenting", [False, True])
def test_the_rope_off_notice_takes_two_lines_on_a_1024_projector(qtbot, window, monkeypatch, tiny_run, tmp_path,
                                                                  presenting):
    from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged

    path = tmp_path / "off.json"
    save_scene(scene_data_for_head(tiny_run, LAYER, HEAD, rope=False), path)
    on_a_1024_by_768_screen(window, monkeypatch, presenting)
    assert window.documents.open_scene(path)
    wait_until_arranged(qtbot, window)
    notice = window.canvas.plots.notice
    assert notice.sentence.startswith("RoPE off: q and k as the model made them")
    layout = notice.item.document().firstBlock().layout()
    assert layout.lineCount() == 2
    box = window.canvas.mapFromScene(notice.sceneBoundingRect()).boundingRect()
    assert notice.isVisible() and window.canvas.viewport().rect().contains(box)
    window.presentation_action.setChecked(False)


# ----- a lesson's "open this head" (the Positions lab's Real head page) ----------------------------------------
def test_a_lessons_head_opens_again_after_the_lesson_came_back_and_always_with_rope(qtbot, window, pack_is_tiny,
                                                                                   tiny_run):
    controller = window.model_heads
    controller.set_rope(False)  # a choice left from earlier: the lesson's head still opens as the model made it
    controller.open_head_reading(LAYER, HEAD, DEFAULT_SENTENCE)
    qtbot.waitUntil(lambda: window.scene.taken_from is not None, timeout=10_000)
    assert window.scene.taken_from.rope and window.model_heads_panel.rope_box.isChecked()
    np.testing.assert_allclose(window.reading().result.weights, tiny_run.attention[LAYER, HEAD], atol=1e-6)
    assert window.open_lesson("positions") and window.scene.taken_from is None
    controller.open_head_reading(LAYER, HEAD, DEFAULT_SENTENCE)  # the same head, its run at hand: opened again
    assert window.scene.taken_from is not None and (window.scene.taken_from.layer, window.scene.taken_from.head) == (
        LAYER, HEAD)


def test_rope_left_as_it_is_when_the_student_keeps_an_edited_head(qtbot, window, pack_is_tiny, tiny_run,
                                                                  monkeypatch):
    panel = open_heads(qtbot, window)
    click_head(qtbot, panel, LAYER, HEAD)
    monkeypatch.setattr(window.documents, "maybe_save_changes", lambda: False)  # "Cancel" to the unsaved question
    click_rope_box(qtbot, panel)
    assert window.scene.taken_from.rope  # the head on the canvas is still the turned one
    assert panel.rope_box.isChecked() and window.model_heads.rope  # and the box says so


def test_a_head_of_another_model_is_not_opened_from_the_packs_model(qtbot, window, pack_is_tiny, tiny_run, tmp_path):
    data = scene_data_for_head(tiny_run, LAYER, HEAD, rope=False)
    path = tmp_path / "other.json"
    other = dataclasses.replace(data, taken_from=dataclasses.replace(data.taken_from, model="Another-Model"))
    save_scene(other, path)
    assert window.documents.open_scene(path)
    window.model_heads.set_rope(True)  # the pack (the tiny model) loads, and is not the head's model
    qtbot.waitUntil(lambda: "Another-Model" in window.statusBar().currentMessage() and
                    "Cannot open" in window.statusBar().currentMessage(), timeout=10_000)
    assert window.scene.taken_from.rope is False and not window.model_heads_panel.rope_box.isChecked()
    assert window.shown_errors == []
