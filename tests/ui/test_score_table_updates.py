"""The score table follows a drag by changing the cells that changed, and a new set of tokens by new rows.

A view told "the whole model was reset" forgets its scroll position's rows, its hover and its selection
and lays every row out again; told which cells changed, it repaints those. These tests read the cells as
a student reads them and listen to what the model tells its views.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF

from attn_desktop.model import Role, explain
from attn_desktop.model.scene_files import open_reading
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.panels.score_table import ScoreTablePanel
from attn_desktop.ui.panels.score_table_model import SCALED, SCORE, WEIGHT

from tests.support.in_the_window import drag_arrow

CAT = 1


class ModelSignals:
    """What a model told its views: each dataChanged as (first row, last row, column) and the resets."""

    def __init__(self, model) -> None:
        self.changed: list[tuple[int, int, int]] = []
        self.resets = 0
        model.dataChanged.connect(self._on_data_changed)
        model.modelReset.connect(self._on_reset)

    def _on_data_changed(self, top_left, bottom_right, roles=()) -> None:
        assert top_left.column() == bottom_right.column()  # one column per signal
        self.changed.append((top_left.row(), bottom_right.row(), top_left.column()))

    def _on_reset(self) -> None:
        self.resets += 1

    def rows_told(self, column: int) -> set[int]:
        return {row for first, last, told in self.changed if told == column for row in range(first, last + 1)}


def cells(panel: ScoreTablePanel, column: int) -> list[str]:
    model = panel.model
    return [model.index(row, column).data() for row in range(model.rowCount())]


def expected_cells(reading) -> dict[int, list[str]]:
    """The selected query's numbers as the table prints them, worked out from the scene."""
    result, query = reading.result, reading.selected
    return {SCORE: [explain.number(score) for score in result.scores[query]],
            SCALED: [explain.number(scaled) for scaled in result.scaled[query]],
            WEIGHT: [explain.percent(weight) for weight in result.weights[query]]}


@pytest.fixture
def reading():
    """The demo's scene looked at with the query its file chose ("sat"), as a window shows it."""
    return open_reading(scene_path(DEFAULT_SCENE))


@pytest.fixture
def scene(reading):
    return reading.scene


@pytest.fixture
def panel(qtbot, reading):
    table = ScoreTablePanel(reading)
    qtbot.addWidget(table)
    table.resize(420, 360)
    table.show()
    qtbot.waitExposed(table)
    return table


def test_moving_a_key_changes_its_row_and_the_weights_without_a_reset(panel, reading, scene):
    signals = ModelSignals(panel.model)
    scores_before = cells(panel, SCORE)

    scene.set_vector(Role.KEY, CAT, [-1.0, 0.5])

    assert signals.resets == 0
    assert {column: cells(panel, column) for column in (SCORE, SCALED, WEIGHT)} == expected_cells(reading)
    assert cells(panel, SCORE)[CAT] != scores_before[CAT]
    # Only cat's score and scaled score changed: the views hear of no other row in those columns.
    assert signals.rows_told(SCORE) == {CAT}
    assert signals.rows_told(SCALED) == {CAT}
    # Every weight moved (the softmax shares them out again): the weight column is told, bars included.
    weights = reading.result.weights[reading.selected]
    assert signals.rows_told(WEIGHT) == set(range(scene.n_tokens))
    bars = [panel.model.bar_weight(row) for row in range(scene.n_tokens)]
    assert bars == pytest.approx(weights.tolist())


def test_a_change_that_leaves_the_numbers_tells_the_views_nothing(panel, scene):
    signals = ModelSignals(panel.model)
    scene.set_vector(Role.KEY, CAT, scene.vectors(Role.KEY)[CAT] + 1e-9)  # too small to show in any cell
    scene.set_vector(Role.KEY, CAT, scene.vectors(Role.KEY)[CAT])  # and no change at all

    assert signals.rows_told(SCORE) == set()
    assert signals.rows_told(SCALED) == set()
    assert signals.resets == 0


def test_choosing_another_query_rewrites_every_row(panel, reading, scene):
    signals = ModelSignals(panel.model)
    reading.select_query(CAT)

    assert {column: cells(panel, column) for column in (SCORE, SCALED, WEIGHT)} == expected_cells(reading)
    assert signals.rows_told(SCORE) == set(range(scene.n_tokens))
    assert signals.resets == 0


def test_the_veil_hides_the_numbers_and_lifting_it_shows_the_new_ones(panel, reading, scene):
    panel.model.veil.set_on(True)
    assert set(cells(panel, SCORE)) == {"?"}
    signals = ModelSignals(panel.model)
    scene.set_vector(Role.KEY, CAT, [0.3, -1.2])  # moved while veiled: every cell still shows "?"
    assert set(cells(panel, SCORE)) == {"?"} and signals.changed == []
    panel.model.veil.set_on(False)

    assert {column: cells(panel, column) for column in (SCORE, SCALED, WEIGHT)} == expected_cells(reading)
    assert all(panel.model.bar_weight(row) is not None for row in range(scene.n_tokens))


