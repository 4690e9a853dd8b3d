"""Creating the Qt application and the main window."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pyqtgraph as pg
from pyqtgraph.util.garbage_collector import GarbageCollector
from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication

from attn_desktop import APP_NAME, __version__
from attn_desktop.model import Scene, ViewState
from attn_desktop.model.scene_files import open_scene
from attn_desktop.paths import APP_ID, DEFAULT_SCENE, scene_path
from attn_desktop.ui.qt_app import gui_app
from attn_desktop.ui.window.app_icon import app_icon
from attn_desktop.ui.window.layout.hand_sizes import NARROW_SCREEN_PX
from attn_desktop.ui.window.main_window import MainWindow

# Python's cyclic garbage collector runs in whichever thread happens to allocate. When that is the
# model's or the training's thread, it destroys closed windows' Qt objects (plots, items, pixmaps)
# there, while the GUI thread paints: Qt is not thread-safe that way, and the window froze (seen as a
# hang in the tests: the model's thread inside the GGUF reader, the GUI thread waiting in a paint).
# pyqtgraph's GarbageCollector turns automatic collection off and collects on a timer of the GUI
# thread instead, with the same thresholds.
_gui_thread_collector: GarbageCollector | None = None
COLLECT_EVERY_S = 0.5


def collect_garbage_on_the_gui_thread() -> None:
    """Once there is an application (its timer runs on the GUI thread): collect garbage only there."""
    global _gui_thread_collector
    if _gui_thread_collector is None and QApplication.instance() is not None:
        _gui_thread_collector = GarbageCollector(interval=COLLECT_EVERY_S)


def configure_pyqtgraph() -> None:
    collect_garbage_on_the_gui_thread()
    pg.setConfigOptions(
        background="w",
        foreground="k",
        antialias=False,  # grid and axes; arrows antialias themselves
        # pyqtgraph drops mouse moves above this rate by default; the model
        # recomputes in microseconds, so every move should reach the scene.
        mouseRateLimit=0,
    )


# Qt's raster engine hands the blending of a large picture clipped to a region of several rectangles (an
# axis's cached picture with its grid, the view's cached background, where a drag move repaints round its
# arrows) to a pool of threads and waits for them. On two busy cores the hand-off cost more than the blend:
# a default-scene drag move's canvas paint took 1.8 ms, 1.15 ms of it drawing, and 1.15 ms in all when
# painted on the GUI thread alone. Qt reads the switch once, at its first large paint; a user's own value
# is kept (Qt looks only at whether it is set).
SERIAL_PAINTS_VARIABLE = "QT_NO_GUI_THREADPOOL"


def paint_on_the_gui_thread_alone() -> None:
    os.environ.setdefault(SERIAL_PAINTS_VARIABLE, "1")


def make_application(argv: list[str] | None = None) -> QApplication:
    paint_on_the_gui_thread_alone()  # before anything is painted
    app = gui_app() if QApplication.instance() is not None else QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setOrganizationName("Attention Desktop")
    # Wayland matches windows to their .desktop file (and so their icon) by this name.
    app.setDesktopFileName(APP_ID)
    app.setWindowIcon(app_icon())
    configure_pyqtgraph()
    return app


def default_scene(view: ViewState | None = None) -> Scene:
    """The scene the app opens with no file given; VIEW, when given, chooses the query it comes with."""
    return open_scene(scene_path(DEFAULT_SCENE), view)


def start_window(scene: Scene | None, path: Path | None, view: ViewState | None = None) -> MainWindow:
    """The window the app starts with: on SCENE, the file PATH given, looked at through VIEW (which chose
    the file's query), else on the lesson the last run was on, with its scene as the student left it
    (see LessonController.reopen_last)."""
    if scene is None:
        view = ViewState()
        scene = default_scene(view)
    window = MainWindow(scene, scene_path=path, view=view)
    if path is None:
        window.lessons.reopen_last()
    return window


SMALL_SCREEN_HEIGHT_PX = 800  # 1024 × 768, 1280 × 720, 1366 × 768: a window never used there opens maximised


def show_as_started(window: MainWindow) -> None:
    """The window as it was left on a screen of this size, or, never used on it, maximised on a small
    screen (a projector's 1024 × 768 has no pixel to spare for a window's margins)."""
    restored = window.restore_window_state()
    if not restored and _small_screen(window):
        window.showMaximized()
    else:
        window.show()


def _small_screen(window: MainWindow) -> bool:
    screen = window.screen().availableGeometry() if window.screen() else None
    return screen is not None and (screen.width() <= NARROW_SCREEN_PX or screen.height() <= SMALL_SCREEN_HEIGHT_PX)


def build_window(path: Path | None = None) -> MainWindow:
    view = ViewState()  # the window's, choosing the query the file had chosen
    scene = open_scene(path, view) if path else default_scene(view)
    return MainWindow(scene, scene_path=path, view=view)


def _wait_for_the_restored_layout(window: MainWindow, limit_s: float = 3.0) -> None:
    """A restored window shares its panels out once its last resize has settled (a timer): until then it shows
    the last session's docks, which a picture or a drag must not take for the window's own."""
    deadline = time.monotonic() + limit_s
    while window.layout_store.settling and time.monotonic() < deadline:
        gui_app().processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        time.sleep(0.005)


def settle(window: MainWindow) -> None:
    """Process events until the docks, the plots and their framing stop changing.

    A new window takes a few passes: docks take their sizes, then the plots theirs, then the plots
    frame their arrows. Anything that draws or drags by pixel waits for this first.
    """
    app = gui_app()
    _wait_for_the_restored_layout(window)
    previous = None
    for _ in range(50):
        app.processEvents()
        canvases = [window.canvas, *(column.canvas for column in window.heads_view.columns)]  # (each head's too)
        for canvas in canvases:  # an axis measures its tick labels as it paints: paint now, not in the picture
            if canvas.isVisible():
                canvas.viewport().repaint()
        state = [(canvas.size(), canvas.qk_plot.viewRange(), canvas.qk_plot.getViewBox().sceneBoundingRect())
                 for canvas in canvases] + [window.matrix_view.size()]
        # Labels are placed a pass after the plots' last change: a picture taken before shows last pass's.
        if state == previous and not any(canvas.arranging for canvas in canvases):
            return
        previous = state
