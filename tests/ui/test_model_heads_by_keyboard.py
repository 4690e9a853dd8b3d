"""The real model's head grid by keys alone (issue 43, item 1), on the tiny model that stands in for the pack:
Tab reaches the grid from the sentence, the arrow keys move among the heads, K knocks the current one out and
in, Restore all is pressed with the space bar and gives the keys back to the grid, and Enter opens the head."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE

from tests.support.model_heads_window import loaded_heads


def tab_from(qtbot, start, target, presses: int = 60) -> None:
    start.setFocus()
    for _ in range(presses):
        if QApplication.focusWidget() is target:
            return
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {type(target).__name__}")


def test_the_head_grid_by_keys_alone(qtbot, window, pack_is_tiny, reference_model):
    panel = loaded_heads(qtbot, window)
    grid, page = panel.grid, panel.all_heads
    tab_from(qtbot, panel.sentence_box, grid)
    for key in (Qt.Key.Key_Down, Qt.Key.Key_Right, Qt.Key.Key_Right):
        qtbot.keyClick(grid, key)
    assert grid.current == (1, 2)
    assert panel.head_label.text().startswith("Layer 1, head 2")
    assert panel.head_label.text().endswith("(Enter opens it, K knocks it out)")  # the keys say what they do

    qtbot.keyClick(grid, Qt.Key.Key_K)  # knocked out: crossed out, named under the grid
    qtbot.waitUntil(page.knock_label.isVisible)
    assert "L1 H2" in page.knock_label.text()
    tab_from(qtbot, grid, page.restore_button)
    qtbot.keyClick(page.restore_button, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: not page.restore_button.isVisible())
    assert QApplication.focusWidget() is grid  # where the keys were before Restore all, not the next dock's control
    assert grid.current == (1, 2)

    qtbot.keyClick(grid, Qt.Key.Key_Return)
    np.testing.assert_allclose(window.reading().result.weights, reference_model.run(DEFAULT_SENTENCE).attention[1, 2],
                               atol=1e-6)
