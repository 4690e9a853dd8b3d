"""Creating the Qt application and the main window."""

from __future__ import annotations

import sys
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtWidgets import QApplication

from .. import APP_NAME, __version__
from ..model import Scene
from ..paths import DEFAULT_SCENE, scene_path
from .main_window import MainWindow


def configure_pyqtgraph() -> None:
    pg.setConfigOptions(
        background="w",
        foreground="k",
        antialias=False,  # grid and axes; arrows antialias themselves
        # pyqtgraph drops mouse moves above this rate by default; the model
        # recomputes in microseconds, so every move should reach the scene.
        mouseRateLimit=0,
    )


def make_application(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setOrganizationName("Attention Desktop")
    app.setDesktopFileName("attn-desktop")
    configure_pyqtgraph()
    return app


def default_scene() -> Scene:
    return Scene.from_file(scene_path(DEFAULT_SCENE))


def build_window(path: Path | None = None) -> MainWindow:
    scene = Scene.from_file(path) if path else default_scene()
    return MainWindow(scene, scene_path=path)
