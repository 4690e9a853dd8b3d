"""The weights chart's percentages are painted where the chart says they are (value_label_rects, which the
legibility and overlap tests read), before and after a drag changes them, and say what it says they say."""

import pytest
from PySide6.QtCore import QRectF

from attn_desktop.model import Role
from attn_desktop.model.scene_files import open_reading
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.panels.weights_chart import WeightsChart
from attn_desktop.ui.window.startup.app import configure_pyqtgraph

CAT = 1
# The percentages are dark grey (40, 40, 40), antialiased: their pixels are greys between these (the axes' tick
# marks reaching into the plot are black).
TEXT_GREY_MIN, TEXT_GREY_MAX = 30, 160


@pytest.fixture(autouse=True)
def pyqtgraph_as_in_the_app():
    configure_pyqtgraph()


@pytest.fixture
def chart(qtbot):
    view = WeightsChart(open_reading(scene_path(DEFAULT_SCENE)))
    qtbot.addWidget(view)
    view.resize(520, 360)
    view.show()
    qtbot.waitExposed(view)
    return view


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
