"""The window with a hostile data folder: a progress file that cannot be read or saved, a full disk for the
recovery copy, a read-only folder holding a crashed window's copy. The app starts, says what is wrong in
the status bar, and loses nothing.
"""

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QLockFile, Qt
from PySide6.QtWidgets import QMessageBox

from attn_desktop.model.scene_files import read_scene_data, scene_document
from attn_desktop.model.teaching import progress as progress_module
from attn_desktop.model.teaching.progress import ProgressStore
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.document import autosave
from attn_desktop.ui.window.startup.app import configure_pyqtgraph, default_scene, start_window

from tests.support.crash import TAKE_LOCK_AND_DIE

pytestmark = pytest.mark.slow
Buttons = QMessageBox.StandardButton
GOOD = {"format": "attention-desktop-progress", "version": 2, "done": {"challenges": ["twin-keys"]}}


@pytest.fixture
def start(qtbot, monkeypatch):
    """The app's start, as `attn-desktop` does it: the window on the last lesson, then left work offered.
    The questions asked are kept as (title, text) and answered from the list given (then No)."""
    configure_pyqtgraph()
    errors, questions = [], []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text, *a, **k: errors.append((title, text)))

    def starting(*answers):
        answers = list(answers)

        def ask(parent, title, text, *args, **kwargs):
            questions.append((title, text))
            return answers.pop(0) if answers else Buttons.No

        monkeypatch.setattr(QMessageBox, "question", ask)
        window = start_window(None, None)
        window.shown_errors, window.asked = errors, questions
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        window.documents.offer_to_restore()
        return window

    return starting


def answer_row_for_sat(qtbot, window):
    """The student answers an exercise right: progress to save."""
    assert window.open_lesson("self-attention")
    widget = next(w for w in window.lesson_panel.exercise_widgets if w.exercise.id == "row-for-sat")
    qtbot.keyClicks(widget.answer_edit, "82%, 2%, 17%")
    qtbot.keyClick(widget.answer_edit, Qt.Key.Key_Return)
    assert widget.mark_label.text() == "✓"


def notice(window) -> str:
    label = window.progress_notice_label
    return label.text() if label.isVisible() else ""


# ----- the progress file --------------------------------------------------------------------

def with_huge_rounds(path):
    path.write_text(json.dumps(dict(GOOD, predictions={"rounds": int("9" * 400)})), encoding="utf-8")


def with_25_digit_rounds(path):
    path.write_text(json.dumps(dict(GOOD, predictions={"rounds": int("9" * 25)})), encoding="utf-8")


def a_fifo(path):
    os.mkfifo(path)


def a_link_to_dev_zero(path):
    path.symlink_to("/dev/zero")


def garbage(path):
    path.write_bytes(bytes(range(256)) * 8)


def a_folder(path):
    path.mkdir()


@pytest.mark.parametrize("damage, reason", [
    (with_huge_rounds, "a whole number with 400 digits"),
    (with_25_digit_rounds, "rounds and winners right must be whole numbers from 0 to 1,000,000,000"),
    (a_fifo, "a pipe (FIFO), not a progress file"),
    (a_link_to_dev_zero, "a device, not a progress file"),
    (garbage, "not UTF-8 text"),
    (a_folder, "a folder, not a progress file"),
])
def test_the_app_starts_with_a_hostile_progress_file_says_so_and_keeps_it(
        qtbot, start, private_data_dir, deadline, no_tracebacks, damage, reason):
    private_data_dir.mkdir()
    path = private_data_dir / "progress.json"
    damage(path)
    original = os.lstat(path)
    window = start()
    assert window.shown_errors == [] and window.asked == []  # no dialog stops the start
    assert notice(window).startswith("⚠ Earlier progress could not be read (") and reason in notice(window)
    assert os.lstat(path).st_ino == original.st_ino  # looking is not changing
    answer_row_for_sat(qtbot, window)
    kept = private_data_dir / "progress.json.bad"
    assert os.lstat(kept).st_ino == original.st_ino  # the same file (link, pipe, folder), renamed, nothing lost
    assert notice(window).endswith("it was kept as progress.json.bad")
    assert ProgressStore().is_done("exercises", "row-for-sat")  # and the new progress is saved
    window.history.reset()


