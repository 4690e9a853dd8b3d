"""Pictures for handouts: the canvas and the attention matrix side by side, under a title line
(with several heads, every head's panels as the window shows them).

One layout (paint_handout) serves the PNG, the SVG and the clipboard, so the
three always show the same picture. Each widget paints itself through
QWidget.render into a painter that is already scaled, instead of grab():
a grab is a screen-sized bitmap, and blowing it up for print blurs it,
while a widget painting into a scaled painter draws its lines and text at
the finer size.

Files are written whole or not at all: the picture is encoded in memory,
written beside the target and renamed over it, as scene files are.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Protocol, TypeVar

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QRegion
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsView, QWidget

from attn_desktop.language import tr
from attn_desktop.model import Scene, explain
from attn_desktop.model.files.safe_write import write_bytes_atomically
from attn_desktop.ui.canvas.canvas import AttentionCanvas
from attn_desktop.ui.document.portable_svg import portable_svg
from attn_desktop.ui.panels.matrix_view import MatrixView

TITLE_HEIGHT = 30  # the title line above the two widgets, in on-screen pixels, at the least
TITLE_MARGIN = 6  # left and right of the title, and above and below it when it needs more than TITLE_HEIGHT
TITLE_FLAGS = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap
GAP = 8  # between the canvas and the matrix
BACKGROUND = QColor(255, 255, 255)  # paper: a handout is printed, whatever the desktop theme

Panel = TypeVar("Panel", bound=QWidget)


class HeadsColumns(Protocol):
    @property
    def columns_area(self) -> QWidget: ...


class HandoutSource(Protocol):
    """What a handout is made of: the main window gives it, as the user sees it (the font and dpi are its own)."""

    @property
    def scene(self) -> Scene: ...
    @property
    def canvas(self) -> QWidget: ...
    @property
    def matrix_view(self) -> QWidget: ...
    @property
    def heads_view(self) -> HeadsColumns: ...
    @property
    def showing_heads(self) -> bool: ...  # several heads side by side where the canvas was
    def font(self) -> QFont: ...
    def logicalDpiX(self) -> int: ...


def handout_title(window: HandoutSource) -> str:
    """'The cat sat on the mat — softmax(QKᵀ/√d_k)': which scene, and which formula made its numbers."""
    scene = window.scene
    formula = explain.matrix_formula(scene.scale, scene.causal)
    return f"{scene.title} — {formula}" if scene.title else formula


def _parts(window: HandoutSource) -> list[QWidget]:
    """What goes on the paper: the canvas and the matrix, or with several heads every head's panels."""
    if window.showing_heads:
        return [window.heads_view.columns_area]
    return [window.canvas, window.matrix_view]


def _parts_width(parts: list[QWidget]) -> int:
    return sum(part.width() for part in parts) + GAP * (len(parts) - 1)


def title_rect(window: HandoutSource) -> QRectF:
    """Where the title's text goes, whole: wrapped to the picture's width, as many lines as it takes
    (a presentation-sized font or a long scene title needs more than one line of TITLE_HEIGHT)."""
    width = _parts_width(_parts(window)) - 2 * TITLE_MARGIN
    text = QFontMetricsF(_title_font(window)).boundingRect(QRectF(0, 0, width, 1e6), TITLE_FLAGS,
                                                             handout_title(window))
    height = max(TITLE_HEIGHT, math.ceil(text.height()) + 2 * TITLE_MARGIN)
    return QRectF(TITLE_MARGIN, 0, width, height)


def title_height(window: HandoutSource) -> int:
    """How far down the widgets start: the title's lines above them."""
    return math.ceil(title_rect(window).height())


def handout_size(window: HandoutSource) -> QSize:
    """The picture's size at scale 1: the widgets side by side, as large as they are on screen."""
    parts = _parts(window)
    return QSize(_parts_width(parts), title_height(window) + max(part.height() for part in parts))


def paint_handout(painter: QPainter, window: HandoutSource) -> None:
    """Paint the picture in on-screen pixels; the painter's transform sets the output's scale."""
    size = handout_size(window)
    painter.fillRect(QRect(QPoint(0, 0), size), BACKGROUND)
    painter.setFont(_title_font(window))
    painter.setPen(QColor(0, 0, 0))
    painter.drawText(title_rect(window), TITLE_FLAGS, handout_title(window))
    top, left = title_height(window), 0
    for part in _parts(window):
        with ExitStack() as picture_only:
            for view in _panels_in(part, QGraphicsView):
                picture_only.enter_context(_item_caches_off(view))
            for matrix in _panels_in(part, MatrixView):
                picture_only.enter_context(_transient_hints_off(matrix))
            for canvas in _panels_in(part, AttentionCanvas):
                picture_only.enter_context(_grab_rings_off(canvas))
            _render_widget(painter, part, QPoint(left, top))
        left += part.width() + GAP


def _panels_in(part: QWidget, kind: type[Panel]) -> list[Panel]:
    """PART itself when it is a KIND, else every KIND inside it (with several heads, each head's)."""
    return [part] if isinstance(part, kind) else part.findChildren(kind)


