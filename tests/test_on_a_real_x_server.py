"""Widget tests that only a real X server can tell apart, run again under Xvfb.

The offscreen platform counts Ctrl+Y as a text box's own Redo key; X11 does not, so only there
would Ctrl+Y in a half-typed answer reach the window's Redo. And the offscreen platform ends a
drag the moment it starts: the Sentence panel's drag to reorder is tested with the X server's
own mouse (xdotool).
"""

import os
import shutil
import subprocess
import sys
from contextlib import contextmanager

import pytest

from tests.support.project_root import ROOT

pytestmark = pytest.mark.slow  # both tests run tests in a child python on an X server

needs_x = pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("xdotool") is None,
                             reason="Xvfb and xdotool are needed")


@contextmanager
def xvfb_display():
    """A fresh Xvfb on a display number it picks itself; stopped with SIGTERM so it removes its lock."""
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1400x950x24", "-nolisten", "tcp"],
                              pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as announced:
        number = announced.readline().strip()
    try:
        assert number.isdigit(), f"Xvfb did not start (exit {server.poll()})"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def run_tests_on_x(selection: list[str]) -> subprocess.CompletedProcess:
    with xvfb_display() as display:
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *selection],
                              check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@needs_x
def test_undo_and_redo_keys_in_text_boxes_on_a_real_x_server():
    done = run_tests_on_x(["tests/ui/test_small_defects.py", "-k", "ctrl_z or outside_a_text_box"])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "4 passed" in done.stdout


@needs_x
def test_the_sentence_panel_on_a_real_x_server():
    done = run_tests_on_x(["tests/ui/test_sentence_panel.py"])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "skipped" not in done.stdout  # the real drag ran
