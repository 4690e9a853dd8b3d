"""Run by tests/test_real_window.py on a real X server with a window manager: a teacher's walk by keyboard.

Not a test module itself: a small program that starts the main window as `attn-desktop` does (the
layout saved for this screen size restored, then shown), presses each key given on the command line
on the X server (xdotool: the window activated through the window manager, then the key typed, as a
person's keyboard does), and after each, once the window manager has finished moving and resizing the
window, writes down what a teacher would check: the layout audit and the walk audit of
`attn-desktop snapshot --steps`, and where the window is. Ctrl+Q quits as a person does (the layout
saved on closing); the report is written to argv[1] as JSON: {"screen": [w, h], "steps": [...]}, with
a picture of the window after each step beside it (REPORT-0.png for the start, REPORT-1.png, ...).

    python tests/support/real_window_walk.py REPORT.json ctrl+4 F11 ctrl+7 ... ctrl+q
"""

import json
import subprocess
import sys
import time

from PySide6.QtWidgets import QApplication

from attn_desktop.ui.settings import app_settings
from attn_desktop.ui.tools.layout_audit import audit_window
from attn_desktop.ui.tools.snapshot import wait_until_settled
from attn_desktop.ui.tools.walk import headless
from attn_desktop.ui.tools.walk_audit import audit_walk
from attn_desktop.ui.window.main_window import MainWindow
from attn_desktop.ui.window.startup.app import make_application, show_as_started, start_window

QUIT_KEY = "ctrl+q"
STEADY_SECONDS = 0.7  # a window manager answers a resize or a full-screen request in a few round trips
LONGEST_SETTLE_SECONDS = 10.0


def wait(seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        QApplication.processEvents()
        time.sleep(0.01)


def run_while_serving_the_window(command: list[str]) -> None:
    """Run an xdotool command while the window keeps answering the X server (it may wait on the window)."""
    tool = subprocess.Popen(command)
    deadline = time.monotonic() + 20
    while tool.poll() is None and time.monotonic() < deadline:
        wait(0.02)
    if tool.poll() is None:
        tool.kill()
        tool.wait()


def press(window: MainWindow, key: str) -> None:
    """KEY typed into WINDOW from the X server: the window made the active one by the window manager first."""
    run_while_serving_the_window(["xdotool", "windowactivate", "--sync", str(int(window.winId()))])
    wait(0.2)
    run_while_serving_the_window(["xdotool", "key", "--clearmodifiers", key])


def window_state(window: MainWindow) -> tuple:
    frame, inside = window.frameGeometry(), window.geometry()
    return (frame.getRect(), inside.getRect(), window.isFullScreen(), window.presentation_mode.settling)


def settle_on_the_x_server(window: MainWindow) -> None:
    """Until the window's place, size and full-screen state have stopped changing (the window manager
    resizes asynchronously), then until its panels have settled as the snapshot command waits for them."""
    deadline = time.monotonic() + LONGEST_SETTLE_SECONDS
    last, steady_since = window_state(window), time.monotonic()
    while time.monotonic() < deadline:
        wait(0.05)
        now = window_state(window)
        if now != last:
            last, steady_since = now, time.monotonic()
        elif time.monotonic() - steady_since >= STEADY_SECONDS and not window.presentation_mode.settling:
            break
    wait_until_settled(window)


def seen(window: MainWindow, key: str) -> dict:
    """What a teacher checks now: the audits of `snapshot --steps`, and where the window is on the screen."""
    return {
        "key": key,
        "lesson": window.lessons.current,
        "presenting": window.presentation_action.isChecked(),
        "full_screen": window.isFullScreen(),
        "frame": list(window.frameGeometry().getRect()),
        "geometry": list(window.geometry().getRect()),
        "audit": {**audit_window(window), **audit_walk(window)},
    }


def layouts_saved() -> list[str]:
    """The screen sizes the settings file keeps a window layout for ("1024x768")."""
    settings = app_settings()
    settings.beginGroup("layouts")
    try:
        return settings.childGroups()
    finally:
        settings.endGroup()


def picture(window: MainWindow, report_path: str, number: int) -> None:
    window.grab().save(report_path.replace(".json", f"-{number}.png"))


def main(report_path: str, keys: list[str]) -> None:
    make_application()
    window = start_window(None, None)  # as attn-desktop starts: on the lesson the last run was on
    headless(window)  # nobody is there to answer a question; no step edits anything
    show_as_started(window)  # as attn-desktop starts: the layout saved for this screen size, if any
    settle_on_the_x_server(window)
    steps = [seen(window, "start")]
    picture(window, report_path, 0)
    for number, key in enumerate(keys, start=1):
        press(window, key)
        if key == QUIT_KEY:
            deadline = time.monotonic() + 10
            while window.isVisible() and time.monotonic() < deadline:
                wait(0.05)
            steps.append({"key": key, "closed": not window.isVisible(), "layouts_saved": layouts_saved()})
            break
        settle_on_the_x_server(window)
        steps.append(seen(window, key))
        picture(window, report_path, number)
    screen = window.screen().geometry()
    with open(report_path, "w", encoding="utf-8") as report:
        json.dump({"screen": [screen.width(), screen.height()], "steps": steps}, report, indent=2)
    if window.isVisible():
        window.history.reset()
        window.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
