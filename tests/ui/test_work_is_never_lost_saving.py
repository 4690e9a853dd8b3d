"""Saving that fails keeps the work: a message, the work and its * stay; a read-only file is asked about and
never replaced (a copy elsewhere is offered), through a symlink too.

Everything goes through the real window's file actions: the keys and menus a user presses, the
file dialogs answered by stand-ins, the dialogs and the status bar read as the user reads them."""

import errno
import json

import pytest
from PySide6.QtCore import Qt

from attn_desktop.model import Role
from attn_desktop.model.scene_files import read_scene_data, save_scene
from attn_desktop.paths import DEFAULT_SCENE, scene_path

from tests.support.never_lost import (
    CTRL,
    Buttons,
    full_disk,
    move_k_cat,
    opened_and_edited,
    press_save,
    save_as_answers,
)


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
    save_scene(read_scene_data(scene_path(DEFAULT_SCENE)), locked)
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
    save_scene(read_scene_data(scene_path(DEFAULT_SCENE)), target)
    link.symlink_to(target)
    assert window.documents.open_scene(link)
    window.scene.set_scale(False)
    target.chmod(0o444)
    press_save(qtbot, window)
    assert asked == [("Cannot save scene", "link.json is read-only. Save a copy elsewhere?")]
    assert link.is_symlink() and json.loads(target.read_text(encoding="utf-8"))["scale"] is True


def test_saving_through_a_symlink_keeps_the_link(qtbot, window, tmp_path):
    target, link = tmp_path / "real.json", tmp_path / "link.json"
    save_scene(read_scene_data(scene_path(DEFAULT_SCENE)), target)
    link.symlink_to(target)
    assert window.documents.open_scene(link)
    window.scene.set_scale(False)
    press_save(qtbot, window)
    assert link.is_symlink() and json.loads(target.read_text(encoding="utf-8"))["scale"] is False
    assert window.windowTitle() == "link.json — Attention Desktop"
