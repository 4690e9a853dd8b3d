"""Pictures for handouts: the canvas and the attention matrix side by side, under a title line.

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
import tempfile
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication, QWidget

from ..model import explain
from ..model.scene_file import _mode_for

TITLE_HEIGHT = 30  # the title line above the two widgets, in on-screen pixels
GAP = 8  # between the canvas and the matrix
BACKGROUND = QColor(255, 255, 255)  # paper: a handout is printed, whatever the desktop theme


def handout_title(window) -> str:
    """'The cat sat on the mat — softmax(QKᵀ/√d_k)': which scene, and which formula made its numbers."""
    scene = window.scene
    formula = explain.matrix_formula(scene.scale, scene.causal)
    return f"{scene.title} — {formula}" if scene.title else formula


def _parts(window) -> tuple[QWidget, QWidget]:
    return window.canvas, window.matrix_view


def handout_size(window) -> QSize:
    """The picture's size at scale 1: the two widgets as large as they are on screen."""
    canvas, matrix = _parts(window)
    return QSize(canvas.width() + GAP + matrix.width(), TITLE_HEIGHT + max(canvas.height(), matrix.height()))


def paint_handout(painter: QPainter, window) -> None:
    """Paint the picture in on-screen pixels; the painter's transform sets the output's scale."""
    canvas, matrix = _parts(window)
    size = handout_size(window)
    painter.fillRect(QRect(QPoint(0, 0), size), BACKGROUND)
    font = QFont(window.font())
    font.setBold(True)
    font.setPointSizeF(font.pointSizeF() * 1.2)
    painter.setFont(font)
    painter.setPen(QColor(0, 0, 0))
    title_box = QRectF(6, 0, size.width() - 12, TITLE_HEIGHT)
    painter.drawText(title_box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, handout_title(window))
    # Without the window background: only what the widgets draw themselves goes on the paper.
    flags = QWidget.RenderFlag.DrawChildren
    canvas.render(painter, QPoint(0, TITLE_HEIGHT), renderFlags=flags)
    matrix.render(painter, QPoint(canvas.width() + GAP, TITLE_HEIGHT), renderFlags=flags)


def handout_image(window, scale: float = 1.0) -> QImage:
    """The picture as an image, `scale` times its on-screen size."""
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale must be a positive number, got {scale}")
    logical = handout_size(window)
    image = QImage(math.ceil(logical.width() * scale), math.ceil(logical.height() * scale), QImage.Format.Format_RGB32)
    if image.isNull():
        raise MemoryError(f"not enough memory for a {image.width()} × {image.height()} picture; use a smaller scale")
    image.fill(BACKGROUND)
    painter = QPainter(image)
    try:
        painter.scale(scale, scale)
        paint_handout(painter, window)
    finally:
        painter.end()
    return image


def render_png(window, path: str | os.PathLike, scale: float = 2.0) -> None:
    """Write the canvas and the matrix as one PNG, `scale` times their on-screen size."""
    image = handout_image(window, scale)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OSError(f"{os.fspath(path)}: the picture could not be encoded as PNG")
    buffer.close()
    _write_bytes_atomically(path, data.data())


def render_svg(window, path: str | os.PathLike) -> None:
    """Write the canvas and the matrix as one SVG (lines and text stay sharp at any print size)."""
    size = handout_size(window)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(size)
    generator.setViewBox(QRect(QPoint(0, 0), size))
    generator.setTitle(handout_title(window))
    generator.setDescription("Attention Desktop: the canvas and the attention matrix")
    painter = QPainter(generator)
    try:
        paint_handout(painter, window)
    finally:
        painter.end()
    buffer.close()
    _write_bytes_atomically(path, data.data())


def copy_image_to_clipboard(window) -> None:
    """Put the same picture, at on-screen size, on the clipboard (to paste into a worksheet)."""
    QApplication.clipboard().setImage(handout_image(window, 1.0))


def _write_bytes_atomically(path: str | os.PathLike, data: bytes) -> None:
    """Write beside the target, then rename over it: never half a picture under its name."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    try:
        os.chmod(temporary, _mode_for(target))  # the mode a plain write would give, not mkstemp's 0600
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


__all__ = ["copy_image_to_clipboard", "handout_image", "handout_size", "handout_title", "paint_handout",
           "render_png", "render_svg"]
