"""Render the app's icon (resources/icons/attn-desktop.svg) and its lesson files' (attn-lesson.svg) into the PNG
sizes desktops ask for.

Run by hand after changing the SVG: python packaging/make_icons.py
"""

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICON_NAMES = ("attn-desktop", "attn-lesson")  # the app; a lesson file (*.attn-lesson) in a file manager


def main() -> int:
    app = QGuiApplication(sys.argv[:1])  # noqa: F841 - QPainter on a QImage needs a GUI application
    for name in ICON_NAMES:
        render_sizes(name)
    print(f"wrote {len(SIZES) * len(ICON_NAMES)} PNG icons to {ICONS}")
    return 0


def render_sizes(name: str) -> None:
    renderer = QSvgRenderer(str(ICONS / f"{name}.svg"))
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        image.save(str(ICONS / f"{name}-{size}.png"))


if __name__ == "__main__":
    sys.exit(main())
