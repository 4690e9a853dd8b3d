"""Autosave that fails: a lasting warning in the status bar, cleared when a copy is written again."""

import errno
import json

import pytest
from PySide6.QtCore import QPointF

from attn_desktop.model import Role
from attn_desktop.ui.document import autosave

from tests.support.in_the_window import drag_arrow
from tests.support.never_lost import autosave_write, press_save, save_as_answers


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
