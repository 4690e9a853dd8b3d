"""The app on a real X server (Xvfb): it opens a window that shows something, from source and frozen.

Offscreen tests are fast, but only a real display proves the window maps
and paints what the model says: the arrows are read back from a screenshot. Skipped where Xvfb or ImageMagick's import is missing
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

import numpy as np
import pytest

from attn_desktop.model import Role
from attn_desktop.model.scene_files import open_scene
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.palette import OUTPUT_COLOR, ROLE_COLORS

from arrow_pixels import arrow_along, arrow_from, degrees, drawn_in, screen_pixels, strongest_arrows
from project_root import ROOT

pytestmark = pytest.mark.slow  # every test starts the app, from source or frozen, on an X server

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


def assert_the_arrows_point_where_the_model_says(shot: Path) -> None:
    """The chosen query, its top key, that key's value and the output, read off the screenshot: each
    drawn as an arrow in its colour, pointing the way its vector does, with lengths in the vectors' ratio."""
    vectors = strongest_arrows(open_scene(scene_path(DEFAULT_SCENE)))
    rgb = screen_pixels(shot)
    query = arrow_along(drawn_in(rgb, ROLE_COLORS[Role.QUERY].name(), 0.95), vectors["query"])
    output = arrow_along(drawn_in(rgb, OUTPUT_COLOR.name(), 0.95), vectors["output"])
    # The top key and value share a plot (and its origin) with the query and the output; the other keys
    # and values are drawn paler by their weights (the seed's top key has 76%, the next 17%).
    key_scale = query.length / np.linalg.norm(vectors["query"])
    key = arrow_from(drawn_in(rgb, ROLE_COLORS[Role.KEY].name(), 0.7), query.tail, vectors["top key"],
                     reach=1.5 * key_scale * np.linalg.norm(vectors["top key"]))
    value_scale = output.length / np.linalg.norm(vectors["output"])
    value = arrow_from(drawn_in(rgb, ROLE_COLORS[Role.VALUE].name(), 0.7), output.tail, vectors["top value"],
                       reach=1.5 * value_scale * np.linalg.norm(vectors["top value"]))
    drawn = {"query": query, "top key": key, "top value": value, "output": output}
    for name, arrow in drawn.items():
        assert arrow.pixels > 100, f"no {name} arrow in the screenshot"
        assert abs(arrow.direction_degrees - degrees(vectors[name])) < 3, f"the {name} arrow points elsewhere"
    for longer, shorter in (("top key", "query"), ("top value", "output")):
        shown = drawn[longer].length / drawn[shorter].length
        assert shown == pytest.approx(np.linalg.norm(vectors[longer]) / np.linalg.norm(vectors[shorter]), rel=0.08)


@needs_x
def test_the_window_from_source_draws_the_arrows_where_the_model_puts_them(tmp_path):
    shot = screenshot_of([sys.executable, "-m", "attn_desktop"], tmp_path)
    assert_the_arrows_point_where_the_model_says(shot)


@needs_x
@pytest.mark.skipif(not FROZEN.exists(), reason="the frozen app is not built (python packaging/build.py)")
def test_the_frozen_window_draws_the_arrows_where_the_model_puts_them(tmp_path):
    shot = screenshot_of([str(FROZEN)], tmp_path)
    assert_the_arrows_point_where_the_model_says(shot)


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
