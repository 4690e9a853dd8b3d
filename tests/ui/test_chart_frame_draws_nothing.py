"""The weights chart's plot and view box are flagged as drawing nothing of their own (chart_frame.py), so
that Qt skips them in each repaint: the chart must look exactly as it does when Qt paints them, in the weights
phase and while a guess is shown."""

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QGraphicsItem

from attn_desktop.model.scene_files import open_reading
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.panels.weights_chart import ChartPhase, WeightsChart
from attn_desktop.ui.window.startup.app import configure_pyqtgraph

NO_CONTENTS = QGraphicsItem.GraphicsItemFlag.ItemHasNoContents


@pytest.fixture(autouse=True)
def pyqtgraph_as_in_the_app():
    configure_pyqtgraph()


def frame_items(chart: WeightsChart) -> list[QGraphicsItem]:
    plot: pg.PlotItem = chart.getPlotItem()
    return [plot, plot.getViewBox()]


def painted(chart: WeightsChart) -> QImage:
    return chart.grab().toImage()


@pytest.mark.parametrize("phase", [ChartPhase.WEIGHTS, ChartPhase.REVEALED])
def test_the_chart_looks_the_same_as_when_its_frame_is_painted(qtbot, phase):
    chart = WeightsChart(open_reading(scene_path(DEFAULT_SCENE)))
    qtbot.addWidget(chart)
    chart.resize(520, 360)
    chart.show()
    qtbot.waitExposed(chart)
    chart.show_phase(phase)
    assert all(item.flags() & NO_CONTENTS for item in frame_items(chart))
    skipped = painted(chart)
    for item in frame_items(chart):
        item.setFlag(NO_CONTENTS, False)
    assert painted(chart) == skipped
