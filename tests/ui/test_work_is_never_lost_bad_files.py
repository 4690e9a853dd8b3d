"""A bad file to open (File → Open, Open Recent, the command line) is a dialog and the scene stays; the undo
history keeps a limit."""

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from attn_desktop.model import Role, ViewState
from attn_desktop.model.scene_files import read_scene_data, scene_document
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.settings import remember_recent
from attn_desktop.ui.window.startup.app import default_scene

from tests.support.in_the_window import table_column
from tests.support.never_lost import (
    CTRL,
    a_dangling_link,
    a_fifo,
    a_folder,
    a_link_to_dev_urandom,
    a_link_to_dev_zero,
    binary_garbage,
    deeply_nested,
    empty,
    five_thousand_digits,
    huge_integers,
    not_a_scene,
)


def lone_surrogate(path):
    scene = scene_document(read_scene_data(scene_path(DEFAULT_SCENE)))
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
    from attn_desktop.ui.window.startup import startup_error

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
