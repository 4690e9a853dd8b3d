"""Pictures of the canvas and the matrix for a handout: PNG, SVG and the clipboard."""

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QGraphicsItem

from attn_desktop.ui.document import handout_image
from attn_desktop.ui.document.handout_image import copy_image_to_clipboard, handout_size, render_png, render_svg
from attn_desktop.ui.panels.matrix_cells import cell_colours, viridis_table

SVG = "{http://www.w3.org/2000/svg}"


def distinct_colours(image: QImage) -> int:
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(image.constBits(), dtype=np.uint32, count=image.bytesPerLine() * image.height() // 4)
    return len(np.unique(pixels.reshape(image.height(), -1)[:, : image.width()]))


def test_png_at_scale_2_is_twice_the_on_screen_size(window, tmp_path):
    render_png(window, tmp_path / "x1.png", scale=1)
    render_png(window, tmp_path / "x2.png", scale=2)
    one, two = QImage(str(tmp_path / "x1.png")), QImage(str(tmp_path / "x2.png"))
    on_screen = window.canvas.width() + window.matrix_view.width()
    assert abs(one.width() - on_screen) <= handout_image.GAP
    assert (two.width(), two.height()) == (2 * one.width(), 2 * one.height())
    assert one.height() >= max(window.canvas.height(), window.matrix_view.height())
    assert distinct_colours(two) > 50


def test_the_picture_shows_the_matrix_beside_the_canvas(window, tmp_path):
    render_png(window, tmp_path / "x.png", scale=1)
    image = QImage(str(tmp_path / "x.png"))
    # The matrix's cells, in the colours of its weights, lie right of the canvas.
    left = window.canvas.width() + handout_image.GAP
    right = QImage(image.copy(left, 0, image.width() - left, image.height())).convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(right.constBits(), dtype=np.uint32, count=right.bytesPerLine() * right.height() // 4)
    result = window.reading().result
    cell_colours_shown = {int(colour) & 0xFFFFFF for colour in cell_colours(result, viridis_table(), veiled=False).ravel()}
    assert np.count_nonzero(np.isin(pixels & 0xFFFFFF, list(cell_colours_shown))) > 100 * len(cell_colours_shown)


def test_svg_has_the_title_line_and_follows_the_settings(window, tmp_path):
    render_svg(window, tmp_path / "x.svg")
    root = ET.parse(tmp_path / "x.svg").getroot()
    assert root.tag == f"{SVG}svg"
    assert root.findtext(f"{SVG}title") == "The cat sat on the mat — softmax(QKᵀ/√d_k)"
    assert "The cat sat on the mat — softmax(QKᵀ/√d_k)" in "".join(root.itertext())
    window.scene.set_scale(False)
    window.scene.set_causal(True)
    render_svg(window, tmp_path / "x.svg")
    root = ET.parse(tmp_path / "x.svg").getroot()
    assert root.findtext(f"{SVG}title") == "The cat sat on the mat — softmax(QKᵀ + causal mask)"


def test_copy_puts_the_picture_on_the_clipboard(window):
    QApplication.clipboard().clear()
    copy_image_to_clipboard(window)
    image = QApplication.clipboard().image()
    assert not image.isNull()
    assert image.size() == handout_size(window)


def test_a_failed_write_keeps_the_old_file_and_leaves_no_debris(window, tmp_path, monkeypatch):
    folder = tmp_path / "handouts"
    folder.mkdir()
    target = folder / "handout.png"
    target.write_bytes(b"last week's handout")

    def full_disk(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(handout_image.os, "replace", full_disk)
    with pytest.raises(OSError):
        render_png(window, target)
    assert target.read_bytes() == b"last week's handout"
    assert os.listdir(folder) == ["handout.png"]


def test_exporting_keeps_the_canvas_axes_cached_for_fast_drags(window, tmp_path):
    axis = window.canvas.qk_plot.getAxis("left")
    render_svg(window, tmp_path / "x.svg")
    assert axis.cacheMode() == QGraphicsItem.CacheMode.DeviceCoordinateCache


# ----- the SVG drawn by other renderers than Qt's own ------------------------------------------------
# librsvg (rsvg-convert, also what many viewers and converters use) ignored the plots' one-pixel axis
# lines' vector-effect and drew them a plot unit wide: grey bands along both axes. It also smoothed the
# matrix's cells, a one-pixel-per-cell bitmap enlarged, into a blur.

def render_with_qt(svg_path, size):
    from PySide6.QtGui import QPainter
    from PySide6.QtSvg import QSvgRenderer

    image = QImage(size, QImage.Format.Format_RGB32)
    image.fill(0xFFFFFFFF)
    painter = QPainter(image)
    QSvgRenderer(str(svg_path)).render(painter)
    painter.end()
    return image


def render_with_rsvg(svg_path, size):
    rsvg = shutil.which("rsvg-convert")
    if rsvg is None:
        pytest.skip("rsvg-convert is not installed")
    png = svg_path.with_suffix(".rsvg.png")
    subprocess.run([rsvg, "--width", str(size.width()), "--height", str(size.height()), "--background-color",
                    "white", "-o", str(png), str(svg_path)], check=True, timeout=60)
    image = QImage(str(png))
    assert image.size() == size
    return image.convertToFormat(QImage.Format.Format_RGB32)


RENDERERS = [pytest.param(render_with_qt, id="qt"), pytest.param(render_with_rsvg, id="rsvg")]


def exported_svg(window, tmp_path, renderer):
    path = tmp_path / "handout.svg"
    render_svg(window, path)
    size = handout_size(window)
    return renderer(path, size)


def rgb(image, x, y):
    colour = image.pixelColor(int(x), int(y))
    return np.array([colour.red(), colour.green(), colour.blue()])


def picture_point(window, plot, x, y):
    """Where the plot's point (x, y) lands in the picture: the canvas is at its left, under the title."""
    from PySide6.QtCore import QPointF

    scene_point = plot.getViewBox().mapViewToScene(QPointF(x, y))
    on_canvas = window.canvas.mapFromScene(scene_point)
    return on_canvas.x(), on_canvas.y() + handout_image.title_height(window)


@pytest.mark.parametrize("renderer", RENDERERS)
def test_svg_draws_no_grey_band_along_the_axes(window, tmp_path, renderer):
    image = exported_svg(window, tmp_path, renderer)
    for plot in (window.canvas.qk_plot, window.canvas.vo_plot):
        (_, right), (bottom, _) = plot.getViewBox().viewRange()
        # Where the bands were: up to half a unit either side of each axis, away from the arrows.
        beside_y_axis = [picture_point(window, plot, x, y) for x in np.linspace(-0.45, 0.45, 10) if abs(x) > 0.05
                         for y in np.linspace(bottom + 0.2, bottom + 1.2, 8)]
        beside_x_axis = [picture_point(window, plot, x, y) for x in np.linspace(right - 0.6, right - 0.1, 6)
                         for y in np.linspace(-0.45, 0.45, 10) if abs(y) > 0.05]
        for points in (beside_y_axis, beside_x_axis):
            brightness = [rgb(image, x, y).mean() for x, y in points]
            assert np.median(brightness) > 225, f"a grey band along an axis of {plot.titleLabel.text}"
        axis_x, axis_y = picture_point(window, plot, 0, bottom + 0.5)
        assert min(rgb(image, axis_x + dx, axis_y).mean() for dx in (-1, 0, 1)) < 200  # the axis line is there


@pytest.mark.parametrize("renderer", RENDERERS)
def test_svg_draws_each_matrix_cell_in_one_colour_with_sharp_edges(window, tmp_path, renderer):
    from attn_desktop.ui.panels.matrix_cells import cell_colours

    image = exported_svg(window, tmp_path, renderer)
    matrix = window.matrix_view
    colours = cell_colours(matrix.reading.result, matrix._lut, matrix.veil.on)
    left = window.canvas.width() + handout_image.GAP
    top = handout_image.title_height(window)
    rows, columns = colours.shape
    for row in range(rows):
        if abs(row - matrix.reading.selected) <= 1:
            continue  # the chosen row's outline
        for column in range(columns):
            cell = matrix.cell_rect(row, column).translated(left, top)
            expected = np.array([(int(colours[row, column]) >> shift) & 0xFF for shift in (16, 8, 0)])
            inset = 3  # inside the cell, near its four corners (its number is in the middle)
            corners = [(cell.left() + inset, cell.top() + inset), (cell.right() - inset, cell.top() + inset),
                       (cell.left() + inset, cell.bottom() - inset), (cell.right() - inset, cell.bottom() - inset)]
            for x, y in corners:
                assert np.abs(rgb(image, x, y) - expected).max() <= 4, (row, column, x, y)
            if column + 1 < columns:  # across the border with the next cell: a step, not a ramp
                border = cell.right()
                right_expected = np.array([(int(colours[row, column + 1]) >> shift) & 0xFF for shift in (16, 8, 0)])
                y = cell.top() + inset
                assert np.abs(rgb(image, border - 2, y) - expected).max() <= 4, (row, column)
                assert np.abs(rgb(image, border + 2, y) - right_expected).max() <= 4, (row, column)


# ----- the PNG: the whole title, and nothing meant only for the screen --------------------------------

def dark(image, left, top, right, bottom):
    """Which of the rectangle's pixels are ink (dark), as a boolean array of rows and columns."""
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(image.constBits(), dtype=np.uint32, count=image.bytesPerLine() * image.height() // 4)
    pixels = pixels.reshape(image.height(), -1)[int(top):int(bottom), int(left):int(right)]
    grey = (((pixels >> 16) & 0xFF) + ((pixels >> 8) & 0xFF) + (pixels & 0xFF)) / 3
    return grey < 128


def test_the_png_shows_the_whole_title_in_a_classroom_font(window, tmp_path):
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QFont, QFontMetricsF

    from attn_desktop.ui.window.startup.app import settle

    app = QApplication.instance()
    normal = app.font()
    big = QFont(normal)
    big.setPointSizeF(normal.pointSizeF() * 1.6)  # presentation mode's type on a full-HD projector
    app.setFont(big)
    try:
        settle(window)
        window.scene.title = "Which earlier word each word of a sentence the class wrote on the board attends to"
        render_png(window, tmp_path / "x.png", scale=1)
        image = QImage(str(tmp_path / "x.png"))
        title = handout_image.handout_title(window)
        lines = QFontMetricsF(handout_image._title_font(window)).boundingRect(
            QRectF(0, 0, image.width() - 12, 1e6), Qt.TextFlag.TextWordWrap, title)
        above_the_panels = image.height() - max(window.canvas.height(), window.matrix_view.height())
        assert above_the_panels >= lines.height()  # room for every line of the title, wrapped to the picture
        ink = dark(image, 0, 0, image.width(), above_the_panels)
        assert not ink[0].any()  # nothing cut at the top
        assert not ink[:, -4:].any()  # nor at the right edge
        rows = np.nonzero(ink.any(axis=1))[0]
        assert rows.max() - rows.min() >= 0.8 * lines.height()  # all its lines are drawn
    finally:
        app.setFont(normal)
        settle(window)


def test_the_png_leaves_out_the_point_at_a_cell_hint(window, tmp_path):
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFontMetricsF

    from attn_desktop.ui.panels.matrix_layout import title_font
    from attn_desktop.ui.window.startup.app import settle

    for number in range(10):
        window.scene.add_token(f"word{number}")
    settle(window)
    matrix = window.matrix_view
    assert matrix.shown_note() == "Point at a cell to read its number"  # on screen, the hint is there
    layout = matrix._current_layout()
    line = QFontMetricsF(title_font(matrix.font())).height()
    hint = QRectF(4, 4 + len(layout.title_lines) * line, matrix.width() - 8, layout.line_height)
    hint.adjust(0, 2, 0, 0)  # clear of the title's descenders
    on_screen = matrix.grab().toImage()
    assert dark(on_screen, hint.left(), hint.top(), hint.right(), hint.bottom()).sum() > 20

    render_png(window, tmp_path / "x.png", scale=1)
    image = QImage(str(tmp_path / "x.png"))
    left = window.canvas.width() + handout_image.GAP
    top = image.height() - max(window.canvas.height(), matrix.height())
    in_picture = hint.translated(left, top)
    assert not dark(image, in_picture.left(), in_picture.top(), in_picture.right(), in_picture.bottom()).any()
    title = matrix.rect().adjusted(4, 4, -4, 0)  # the matrix's own title is still there, above it
    assert dark(image, left + title.left(), top + 4, left + title.right(), top + hint.top()).sum() > 20
    assert matrix.hints_shown()  # and the screen keeps its hint


# ----- the canvas's grab rings: the keys' choice and the pointer's, the screen's, never the paper's ----------

def exported_png(window, tmp_path, monkeypatch, name):
    """File → Export → Picture as PNG… at the scale of the screen, as the teacher makes a handout: read back."""
    from PySide6.QtWidgets import QFileDialog, QInputDialog

    path = tmp_path / name
    monkeypatch.setattr(QInputDialog, "getDouble", lambda *a, **k: (1.0, True))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.menu_actions["export_png_action"].trigger()
    return QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)


def pixels_apart(image, other):
    """How many pixels of two pictures of one size differ."""
    def rows(picture):
        picture = picture.convertToFormat(QImage.Format.Format_RGB32)
        pixels = np.frombuffer(picture.constBits(), dtype=np.uint32, count=picture.bytesPerLine() * picture.height() // 4)
        return pixels.reshape(picture.height(), -1)[:, : picture.width()]

    assert image.size() == other.size()
    return int(np.count_nonzero(rows(image) != rows(other)))


def canvas_on_screen(window):
    from attn_desktop.ui.window.startup.app import settle

    settle(window)
    return window.canvas.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)


def test_the_png_leaves_out_the_ring_of_the_arrow_chosen_with_tab(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtCore import Qt

    from attn_desktop.model import Role

    canvas = window.canvas
    canvas.setFocus()
    unringed_on_screen = canvas_on_screen(window)
    unringed = exported_png(window, tmp_path, monkeypatch, "no-arrow-chosen.png")
    qtbot.keyClick(canvas, Qt.Key.Key_Tab)  # Tab chooses q·The for the arrow keys: its tip is ringed
    assert canvas.drags.focused_arrow == (Role.QUERY, 0)
    ringed_on_screen = canvas_on_screen(window)
    assert pixels_apart(ringed_on_screen, unringed_on_screen) > 20

    # The handout shows the scene: pixel for pixel the picture with no arrow chosen.
    assert pixels_apart(exported_png(window, tmp_path, monkeypatch, "q-the-chosen.png"), unringed) == 0
    window.menu_actions["copy_image_action"].trigger()
    assert pixels_apart(QApplication.clipboard().image(), unringed) == 0
    # The teacher's choice is left as it was: the same arrow for the keys, its ring still on the screen.
    assert canvas.hasFocus() and canvas.drags.focused_arrow == (Role.QUERY, 0)
    assert pixels_apart(canvas_on_screen(window), ringed_on_screen) == 0

