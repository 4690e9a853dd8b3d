"""The weights chart's percentages are painted where the chart says they are (value_label_rects, which the
legibility and overlap tests read), before and after a drag changes them, and say what it says they say."""

import pytest
from PySide6.QtCore import QRectF

from attn_desktop.model import Role
from attn_desktop.ui.panels.weights_chart import WeightsChart

from tests.support.panel_alone import shown_alone

CAT = 1
# The percentages are dark grey (40, 40, 40), antialiased: their pixels are greys between these (the axes' tick
# marks reaching into the plot are black).
TEXT_GREY_MIN, TEXT_GREY_MAX = 30, 160


@pytest.fixture
def chart(qtbot):
    return shown_alone(qtbot, WeightsChart, 520, 360)


def text_pixels_in_the_plot(chart):
    """The grey text pixels inside the bars' area (the axes' names and numbers lie outside it)."""
    image = chart.viewport().grab().toImage()
    ratio = image.devicePixelRatio()
    box = chart.getPlotItem().getViewBox()
    area = chart.viewportTransform().mapRect(box.sceneBoundingRect()).adjusted(2, 2, -2, -2)
    pixels = []
    for y in range(int(area.top()), int(area.bottom())):
        for x in range(int(area.left()), int(area.right())):
            colour = image.pixelColor(int(x * ratio), int(y * ratio))
            red, green, blue = colour.red(), colour.green(), colour.blue()
            if max(red, green, blue) - min(red, green, blue) <= 8 and TEXT_GREY_MIN <= red < TEXT_GREY_MAX:
                pixels.append((x + 0.5, y + 0.5))
    return pixels


def check_painted_where_said(chart):
    rects = chart.value_label_rects()
    assert rects
    pixels = text_pixels_in_the_plot(chart)
    grown = [QRectF(rect).adjusted(-1, -1, 1, 1) for rect in rects]
    assert [point for point in pixels if not any(rect.contains(*point) for rect in grown)] == []
    for rect in rects:  # and each box has its text in it
        assert any(rect.contains(*point) for point in pixels)


def test_the_percentages_are_painted_in_the_boxes_the_chart_reports(chart, qtbot):
    check_painted_where_said(chart)
    assert chart.shown_value_texts()[CAT] == "76%"

    chart.reading.scene.set_vector(Role.KEY, CAT, (0.0, 0.0))  # mat takes the lead: every percentage changes
    qtbot.wait(1)
    check_painted_where_said(chart)
    assert chart.shown_value_texts()[5] == "68%"
