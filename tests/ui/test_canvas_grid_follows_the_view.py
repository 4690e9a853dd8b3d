"""The canvas's grid and its axes through 0 are where the plot's range puts them, after a zoom and after a resize.

The grid is drawn into a picture kept from paint to paint (plot_grid.py), so a drag move does not draw it again; a
picture kept too long would show the old grid under a new range. Read from the canvas's pixels, with its arrows
hidden: on a row between two horizontal grid lines, a pixel where each vertical grid line of the range falls is
darker than the white plot, and one halfway between two of them is white; the same down a column; and the rows
and columns through 0 are the zero lines' grey.
"""

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage

from attn_desktop.model.scene_files import open_reading
from attn_desktop.paths import scene_path
from attn_desktop.ui.canvas.canvas import AttentionCanvas
from attn_desktop.ui.window.startup.app import configure_pyqtgraph

WHITE = 255
ZERO_LINE_AT_MOST = 150  # the zero lines' grey (120), under a grid line or not; the grid alone is 190 or paler


@pytest.fixture
def canvas(qtbot):
    configure_pyqtgraph()
    canvas = AttentionCanvas(open_reading(scene_path("lessons/3_self_attention.json")))
    qtbot.addWidget(canvas)
    canvas.resize(900, 700)
    canvas.show()
    qtbot.waitExposed(canvas)
    qtbot.waitUntil(lambda: not canvas.arranging)
    for arrow in [canvas.output_arrow, *(arrow for arrows in canvas.arrows.values() for arrow in arrows)]:
        arrow.hide()  # the grid alone, on the plot's white
    return canvas


def settled_image(canvas: AttentionCanvas, qtbot) -> QImage:
    qtbot.waitUntil(lambda: not canvas.arranging)
    qtbot.wait(50)
    return canvas.viewport().grab().toImage()


def grid_values(axis, low: float, high: float, length_px: float) -> tuple[list[float], float]:
    """The values pyqtgraph draws a grid line at between LOW and HIGH (every level's), and the finest spacing."""
    spacing = min(step for step, _ in axis.tickSpacing(low, high, length_px))
    first = int(low // spacing) + 1
    return [step * spacing for step in range(first, int(high // spacing) + 1) if low < step * spacing < high], spacing


def pixel(image: QImage, point: QPointF) -> int:
    return image.pixelColor(int(point.x()), int(point.y())).red()


def darkest_near(image: QImage, point: QPointF, along_x: bool) -> int:
    """The darkest of the pixel at POINT and its neighbours across the line (a line a pixel wide lands on one)."""
    x, y = int(point.x()), int(point.y())
    near = [(x + step, y) if along_x else (x, y + step) for step in (-1, 0, 1)]
    return min(image.pixelColor(*place).red() for place in near)


def assert_grid_where_the_range_puts_it(canvas: AttentionCanvas, image: QImage) -> None:
    plot = canvas.qk_plot
    view = plot.getViewBox()
    (x_low, x_high), (y_low, y_high) = view.viewRange()
    size = view.size()
    xs, x_spacing = grid_values(plot.getAxis("bottom"), x_low, x_high, size.width())
    ys, y_spacing = grid_values(plot.getAxis("left"), y_low, y_high, size.height())
    assert len(xs) > 4 and len(ys) > 4

    def on_screen(x: float, y: float) -> QPointF:
        return QPointF(canvas.mapFromScene(view.mapViewToScene(QPointF(x, y))))

    between_rows = ys[len(ys) // 2] + y_spacing / 2  # a row crossed by the vertical lines only
    between_columns = xs[len(xs) // 2] + x_spacing / 2
    for x in xs:
        assert darkest_near(image, on_screen(x, between_rows), along_x=True) < WHITE, f"no grid line at x = {x}"
        if x + x_spacing < x_high:
            assert pixel(image, on_screen(x + x_spacing / 2, between_rows)) == WHITE, f"a line beside x = {x}"
    for y in ys:
        assert darkest_near(image, on_screen(between_columns, y), along_x=False) < WHITE, f"no grid line at y = {y}"
        if y + y_spacing < y_high:
            assert pixel(image, on_screen(between_columns, y + y_spacing / 2)) == WHITE, f"a line beside y = {y}"
    # The axes through 0, where the arrows start (each lies on a grid line, and is darker than any).
    assert darkest_near(image, on_screen(0.0, between_rows), along_x=True) <= ZERO_LINE_AT_MOST
    assert darkest_near(image, on_screen(between_columns, 0.0), along_x=False) <= ZERO_LINE_AT_MOST


def test_the_grid_follows_a_zoom(canvas, qtbot):
    assert_grid_where_the_range_puts_it(canvas, settled_image(canvas, qtbot))
    canvas.qk_plot.getViewBox().setRange(xRange=(-0.73, 1.91), yRange=(-1.37, 1.12), padding=0)
    assert_grid_where_the_range_puts_it(canvas, settled_image(canvas, qtbot))
    canvas.qk_plot.getViewBox().scaleBy((1.7, 1.7))
    assert_grid_where_the_range_puts_it(canvas, settled_image(canvas, qtbot))


def test_the_grid_follows_a_resize(canvas, qtbot):
    before = canvas.qk_plot.getViewBox().size()
    canvas.resize(640, 820)
    image = settled_image(canvas, qtbot)
    assert canvas.qk_plot.getViewBox().size() != before
    assert_grid_where_the_range_puts_it(canvas, image)


def test_the_grid_follows_presentation_mode(canvas, qtbot):
    canvas.set_presentation(True)  # larger tick labels: narrower plots, another range
    assert_grid_where_the_range_puts_it(canvas, settled_image(canvas, qtbot))
    canvas.set_presentation(False)
    assert_grid_where_the_range_puts_it(canvas, settled_image(canvas, qtbot))
