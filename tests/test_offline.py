"""The app never touches the network: not while starting, not while walking through every lesson."""

import subprocess
import sys

import pytest

from tests.support.project_root import ROOT

pytestmark = pytest.mark.slow  # both tests walk the lessons in a child python

WALK = r'''
import os, socket, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
attempts = []
real_socket = socket.socket

class RecordingSocket(real_socket):
    def connect(self, address):
        attempts.append(("connect", address))
        raise OSError("network use is not allowed in this test")
    def bind(self, address):
        attempts.append(("bind", address))
        return super().bind(address)

socket.socket = RecordingSocket
socket.create_connection = lambda *a, **k: attempts.append(("create_connection", a)) or (_ for _ in ()).throw(OSError())

from PySide6.QtWidgets import QApplication
from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.exercises import EXERCISES
from attn_desktop.ui.window.startup.app import build_window, make_application

app = make_application()
window = build_window()
window.show()
app.processEvents()
for lesson in lessons.LESSONS:
    window.open_lesson(lesson.id)
    app.processEvents()
for exercise in EXERCISES:
    if exercise.show_me:
        window.lessons.apply_show_me(exercise.show_me)
        app.processEvents()
window.history.reset()
window.close()
network_modules = sorted(m for m in sys.modules if m.startswith(("PySide6.QtNetwork", "urllib3", "requests", "http.client")))
print("ATTEMPTS", attempts)
print("MODULES", network_modules)
'''


def test_no_socket_is_opened_while_starting_and_walking_the_lessons(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "ATTN_DESKTOP_DATA_DIR": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-c", WALK], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert "ATTEMPTS []" in done.stdout, done.stdout
    assert "MODULES []" in done.stdout, done.stdout


def test_not_even_qt_opens_an_internet_socket(tmp_path):
    """The same walk under strace, which also sees sockets opened by Qt's C++ code."""
    import shutil

    import pytest

    if shutil.which("strace") is None:
        pytest.skip("strace is not installed")
    log = tmp_path / "strace.log"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "ATTN_DESKTOP_DATA_DIR": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = subprocess.run(["strace", "-f", "-e", "trace=socket,connect", "-o", str(log), sys.executable, "-c", WALK],
                          cwd=ROOT, capture_output=True, text=True, timeout=180, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    calls = log.read_text(encoding="utf-8", errors="replace")
    assert "+++ exited with 0 +++" in calls  # strace really followed the app
    assert "AF_INET" not in calls, [line for line in calls.splitlines() if "AF_INET" in line][:5]