@contextmanager
def _transient_hints_off(matrix: MatrixView) -> Iterator[None]:
    """No "Point at a cell" in the picture: nobody can point at a cell on paper."""
    matrix.set_hints_shown(False)
    try:
        yield
    finally:
        matrix.set_hints_shown(True)


@contextmanager
def _grab_rings_off(canvas: AttentionCanvas) -> Iterator[None]:
    """No ring round the tip chosen for the arrow keys or under the pointer: the paper shows the scene,
    not where the teacher's keys and pointer were. The screen keeps its ring."""
    canvas.set_grab_rings_shown(False)
    try:
        yield
    finally:
        canvas.set_grab_rings_shown(True)


def _title_font(window: HandoutSource) -> QFont:
    font = QFont(window.font())
    font.setBold(True)
    if font.pointSizeF() > 0:  # -1 when the font is sized in pixels
        font.setPointSizeF(font.pointSizeF() * 1.2)
    return font


@contextmanager
def _item_caches_off(view: QGraphicsView) -> Iterator[None]:
    """Draw the view's background and every graphics item afresh: a cached one (the
    canvas keeps its axes as pixmaps) would go into an SVG as a bitmap, blurred in print."""
    items = [item for item in view.scene().items() if item.cacheMode() != QGraphicsItem.CacheMode.NoCache]
    modes = [item.cacheMode() for item in items]
    view_mode = view.cacheMode()
    view.setCacheMode(QGraphicsView.CacheModeFlag.CacheNone)
    for item in items:
        item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    try:
        yield
    finally:
        for item, mode in zip(items, modes):
            item.setCacheMode(mode)
        view.setCacheMode(view_mode)


def _render_widget(painter: QPainter, widget: QWidget, offset: QPoint) -> None:
    # Called on QWidget: QGraphicsView.render (the canvas's own) means something else,
    # the scene drawn into a rectangle. No window background: only what the widget
    # draws itself goes on the paper.
    QWidget.render(widget, painter, offset, QRegion(), QWidget.RenderFlag.DrawChildren)


def handout_image(window: HandoutSource, scale: float = 1.0) -> QImage:
    """The picture as an image, `scale` times its on-screen size."""
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale must be a positive number, got {scale}")
    logical = handout_size(window)
    width, height = math.ceil(logical.width() * scale), math.ceil(logical.height() * scale)
    image = QImage(width, height, QImage.Format.Format_RGB32)
    if image.isNull():
        raise MemoryError(tr("not enough memory for a {width} × {height} picture; use a smaller scale").format(
            width=width, height=height))
    image.fill(BACKGROUND)
    _match_screen_dpi(image, window)
    painter = QPainter(image)
    try:
        painter.scale(scale, scale)
        paint_handout(painter, window)
    finally:
        painter.end()
    return image


def _match_screen_dpi(image: QImage, window: HandoutSource) -> None:
    """Fonts are sized in points: give the image the screen's dpi so text measures as it does on screen."""
    dots_per_metre = round(window.logicalDpiX() / 0.0254)
    image.setDotsPerMeterX(dots_per_metre)
    image.setDotsPerMeterY(dots_per_metre)


def render_png(window: HandoutSource, path: str | os.PathLike, scale: float = 2.0) -> None:
    """Write the canvas and the matrix as one PNG, `scale` times their on-screen size."""
    write_bytes_atomically(path, png_bytes(window, scale))


def png_bytes(window: HandoutSource, scale: float = 2.0) -> bytes:
    """The PNG render_png writes, made but not yet written (the command line writes it once Ctrl+C can no
    longer leave the window half-built)."""
    image = handout_image(window, scale)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6 takes the format as a str (bytes raise ValueError); its stubs list only bytes.
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise OSError(tr("the picture could not be encoded as PNG"))
    buffer.close()
    return bytes(data.data())


def render_svg(window: HandoutSource, path: str | os.PathLike) -> None:
    """Write the canvas and the matrix as one SVG (lines and text stay sharp at any print size)."""
    write_bytes_atomically(path, svg_bytes(window))


def svg_bytes(window: HandoutSource) -> bytes:
    """The SVG render_svg writes, made but not yet written."""
    size = handout_size(window)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(size)
    # Fonts are sized in points; at the SVG's default 72 dpi every text would shrink to 3/4.
    generator.setResolution(window.logicalDpiX())
    generator.setViewBox(QRect(QPoint(0, 0), size))
    generator.setTitle(handout_title(window))
    generator.setDescription("Attention Desktop: the canvas and the attention matrix")
    painter = QPainter(generator)
    try:
        paint_handout(painter, window)
    finally:
        painter.end()
    buffer.close()
    return portable_svg(bytes(data.data()))  # the same in librsvg and ImageMagick


def copy_image_to_clipboard(window: HandoutSource) -> None:
    """Put the same picture, at on-screen size, on the clipboard (to paste into a worksheet)."""
    QApplication.clipboard().setImage(handout_image(window, 1.0))


__all__ = ["HandoutSource", "copy_image_to_clipboard", "handout_image", "handout_size", "handout_title", "paint_handout",
           "png_bytes", "render_png", "render_svg", "svg_bytes", "title_height", "title_rect"]