def test_masked_keys_read_masked_and_come_back_with_their_numbers(panel, reading, scene):
    scene.set_causal(True)  # sat (row 2) sees the, cat and itself only
    assert cells(panel, WEIGHT)[3:] == ["masked"] * 3
    assert cells(panel, SCALED)[3:] == ["—"] * 3
    assert panel.model.bar_weight(4) is None  # no bar for a masked key

    scene.set_causal(False)
    assert {column: cells(panel, column) for column in (SCORE, SCALED, WEIGHT)} == expected_cells(reading)


def test_new_tokens_give_new_rows(panel, reading, scene):
    signals = ModelSignals(panel.model)
    scene.add_token("dog")
    scene.rename_token(0, "A")

    assert cells(panel, 0) == ["A", "cat", "sat", "on", "the", "mat", "dog"]
    assert {column: cells(panel, column) for column in (SCORE, SCALED, WEIGHT)} == expected_cells(reading)
    assert signals.resets == 2  # one for each new set of tokens

    scene.remove_token(6)
    assert cells(panel, 0) == ["A", "cat", "sat", "on", "the", "mat"]
    assert {column: cells(panel, column) for column in (SCORE, SCALED, WEIGHT)} == expected_cells(reading)


def test_dragging_a_key_in_the_window_updates_the_table_cell_by_cell(window):
    panel = window.score_panel
    signals = ModelSignals(panel.model)
    before = cells(panel, SCORE)

    drag_arrow(window, Role.KEY, CAT, QPointF(-60, 40), steps=6)

    assert signals.resets == 0
    assert signals.changed  # told cell by cell
    assert cells(panel, SCORE)[CAT] != before[CAT]
    assert [cells(panel, SCORE)[row] for row in range(6) if row != CAT] == [before[row] for row in range(6) if row != CAT]
    expected = expected_cells(window.reading())
    assert {column: cells(panel, column) for column in (SCORE, SCALED, WEIGHT)} == expected
    assert np.isclose(sum(panel.model.bar_weight(row) for row in range(6)), 1.0)


def bar_pixels(panel: ScoreTablePanel, row: int) -> int:
    """How many pixels of ROW's weight cell are painted in the bar's colour (the key colour over white)."""
    image = panel.table.viewport().grab().toImage()
    cell = panel.table.visualRect(panel.model.index(row, WEIGHT))
    y = cell.center().y()
    return sum(1 for x in range(cell.left(), cell.right())
               if image.pixelColor(x, y).red() > image.pixelColor(x, y).blue() + 40)  # orange, not grey or white


def test_the_bar_behind_a_weight_follows_it_on_a_drag(panel, scene):
    cat_bar = bar_pixels(panel, CAT)  # 76% of sat's attention
    assert cat_bar > 100

    scene.set_vector(Role.KEY, CAT, [-1.0, 0.5])  # cat turned away: about 0%
    panel.table.viewport().repaint()
    assert bar_pixels(panel, CAT) < cat_bar / 10

    panel.model.veil.set_on(True)  # guessing: no bars at all
    panel.table.viewport().repaint()
    assert [bar_pixels(panel, row) for row in range(scene.n_tokens)] == [0] * scene.n_tokens


def test_the_formula_under_the_table_follows_the_heaviest_key_its_numbers_and_the_language(panel, reading, scene):
    """The worked dot product is remembered between drag moves: a move of its key, or another language, writes
    it anew."""
    row = panel.formula_row()
    query, key = reading.vectors(Role.QUERY)[reading.selected], reading.vectors(Role.KEY)[row].copy()
    assert panel.formula_label.text().endswith(f"= {explain.number(float(np.dot(query, key)))}")
    before = panel.formula_label.text()
    scene.set_vector(Role.KEY, row, key * 1.5)  # longer: still the heaviest, its score grows
    assert panel.formula_row() == row
    moved_key = reading.vectors(Role.KEY)[row]
    assert panel.formula_label.text() != before
    assert panel.formula_label.text().endswith(f"= {explain.number(float(np.dot(query, moved_key)))}")
    scene.set_vector(Role.KEY, row, key)  # back: the first text again
    assert panel.formula_label.text() == before
    from attn_desktop.language import set_language

    set_language("es")
    try:
        scene.redraw_views()
        in_spanish = panel.formula_label.text()
    finally:
        set_language("en")
        scene.redraw_views()
    assert "." not in in_spanish and in_spanish == panel.formula_label.text().replace(".", ",")  # a decimal comma
