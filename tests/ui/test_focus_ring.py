"""The ring round the arrow chosen for the arrow keys can be seen from the back of a classroom (issue: the
focus ring on an arrow was thin and pale — the arrow's own colour, faded by its weight, 2 px wide): at least
2 px wide, with a contrast of at least 3:1 against the canvas (WCAG's for a focus indicator); and still kept
out of a PNG handout, as the grab rings are.

Measured as drawn: the pen the ring is painted with, and the pixels round the tip in a grab of the canvas at
1024 × 768.
"""

import math

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage

from tests.support.in_the_window import on_a_1024_by_768_screen, settle_layout, tip_on_screen, wait_until_arranged
from tests.ui.test_image_export import exported_png, pixels_apart

pytestmark = pytest.mark.slow  # the real main window

MIN_WIDTH_PX = 2.0
MIN_CONTRAST = 3.0


def relative_luminance(color: QColor) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""
    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
    return 0.2126 * linear(color.red()) + 0.7152 * linear(color.green()) + 0.0722 * linear(color.blue())


def contrast_ratio(first: QColor, second: QColor) -> float:
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def ring_thickness_px(image: QImage, centre, background: QColor) -> float:
    """Round the tip, along 48 rays from 6 to 15 px out: how many pixels of each contrast at least 3:1 with the
    background; the median over the rays (an arrow's own shaft, head or label crosses only a few of them)."""
    counts = []
    for step in range(48):
        angle = 2 * math.pi * step / 48
        count = 0
        for tenth in range(60, 150):
            x = round(centre.x() + tenth / 10 * math.cos(angle))
            y = round(centre.y() + tenth / 10 * math.sin(angle))
            if 0 <= x < image.width() and 0 <= y < image.height() and \
                    contrast_ratio(QColor(image.pixel(x, y)), background) >= MIN_CONTRAST:
                count += 1
        counts.append(count / 10)  # a tenth of a pixel a sample
    return sorted(counts)[len(counts) // 2]


@pytest.fixture
def chosen_with_tab(projector_window, qtbot, monkeypatch):
    """The demo at 1024 × 768, the canvas given the keys and Tab pressed: the first arrow is chosen."""
    window = projector_window
    on_a_1024_by_768_screen(window, monkeypatch, False)
    wait_until_arranged(qtbot, window)
    settle_layout(qtbot, window)
    canvas = window.canvas
    canvas.setFocus()
    qtbot.keyClick(canvas, Qt.Key.Key_Tab)
    assert canvas.drags.focused_arrow is not None
    qtbot.wait(50)
    return window


def test_the_ring_round_the_arrow_the_keys_move_is_wide_and_dark(chosen_with_tab):
    window = chosen_with_tab
    canvas = window.canvas
    role, index = canvas.drags.focused_arrow
    background = canvas.backgroundBrush().color()
    image = canvas.viewport().grab().toImage()
    ratio = image.devicePixelRatio()
    tip = tip_on_screen(window, role, index) * ratio
    thickness = ring_thickness_px(image, tip, background) / ratio
    assert thickness >= MIN_WIDTH_PX, f"the focus ring shows {thickness:.1f} px of contrast 3:1 round the tip"
    pen = canvas.arrows[role][index].ring_pen()
    assert pen is not None and pen.widthF() >= MIN_WIDTH_PX
    assert contrast_ratio(pen.color(), background) >= MIN_CONTRAST, \
        f"the ring's colour {pen.color().name()} on {background.name()}: {contrast_ratio(pen.color(), background):.2f}:1"


def test_the_focus_ring_stays_out_of_the_png_handout(chosen_with_tab, qtbot, tmp_path, monkeypatch):
    window = chosen_with_tab
    canvas = window.canvas
    role, index = canvas.drags.focused_arrow
    chosen = exported_png(window, tmp_path, monkeypatch, "chosen.png")
    canvas.drags.focus_arrow(None)  # no arrow chosen for the keys
    qtbot.wait(50)
    assert canvas.arrows[role][index].ring_pen() is None
    unchosen = exported_png(window, tmp_path, monkeypatch, "unchosen.png")
    assert pixels_apart(chosen, unchosen) == 0
