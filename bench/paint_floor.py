"""The canvas's arrow picture replayed into an image, and the canvas's own paint timed: used by latency.py.

The paint floor is what the canvas cannot paint faster than: its arrows, drawn with the app's own calls
in one QPainter pass into an image of the canvas's size, with nothing else (no backing store, no scene
traversal, no axes or grid). It replays here what the arrow layer's paint does, so that a change to that
paint (drawing from cached images, say) is measured against the same work and not against itself:

* one image the size of the canvas's viewport, ARGB32_Premultiplied like the raster backing store,
  filled white, and one painter with antialiasing;
* for each plot on the canvas, its arrow layer: clipped to the plot's view in viewport pixels, and
  the layer's data-to-pixel transform (what its paint gets as ``painter.transform()``);
* the layer's visible arrows in its order, their shafts and heads batched per z level, the grab rings
  of that level after its batch, then every label on top.

CanvasPaintTimer times the canvas's paintEvent in the real event-loop pass: it handles the viewport's
Paint event itself, calling the canvas's viewportEvent (which paints) between two clocks, so the
picture is the one Qt would have painted (``same_picture`` checks that).
"""

from __future__ import annotations

import time

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QPointF
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QWidget

from attn_desktop.ui.canvas.arrow_item import ArrowItem
from attn_desktop.ui.canvas.arrow_layer import ArrowLayer
from attn_desktop.ui.canvas.canvas import AttentionCanvas
from attn_desktop.ui.canvas.shape_batch import ShapeBatch

IMAGE_FORMAT = QImage.Format.Format_ARGB32_Premultiplied  # the raster backing store's
WHITE = QColor(255, 255, 255)


# ----- the paint floor ----------------------------------------------------
def canvas_image(canvas: AttentionCanvas) -> QImage:
    """A white image the size of the canvas's viewport, in device pixels."""
    viewport = canvas.viewport()
    ratio = viewport.devicePixelRatioF()
    image = QImage(viewport.size() * ratio, IMAGE_FORMAT)
    image.setDevicePixelRatio(ratio)
    return image


def replay_arrows_ms(canvas: AttentionCanvas, image: QImage) -> float:
    """Draw the canvas's arrows into IMAGE in one painter pass, as the layers do; the milliseconds it took."""
    began = time.perf_counter_ns()
    image.fill(WHITE)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    view_to_pixels = canvas.viewportTransform()
    for plot, layer in shown_layers(canvas):
        view = plot.getViewBox()  # it clips what it holds to its rectangle
        painter.setClipRect(canvas.mapFromScene(view.sceneBoundingRect()).boundingRect())
        draw_layer(painter, layer, layer.deviceTransform(view_to_pixels))
    painter.end()
    return (time.perf_counter_ns() - began) / 1e6


def shown_layers(canvas: AttentionCanvas) -> list[tuple[pg.PlotItem, ArrowLayer]]:
    """The plots laid out on the canvas with their arrow layers (a plot a head does not draw is off it)."""
    scene = canvas.scene()
    return [(plot, layer) for plot, layer in canvas.plots.layers.items()
            if layer.scene() is scene and layer.isVisible()]


def layer_arrows(layer: ArrowLayer) -> list[ArrowItem]:
    # The layer keeps its arrows in drawing order (by z, then as added) and has no public accessor;
    # the attribute's name is kept for this replay.
    return list(layer._arrows)


def draw_layer(painter: QPainter, layer: ArrowLayer, to_screen) -> None:
    """ArrowLayer.paint's work, with its calls: shafts and heads batched per z level, rings, then labels."""
    shown = [arrow for arrow in layer_arrows(layer) if arrow.isVisible()]
    batch = ShapeBatch()
    rings: list[tuple[ArrowItem, QPointF]] = []
    for index, arrow in enumerate(shown):
        tip = arrow.draw_arrow(painter, to_screen, batch)
        if tip is not None:
            rings.append((arrow, tip))
        last_of_its_level = index + 1 == len(shown) or shown[index + 1].zValue() != arrow.zValue()
        if last_of_its_level:
            batch.flush(painter)
            for ringed, ring_tip in rings:
                ringed.draw_ring(painter, ring_tip)
            rings.clear()
    for arrow in shown:
        arrow.draw_label(painter, to_screen)


# ----- the canvas's own paint ----------------------------------------------
class CanvasPaintTimer(QObject):
    """Times each paint of the canvas's viewport; install it before any other filter on the viewport.

    Qt asks the filter installed last first, so a filter installed after this one (the benchmark's
    paint counter) still sees every Paint event before this one handles it.
    """

    def __init__(self, canvas: AttentionCanvas) -> None:
        super().__init__()
        self.canvas = canvas
        self.viewport: QWidget = canvas.viewport()
        self.elapsed_ms = 0.0  # summed over the paints since the last reset
        self.viewport.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if watched is not self.viewport or event.type() != QEvent.Type.Paint:
            return False
        began = time.perf_counter_ns()
        self.canvas.viewportEvent(event)  # the canvas paints, as when Qt delivers the event itself
        self.elapsed_ms += (time.perf_counter_ns() - began) / 1e6
        return True

    def take_ms(self) -> float:
        """The paint time summed since the last call, and start again from zero."""
        elapsed, self.elapsed_ms = self.elapsed_ms, 0.0
        return elapsed

    def detach(self) -> None:
        self.viewport.removeEventFilter(self)


def same_picture(canvas: AttentionCanvas) -> bool:
    """Whether the canvas paints the same pixels with the timer handling its paint events as without."""
    plain = canvas.viewport().grab().toImage()
    timer = CanvasPaintTimer(canvas)
    timed = canvas.viewport().grab().toImage()
    timer.detach()
    return plain == timed and timer.take_ms() > 0
