"""The bar behind each weight in the score table, read from the table's pixels: in the key's colour, from
the cell's left edge across the key's share of the cell, in either reading direction, after a drag moved
every weight; none for a masked key or while the weights are veiled."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter

from attn_desktop.model import Role
from attn_desktop.ui.panels.score_table import ScoreTablePanel
from attn_desktop.ui.panels.score_table_bars import BAR_INSET, bar_colour
from attn_desktop.ui.panels.score_table_model import WEIGHT

from tests.support.panel_alone import shown_alone

CAT = 1


@pytest.fixture
def panel(qtbot):
    return shown_alone(qtbot, ScoreTablePanel, 420, 360)


def bar_on(background: QColor) -> QColor:
    """The bar's faint key colour as the screen shows it over BACKGROUND."""
    image = QImage(1, 1, QImage.Format.Format_RGB32)
    image.fill(background)
    painter = QPainter(image)
    painter.fillRect(0, 0, 1, 1, bar_colour())
    painter.end()
    return image.pixelColor(0, 0)


def painted_bars(panel) -> list[int]:
    """Each row's bar as painted: how many pixels of the bar's colour run from its cell's left edge (less the
    bar's margin, none of its colour before it), along the bar's top line (above the percentage's letters)."""
    table = panel.table
    picture = table.viewport().grab().toImage()
    colour = bar_on(table.palette().base().color()).rgb()
    lengths = []
    for row in range(panel.model.rowCount()):
        cell = table.visualRect(panel.model.index(row, WEIGHT))
        across, down = BAR_INSET
        x, y = cell.left() + across + (1 if table.isRightToLeft() else 0), cell.top() + down
        length = 0 if picture.pixel(x - 1, y) != colour else -1  # -1: a bar begun too early
        while length >= 0 and x + length <= cell.right() and picture.pixel(x + length, y) == colour:
            length += 1
        lengths.append(length)
    return lengths


def expected_bars(panel) -> list[int]:
    """Each key's share of its weight cell's width (less the bar's margins), in whole pixels."""
    table, reading = panel.table, panel.reading
    room = table.columnWidth(WEIGHT) - 1 - 2 * BAR_INSET[0]
    weights = reading.result.weights[reading.selected]
    return [round(room * float(weight)) for weight in weights]


@pytest.mark.parametrize("direction", [Qt.LayoutDirection.LeftToRight, Qt.LayoutDirection.RightToLeft])
def test_each_bar_spans_its_keys_share_of_the_cell_after_a_drag(panel, direction):
    panel.setLayoutDirection(direction)
    panel.reading.scene.set_vector(Role.KEY, CAT, [1.6, 0.4])  # every weight moves (a drag's move)

    painted, expected = painted_bars(panel), expected_bars(panel)

    assert max(expected) > 20  # some bars long enough to tell apart
    assert painted == pytest.approx(expected, abs=1), (painted, expected)


def test_no_bar_for_a_masked_key_nor_while_the_weights_are_veiled(panel):
    scene = panel.reading.scene
    scene.set_causal(True)  # sat (row 2) sees the, cat and itself only
    assert painted_bars(panel)[3:] == [0, 0, 0]
    assert all(length > 0 for length in painted_bars(panel)[:3])

    panel.model.veil.set_on(True)
    assert painted_bars(panel) == [0] * scene.n_tokens
