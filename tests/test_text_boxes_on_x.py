"""Undo and redo keys in text boxes, on a real X server.

The offscreen platform counts Ctrl+Y as a text box's own Redo key; X11 does not, so only there
would Ctrl+Y in a half-typed answer reach the window's Redo. The same tests run here under Xvfb.
"""

import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
needs_x = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is needed")


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


@needs_x
def test_undo_and_redo_keys_in_text_boxes_on_a_real_x_server(tmp_path):
    with xvfb_display() as display:
        env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/ui/test_small_defects.py",
             "-k", "ctrl_z or outside_a_text_box"],
            check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
        )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "4 passed" in done.stdout
