"""`attn-desktop snapshot`: the real main window at a chosen screen size, drawn headless.

Teachers and the test suite use it to see the app as a 1024 × 768 projector or a 4K laptop at
200 % shows it, without that screen: Qt's offscreen platform is told the screen's size and
pixel ratio, the window fills it (or goes full screen in presentation mode), settles, and is
grabbed to a PNG. `--audit` writes what a person would check, measured from the widgets
(see layout_audit).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the command line loads Qt and the app only when it takes a picture
    from PySide6.QtWidgets import QWidget

    from attn_desktop.model import Scene, ViewState
    from attn_desktop.model.teaching.lesson_file import LessonFile
    from attn_desktop.ui.tools.walk_steps import Step
    from attn_desktop.ui.window.main_window import MainWindow

SETTLE_SECONDS = 1.0  # presentation mode re-arranges the panels for this long after the window resizes


@dataclass(frozen=True)
class ScreenSpec:
    width: int  # in physical pixels, as a screen's resolution is given
    height: int
    scale: float = 1.0  # the desktop's scale factor: 2 for "200 %"


def use_offscreen_screen(screen: ScreenSpec, folder: str) -> None:
    """Tell Qt's offscreen platform (before the application starts) which screen to pretend to have.

    The screen is given in physical pixels and the desktop's scale as Qt's own scale factor, which is
    how a 4K laptop at 200 % reaches Qt: 1920 × 1080 logical pixels, each drawn as 2 × 2.
    (The offscreen platform's own "dpr" setting reaches the screen but not its windows.)
    """
    config = Path(folder) / "screen.json"
    config.write_text(json.dumps({"screens": [{
        "name": "snapshot", "x": 0, "y": 0, "width": screen.width, "height": screen.height,
        "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1,
    }]}))
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={config}"
    os.environ["QT_SCALE_FACTOR"] = f"{screen.scale:g}"


def wait_until_settled(window: MainWindow) -> None:
    """Let the docks, the plots and presentation mode's re-arranging finish."""
    from attn_desktop.ui.qt_app import gui_app
    from attn_desktop.ui.tools.interruption import interrupted
    from attn_desktop.ui.window.startup.app import settle

    app = gui_app()
    deadline = time.monotonic() + SETTLE_SECONDS + 2.0
    while window.presentation_mode.settling and time.monotonic() < deadline and not interrupted():
        app.processEvents()
        time.sleep(0.01)
    settle(window)
    app.processEvents()


def show_for_snapshot(window: MainWindow, presentation: bool) -> None:
    """The window as a user has it on this screen: maximised, or full screen when presenting."""
    from PySide6.QtCore import Qt

    # No frame: the offscreen platform's pretend frame would make the maximised window smaller than the
    # screen, and its fullscreen-to-normal return taller than it.
    window.setWindowFlag(Qt.WindowType.FramelessWindowHint)
    window.showMaximized()
    wait_until_settled(window)
    if presentation:
        window.presentation_action.setChecked(True)
        wait_until_settled(window)


def png_of(window: QWidget) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not window.grab().save(buffer, "PNG"):
        raise OSError("could not encode the picture")
    return bytes(data.data())


def take_snapshot(scene: Scene, scene_path: Path | None, lesson: str | None, presentation: bool,
                  view: ViewState | None = None, lesson_file: LessonFile | None = None) -> tuple[bytes, dict]:
    """Build the real window on this scene (or lesson, or lesson file), show it on the offscreen screen, and
    return the PNG and the audit (with what a student of the lesson file is offered)."""
    from attn_desktop.ui.tools.interruption import stop_if_interrupted
    from attn_desktop.ui.tools.layout_audit import audit_window
    from attn_desktop.ui.tools.lesson_file_audit import audit_lesson_file
    from attn_desktop.ui.window.main_window import MainWindow
    from attn_desktop.ui.window.startup.app import make_application

    _app = make_application()  # held for as long as the window lives
    window = MainWindow(scene, scene_path=scene_path, view=view)
    try:
        open_first(window, lesson, lesson_file)
        show_for_snapshot(window, presentation)
        stop_if_interrupted()
        audit = audit_window(window)
        if lesson_file is not None:
            audit["lesson_file"] = audit_lesson_file(window)
        return png_of(window), audit
    finally:
        window.history.reset()  # nothing was edited: close without asking about unsaved changes
        dispose_of(window)


def take_walk(scene: Scene, scene_path: Path | None, lesson: str | None, steps: list[Step],
              presentation: bool, view: ViewState | None = None, lesson_file: LessonFile | None = None
              ) -> tuple[bytes, dict]:
    """The window on this scene, shown as take_snapshot shows it, then walked through STEPS (see walk.py),
    audited after each; the PNG of the window at the end and {"steps": [{"step": ..., "audit": ...}, ...]}.
    StepError, naming the step, when the window cannot take one."""
    from attn_desktop.ui.tools.interruption import stop_if_interrupted
    from attn_desktop.ui.tools.layout_audit import audit_window
    from attn_desktop.ui.tools.walk import headless, take_step
    from attn_desktop.ui.tools.walk_audit import audit_walk
    from attn_desktop.ui.tools.walk_steps import StepError
    from attn_desktop.ui.window.main_window import MainWindow
    from attn_desktop.ui.window.startup.app import make_application

    _app = make_application()
    window = MainWindow(scene, scene_path=scene_path, view=view)
    headless(window)
    audits = []
    try:
        open_first(window, lesson, lesson_file)
        show_for_snapshot(window, presentation)
        for step in steps:
            stop_if_interrupted()
            try:
                window = take_step(window, step, wait_until_settled, dispose_of)
            except StepError:
                stop_if_interrupted()  # a wait cut short by Ctrl+C, not a step the window could not take
                raise
            audits.append({"step": step.text, "audit": {**audit_window(window), **audit_walk(window)}})
        stop_if_interrupted()
        return png_of(window), {"steps": audits}
    finally:
        window.history.reset()
        dispose_of(window)


def open_first(window: MainWindow, lesson: str | None, lesson_file: LessonFile | None) -> None:
    """The built-in LESSON, or the LESSON_FILE as a student opens it (read and checked already), if either."""
    if lesson:
        window.open_lesson(lesson)
    if lesson_file is not None:
        window.lesson_files.open_lesson(lesson_file)


def dispose_of(window: QWidget) -> None:
    """Close the window and delete it now, while the application still exists: left to Python's exit,
    Qt objects die in no particular order, and a window outliving its application crashes the process."""
    from PySide6.QtCore import QCoreApplication, QEvent

    window.close()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def temporary_user_folder() -> tempfile.TemporaryDirectory:
    """Settings and data of its own: a snapshot neither reads nor disturbs the user's layout or work."""
    return tempfile.TemporaryDirectory(prefix="attn-desktop-snapshot-", ignore_cleanup_errors=True)
