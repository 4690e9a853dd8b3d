"""Pictures of the canvas and the matrix for a handout: PNG, SVG and the clipboard."""

import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QGraphicsItem

from attn_desktop.ui.document import handout_image
from attn_desktop.ui.document.handout_image import copy_image_to_clipboard, handout_size, render_png, render_svg

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
    # The selected row of the matrix is outlined in amber; it must be right of the canvas.
    left = window.canvas.width() + handout_image.GAP
    amber = QImage(image.copy(left, 0, image.width() - left, image.height())).convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(amber.constBits(), dtype=np.uint32, count=amber.bytesPerLine() * amber.height() // 4)
    assert np.count_nonzero((pixels & 0xFFFFFF) == 0xFFBE00) > 100


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
