"""Render resources/icons/attn-desktop.svg into the PNG sizes desktops ask for.

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


def main() -> int:
    app = QGuiApplication(sys.argv[:1])  # noqa: F841 - QPainter on a QImage needs a GUI application
    renderer = QSvgRenderer(str(ICONS / "attn-desktop.svg"))
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        image.save(str(ICONS / f"attn-desktop-{size}.png"))
    print(f"wrote {len(SIZES)} PNG icons to {ICONS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
