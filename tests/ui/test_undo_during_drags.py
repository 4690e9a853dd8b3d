"""Undo, redo and drags together: what a student who presses Ctrl+Z mid-drag, or drags
an arrow back where it was, sees afterwards — and that closing leaves no error behind."""

import subprocess
import sys
import textwrap

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from attn_desktop.model import Role
from attn_desktop.ui.tools.synthetic_mouse import move_holding, press, release

from tests.support.in_the_window import drag_arrow, tip_on_screen

CTRL = Qt.KeyboardModifier.ControlModifier
K_CAT = (Role.KEY, 1)


def activate(qtbot, window):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


def test_ctrl_z_with_the_button_held_waits_for_the_release(qtbot, window):
    activate(qtbot, window)
    drag_arrow(window, *K_CAT, QPointF(30, 0))
    after_first_move = window.reading().vectors(Role.KEY)[1].tolist()
    viewport = window.canvas.viewport()
    start = tip_on_screen(window, *K_CAT)
    press(viewport, start)
    move_holding(viewport, start + QPointF(0, -40))
    QApplication.processEvents()
    assert not window.undo_action.isEnabled()  # the menu shows Undo unavailable mid-drag
    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL)  # ignored: the drag goes on
    release(viewport, start + QPointF(0, -40))
    QApplication.processEvents()
    after_second_move = window.reading().vectors(Role.KEY)[1].tolist()
    assert after_second_move != after_first_move and window.windowTitle().startswith("*")
    assert window.undo_action.isEnabled() and window.history.stack.count() == 2
    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL)
    assert window.reading().vectors(Role.KEY)[1].tolist() == after_first_move
    qtbot.keyClick(window, Qt.Key.Key_Z, CTRL)
    assert window.reading().vectors(Role.KEY)[1].tolist() == [2.2, 1.0]  # the default scene's k·cat
    assert not window.windowTitle().startswith("*")


def test_escape_mid_drag_gives_undo_back(qtbot, window):
    activate(qtbot, window)
    drag_arrow(window, *K_CAT, QPointF(30, 0))
    viewport = window.canvas.viewport()
    start = tip_on_screen(window, *K_CAT)
    press(viewport, start)
    move_holding(viewport, start + QPointF(0, -40))
    QApplication.processEvents()
    qtbot.keyClick(window.canvas, Qt.Key.Key_Escape)
    release(viewport, start + QPointF(0, -40))
    QApplication.processEvents()
    assert window.undo_action.isEnabled() and window.history.stack.count() == 1


def test_a_query_arrow_dragged_back_to_where_it_began_is_no_step(qtbot, window):
    activate(qtbot, window)
    window.snap_action.trigger()  # a grid of 0.1: back on the start pixel means back on the start numbers
    before = window.reading().vectors(Role.QUERY)[4].tolist()
    viewport = window.canvas.viewport()
    start = tip_on_screen(window, Role.QUERY, 4)  # q·the
    press(viewport, start)
    move_holding(viewport, start + QPointF(40, 25))
    QApplication.processEvents()
    move_holding(viewport, start)
    release(viewport, start)
    QApplication.processEvents()
    assert window.reading().vectors(Role.QUERY)[4].tolist() == before
    assert window.reading().selected_token == "the"  # pressing on a query arrow still chooses it
    assert window.history.stack.count() == 0 and not window.windowTitle().startswith("*")


@pytest.mark.slow
def test_a_window_closed_with_steps_to_undo_leaves_no_error_behind(tmp_path):
    script = textwrap.dedent("""
        import os
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from PySide6.QtWidgets import QApplication
        from attn_desktop.model import Role
        from attn_desktop.model.commands import move_arrow
        from attn_desktop.ui.window.startup.app import build_window, make_application
        app = make_application([])
        window = build_window()
        window.show()
        window.history.do(move_arrow(window.reading(), Role.KEY, 1, window.reading().vectors(Role.KEY)[1], after=[1.0, 1.0]))
        window.history.do(move_arrow(window.reading(), Role.KEY, 2, window.reading().vectors(Role.KEY)[2], after=[0.5, 1.0]))
        window.history.stack.undo()
        window.documents.dialogs.ask_save_changes = lambda: __import__(
            "attn_desktop.ui.document.document_controller", fromlist=["SaveChanges"]).SaveChanges.DISCARD
        window.close()
        del window
        app.processEvents()
        print("closed")
    """)
    env = {"ATTN_DESKTOP_DATA_DIR": str(tmp_path), "HOME": str(tmp_path), "PATH": "/usr/bin:/bin",
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    run = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=120,
                         env=env)
    assert run.returncode == 0, run.stderr
    assert "closed" in run.stdout
    assert "Traceback" not in run.stderr and "already deleted" not in run.stderr, run.stderr
