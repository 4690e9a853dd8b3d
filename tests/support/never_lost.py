"""What the tests of work never lost share: the Save As dialog answered by a stand-in, unsaved work made
as a drag makes it, a full disk, the app started again after a crash, and files damaged in every way a
file can be (each maker writes one at the path given)."""

import errno
import json
import os

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from attn_desktop.model import Role
from attn_desktop.model.commands import move_arrow
from attn_desktop.model.scene_files import read_scene_data, save_scene, scene_document
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.document import autosave
from attn_desktop.ui.window.main_window import MainWindow
from attn_desktop.ui.window.startup.app import default_scene

Buttons = QMessageBox.StandardButton
CTRL = Qt.KeyboardModifier.ControlModifier


def save_as_answers(monkeypatch, *paths):
    """The Save As dialog answers with these paths in turn (then Cancel)."""
    answers = [str(path) for path in paths]
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (answers.pop(0) if answers else "", ""))


def move_k_cat(window):
    """Unsaved work, made as a released drag makes it: k·cat moved to (0.5, 0.5), one step in the history."""
    window.history.do(move_arrow(window.reading(), Role.KEY, 1, before=window.reading().vectors(Role.KEY)[1], after=[0.5, 0.5]))


def opened_and_edited(window, path):
    save_scene(read_scene_data(scene_path(DEFAULT_SCENE)), path)
    assert window.documents.open_scene(path)
    move_k_cat(window)
    assert window.windowTitle().startswith("*")


def press_save(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_S, CTRL)


def full_disk(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def start_again(qtbot, window) -> MainWindow:
    """The next start of the app (a window of its own), offering what earlier runs left."""
    again = MainWindow(default_scene())
    qtbot.addWidget(again)
    again.show()  # as a start does: the window first, then the question
    qtbot.waitExposed(again)
    again.documents.offer_to_restore()
    return again


def deeply_nested(path):
    path.write_text('{"scene": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")


def huge_integers(path):
    scene = scene_document(read_scene_data(scene_path(DEFAULT_SCENE)))
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


autosave_write = autosave.write_json_atomically