def test_a_bom_is_not_damage(qtbot, start, private_data_dir, no_tracebacks):
    private_data_dir.mkdir()
    (private_data_dir / "progress.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD).encode())
    window = start()
    assert notice(window) == "" and window.challenges_panel.summary_label.text() == "1 of 4 complete"
    answer_row_for_sat(qtbot, window)
    assert not (private_data_dir / "progress.json.bad").exists()
    assert ProgressStore().done_ids("challenges") == {"twin-keys"}
    window.history.reset()


def test_progress_that_cannot_be_saved_is_said_in_the_status_bar_until_it_can(
        qtbot, start, private_data_dir, tmp_path, no_tracebacks):
    private_data_dir.mkdir()
    share = tmp_path / "not-mounted"
    (private_data_dir / "progress.json").symlink_to(share / "progress.json")  # a dangling link
    window = start()
    assert notice(window) == ""
    answer_row_for_sat(qtbot, window)
    assert notice(window) == (f"⚠ Progress is not being saved: {private_data_dir / 'progress.json'} links to "
                              f"{share / 'progress.json'}, which cannot be written (No such file or directory)")
    window.statusBar().showMessage("k·cat (0.50, 0.50)", 4000)  # a drag read-out does not hide it
    assert window.progress_notice_label.isVisible() and window.shown_errors == []
    share.mkdir()  # mounted again: the next save works, and holds what could not be saved before
    window.progress.mark_done("challenges", "twin-keys")
    assert notice(window) == ""
    assert json.loads((share / "progress.json").read_text(encoding="utf-8"))["done"] == {
        "exercises": ["row-for-sat"], "challenges": ["twin-keys"]}
    window.history.reset()


def test_a_full_disk_for_progress_says_no_space_left(qtbot, start, monkeypatch, no_tracebacks):
    def full_disk(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(progress_module, "write_json_atomically", full_disk)
    window = start()
    answer_row_for_sat(qtbot, window)
    assert notice(window).startswith("⚠ Progress is not being saved: could not save progress to ")
    assert notice(window).endswith("progress.json: No space left on device")
    window.history.reset()


# ----- the recovery copy on a full disk -----------------------------------------------------

def a_failing_lock(error):
    class FailingLock(QLockFile):
        def tryLock(self, timeout=0):
            return False

        def error(self):
            return error

    return FailingLock


def test_a_lock_qt_cannot_write_on_a_full_disk_is_worded_as_saving_words_it(qtbot, start, monkeypatch):
    """What Qt does when the disk is full: its lock file cannot be written, "UnknownError"."""
    monkeypatch.setattr(autosave, "QLockFile", a_failing_lock(QLockFile.LockError.UnknownError))
    monkeypatch.setattr(autosave, "_write_probe", lambda folder: OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    window = start()
    window.scene.set_causal(True)
    window.autosaver.write_now()
    assert window.unprotected_label.text() == (
        "⚠ Unsaved work is not being protected: cannot write the recovery copy (No space left on device)")
    window.history.reset()


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KB file system of its own (needs the right to mount one: skipped where there is none)."""
    folder = tmp_path / "small-disk"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                             capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small file system here")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_really_full_disk_says_no_space_left_for_the_recovery_copy(qtbot, start, small_disk, monkeypatch):
    monkeypatch.setenv("ATTN_DESKTOP_DATA_DIR", str(small_disk))
    window = start()
    with open(small_disk / "filler", "wb") as filler:
        try:
            filler.write(b"\0" * 200_000)
        except OSError:
            pass  # full
    window.scene.set_causal(True)
    window.autosaver.write_now()
    assert window.unprotected_label.text() == (
        "⚠ Unsaved work is not being protected: cannot write the recovery copy (No space left on device)")
    os.unlink(small_disk / "filler")
    window.autosaver.write_now()
    assert not window.unprotected_label.isVisible()
    window.history.reset()


# ----- a read-only data folder with a crashed window's copy --------------------------------

def left_copy(folder: Path) -> Path:
    """What a crashed window leaves: its copy, and a lock naming a process that is gone."""
    folder.mkdir(exist_ok=True)
    scene = default_scene()
    scene.set_causal(True)
    copy = folder / "autosave-4242-badc0de.json"
    copy.write_text(json.dumps({"source": None, "scene": scene_document(scene)}), encoding="utf-8")
    lock = autosave.lock_path_for(copy)
    subprocess.run([sys.executable, "-c", TAKE_LOCK_AND_DIE, str(lock)], check=True)
    assert lock.exists()  # naming a process that is gone
    return copy


def test_a_copy_in_a_read_only_folder_is_offered_to_restore_and_left_where_it_is(
        qtbot, start, private_data_dir, monkeypatch, no_tracebacks):
    copy = left_copy(private_data_dir)
    before = copy.read_bytes()
    monkeypatch.setattr(autosave, "QLockFile", a_failing_lock(QLockFile.LockError.LockFailedError))  # stale, unremovable
    window = start(Buttons.Yes)
    [(title, question)] = window.asked
    assert title == "Restore unsaved work?" and f"the copy stays at {copy} either way" in question
    assert "No deletes" not in question
    assert window.scene.causal and window.windowTitle().startswith("*")  # the work is back, unsaved
    assert copy.read_bytes() == before  # and its copy untouched
    window.history.reset()


def test_declining_a_read_only_copy_keeps_it(qtbot, start, private_data_dir, monkeypatch):
    copy = left_copy(private_data_dir)
    monkeypatch.setattr(autosave, "QLockFile", a_failing_lock(QLockFile.LockError.PermissionError))
    window = start(Buttons.No)
    assert len(window.asked) == 1 and copy.exists() and not window.scene.causal


def test_a_live_windows_copy_is_still_never_offered(qtbot, start, private_data_dir, monkeypatch):
    folder = private_data_dir
    folder.mkdir()
    copy = folder / "autosave-1-abcdef01.json"
    copy.write_text(json.dumps({"source": None, "scene": scene_document(read_scene_data(scene_path(DEFAULT_SCENE)))}), encoding="utf-8")
    live = QLockFile(str(autosave.lock_path_for(copy)))
    assert live.tryLock(0)  # our own process: alive
    window = start(Buttons.Yes)
    assert window.asked == [] and copy.exists()
    live.unlock()


@pytest.fixture
def read_only_disk(small_disk):
    yield small_disk
    subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=False)


def test_a_really_read_only_folder_offers_its_copy(qtbot, start, read_only_disk, monkeypatch, no_tracebacks):
    copy = left_copy(read_only_disk)
    subprocess.run(["mount", "-o", "remount,ro", str(read_only_disk)], check=True)
    monkeypatch.setenv("ATTN_DESKTOP_DATA_DIR", str(read_only_disk))
    window = start(Buttons.Yes)
    [(_, question)] = window.asked
    assert f"the copy stays at {copy} either way" in question and window.scene.causal
    assert window.unprotected_label.text().endswith("cannot write the recovery copy (Read-only file system)")
    assert copy.exists()
    window.history.reset()


@pytest.mark.parametrize("damage", [a_fifo, a_link_to_dev_zero, with_huge_rounds, with_25_digit_rounds])
def test_the_real_app_starts_and_paints_with_a_hostile_progress_file(tmp_path, damage):
    data = tmp_path / "data"
    data.mkdir()
    damage(data / "progress.json")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "ATTN_DESKTOP_DATA_DIR": str(data),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    root = Path(__file__).resolve().parent.parent.parent
    done = subprocess.run([sys.executable, "-m", "attn_desktop", "--quit-after-paint"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert os.path.lexists(data / "progress.json")  # only looked at: kept until new progress is saved
