"""Scenes whose vectors have more than two numbers: everything computes, the canvas says what it draws."""

import json

import numpy as np
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QInputDialog

from attn_desktop.model import Role

from tests.support.in_the_window import drag_arrow, matrix_cells, settle_layout, table_column

WIDE = {
    "title": "Three numbers each", "tokens": ["I", "like", "tea"],
    "queries": [[1, 0, 0.5], [0, 1, 0], [0.5, 0.5, 1]], "keys": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
    "values": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "selected": 2,
}


def test_a_three_dimensional_scene_and_choosing_what_the_canvas_draws(qtbot, window, tmp_path, monkeypatch):
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(WIDE), encoding="utf-8")
    assert window.documents.open_scene(path)
    assert len(matrix_cells(window)) == 3 and table_column(window, 0) == ["I", "like", "tea"]
    assert "dimensions 1 and 2 of 3" in window.canvas.qk_plot.titleLabel.text
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("1, 3", True))
    window.coordinates.choose_dims()
    assert window.canvas.dims == (0, 2)
    assert "dimensions 1 and 3 of 3" in window.canvas.qk_plot.titleLabel.text
    assert window.canvas.arrows[Role.KEY][2].tip.toTuple() == (0.0, 1.0)  # tea's key (0, 0, 1)
    settle_layout(qtbot, window)  # the canvas re-framed itself for the new dimensions
    before = window.reading().vectors(Role.KEY)[2].copy()
    drag_arrow(window, Role.KEY, 2, QPointF(30, 0))
    after = window.reading().vectors(Role.KEY)[2]
    assert after[0] > before[0] and after[1] == before[1]  # the hidden number is untouched
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("2, 2", True))
    window.coordinates.choose_dims()
    assert "two different dimensions" in window.shown_errors[-1][1]
    np.testing.assert_allclose(window.reading().result.weights.sum(axis=1), 1.0)
