"""Run by tests/test_real_window.py on a real X server (Xvfb): the app as a teacher uses it.

Not a test module itself: a small program that opens the real main window on the X server in
$DISPLAY, adds a word in the Sentence tab, starts a new scene, goes into presentation mode with a
real F11 key press from the X server (xdotool), and writes what it saw as JSON to argv[1]: the rows
the Sentence list *displays* after each step, and the layout audit in presentation mode.
"""

import json
import shutil
import subprocess
import sys
import time

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.tools.layout_audit import audit_window
from attn_desktop.ui.window.main_window import MainWindow
from attn_desktop.ui.window.startup.app import default_scene, make_application


def wait(seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        QApplication.processEvents()
        time.sleep(0.01)


def displayed_rows(window) -> list[str]:
    """The tokens the Sentence list shows, top to bottom: each row where the view lays it out, read back
    from the view at that spot (a view that missed an update shows old rows or none)."""
    view = window.sentence_panel.list
    rows = []
    for row in range(view.model().rowCount()):
        rect = view.visualRect(view.model().index(row, 0))
        if rect.isValid() and view.viewport().rect().intersects(rect):
            rows.append(view.indexAt(rect.center()).data())
    return rows


def press_key_on_the_x_server(window, key: str, fallback: Qt.Key) -> None:
    if shutil.which("xdotool"):
        window.activateWindow()
        wait(0.3)
        subprocess.run(["xdotool", "key", "--clearmodifiers", key], check=True, timeout=20)
    else:
        QTest.keyClick(window, fallback)


def main(report_path: str) -> None:
    make_application()
    window = MainWindow(default_scene())
    window.setGeometry(window.screen().availableGeometry())
    window.show()
    wait(1.5)
    seen = {}
    window.docks[DockId.SENTENCE].raise_()
    name_box = window.sentence_panel.new_name
    name_box.setFocus()
    QTest.keyClicks(name_box, "dog")
    QTest.keyClick(name_box, Qt.Key.Key_Return)
    wait(0.3)
    seen["after adding dog"] = displayed_rows(window)
    window.undo_action.trigger()  # Edit → Undo (in the name box, Ctrl+Z would undo the typing instead)
    wait(0.3)
    seen["after undo"] = displayed_rows(window)
    window.history.reset()  # so that New does not stop to ask about unsaved changes
    window.menu_actions["new_action"].trigger()
    wait(0.3)
    seen["after new"] = displayed_rows(window)
    press_key_on_the_x_server(window, "F11", Qt.Key.Key_F11)
    wait(2.0)  # the window goes full screen and the panels are arranged for it
    result = {"rows": seen, "presenting": window.presentation_action.isChecked(),
              "window": [window.width(), window.height()], "audit": audit_window(window)}
    window.grab().save(report_path.replace(".json", ".png"))
    with open(report_path, "w", encoding="utf-8") as report:
        json.dump(result, report, indent=2)
    window.history.reset()
    window.close()


if __name__ == "__main__":
    main(sys.argv[1])
