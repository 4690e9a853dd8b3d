"""Every panel of the default scene shows the reference demo's numbers."""

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt

from attn_desktop.model import Role

from tests.support.in_the_window import matrix_cells, table_column, table_header
from tests.support.seed_numbers import MATRIX, SAT_CAT_FORMULA, SAT_SCALED, SAT_SCORES, SAT_WEIGHTS, SHAPES, TOKENS


def test_score_table(window):
    assert table_column(window, 0) == TOKENS
    assert table_column(window, 1) == SAT_SCORES
    assert table_column(window, 2) == SAT_SCALED
    assert table_column(window, 3) == SAT_WEIGHTS
    assert [table_header(window, c) for c in range(4)] == ["Key", "q · k", "÷ √2", "Softmax weight"]
    # With nothing pointed at, the formula explains the key with the most weight.
    assert window.score_panel.formula_label.text() == SAT_CAT_FORMULA


def test_output_panel(window):
    panel = window.output_panel
    assert panel.query_label.text() == "sat"
    assert panel.attends_label.text() == "cat, 76%"
    assert panel.vector_label.text() == "(1.54, 0.48)"
    assert panel.formula_label.text() == "output = Σ weight × v = (1.54, 0.48)"
    assert panel.blend_label.text().startswith("= 0.76 × v_cat + 0.17 × v_mat + 0.06 × v_sat")


def test_attention_matrix(window):
    assert matrix_cells(window) == MATRIX
    assert "softmax(QKᵀ/√d_k)" in window.matrix_view.title()


def test_weights_chart(window):
    heights = window.weights_chart.shown_heights()
    assert [round(h * 100) for h in heights] == [0, 76, 6, 1, 0, 17]
    assert [label.toPlainText() for label in window.weights_chart.value_labels] == SAT_WEIGHTS


def test_shapes_panel(window):
    assert window.shapes_panel.text().startswith(SHAPES)


def test_canvas_draws_every_vector_and_the_output(window):
    canvas = window.canvas
    assert [a.label for a in canvas.arrows[Role.QUERY]] == [f"q·{t}" for t in TOKENS]
    assert [a.label for a in canvas.arrows[Role.KEY]] == [f"k·{t} {w}" for t, w in zip(TOKENS, SAT_WEIGHTS)]
    assert canvas.arrows[Role.KEY][1].tip.toTuple() == (2.2, 1.0)
    assert canvas.output_arrow.label == "out·sat"
    assert np.round(canvas.output_arrow.tip.toTuple(), 2).tolist() == [1.54, 0.48]
    # More weight draws a key more boldly: cat (76%) stands out over The (0%).
    assert canvas.arrows[Role.KEY][1].emphasis > canvas.arrows[Role.KEY][0].emphasis + 0.5


def test_window_title_names_the_scene(window):
    assert window.windowTitle() == "The cat sat on the mat — Attention Desktop"


def toolbar_button(window, action):
    return window.toolbar_boxes[action]  # the check box standing for the action


def test_turning_scaling_off_updates_header_matrix_and_numbers(qtbot, window):
    button = toolbar_button(window, window.scale_action)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(8, button.height() // 2))
    assert not window.scene.scale
    assert table_header(window, 2) == "÷ 1 (off)"
    assert window.matrix_view.title().endswith("softmax(QKᵀ)")
    assert table_column(window, 2) == SAT_SCORES  # nothing divides the scores now
    # Without the √2 the softmax is sharper: softmax of the raw scores
    # -2.52, 5.88, 2.28, -0.96, -3.48, 3.78 gives cat 87%, mat 11%.
    assert table_column(window, 3) == ["0%", "87%", "2%", "0%", "0%", "11%"]
    assert window.output_panel.attends_label.text() == "cat, 87%"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(8, button.height() // 2))
    assert table_column(window, 3) == SAT_WEIGHTS
    assert button.isChecked()


def test_causal_mask_shows_masked_keys_as_masked(qtbot, window):
    button = toolbar_button(window, window.causal_action)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(8, button.height() // 2))
    assert window.scene.causal
    weights = table_column(window, 3)
    assert weights[3:] == ["masked", "masked", "masked"]
    assert table_column(window, 2)[3:] == ["—", "—", "—"]
    assert sum(int(w.rstrip("%")) for w in weights[:3]) == pytest.approx(100, abs=1)
    cells = matrix_cells(window)
    assert cells[0] == ["1.00", "—", "—", "—", "—", "—"]
    assert cells[5][5] != "—"
    assert "causal mask" in window.matrix_view.title()
    assert window.canvas.arrows[Role.KEY][4].label == "k·the masked"
    assert [label.toPlainText() for label in window.weights_chart.value_labels][3:] == ["masked"] * 3
