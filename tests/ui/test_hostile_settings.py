"""A damaged settings file never stops a start: the window opens with a usable layout, the bad value is dropped
with a line in the log, and work a crashed session left unsaved is still offered back.

The settings file is the app's own, but a crash, a full disk, another version or a hand edit can leave
anything in it. Each case writes the value into the file as it would be found on disk, then starts the
window as `attn-desktop` does (the window on the last lesson, its saved layout, then the left work offered).
"""

import json
import logging
import os
import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from attn_desktop.model import ViewState
from attn_desktop.model.scene_files import scene_document
from attn_desktop.ui.settings import LAYOUT_VERSION, app_settings, recent_files, saved_language
from attn_desktop.ui.window.startup.app import configure_pyqtgraph, default_scene, show_as_started, start_window

from tests.support.project_root import ROOT

pytestmark = pytest.mark.slow  # every test builds the real main window
LEFT_TITLE = "Left behind by a crash"
USABLE_CANVAS = (200, 150)  # pixels: room to drag the arrows


def settings_path() -> Path:
    return Path(app_settings().fileName())


@pytest.fixture
def left_work(private_data_dir):
    """A recovery copy whose window is gone (no lock): the next start must offer it back."""
    view = ViewState()
    scene = default_scene(view)
    scene.title = LEFT_TITLE
    private_data_dir.mkdir(parents=True, exist_ok=True)
    copy = private_data_dir / "autosave-4000000-0badc0de.json"
    copy.write_text(json.dumps({"source": None, "scene": scene_document(scene, view)}), encoding="utf-8")
    return copy


@pytest.fixture
def start(qtbot, monkeypatch):
    """Start as the app does; the restore questions asked are kept on the window (answered No)."""
    configure_pyqtgraph()

    def starting():
        asked = []
        monkeypatch.setattr(QMessageBox, "question", lambda parent, title, text, *a, **k: (
            asked.append(text), QMessageBox.StandardButton.No)[1])
        window = start_window(None, None)
        qtbot.addWidget(window)
        show_as_started(window)
        qtbot.waitExposed(window)
        window.documents.offer_to_restore()
        window.restore_questions = asked
        return window

    return starting


@pytest.fixture
def saved_layout(start):
    """The layout group ("layouts/1024x768") a real window saved for this screen, and the file it is in."""
    window = start()
    window.save_window_state()
    window.close()
    settings = app_settings()
    settings.beginGroup("layouts")
    groups = settings.childGroups()
    assert len(groups) == 1, groups
    return groups[0]


