"""The export's pictures (.png, .svg): the real window, built offscreen on the scene in a user folder
of its own, draws its canvas and attention matrix side by side into the file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from attn_desktop.cli.offscreen import hide_offscreen_notes
from attn_desktop.language import current_language

if TYPE_CHECKING:
    from attn_desktop.model import HeadReading

PICTURE_WINDOW_SIZE = (1400, 900)  # the window a picture is taken from; canvas and matrix keep their docked sizes


def export_picture(shown: HeadReading, scene_file: Path, output: str, kind: str, scale: float) -> None:
    """Build the real window offscreen on the scene SHOWN reads, with its view, and draw its canvas and matrix into OUTPUT."""
    from attn_desktop.model.files.safe_write import write_bytes_atomically
    from attn_desktop.model.teaching.progress import DATA_DIR_VARIABLE
    from attn_desktop.ui.tools.interruption import interrupt_at_safe_points

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    saved_data_dir = os.environ.get(DATA_DIR_VARIABLE)
    # Its own empty folder for data and settings: a headless export must neither read nor
    # disturb the user's progress, autosave or window layout (the window saves it on close).
    with tempfile.TemporaryDirectory(prefix="attn-desktop-export-", ignore_cleanup_errors=True) as data_dir:
        os.environ[DATA_DIR_VARIABLE] = data_dir
        try:
            with interrupt_at_safe_points():  # Ctrl+C never unwinds through the window's Qt callbacks
                picture = _draw_window(shown, kind, scale, scene_file, data_dir)
        finally:
            _restore_environment(DATA_DIR_VARIABLE, saved_data_dir)
    write_bytes_atomically(output, picture)  # whole or not at all, even if Ctrl+C comes now


def _draw_window(shown: HeadReading, kind: str, scale: float, scene_file: Path, settings_dir: str) -> bytes:
    """The picture (KIND .png or .svg) of the canvas and matrix of the real window on SHOWN's scene."""
    from PySide6.QtCore import QSettings

    from attn_desktop.ui.document.handout_image import png_bytes, svg_bytes
    from attn_desktop.ui.tools.interruption import stop_if_interrupted
    from attn_desktop.ui.tools.snapshot import dispose_of
    from attn_desktop.ui.window.main_window import MainWindow
    from attn_desktop.ui.window.startup.app import make_application, settle

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings_dir)
    from attn_desktop.ui.window.language_switch import start_in_language

    _app = make_application()  # held for as long as the window lives
    start_in_language(_app, current_language())
    hide_offscreen_notes()
    window = MainWindow(shown.scene, scene_path=scene_file, view=shown.view)
    try:
        window.resize(*PICTURE_WINDOW_SIZE)
        window.show()
        settle(window)
        picture = png_bytes(window, scale) if kind == ".png" else svg_bytes(window)
        stop_if_interrupted()  # Ctrl+C while the window was built or drawn: nothing written
        return picture
    finally:
        window.history.reset()  # nothing was edited: close without asking about unsaved changes
        dispose_of(window)


def _restore_environment(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value
