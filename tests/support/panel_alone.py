"""One panel on the default scene, alone on screen, as the app draws it: the set-up of the tests that read a
panel's own pixels."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtWidgets import QWidget

from attn_desktop.model.scene_files import open_reading
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.window.startup.app import configure_pyqtgraph

Panel = TypeVar("Panel", bound=QWidget)


def shown_alone(qtbot, make_panel: type[Panel], width: int, height: int) -> Panel:
    """A MAKE_PANEL of the default scene, WIDTH × HEIGHT, shown and exposed, with pyqtgraph set as in the app
    (white background, grid without antialiasing)."""
    configure_pyqtgraph()
    panel = make_panel(open_reading(scene_path(DEFAULT_SCENE)))
    qtbot.addWidget(panel)
    panel.resize(width, height)
    panel.show()
    qtbot.waitExposed(panel)
    return panel
