"""The weights chart as painted: each bar reaches its weight, in the keys' colour, centred where its key's
column is (and beside the guess once revealed), and the grid crosses the whole plot after the chart is
resized or its font grows (its axes keep their area between such changes: chart_axes.py). Read from the
chart's pixels, not from what it holds."""

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QFont, QImage

from attn_desktop.model import Role
from attn_desktop.ui.palette import ROLE_COLORS
from attn_desktop.ui.panels.weights_chart import BAR_WIDTH, PAIR_OFFSET, PAIR_WIDTH, ChartPhase, WeightsChart

from tests.support.panel_alone import shown_alone

CAT = 1
KEY_FILL = QColor(ROLE_COLORS[Role.KEY])
TALL_ENOUGH_PX = 16  # a shorter bar is hidden halfway up by the names axis's tick mark
WHITE = QColor(255, 255, 255)


@pytest.fixture
def chart(qtbot):
    return shown_alone(qtbot, WeightsChart, 520, 360)


def on_screen(chart, x, y) -> QPointF:
    """The point (x, y) of the chart's data, in its viewport's pixels."""
    box = chart.getPlotItem().getViewBox()
    return QPointF(chart.mapFromScene(box.mapViewToScene(QPointF(x, y))))


def painted(chart) -> QImage:
    image = chart.viewport().grab().toImage()
    assert image.devicePixelRatio() == 1
    return image


def is_bar(colour: QColor) -> bool:
    """The keys' fill or the bars' darker edge, or either under a light grid line: the keys' hue, strong."""
    return abs(colour.hsvHue() - KEY_FILL.hsvHue()) <= 4 and colour.hsvSaturation() > 200

def bar_as_painted(image: QImage, inside: QPointF, floor_y: int) -> tuple[int, int, int]:
    """The top row, and the left and right columns halfway up, of the bar standing on FLOOR_Y over INSIDE (off
    its centre, where the names' axis has a tick mark)."""
    x = round(inside.x())
    top = floor_y
    while top > 0 and is_bar(image.pixelColor(x, top - 1)):
        top -= 1
    middle = (top + floor_y) // 2
    left = right = x
    while is_bar(image.pixelColor(left - 1, middle)):
        left -= 1
    while is_bar(image.pixelColor(right + 1, middle)):
        right += 1
    return top, left, right


def check_bars_reach_their_weights(chart, centres, width):
    image = painted(chart)
    floor_y = round(on_screen(chart, 0, 0).y()) - 1
    bar_width_px = on_screen(chart, width, 0).x() - on_screen(chart, 0, 0).x()
    tall = 0
    for centre, weight in zip(centres, chart.reading.selected_weights, strict=True):
        top_expected = on_screen(chart, centre, weight).y()
        if floor_y - top_expected < TALL_ENOUGH_PX:
            continue
        tall += 1
        top, left, right = bar_as_painted(image, on_screen(chart, centre + width / 4, 0), floor_y)
        assert abs(top - top_expected) <= 1.5, (centre, weight)
        assert abs((right - left + 1) - bar_width_px) <= 2, (centre, weight)
        assert abs((left + right + 1) / 2 - on_screen(chart, centre, 0).x()) <= 1.5, (centre, weight)
    assert tall >= 2


def test_each_bar_is_painted_up_to_its_weight_centred_on_its_key(chart, qtbot):
    n = chart.reading.n_tokens
    check_bars_reach_their_weights(chart, np.arange(n), BAR_WIDTH)

    chart.reading.scene.set_vector(Role.KEY, CAT, (0.0, 0.0))  # mat takes the lead: every bar changes
    qtbot.wait(1)
    check_bars_reach_their_weights(chart, np.arange(n), BAR_WIDTH)


def test_revealed_the_real_bars_stand_right_of_each_keys_centre_narrower(chart, qtbot):
    n = chart.reading.n_tokens
    chart.show_phase(ChartPhase.REVEALED, np.full(n, 1 / n))
    qtbot.wait(1)
    check_bars_reach_their_weights(chart, np.arange(n) + PAIR_OFFSET, PAIR_WIDTH)

    chart.show_phase(ChartPhase.WEIGHTS)
    qtbot.wait(1)
    check_bars_reach_their_weights(chart, np.arange(n), BAR_WIDTH)


def grid_row_crosses_the_plot(chart) -> bool:
    """Whether the grid line at weight 0.4 is painted from the plot's left edge to its right edge."""
    image = painted(chart)
    n = chart.reading.n_tokens
    y = round(on_screen(chart, 0, 0.4).y())
    row = [y + offset for offset in (-1, 0, 1) if image.pixelColor(round(on_screen(chart, -0.55, 0.4).x()), y + offset) != WHITE]
    assert row, "no grid line at 0.4 by the plot's left edge"
    right_edge = round(on_screen(chart, n - 0.45, 0.4).x())
    return image.pixelColor(right_edge, row[0]) != WHITE


def test_the_grid_crosses_the_whole_plot_after_a_resize_and_a_larger_font(chart, qtbot):
    assert grid_row_crosses_the_plot(chart)
    chart.resize(760, 360)  # wider: the grid must reach the new right edge
    qtbot.waitUntil(lambda: chart.viewport().width() > 700)
    qtbot.wait(20)
    assert grid_row_crosses_the_plot(chart)
    font = QFont(chart.font())
    font.setPointSizeF(font.pointSizeF() * 1.6)  # as presentation mode does: the axes grow, the plot moves
    chart.setFont(font)
    qtbot.wait(20)
    assert grid_row_crosses_the_plot(chart)
    chart.resize(420, 300)
    qtbot.wait(20)
    assert grid_row_crosses_the_plot(chart)
    for name in ("left", "bottom"):  # and what the axes say they cover is what pyqtgraph works out now
        axis = chart.getPlotItem().getAxis(name)
        assert axis.boundingRect() == pg.AxisItem.boundingRect(axis)
