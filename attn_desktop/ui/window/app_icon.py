"""The app's icon, for the application and each window."""

from __future__ import annotations

from PySide6.QtGui import QIcon

from attn_desktop.paths import icon_files


def app_icon() -> QIcon:
    icon = QIcon()
    for path in icon_files()[1:]:  # the PNG sizes: crisp at each size, no SVG engine needed
        if path.exists():
            icon.addFile(str(path))
    return icon
