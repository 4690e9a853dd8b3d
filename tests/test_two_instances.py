"""Two real instances on one data folder, each with unsaved work, killed in turn: nobody's work is lost.

Each instance is `python -m attn_desktop SCENE` on the offscreen platform. The environment variable
ATTN_DESKTOP_TEST_EDIT makes it switch scaling off once it is up (an edit, unsaved), write its
recovery copy at once and print the copy's name. An instance that wrongly offered the other's live
work back would stop at its modal question and never print: the test would time out.
"""

import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from attn_desktop.model import ViewState
from attn_desktop.model.scene_files import save_scene
from attn_desktop.ui.document.autosave import find_left_work
from attn_desktop.ui.window.startup.app import default_scene

from tests.support.project_root import ROOT

START_TIMEOUT_S = 60
Buttons = QMessageBox.StandardButton

pytestmark = [
    pytest.mark.slow,  # every test starts the app in child processes (and builds the main window itself)
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL"),
]


def scene_titled(folder: Path, title: str) -> Path:
    view = ViewState()  # the file's own query chosen, and saved with it
    scene = default_scene(view)
    scene.title = title
    path = folder / f"{title.lower()}.json"
    save_scene(scene, path, view)
    return path


def start_instance(scene: Path, data_dir: Path, tmp_path: Path) -> tuple[subprocess.Popen, Path]:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "ATTN_DESKTOP_DATA_DIR": str(data_dir),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),  # the window layout it saves is the test's, not the user's
        "ATTN_DESKTOP_TEST_EDIT": "1",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "attn_desktop", str(scene)], cwd=ROOT, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    ready, _, _ = select.select([process.stdout], [], [], START_TIMEOUT_S)
    if not ready:
        process.kill()
        process.wait()
        pytest.fail(f"the instance on {scene.name} never reported its recovery copy (stuck at a question?)")
    return process, Path(process.stdout.readline().strip())


def kill(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait()  # reaped: a dead process, not a zombie that still looks alive
    process.stdout.close()


def copy_of(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def titles_offered(data_dir: Path) -> list[str]:
    """What a start at this moment would offer back (and then leave for a later start)."""
    left_behind, notices = find_left_work(data_dir)
    assert notices == []
    for left in left_behind:
        left.release()
    return sorted(left.data.title for left in left_behind)


@pytest.fixture
def two_crashed_instances(tmp_path, private_data_dir):
    """Alpha and Beta each switch scaling off; Alpha is killed while Beta runs, then Beta is killed."""
    alpha_scene, beta_scene = scene_titled(tmp_path, "Alpha"), scene_titled(tmp_path, "Beta")
    alpha, alpha_copy = start_instance(alpha_scene, private_data_dir, tmp_path)
    try:
        beta, beta_copy = start_instance(beta_scene, private_data_dir, tmp_path)
    except BaseException:
        kill(alpha)
        raise
    try:
        assert alpha_copy != beta_copy and alpha_copy.parent == beta_copy.parent == private_data_dir
        alpha_work = copy_of(alpha_copy)
        assert (alpha_work["scene"]["title"], alpha_work["scene"]["scale"]) == ("Alpha", False)
        assert alpha_work["source"] == str(alpha_scene)
        assert copy_of(beta_copy)["scene"]["title"] == "Beta"
        assert titles_offered(private_data_dir) == []  # both still run: neither copy is anyone else's to take
        kill(alpha)
        assert titles_offered(private_data_dir) == ["Alpha"]  # only the dead one's, never Beta's live work
        assert copy_of(beta_copy)["scene"]["title"] == "Beta" and copy_of(alpha_copy) == alpha_work
    finally:
        kill(beta)
    yield {"Alpha": (alpha_copy, alpha_scene), "Beta": (beta_copy, beta_scene)}


def third_start(qtbot, monkeypatch, answers: list):
    """A window started in this process, answering the questions it asks from ANSWERS."""
    from attn_desktop.ui.window.main_window import MainWindow

    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda parent, title, *a, **k: (asked.append(title), answers.pop(0))[1])
    window = MainWindow(default_scene())
    qtbot.addWidget(window)
    window.documents.offer_to_restore()
    window.asked_questions = asked
    return window


def test_a_third_start_brings_back_both_killed_instances_work(qtbot, monkeypatch, two_crashed_instances,
                                                              private_data_dir):
    third = third_start(qtbot, monkeypatch, [Buttons.Yes, Buttons.Yes])
    assert third.asked_questions == ["Restore unsaved work?", "Restore unsaved work?"]
    restored = [third, *third.documents.restored_elsewhere]
    by_title = {w.scene.title: w for w in restored}
    assert sorted(by_title) == ["Alpha", "Beta"]
    for title, (dead_copy, scene_file) in two_crashed_instances.items():
        again = by_title[title]
        assert again.scene_path == scene_file and not again.scene.scale  # the edit, back
        assert again.windowTitle().startswith("*")  # and still unsaved
        assert not dead_copy.exists()  # replaced by the new window's own copy, written at once:
        assert copy_of(again.autosaver.path)["scene"]["title"] == title
    assert titles_offered(private_data_dir) == []  # the new copies' owner runs
    for w in restored:
        qtbot.addWidget(w)
        w.history.reset()  # closing at teardown must not stop to ask


def test_no_deletes_only_the_dead_instances_copies(qtbot, monkeypatch, two_crashed_instances, private_data_dir):
    third = third_start(qtbot, monkeypatch, [Buttons.No, Buttons.No])
    assert third.scene.title == "The cat sat on the mat" and third.documents.restored_elsewhere == []
    for dead_copy, _scene_file in two_crashed_instances.values():
        assert not dead_copy.exists()
    assert sorted(p.name for p in private_data_dir.iterdir() if p.name.startswith("autosave")) == []


def test_an_instance_killed_twice_after_restoring_still_has_its_work(tmp_path, private_data_dir):
    """Restore, then crash again before any edit: the work is offered once more."""
    scene = scene_titled(tmp_path, "Gamma")
    first, first_copy = start_instance(scene, private_data_dir, tmp_path)
    kill(first)
    assert titles_offered(private_data_dir) == ["Gamma"]
    # The second start restores it (answered by a QMessageBox stand-in in its own process) and is killed too.
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "ATTN_DESKTOP_DATA_DIR": str(private_data_dir),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    restore_then_die = (
        "import os, sys\n"
        "from PySide6.QtWidgets import QMessageBox\n"
        "QMessageBox.question = staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes)\n"
        "from attn_desktop.ui.window.startup.app import make_application, default_scene\n"
        "from attn_desktop.ui.window.main_window import MainWindow\n"
        "app = make_application()\n"
        "window = MainWindow(default_scene())\n"
        "window.documents.offer_to_restore()\n"
        "print(window.scene.title, window.autosaver.path, flush=True)\n"
        "os.kill(os.getpid(), 9)\n"
    )
    second = subprocess.run([sys.executable, "-c", restore_then_die], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=START_TIMEOUT_S, check=False)
    title, second_copy = second.stdout.split()
    assert title == "Gamma" and second.returncode == -signal.SIGKILL
    assert not first_copy.exists() and Path(second_copy).exists()
    assert titles_offered(private_data_dir) == ["Gamma"]
