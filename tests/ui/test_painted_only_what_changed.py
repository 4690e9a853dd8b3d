"""A drag move repaints only the part of the canvas it changed, from pictures of the arrows it did not change.

What the student sees must be exactly what a full, fresh paint of the canvas would show: no arrow or
label left behind where it was, none missing where it now is, the unchanged arrows in their places and
order. These tests drag with real mouse events, then read the screen (the window's own pixels, as the
moves painted them) and compare it with the whole canvas painted at once; and they check the pictures
against the arrows drawn directly.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QStyleOptionGraphicsItem

from attn_desktop.model import Role, Scene
from attn_desktop.model.files.scene_types import DirectScene
from attn_desktop.ui.window.main_window import MainWindow

from tests.support.in_the_window import drag_arrow

ANTIALIASING_SLACK = 16  # of 255: a picture laid over the plot rounds an edge's blend a little differently
LEFT_BEHIND_AT_MOST = 1e-6  # of the canvas's pixels: none (an arrow left behind after an undo is 0.0005 to 0.0008)


def random_scene(n: int) -> Scene:
    rng = np.random.default_rng(3)
    return Scene(DirectScene(tokens=[f"t{i}" for i in range(n)], queries=rng.uniform(-2, 2, (n, 2)).tolist(),
                             keys=rng.uniform(-2, 2, (n, 2)).tolist(), values=rng.uniform(-2, 2, (n, 2)).tolist(),
                             scale=True, selected=0, title=f"{n} random tokens"))


def pixels(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    data = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    return data.reshape(image.height(), image.bytesPerLine() // 4, 4)[:, : image.width(), :3].astype(int)


def canvas_on_screen(window) -> np.ndarray:
    """The canvas as the moves left it on screen: the window's own pixels, not a fresh paint."""
    viewport = window.canvas.viewport()
    corner = viewport.mapTo(window, viewport.rect().topLeft())
    shot = window.screen().grabWindow(window.winId(), corner.x(), corner.y(), viewport.width(), viewport.height())
    return pixels(shot.toImage())


def canvas_painted_whole(window) -> np.ndarray:
    """The whole canvas painted again at once (from the same pictures: those are checked below)."""
    window.canvas.viewport().repaint()
    QApplication.processEvents()
    return canvas_on_screen(window)


def differing_share(first: np.ndarray, second: np.ndarray) -> float:
    """The share of pixels that differ by more than antialiasing does."""
    return float(np.mean(np.abs(first - second).max(axis=2) > ANTIALIASING_SLACK))


@pytest.fixture
def shown(qtbot, window):
    def show(target):
        target.resize(1024, 768)
        target.show()
        qtbot.waitExposed(target)
        for _ in range(5):
            QApplication.processEvents()
        return target
    return show


@pytest.mark.parametrize("tokens", [None, 64], ids=["default scene", "64 tokens"])
def test_the_screen_after_a_drag_is_what_a_fresh_paint_shows(qtbot, window, shown, tokens):
    if tokens is not None:
        window = MainWindow(random_scene(tokens))
        qtbot.addWidget(window)
        window.history.reset()
    shown(window)
    before = canvas_on_screen(window)
    # A long drag, then one of a query (its labels and the chosen query's weights move with it).
    drag_arrow(window, Role.KEY, 1, QPointF(60, -45), steps=24)
    drag_arrow(window, Role.QUERY, 0, QPointF(-40, 30), steps=12)
    QTest.keyClick(window.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the key jumps back
    QApplication.processEvents()
    after_moves = canvas_on_screen(window)
    assert differing_share(before, after_moves) > 0.001, "the drags changed nothing on screen"
    # Not one pixel may differ: an arrow or label left behind where it was, or missing where it is, would.
    assert differing_share(after_moves, canvas_painted_whole(window)) < LEFT_BEHIND_AT_MOST
    window.history.reset()


def test_a_move_repaints_only_round_the_arrows_it_changed(qtbot, window, shown):
    shown(window)
    regions: list = []
    viewport = window.canvas.viewport()

    class PaintedRegions(QObject):
        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.Paint:
                regions.append(event.region())
            return False

    spy = PaintedRegions()
    viewport.installEventFilter(spy)
    drag_arrow(window, Role.KEY, 1, QPointF(12, -8), steps=6)
    viewport.removeEventFilter(spy)
    canvas_area = viewport.width() * viewport.height()
    painted = [sum(rect.width() * rect.height() for rect in region) for region in regions[1:-1]]
    assert painted, "the moves painted nothing"
    # A few arrows (the dragged key, the output, labels) move: far less than the plots they lie in.
    assert np.median(painted) < 0.5 * canvas_area
    window.history.reset()


def test_a_layer_drawn_from_its_pictures_matches_one_drawn_directly(qtbot, window, shown):
    """A 64-token scene (a plot of a few arrows draws them directly, without pictures).The pictures of unchanged arrows, laid down with the changed ones drawn between them, give the same
    pixels as drawing every arrow afresh, whichever arrows changed (lower or higher z, styles, a ring):
    but for antialiasing, and where a changed arrow's shaft crosses others of its level (it lies on top,
    where a full paint may draw it under: a few pixels)."""
    window = MainWindow(random_scene(64))
    qtbot.addWidget(window)
    window.history.reset()
    shown(window)
    canvas = window.canvas
    layer = canvas.plots.layers[canvas.qk_plot]
    viewport = canvas.viewport()
    to_screen = layer.deviceTransform(canvas.viewportTransform())
    keys, queries = canvas.arrows[Role.KEY], canvas.arrows[Role.QUERY]

    def layer_drawn(direct: bool) -> np.ndarray:
        image = QImage(viewport.size(), QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.white)
        painter = QPainter(image)
        painter.setTransform(to_screen)
        layer.paint(painter, QStyleOptionGraphicsItem(), None if direct else viewport)
        painter.end()
        return pixels(image)

    layer_drawn(direct=False)  # every arrow into the pictures
    changes = [
        lambda: keys[1].set_tip(keys[1].tip.x() + 0.3, keys[1].tip.y() - 0.2),  # below the queries
        lambda: keys[1].set_style(width=5.0, emphasis=0.4),
        lambda: queries[5].set_tip(queries[5].tip.x() - 0.2, queries[5].tip.y() + 0.4),  # on top
        lambda: keys[2].set_highlighted(True),  # a new arrow changes: the pictures are drawn anew
        lambda: keys[2].set_keyboard_focus(True),
    ]
    for change in changes:
        change()
        from_pictures, direct = layer_drawn(direct=False), layer_drawn(direct=True)
        assert differing_share(from_pictures, direct) < 0.0002  # laid down in the wrong order: 0.0005 to 0.002
    assert layer.pictures_drawn > 1, "the layer drew no pictures"
