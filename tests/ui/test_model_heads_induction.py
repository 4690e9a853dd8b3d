"""Find heads → Induction heads in the real window, with a tiny random model: the model reads random tokens twice
on its own thread, every head is coloured by its score, New sequence and the length change what is read, and
opening a top head puts it on the canvas on that same sequence (its stripe in the matrix)."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.support.in_the_window import matrix_cells

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained import pack
from attn_desktop.model.pretrained.induction import DEFAULT_LENGTH, INDUCTION_THRESHOLD, probe_induction
from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE
from attn_desktop.ui.pretrained.find_heads_panel import INDUCTION
from attn_desktop.ui.pretrained.induction_panel import INDUCTION_RULE

LAYERS, HEADS = 2, 4  # the tiny model's (tiny_model_path, conftest.py)


@pytest.fixture
def find_tab(qtbot, window, monkeypatch, tiny_model_path):
    """Lessons → Heads of a Real Model… (the tiny model in the pack's place), then the Find heads tab."""
    monkeypatch.setattr(pack, "find_pack_model", lambda: tiny_model_path)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    panel = window.model_heads_panel
    qtbot.waitUntil(lambda: panel.run is not None and panel.run.sentence == DEFAULT_SENTENCE, timeout=10_000)
    tab_bar = panel.tabs.tabBar()
    qtbot.mouseClick(tab_bar, Qt.MouseButton.LeftButton, pos=tab_bar.tabRect(1).center())
    qtbot.waitUntil(panel.find_panel.isVisible)
    return panel


def choose_induction(qtbot, find):
    """Open the Find box's list and click "Induction heads"."""
    box = find.find_box
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    popup = box.view()
    qtbot.waitUntil(popup.isVisible)
    qtbot.wait(QApplication.doubleClickInterval() + 50)  # a combo box ignores a release this soon after opening
    item = popup.visualRect(box.model().index(INDUCTION, 0)).center()
    qtbot.mouseMove(popup.viewport(), item)
    qtbot.mouseClick(popup.viewport(), Qt.MouseButton.LeftButton, pos=item)


def wait_for_probe(qtbot, induction, length, seed):
    qtbot.waitUntil(lambda: induction.probe is not None and (induction.probe.length, induction.probe.seed)
                    == (length, seed), timeout=10_000)


def listed(head_list):
    return [head_list.item(row).text() for row in range(head_list.count())]


def expected_top(probe):
    return [f"Layer {s.layer}, head {s.head} \u2014 {100 * s.score:.1f} %"
            + (" \u2713" if s.score >= INDUCTION_THRESHOLD else "") for s in probe.top()]


@pytest.mark.qt_log_ignore("This plugin does not support grabbing the keyboard")  # the popup, offscreen
def test_choosing_induction_reads_random_tokens_twice_and_scores_every_head(qtbot, window, find_tab, reference_model):
    find, induction = find_tab.find_panel, find_tab.induction_panel
    assert not induction.isVisible()
    choose_induction(qtbot, find)
    wait_for_probe(qtbot, induction, DEFAULT_LENGTH, 0)
    assert induction.isVisible() and not find.linking_list.isVisible()
    assert INDUCTION_RULE == induction.rule_label.text() and "at least 50%" in INDUCTION_RULE
    assert induction.seed_label.text() == "seed 0" and induction.length_box.value() == DEFAULT_LENGTH
    expected = probe_induction(reference_model, DEFAULT_LENGTH, 0)
    assert induction.probe.token_ids == expected.token_ids
    assert listed(induction.top_list) == expected_top(expected)[:LAYERS * HEADS]  # the tiny model has 8 heads
    # Every head of the grid is one square, coloured by its score (dark 0 ... yellow 1).
    grid = induction.score_grid
    assert grid.shape == (LAYERS, HEADS)
    for layer, head in np.ndindex(LAYERS, HEADS):
        image = grid.image_of(layer, head)
        assert (image.width(), image.height()) == (1, 1)
        assert image.pixelIndex(0, 0) == round(expected.scores[layer, head] * 254)
    assert grid.describe(0, 1) == (f"Layer 0, head 1: induction score {100 * expected.scores[0, 1]:.0f} %; "
                                   "shares keys and values with heads 0\u20131 (key/value head 0)")
    assert induction.feeding_label.text()  # which layers hold previous-token heads before them (or that none do)
    assert window.shown_errors == []


@pytest.mark.qt_log_ignore("This plugin does not support grabbing the keyboard")
def test_new_sequence_and_another_length_read_again(qtbot, window, find_tab, reference_model):
    find, induction = find_tab.find_panel, find_tab.induction_panel
    choose_induction(qtbot, find)
    wait_for_probe(qtbot, induction, DEFAULT_LENGTH, 0)
    first_ids = induction.probe.token_ids
    qtbot.mouseClick(induction.new_button, Qt.MouseButton.LeftButton)
    assert induction.seed_label.text() == "seed 1"
    wait_for_probe(qtbot, induction, DEFAULT_LENGTH, 1)
    assert induction.probe.token_ids != first_ids
    assert listed(induction.top_list) == expected_top(probe_induction(reference_model, DEFAULT_LENGTH, 1))
    box = induction.length_box
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(box, "12")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    wait_for_probe(qtbot, induction, 12, 1)
    assert len(induction.probe.token_ids) == 24
    assert "read 24 tokens: 12 random ones twice" in induction.sequence_label.text()
    assert listed(induction.top_list) == expected_top(probe_induction(reference_model, 12, 1))


@pytest.mark.qt_log_ignore("This plugin does not support grabbing the keyboard")
def test_opening_a_top_head_puts_it_on_the_canvas_on_the_repeated_sequence(qtbot, window, find_tab, reference_model):
    find, induction = find_tab.find_panel, find_tab.induction_panel
    choose_induction(qtbot, find)
    wait_for_probe(qtbot, induction, DEFAULT_LENGTH, 0)
    first = induction.top_list.item(0)
    layer, head = first.data(Qt.ItemDataRole.UserRole)
    induction.top_list.scrollToItem(first)
    qtbot.mouseClick(induction.top_list.viewport(), Qt.MouseButton.LeftButton,
                     pos=induction.top_list.visualItemRect(first).center())
    assert f"Layer {layer}, head {head}" in window.windowTitle()
    run = reference_model.run_token_ids(probe_induction(reference_model, DEFAULT_LENGTH, 0).token_ids)
    assert window.scene.n_queries == 2 * DEFAULT_LENGTH
    weights = run.attention[layer, head]
    np.testing.assert_allclose(window.reading().result.weights, weights, atol=1e-6)
    cells = matrix_cells(window)
    assert len(cells) == 2 * DEFAULT_LENGTH
    for i in range(DEFAULT_LENGTH):  # the stripe: token i of the second copy on the token after its first
        assert float(cells[DEFAULT_LENGTH + i][i + 1]) == pytest.approx(weights[DEFAULT_LENGTH + i, i + 1], abs=0.006)
    # A click on the score grid opens a head too.
    grid = induction.score_grid
    grid.setFocus()
    target = grid.cell_rect(1, 3).center()
    find_tab.find_scroll.ensureVisible(target.x(), grid.mapTo(find, target).y())  # the grid is below the list
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, pos=target)
    assert "Layer 1, head 3" in window.windowTitle()
    np.testing.assert_allclose(window.reading().result.weights, run.attention[1, 3], atol=1e-6)
    assert window.shown_errors == []
