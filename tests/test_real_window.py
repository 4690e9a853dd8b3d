"""The app on a real X server (Xvfb): it opens a window that shows something, from source and frozen.

Offscreen tests are fast, but only a real display proves the window maps,
paints and is not blank. Skipped where Xvfb or ImageMagick's import is missing
(CI installs them).
"""

import json
import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from conftest import ROOT

FROZEN = ROOT / "dist" / "attn-desktop" / "attn-desktop"
needs_x = pytest.mark.skipif(
    shutil.which("Xvfb") is None or shutil.which("import") is None, reason="Xvfb and ImageMagick's import are needed"
)


@contextmanager
def xvfb_display(screen: str = "1400x950x24"):
    """A fresh Xvfb on a display number it chooses itself (-displayfd), stopped so that it removes its lock file.

    Picking a number by looking for lock files races with other servers, and a server killed with
    SIGKILL leaves its /tmp/.X<n>-lock behind for ever; SIGTERM lets it clean up.
    """
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", screen, "-nolisten", "tcp"],
                              pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as announced:
        number = announced.readline().strip()  # empty if the server exits before it is ready
    try:
        if not number.isdigit():
            pytest.fail(f"Xvfb did not start (exit {server.poll()})")
        yield f":{number}"
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def distinct_colours(png: Path) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QImage

    image = QImage(str(png)).scaled(200, 140)  # a sample of the screen is enough
    return len({image.pixel(x, y) for x in range(image.width()) for y in range(image.height())})


def screenshot_of(command: list[str], tmp_path: Path) -> Path:
    with xvfb_display() as display:
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
               "ATTN_DESKTOP_DATA_DIR": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
        app = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            return _screenshot_once_painted(app, display, tmp_path / "screen.png")
        finally:
            app.kill()
            app.wait()


def _screenshot_once_painted(app: subprocess.Popen, display: str, shot: Path) -> Path:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # until the window has painted something
        time.sleep(1.0)
        if app.poll() is not None:
            pytest.fail(f"the app exited: {app.stderr.read().decode(errors='replace')[-2000:]}")
        subprocess.run(["import", "-display", display, "-window", "root", str(shot)], check=False,
                       capture_output=True, timeout=30)
        if shot.exists() and distinct_colours(shot) > 40:
            break
    return shot


@needs_x
def test_the_window_from_source_is_not_blank(tmp_path):
    shot = screenshot_of([sys.executable, "-m", "attn_desktop"], tmp_path)
    assert distinct_colours(shot) > 40


@needs_x
@pytest.mark.skipif(not FROZEN.exists(), reason="the frozen app is not built (python packaging/build.py)")
def test_the_frozen_window_is_not_blank(tmp_path):
    shot = screenshot_of([str(FROZEN)], tmp_path)
    assert distinct_colours(shot) > 40


@needs_x
def test_a_teacher_at_a_1024_x_768_projector(tmp_path):
    """On a real X server of the classroom size: the Sentence list shows the scene's words after each edit,
    and a real F11 gives a presentation where every panel passes the layout audit."""
    report = tmp_path / "report.json"
    with xvfb_display("1024x768x24") as display:
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb",
               "ATTN_DESKTOP_DATA_DIR": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
        done = subprocess.run([sys.executable, str(ROOT / "tests" / "real_window_check.py"), str(report)], check=False,
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(report.read_text())
    six = ["The", "cat", "sat", "on", "the", "mat"]
    assert seen["rows"] == {"after adding dog": [*six, "dog"], "after undo": six, "after new": six}
    assert seen["presenting"] and seen["window"] == [1024, 768]
    audit = seen["audit"]
    assert audit["score_rows_visible"] == audit["score_rows"] == 6
    assert audit["matrix_numbers_shown"] and audit["matrix_font_px"] > 12
    assert (audit["chart_label_overlaps"], audit["label_overlaps"], audit["labels_crossing_arrows"],
            audit["labels_cut"]) == (0, 0, 0, 0)
    assert audit["max_label_offset_px"] <= audit["label_line_height_px"]
    assert audit["panels_cut"] == []
