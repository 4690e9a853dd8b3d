"""No work is ever lost: failed saves, exports and autosaves, read-only files, recovery copies (damaged,
restored, left by a crash, kept by another window still running) and bad files to open.

Everything goes through the real window's file actions: the keys and menus a user presses, the
file dialogs answered by stand-ins, the dialogs and the status bar read as the user reads them.
"""

import errno
import json
import os
import signal
import sys

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from attn_desktop.model import Role, ViewState, read
from attn_desktop.model.commands import move_arrow
from attn_desktop.model.scene_files import save_scene, scene_document
from attn_desktop.ui.document import autosave
from attn_desktop.ui.settings import remember_recent
from attn_desktop.ui.window.app import default_scene
from attn_desktop.ui.window.main_window import MainWindow

from crash import pretend_the_process_died
from helpers import drag_arrow, table_column

Buttons = QMessageBox.StandardButton
CTRL = Qt.KeyboardModifier.ControlModifier
SEED_K_CAT = [2.2, 1.0]


@pytest.fixture
def asked(window, monkeypatch):
    """The questions the window asks, as (title, text); answered from window.question_answers (else Cancel)."""
    questions = []

    def ask(parent, title, text, *args, **kwargs):
        questions.append((title, text))
        return window.question_answers.pop(0) if window.question_answers else Buttons.Cancel

    monkeypatch.setattr(QMessageBox, "question", ask)
    return questions


@pytest.fixture
def deadline():
    """A test that would hang (a pipe opened for reading) fails after 20 s instead."""
    def too_slow(*_):
        raise TimeoutError("still waiting after 20 s: something blocked")

    previous = signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def no_tracebacks(monkeypatch):
    escaped = []
    monkeypatch.setattr(sys, "excepthook", lambda *info: escaped.append(info))  # a slot's exception lands here
    yield escaped
    assert escaped == []


def save_as_answers(monkeypatch, *paths):
    """The Save As dialog answers with these paths in turn (then Cancel)."""
    answers = [str(path) for path in paths]
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (answers.pop(0) if answers else "", ""))


def move_k_cat(window):
    """Unsaved work, made as a released drag makes it: k·cat moved to (0.5, 0.5), one step in the history."""
    window.history.do(move_arrow(read(window.scene), Role.KEY, 1, before=window.reading().vectors(Role.KEY)[1], after=[0.5, 0.5]))


def opened_and_edited(window, path):
    save_scene(default_scene(), path)
    assert window.documents.open_scene(path)
    move_k_cat(window)
    assert window.windowTitle().startswith("*")


def press_save(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_S, CTRL)