def write_raw(line_start: str, raw: str) -> None:
    """Replace the value of the line LINE_START=… of the settings file with RAW, as a hand edit or a damaged
    write leaves it (not through QSettings, which would escape it)."""
    path = settings_path()
    text, count = re.subn(rf"^{re.escape(line_start)}=.*$", lambda _: f"{line_start}={raw}",
                          path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert count == 1, (line_start, path.read_text(encoding="utf-8"))
    path.write_text(text, encoding="utf-8")
    stamp = path.stat().st_mtime + 10
    os.utime(path, (stamp, stamp))  # Qt keeps the file it read: a new time makes it read it again


def assert_started_well(window, caplog, key: str) -> None:
    """Open, usable, the value's key named in the log, the left work offered back."""
    assert window.isVisible()
    canvas = window.canvas
    assert canvas.isVisible() and canvas.width() >= USABLE_CANVAS[0] and canvas.height() >= USABLE_CANVAS[1], \
        canvas.size()
    screen = window.screen().availableGeometry()
    assert screen.intersects(window.frameGeometry()), (screen, window.frameGeometry())
    assert any(key in record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING), \
        [record.getMessage() for record in caplog.records]
    assert len(window.restore_questions) == 1 and LEFT_TITLE in window.restore_questions[0]


WRONG_LAYOUT_VALUES = {
    "text": "hello",
    "number": "12",
    "list": "a, b, c",
    "unclosed byte array": "@ByteArray(broken",
    "size": "@Size(800 600)",
    "rectangle": "@Rect(0 0 800 600)",
    "garbage bytes": "@ByteArray(\\x1\\x2\\xff\\0garbage)",
}


@pytest.mark.parametrize("key", ["geometry", "window_state"])
@pytest.mark.parametrize("raw", WRONG_LAYOUT_VALUES.values(), ids=WRONG_LAYOUT_VALUES.keys())
def test_a_saved_layout_of_the_wrong_kind_is_dropped(start, saved_layout, left_work, caplog, key, raw):
    write_raw(f"{saved_layout}\\{key}", raw)
    assert_started_well(start(), caplog, f"layouts/{saved_layout}/{key}")


def test_hand_sizes_nested_100000_deep_are_dropped(start, saved_layout, left_work, caplog):
    write_raw(f"{saved_layout}\\hand_sizes", "[" * 100_000)
    window = start()
    assert_started_well(window, caplog, f"layouts/{saved_layout}/hand_sizes")
    assert window.dock_layout.hand_sizes.sizes == {}


@pytest.mark.parametrize("size", [[10**40, 300], [-5, 300], [True, 300], [300.5, 300]])
def test_hand_sizes_no_screen_could_show_are_left_out(start, saved_layout, size):
    sizes = {"one head @ wide": {"lesson": size, "matrix": [400, 300]}}
    write_raw(f"{saved_layout}\\hand_sizes", json.dumps(json.dumps(sizes)))
    window = start()
    assert window.isVisible()
    assert all("lesson" not in docks for docks in window.dock_layout.hand_sizes.sizes.values())


TOO_LARGE = {
    "window_state": "@ByteArray(" + "x" * 300_000 + ")",
    # Quoted, as Qt writes text holding commas (unquoted, it reads a list).
    "closed_by_user": json.dumps("lesson," * 1000),
    "hand_sizes": json.dumps('{"one head @ wide": {"lesson": [' + "9" * 5000 + ', 300]}}'),
}


@pytest.mark.parametrize("key", TOO_LARGE)
def test_a_saved_value_far_too_large_is_dropped(start, saved_layout, left_work, caplog, key):
    write_raw(f"{saved_layout}\\{key}", TOO_LARGE[key])
    assert_started_well(start(), caplog, f"layouts/{saved_layout}/{key}")
    assert "a list" not in caplog.text  # dropped for its size, not its kind


def test_a_layout_version_of_fifty_nines_is_dropped(start, saved_layout, left_work, caplog):
    write_raw("layout_version", "9" * 50)
    assert_started_well(start(), caplog, "layout_version")


@pytest.mark.qt_log_ignore("Trying to construct an instance of an invalid type")  # Qt's, reading @Variant(garbage)
@pytest.mark.parametrize("raw", ["@Variant(garbage)", "hello", "-1", "@ByteArray(6)"])
def test_a_layout_version_of_the_wrong_kind_keeps_the_designed_layout(start, saved_layout, left_work, caplog, raw):
    write_raw("layout_version", raw)
    window = start()
    assert window.isVisible() and window.restore_questions


def test_the_saved_layout_still_comes_back(start, saved_layout):
    """The reader keeps what is good: a window moved and saved opens where it was."""
    window = start()
    window.move(window.x() + 7, window.y() + 5)
    where = window.pos()
    window.save_window_state()
    window.close()
    again = start()
    assert again.pos() == where
    assert app_settings().value("layout_version") in (LAYOUT_VERSION, str(LAYOUT_VERSION))


def test_recent_files_and_language_of_the_wrong_kind_are_dropped(caplog):
    settings = app_settings()
    settings.setValue("recent_files", ["a\0b", "x" * 5000, "/kept.json"])
    settings.setValue("language", "es" * 40)
    settings.sync()
    assert recent_files() == [Path("/kept.json")]
    assert saved_language() is None
    assert any("language" in record.getMessage() for record in caplog.records)


def test_every_key_read_from_the_settings_file_goes_through_the_reader():
    """A key read with QSettings.value() anywhere else would escape the checks (and the fuzz test's keys)."""
    reader = ROOT / "attn_desktop" / "ui" / "settings_reader.py"
    elsewhere = [f"{path.relative_to(ROOT)}:{number}" for path in (ROOT / "attn_desktop").rglob("*.py") if path != reader
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if re.search(r"\.value\(\s*[\"']|settings\(\)\.value\(|settings\.value\(", line)]
    assert elsewhere == []


def test_a_key_not_declared_cannot_be_read():
    from attn_desktop.ui.settings_reader import read_setting

    with pytest.raises(KeyError, match="not declared"):
        read_setting(app_settings(), "something_new")
