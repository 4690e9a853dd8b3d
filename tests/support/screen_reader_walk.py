"""Run by the system's Python (with pyatspi), inside a D-Bus session on an X server: what a screen reader sees.

    screen_reader_walk.py REPORT.json LANG PRESS APP_COMMAND...

Starts the accessibility bus, starts the app (APP_COMMAND, with its accessibility always on), opens lesson 3
(Ctrl+3), walks the app's accessibility tree over AT-SPI and writes every node's role, name, description and
states; with PRESS ("press"), it also gives the canvas the focus, Tabs until k·cat is focused and presses the
Right arrow key once, writing k·cat's description before and after and every announcement that came.
"""

import json
import os
import subprocess
import sys
import time

import pyatspi
from gi.repository import GLib

BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
CHOSEN_ARROW = "k·cat"
MATRIX = "Attention matrix"  # the English run's name of the matrix
SCORES = "Each key's score and weight"  # and of the score table


def pump(seconds):
    """Let AT-SPI's events arrive for SECONDS."""
    context = GLib.MainContext.default()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not context.iteration(False):
            time.sleep(0.02)


def _pid_of(app):
    """The process of an application on the bus (None for one going away as it is asked)."""
    try:
        return app.get_process_id() if app is not None and app.childCount > 0 else None
    except GLib.GError:
        return None


def the_app(pid, seconds=40):
    """The app's accessible object once it shows a frame."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        desktop = pyatspi.Registry.getDesktop(0)
        for index in range(desktop.childCount):
            app = desktop.getChildAtIndex(index)
            if _pid_of(app) == pid:
                return app
        pump(0.5)
    raise SystemExit("the app never appeared on the accessibility bus")


def _facts(node):
    """What a screen reader reads of NODE, and its children (None for a node that went away mid-walk)."""
    try:
        states = node.getState()
        return ({"role": node.getRoleName(), "name": node.name or "", "description": node.description or "",
                 "focusable": states.contains(pyatspi.STATE_FOCUSABLE),
                 "showing": states.contains(pyatspi.STATE_SHOWING), "node": node},
                [node.getChildAtIndex(index) for index in reversed(range(node.childCount))])
    except GLib.GError:
        return None


def nodes(root, limit=5000):
    """Every node under ROOT, parents before their children."""
    found, stack = [], [root]
    while stack and len(found) < limit:
        node = stack.pop()
        facts = _facts(node) if node is not None else None
        if facts is not None:
            found.append(facts[0])
            stack.extend(facts[1])
    return found


def key(display, name):
    subprocess.run(["xdotool", "key", "--clearmodifiers", name], env={**os.environ, "DISPLAY": display}, check=True)


def main():
    report_path, language, press, command = sys.argv[1], sys.argv[2], sys.argv[3] == "press", sys.argv[4:]
    display = os.environ["DISPLAY"]
    bus = subprocess.Popen([BUS_LAUNCHER, "--launch-immediately"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    env = {**os.environ, "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1", "QT_QPA_PLATFORM": "xcb"}
    app_process = subprocess.Popen([*command, "--lang", language], env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE)
    report = {}
    announcements, focused = [], []
    pyatspi.Registry.registerEventListener(
        lambda event: announcements.append({"text": str(event.any_data), "source": event.source.name or ""}),
        "object:announcement")
    pyatspi.Registry.registerEventListener(
        lambda event: focused.append(event.source.name or "") if event.detail1 else None,
        "object:state-changed:focused")
    try:
        app = the_app(app_process.pid)
        pump(2.0)
        key(display, "ctrl+3")  # lesson 3
        pump(3.0)
        walked = nodes(app)
        report["nodes"] = [{k: v for k, v in node.items() if k != "node"} for node in walked]
        canvases = [node for node in walked if node["role"] == "canvas" and node["showing"]]
        report["canvas"] = [{"name": child.name, "description": child.description, "role": child.getRoleName()}
                            for canvas in canvases[:1]
                            for child in (canvas["node"].getChildAtIndex(i) for i in range(canvas["node"].childCount))]
        matrices = [node["node"] for node in walked if node["role"] == "table" and node["name"] == MATRIX]
        report["matrix"] = [{"name": child.name, "role": child.getRoleName()} for matrix in matrices[:1]
                            for child in (matrix.getChildAtIndex(i) for i in range(matrix.childCount))]
        score_tables = [node["node"] for node in walked if node["role"] == "table" and node["name"] == SCORES]
        report["scores"] = [{"name": child.name, "role": child.getRoleName()} for table in score_tables[:1]
                            for child in (table.getChildAtIndex(i) for i in range(table.childCount))]
        if press and canvases:
            canvas = canvases[0]["node"]
            canvas.queryComponent().grabFocus()
            pump(1.0)
            for _ in range(12):
                if focused and focused[-1] == CHOSEN_ARROW:
                    break
                key(display, "Tab")
                pump(0.7)
            report["focused"] = list(focused)
            arrow = next(canvas.getChildAtIndex(i) for i in range(canvas.childCount)
                         if canvas.getChildAtIndex(i).name == CHOSEN_ARROW)
            report["before"] = arrow.description
            announcements.clear()
            key(display, "Right")
            pump(3.0)
            report["after"] = arrow.description
            report["announcements"] = list(announcements)
            report["output"] = next(child["name"] for child in report["canvas"] if child["name"].startswith("out"))
    finally:
        with open(report_path, "w", encoding="utf-8") as out:
            json.dump(report, out, ensure_ascii=False, indent=1)
        app_process.kill()
        app_process.wait()
        bus.terminate()
        bus.wait(timeout=10)


if __name__ == "__main__":
    main()