def full_disk(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


# ----- 1. saving fails: a message, the work and its * stay -------------------------------------

def a_folder_in_the_way(tmp_path):
    (tmp_path / "folder.json").mkdir()
    return tmp_path / "folder.json", "not a file"


def no_such_folder(tmp_path):
    return tmp_path / "gone" / "scene.json", "No such file or directory"


def a_name_too_long(tmp_path):
    return tmp_path / ("x" * 300 + ".json"), "File name too long"


@pytest.mark.parametrize("target", [a_folder_in_the_way, no_such_folder, a_name_too_long])
def test_save_as_to_a_place_that_cannot_be_written_says_why_and_keeps_the_work(
        qtbot, window, tmp_path, monkeypatch, no_tracebacks, target):
    path, reason = target(tmp_path)
    move_k_cat(window)
    save_as_answers(monkeypatch, path)
    qtbot.keyClick(window, Qt.Key.Key_S, CTRL | Qt.KeyboardModifier.ShiftModifier)
    [(title, message)] = window.shown_errors
    assert title == "Cannot save scene" and reason in message
    assert window.windowTitle().startswith("*") and window.reading().vectors(Role.KEY)[1].tolist() == [0.5, 0.5]
    assert window.scene_path is None  # still the untitled scene, not a file that was never written


@pytest.mark.parametrize("failure, reason", [
    (full_disk, "No space left on device"),
    (lambda *a: (_ for _ in ()).throw(OSError(errno.EIO, "Input/output error")), "Input/output error"),
    (lambda *a: (_ for _ in ()).throw(ValueError("Out of range float values are not JSON compliant")),
     "not JSON compliant"),
    (lambda *a: (_ for _ in ()).throw(UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")),
     "cannot be written as UTF-8"),
])
def test_ctrl_s_that_fails_in_any_way_shows_a_dialog_and_leaves_the_file_as_it_was(
        qtbot, window, tmp_path, monkeypatch, no_tracebacks, failure, reason):
    path = tmp_path / "mine.json"
    opened_and_edited(window, path)
    before = path.read_bytes()
    monkeypatch.setattr("attn_desktop.model.scene_files.write_json_atomically", failure)
    press_save(qtbot, window)
    [(title, message)] = window.shown_errors
    assert title == "Cannot save scene" and reason in message and "mine.json" in message
    assert window.windowTitle() == "*mine.json — Attention Desktop"
    assert path.read_bytes() == before


def test_answering_save_on_close_when_the_save_fails_keeps_the_window_open(
        qtbot, window, tmp_path, monkeypatch, no_tracebacks):
    path = tmp_path / "mine.json"
    opened_and_edited(window, path)
    window.autosaver.write_now()
    monkeypatch.setattr("attn_desktop.model.scene_files.write_json_atomically", full_disk)
    window.question_answers.append(Buttons.Save)
    assert not window.close()
    assert window.isVisible() and window.windowTitle().startswith("*")
    assert window.shown_errors[0][0] == "Cannot save scene"
    assert window.autosaver.path.exists()  # the recovery copy is kept too


def test_a_failed_save_from_the_question_before_opening_a_lesson_keeps_the_scene(
        qtbot, window, tmp_path, monkeypatch, no_tracebacks):
    path = tmp_path / "mine.json"
    opened_and_edited(window, path)
    monkeypatch.setattr("attn_desktop.model.scene_files.write_json_atomically", full_disk)
    window.question_answers.append(Buttons.Save)
    qtbot.keyClick(window, Qt.Key.Key_1, CTRL)  # open lesson 1: asks first
    assert window.reading().vectors(Role.KEY)[1].tolist() == [0.5, 0.5] and window.scene_path == path


# ----- 1. read-only files: asked, never replaced ----------------------------------------------

@pytest.mark.parametrize("mode", [0o444, 0o400, 0o440])
def test_saving_over_a_read_only_file_offers_a_copy_elsewhere(
        qtbot, window, tmp_path, monkeypatch, asked, no_tracebacks, mode):
    path, copy = tmp_path / "shared.json", tmp_path / "my copy.json"
    opened_and_edited(window, path)
    path.chmod(mode)
    before = path.read_bytes()
    save_as_answers(monkeypatch, copy)
    window.question_answers.append(Buttons.Save)
    press_save(qtbot, window)
    assert asked == [("Cannot save scene", "shared.json is read-only. Save a copy elsewhere?")]
    assert path.read_bytes() == before
    assert json.loads(copy.read_text(encoding="utf-8"))["keys"][1] == [0.5, 0.5]
    assert window.windowTitle() == "my copy.json — Attention Desktop"


def test_declining_the_copy_leaves_the_read_only_file_and_the_star(
        qtbot, window, tmp_path, monkeypatch, asked, no_tracebacks):
    path = tmp_path / "shared.json"
    opened_and_edited(window, path)
    path.chmod(0o444)
    before = path.read_bytes()
    press_save(qtbot, window)  # the question is answered Cancel
    assert len(asked) == 1 and path.read_bytes() == before
    assert window.windowTitle() == "*shared.json — Attention Desktop"


def test_save_as_onto_a_read_only_file_asks_again_and_cancel_stops(
        qtbot, window, tmp_path, monkeypatch, asked, no_tracebacks):
    locked = tmp_path / "locked.json"
    save_scene(default_scene(), locked)
    locked.chmod(0o444)
    before = locked.read_bytes()
    window.causal_action.trigger()
    save_as_answers(monkeypatch, locked, locked)
    window.question_answers.append(Buttons.Save)  # "save a copy elsewhere?" yes ... the same file again; then cancel
    qtbot.keyClick(window, Qt.Key.Key_S, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert [title for title, _ in asked] == ["Cannot save scene", "Cannot save scene"]
    assert locked.read_bytes() == before and window.windowTitle().startswith("*")


def test_a_read_only_file_behind_a_symlink_is_not_replaced(qtbot, window, tmp_path, monkeypatch, asked):
    target, link = tmp_path / "real.json", tmp_path / "link.json"
    save_scene(default_scene(), target)
    link.symlink_to(target)
    assert window.documents.open_scene(link)
    window.scene.set_scale(False)
    target.chmod(0o444)
    press_save(qtbot, window)
    assert asked == [("Cannot save scene", "link.json is read-only. Save a copy elsewhere?")]
    assert link.is_symlink() and json.loads(target.read_text(encoding="utf-8"))["scale"] is True


def test_saving_through_a_symlink_keeps_the_link(qtbot, window, tmp_path):
    target, link = tmp_path / "real.json", tmp_path / "link.json"
    save_scene(default_scene(), target)
    link.symlink_to(target)
    assert window.documents.open_scene(link)
    window.scene.set_scale(False)
    press_save(qtbot, window)
    assert link.is_symlink() and json.loads(target.read_text(encoding="utf-8"))["scale"] is False
    assert window.windowTitle() == "link.json — Attention Desktop"


# ----- 1. exports that fail or would replace what they must not -------------------------------

EXPORTS = {
    "json": lambda window: window.menu_actions["export_action"].trigger(),
    "weights csv": lambda window: window.menu_actions["export_weights_csv_action"].trigger(),
    "scores csv": lambda window: window.menu_actions["export_scores_csv_action"].trigger(),
    "svg": lambda window: window.menu_actions["export_svg_action"].trigger(),
}


@pytest.mark.parametrize("export", EXPORTS)
def test_an_export_never_replaces_the_scene_it_comes_from(qtbot, window, tmp_path, monkeypatch, export):
    path = tmp_path / "lesson.json"
    save_scene(default_scene(), path)
    assert window.documents.open_scene(path)
    before = path.read_bytes()
    link = tmp_path / "same scene.json"
    link.symlink_to(path)
    for name in (path, link):
        save_as_answers(monkeypatch, name)
        EXPORTS[export](window)
    assert [title for title, _ in window.shown_errors] == ["Cannot export", "Cannot export"]
    assert "this scene's own file" in window.shown_errors[0][1]
    assert path.read_bytes() == before and window.documents.open_scene(path)


@pytest.mark.parametrize("export", EXPORTS)
def test_an_export_over_a_read_only_file_is_refused(qtbot, window, tmp_path, monkeypatch, export):
    path = tmp_path / "handout.out"
    path.write_text("keep me", encoding="utf-8")
    path.chmod(0o444)
    save_as_answers(monkeypatch, path)
    EXPORTS[export](window)
    [(title, message)] = window.shown_errors
    assert title == "Cannot export" and "read-only" in message
    assert path.read_text(encoding="utf-8") == "keep me"


SUFFIXES = {"json": ".json", "weights csv": ".csv", "scores csv": ".csv", "svg": ".svg"}


@pytest.mark.parametrize("export", EXPORTS)
@pytest.mark.parametrize("place, reason", [
    ("gone/out", "No such file or directory"),
    ("a folder", "it is a folder, not a file"),
])
def test_an_export_that_cannot_be_written_says_why(
        qtbot, window, tmp_path, monkeypatch, no_tracebacks, export, place, reason):
    target = tmp_path / (place + SUFFIXES[export])
    if place == "a folder":
        target.mkdir()
    save_as_answers(monkeypatch, target)
    EXPORTS[export](window)
    [(title, message)] = window.shown_errors
    assert title == "Cannot export" and message == f"{target}: {reason}"


def test_an_export_on_a_full_disk_says_so(qtbot, window, tmp_path, monkeypatch, no_tracebacks):
    monkeypatch.setattr("attn_desktop.ui.document.scene_exports.write_text_atomically", full_disk)
    save_as_answers(monkeypatch, tmp_path / "results.json", tmp_path / "weights.csv")
    window.menu_actions["export_action"].trigger()
    window.menu_actions["export_weights_csv_action"].trigger()
    assert [m for _, m in window.shown_errors] == [f"{tmp_path / 'results.json'}: No space left on device",
                                                   f"{tmp_path / 'weights.csv'}: No space left on device"]
    assert not (tmp_path / "results.json").exists()


# ----- 2. restored work is protected at once ----------------------------------------------------

def start_again(qtbot, window) -> MainWindow:
    """The next start of the app (a window of its own), offering what earlier runs left."""
    again = MainWindow(default_scene())
    qtbot.addWidget(again)
    again.show()  # as a start does: the window first, then the question
    qtbot.waitExposed(again)
    again.documents.offer_to_restore()
    return again


def test_restored_work_is_copied_again_at_once_so_a_second_crash_loses_nothing(qtbot, window, asked):
    window.scene.set_vector(Role.KEY, 1, [0.5, 0.5])
    window.autosaver.write_now()
    first_copy = window.autosaver.path
    pretend_the_process_died(window)
    window.question_answers.extend([Buttons.Yes, Buttons.Yes])
    again = start_again(qtbot, window)
    assert again.reading().vectors(Role.KEY)[1].tolist() == [0.5, 0.5]
    assert not first_copy.exists()
    assert json.loads(again.autosaver.path.read_text(encoding="utf-8"))["scene"]["keys"][1] == [0.5, 0.5]
    pretend_the_process_died(again)  # a second crash, before any edit
    third = start_again(qtbot, window)
    assert [title for title, _ in asked] == ["Restore unsaved work?"] * 2
    assert read(third.scene).vectors(Role.KEY)[1].tolist() == [0.5, 0.5] and third.windowTitle().startswith("*")
    for w in (again, third):
        w.history.reset()


def test_restored_work_whose_new_copy_cannot_be_written_keeps_the_old_copy(qtbot, window, monkeypatch, asked):
    window.scene.set_causal(True)
    window.autosaver.write_now()
    first_copy = window.autosaver.path
    pretend_the_process_died(window)
    monkeypatch.setattr(autosave, "write_json_atomically", full_disk)
    window.question_answers.append(Buttons.Yes)
    again = start_again(qtbot, window)
    assert again.scene.causal and first_copy.exists()  # the only copy of the work is not thrown away
    assert again.unprotected_label.isVisible()
    monkeypatch.setattr(autosave, "write_json_atomically", autosave_write)  # room on the disk again
    again.autosaver.write_now()
    assert not first_copy.exists() and again.autosaver.path.exists() and not again.unprotected_label.isVisible()
    again.history.reset()


def test_saving_restored_work_removes_every_copy_of_it(qtbot, window, tmp_path, monkeypatch, asked):
    window.scene.set_scale(False)
    window.autosaver.write_now()
    pretend_the_process_died(window)
    window.question_answers.append(Buttons.Yes)
    again = start_again(qtbot, window)
    save_as_answers(monkeypatch, tmp_path / "kept.json")
    again.menu_actions["save_action"].trigger()
    assert json.loads((tmp_path / "kept.json").read_text(encoding="utf-8"))["scale"] is False
    assert sorted(p.name for p in window.autosaver.folder.glob("autosave*.json")) == []


# ----- 3. one recovery copy per window; another window's live copy is never taken ---------------

def test_a_second_window_does_not_offer_or_delete_the_first_ones_live_work(qtbot, window, asked):
    window.scene.set_scale(False)
    window.autosaver.write_now()
    second = start_again(qtbot, window)
    assert asked == [] and window.autosaver.path.exists()
    second.scene.set_causal(True)
    second.autosaver.write_now()
    assert second.autosaver.path != window.autosaver.path
    third = start_again(qtbot, window)
    assert asked == [] and window.autosaver.path.exists() and second.autosaver.path.exists()
    assert json.loads(window.autosaver.path.read_text(encoding="utf-8"))["scene"]["scale"] is False
    assert json.loads(second.autosaver.path.read_text(encoding="utf-8"))["scene"]["causal"] is True
    second.history.reset()
    assert third.scene.scale


def test_no_deletes_only_the_dead_windows_copy(qtbot, window, asked):
    live = start_again(qtbot, window)
    live.scene.set_causal(True)
    live.autosaver.write_now()
    window.scene.set_scale(False)
    window.autosaver.write_now()
    dead_copy = window.autosaver.path
    pretend_the_process_died(window)
    window.question_answers.append(Buttons.No)
    start_again(qtbot, window)
    assert len(asked) == 1 and "No deletes this copy" in asked[0][1]
    assert not dead_copy.exists() and live.autosaver.path.exists()
    live.history.reset()


def test_the_shared_copy_of_an_earlier_version_is_offered_and_taken_over(qtbot, window, asked, private_data_dir):
    scene = default_scene()
    scene.set_vector(Role.KEY, 1, [0.25, 0.75])
    private_data_dir.mkdir(exist_ok=True)
    legacy = private_data_dir / "autosave.json"
    legacy.write_text(json.dumps({"source": None, "scene": scene_document(scene)}), encoding="utf-8")
    window.question_answers.append(Buttons.Yes)
    again = start_again(qtbot, window)
    assert again.reading().vectors(Role.KEY)[1].tolist() == [0.25, 0.75]
    assert not legacy.exists() and again.autosaver.path.exists()
    again.history.reset()


def test_closing_normally_leaves_no_copy_and_no_lock(qtbot, window, private_data_dir):
    window.scene.set_scale(False)
    window.autosaver.write_now()
    assert sorted(p.suffix for p in private_data_dir.glob("autosave-*")) == [".json", ".lock"]
    window.question_answers.append(Buttons.Discard)
    assert window.close()
    assert list(private_data_dir.glob("autosave*")) == []


# ----- 4. a damaged recovery copy never stops the start --------------------------------------

def deeply_nested(path):
    path.write_text('{"scene": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")


def huge_integers(path):
    scene = scene_document(default_scene())
    text = json.dumps({"source": None, "scene": scene}).replace("2.2", "9" * 400, 1)
    path.write_text(text, encoding="utf-8")


def five_thousand_digits(path):
    path.write_text('{"source": null, "scene": {"selected": ' + "7" * 5000 + "}}", encoding="utf-8")


def a_fifo(path):
    os.mkfifo(path)


def a_link_to_dev_zero(path):
    path.symlink_to("/dev/zero")


def a_link_to_dev_urandom(path):
    path.symlink_to("/dev/urandom")


def binary_garbage(path):
    path.write_bytes(bytes(range(256)) * 64)


def a_folder(path):
    path.mkdir()


def a_dangling_link(path):
    path.symlink_to(path.with_name("nowhere"))


def not_a_scene(path):
    path.write_text('{"source": 7, "scene": {"tokens": "cat"}}', encoding="utf-8")


def empty(path):
    path.write_bytes(b"")


DAMAGE = [deeply_nested, huge_integers, five_thousand_digits, a_fifo, a_link_to_dev_zero, a_link_to_dev_urandom,
          binary_garbage, a_folder, a_dangling_link, not_a_scene, empty]


@pytest.mark.parametrize("name", ["autosave-4242-badc0de.json", "autosave.json"])
@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_recovery_copy_is_set_aside_with_a_notice(
        qtbot, window, asked, deadline, no_tracebacks, private_data_dir, damage, name):
    private_data_dir.mkdir(exist_ok=True)
    copy = private_data_dir / name
    damage(copy)
    again = start_again(qtbot, window)
    assert asked == []  # nothing to offer, nothing to answer
    notice = again.statusBar().currentMessage()
    [aside] = [p.name for p in private_data_dir.iterdir() if "-damaged-" in p.name]
    assert notice.startswith("A damaged recovery copy (") and notice.endswith(f"was set aside as {aside}.")
    assert "\n" not in notice and aside.startswith(copy.stem + "-damaged-")
    assert not os.path.lexists(copy)
    assert table_column(again, 0) == default_scene().tokens  # the app started as usual
    assert find_left_nothing(private_data_dir)  # and the next start is not bothered again


def find_left_nothing(folder) -> bool:
    left, notices = autosave.find_left_work(folder)
    return left == [] and notices == []


def test_a_damaged_copy_beside_a_good_one_does_not_hide_it(qtbot, window, asked, private_data_dir):
    window.scene.set_scale(False)
    window.autosaver.write_now()
    pretend_the_process_died(window)
    binary_garbage(private_data_dir / "autosave-99-abc.json")
    window.question_answers.append(Buttons.Yes)
    again = start_again(qtbot, window)
    assert not again.scene.scale and "set aside" in again.statusBar().currentMessage()
    again.history.reset()


# ----- 5. autosave that fails: a lasting warning, cleared when a copy is written again ----------

@pytest.mark.parametrize("error", [
    OSError(errno.ENOSPC, "No space left on device"),
    OSError(errno.EROFS, "Read-only file system"),
    PermissionError(errno.EACCES, "Permission denied"),
    OSError(errno.EDQUOT, "Disk quota exceeded"),
])
def test_autosave_failing_warns_once_in_the_status_bar_until_a_copy_is_written(
        qtbot, window, monkeypatch, no_tracebacks, error):
    def failing(*_args, **_kwargs):
        raise error

    monkeypatch.setattr(autosave, "write_json_atomically", failing)
    monkeypatch.setattr(autosave, "RETRY_DELAY_MS", 50)
    drag_arrow(window, Role.KEY, 1, QPointF(-30, -20))
    window.autosaver.write_now()  # what the timer does two seconds after the edit
    label = window.unprotected_label
    assert label.isVisible() and label.text() == (
        f"⚠ Unsaved work is not being protected: cannot write the recovery copy ({error.strerror})")
    window.scene.set_causal(True)
    window.autosaver.write_now()
    assert window.shown_errors == [] and label.isVisible()  # said once, in the status bar, no dialogs
    window.statusBar().showMessage("k·cat (0.50, 0.50)", 4000)  # a drag read-out does not hide it
    assert label.isVisible()
    monkeypatch.setattr(autosave, "write_json_atomically", autosave_write)
    qtbot.waitUntil(lambda: not label.isVisible(), timeout=2000)  # the retry worked, with no further edit
    assert json.loads(window.autosaver.path.read_text(encoding="utf-8"))["scene"]["causal"] is True


autosave_write = autosave.write_json_atomically


@pytest.fixture
def data_folder_is_a_file(private_data_dir):
    private_data_dir.parent.mkdir(parents=True, exist_ok=True)
    private_data_dir.write_text("not a folder", encoding="utf-8")


def test_a_data_folder_that_cannot_exist_warns_and_saving_clears_it(
        qtbot, data_folder_is_a_file, window, tmp_path, monkeypatch, no_tracebacks):
    window.scene.set_scale(False)
    window.autosaver.write_now()
    assert window.unprotected_label.isVisible() and "recovery copy" in window.unprotected_label.text()
    save_as_answers(monkeypatch, tmp_path / "saved.json")
    press_save(qtbot, window)
    assert not window.unprotected_label.isVisible()  # saved: nothing left to protect


# ----- 6. a bad file to open: a dialog, the scene stays ------------------------------------------

def lone_surrogate(path):
    scene = scene_document(default_scene())
    scene["tokens"][1] = "\ud83d"
    path.write_text(json.dumps(scene), encoding="utf-8")


def a_huge_selected(path):
    view = ViewState()  # "sat" chosen, as the file says
    path.write_text(json.dumps(scene_document(default_scene(view), view)).replace('"selected": 2', '"selected": ' + "9" * 400),
                    encoding="utf-8")


BAD_FILES = [deeply_nested, huge_integers, five_thousand_digits, a_fifo, a_link_to_dev_zero, a_link_to_dev_urandom,
             binary_garbage, a_folder, a_dangling_link, not_a_scene, empty, lone_surrogate, a_huge_selected]


@pytest.mark.parametrize("bad", BAD_FILES)
def test_file_open_of_a_bad_file_shows_a_dialog_and_keeps_the_scene(
        qtbot, window, tmp_path, monkeypatch, deadline, no_tracebacks, bad):
    path = tmp_path / "bad.json"
    bad(path)
    window.scene.set_vector(Role.KEY, 1, [0.5, 0.5])
    window.history.stack.setClean()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    qtbot.keyClick(window, Qt.Key.Key_O, CTRL)
    [(title, message)] = window.shown_errors
    assert title == "Cannot open scene" and message.startswith(str(path)) and "\n" not in message
    assert window.reading().vectors(Role.KEY)[1].tolist() == [0.5, 0.5] and window.scene_path is None


@pytest.mark.parametrize("bad", [a_fifo, binary_garbage, huge_integers])
def test_open_recent_of_a_file_gone_bad_shows_a_dialog(qtbot, window, tmp_path, deadline, no_tracebacks, bad):
    path = tmp_path / "was fine.json"
    remember_recent(path)
    bad(path)
    window.recent_menu.aboutToShow.emit()  # File → Open Recent, as it opens
    [entry] = [a for a in window.recent_menu.actions() if a.text() == "was fine.json"]
    entry.trigger()
    assert [title for title, _ in window.shown_errors] == ["Cannot open scene"]
    assert table_column(window, 0) == default_scene().tokens


@pytest.mark.parametrize("bad", [a_fifo, a_link_to_dev_zero, five_thousand_digits, deeply_nested, binary_garbage])
def test_a_bad_scene_on_the_command_line_is_a_dialog_and_exit_2(tmp_path, monkeypatch, capsys, deadline, bad):
    from attn_desktop.cli import open_app
    from attn_desktop.ui.window import startup_error

    path = tmp_path / "given.json"
    bad(path)
    shown = []
    monkeypatch.setattr(startup_error, "can_show_a_dialog", lambda: True)
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text, *a, **k: shown.append((title, text)))
    assert open_app.gui_main([str(path)]) == 2
    [(title, message)] = shown
    assert title == "Cannot open scene" and message.startswith(str(path))
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


# ----- 7. the undo history has a limit ---------------------------------------------------------

def test_the_undo_history_keeps_the_last_thousand_steps(qtbot, window):
    from attn_desktop.ui.document.edit_history import UNDO_LIMIT

    for step in range(UNDO_LIMIT + 5):
        window.scale_action.trigger()
    stack = window.history.stack
    assert UNDO_LIMIT == 1000 and stack.count() == 1000
    assert window.undo_action.text() == "&Undo Scaling off"  # the latest step (1,005 switches from on)
    stack.setIndex(0)
    assert window.scene.scale is False  # the state before the oldest step kept: 5 older steps forgotten
    assert window.windowTitle().startswith("*")
