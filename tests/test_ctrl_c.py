"""Ctrl+C in the terminal closes the window as File → Quit does: the app ends at once with exit code 0 and no
traceback, its window layout saved, and the unsaved work kept as its recovery copy for the next start to offer.

The app runs as `python -m attn_desktop` on the offscreen platform with its own folders. ATTN_DESKTOP_TEST_EDIT
makes it switch scaling off once it is up (an edit, unsaved), write its recovery copy and print the copy's name.
"""

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.document.autosave import find_left_work

from tests.support.project_root import ROOT

START_TIMEOUT_S = 60
QUIT_WITHIN_S = 5

pytestmark = [
    pytest.mark.slow,  # starts the app in a child process
    pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process is a POSIX matter"),
]


def test_ctrl_c_closes_the_window_keeping_the_unsaved_work(tmp_path):
    data, config = tmp_path / "data", tmp_path / "config"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(config),
           "ATTN_DESKTOP_DATA_DIR": str(data), "ATTN_DESKTOP_TEST_EDIT": "1"}
    scene = tmp_path / "mine.json"  # a file of one's own: its unsaved edit is the document's (a lesson's stays
    shutil.copyfile(scene_path(DEFAULT_SCENE), scene)  # with the lessons, as File → Quit keeps it)
    process = subprocess.Popen([sys.executable, "-m", "attn_desktop", str(scene)], cwd=ROOT, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        ready, _, _ = select.select([process.stdout], [], [], START_TIMEOUT_S)
        assert ready, "the window never came up"
        copy = Path(process.stdout.readline().strip())
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        try:
            process.wait(timeout=QUIT_WITHIN_S * 4)
        except subprocess.TimeoutExpired:
            pytest.fail("Ctrl+C did not stop the window")
        took = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        stderr = process.stderr.read()
        process.stdout.close()
        process.stderr.close()
    assert process.returncode == 0 and "Traceback" not in stderr, stderr
    assert took < QUIT_WITHIN_S, f"{took:.1f} s"
    kept = json.loads(copy.read_text(encoding="utf-8"))
    assert kept["scene"]["scale"] is False and kept["source"] == str(scene)  # the unsaved edit, of that file
    settings = (config / "attn-desktop" / "attn-desktop.ini").read_text(encoding="utf-8")
    assert "layout_version=" in settings and "window_state=" in settings  # closed as File → Quit closes
    left_behind, notices = find_left_work(data)
    assert [left.path for left in left_behind] == [copy] and notices == []  # offered back at the next start
    for left in left_behind:
        left.release()
