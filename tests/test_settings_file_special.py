"""A settings file that is not a regular file (a pipe, a folder) or is far too large never stops a start: it is
neither read nor written, checked without opening it (opening a pipe blocks until someone writes to it), and
the log says so in one line. The window and --self-test start as they do without it."""

import os
import select
import signal
import subprocess
import sys
import time

import pytest

from tests.support.project_root import ROOT

START_TIMEOUT_S = 90
pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")


@pytest.fixture
def pipe_for_settings(tmp_path):
    """XDG_CONFIG_HOME whose attn-desktop/attn-desktop.ini is a pipe nobody writes to."""
    config = tmp_path / "config"
    (config / "attn-desktop").mkdir(parents=True)
    os.mkfifo(config / "attn-desktop" / "attn-desktop.ini")
    return config


def environment(tmp_path, config, **extra):
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(config), "HOME": str(tmp_path),
            "ATTN_DESKTOP_DATA_DIR": str(tmp_path / "data"), **extra}


@pytest.mark.slow
def test_the_self_test_passes_with_a_pipe_for_a_settings_file(tmp_path, pipe_for_settings):
    try:
        done = subprocess.run([sys.executable, "-m", "attn_desktop", "--self-test"], check=False, cwd=ROOT,
                              capture_output=True, text=True, env=environment(tmp_path, pipe_for_settings), timeout=START_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        pytest.fail("--self-test hung on a settings file that is a pipe")
    assert done.returncode == 0, done.stderr
    assert "attn-desktop.ini: a pipe (FIFO)" in done.stderr and "Traceback" not in done.stderr, done.stderr


@pytest.mark.slow
def test_the_window_opens_with_a_pipe_for_a_settings_file(tmp_path, pipe_for_settings):
    """The window comes up (it makes its test edit and names its recovery copy) and the pipe is left as it was."""
    process = subprocess.Popen(
        [sys.executable, "-m", "attn_desktop"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=environment(tmp_path, pipe_for_settings, ATTN_DESKTOP_TEST_EDIT="1"))
    try:
        ready, _, _ = select.select([process.stdout], [], [], START_TIMEOUT_S)
        assert ready, "the window never came up with a settings file that is a pipe"
        assert process.stdout.readline().strip().endswith(".json")
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
        process.stdout.close()
        stderr = process.stderr.read()
        process.stderr.close()
    assert "attn-desktop.ini: a pipe (FIFO)" in stderr and "Traceback" not in stderr, stderr


@pytest.mark.timing
def test_a_pipe_a_folder_or_a_huge_file_is_refused_without_reading_it(tmp_path, caplog):
    from PySide6.QtCore import QSettings

    from attn_desktop.ui import settings, settings_file

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    path = settings_file.settings_file_path()
    path.parent.mkdir(parents=True)
    for make, kind in ((os.mkfifo, "a pipe (FIFO)"), (os.mkdir, "a folder"), (huge_file, "larger than")):
        make(path)
        started = time.monotonic()
        assert kind in settings_file.settings_file_problem(path)
        settings.app_settings().setValue("language", "es")  # said to the stand-in, not the refused file
        assert settings.saved_language() == "es"
        assert time.monotonic() - started < 1
        assert any(kind in record.getMessage() for record in caplog.records)
        os.rmdir(path) if path.is_dir() else os.unlink(path)
        settings_file._refused.clear()


def huge_file(path):
    with open(path, "wb") as file:
        file.truncate(2 * 1024 * 1024)


def test_the_settings_file_is_where_qt_would_keep_it():
    """Found without reading it, and where earlier versions kept it (their saved layouts still count)."""
    from PySide6.QtCore import QSettings

    from attn_desktop.ui.settings_file import settings_file_path

    qt_says = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "attn-desktop", "attn-desktop")
    assert settings_file_path() == type(settings_file_path())(qt_says.fileName())


DEEP_VARIANT = "@Variant(" + "\\0\\0\\0\\t\\0\\0\\0\\x1" * 30_000 + "\\0\\0\\0\\t\\0\\0\\0\\0)"  # lists in lists


@pytest.mark.slow
def test_a_value_nested_30000_deep_is_taken_out_before_qt_reads_it(tmp_path):
    """Qt decodes a @Variant's nesting recursively and crashed (a segmentation fault) before any value could be
    checked; the app never writes @Variant: the line goes, the rest stays, the file as it was is set aside."""
    config = tmp_path / "config"
    path = config / "attn-desktop" / "attn-desktop.ini"
    path.parent.mkdir(parents=True)
    path.write_text(f"[General]\nrecent_files=/kept.json\nhand_sizes={DEEP_VARIANT}\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "attn_desktop", "--self-test"], check=False, cwd=ROOT,
                          capture_output=True, text=True, env=environment(tmp_path, config), timeout=START_TIMEOUT_S)
    assert done.returncode == 0, done.stderr
    assert "values the app never writes were taken out" in done.stderr, done.stderr
    assert path.read_text(encoding="utf-8") == "[General]\nrecent_files=/kept.json\n"
    assert (path.parent / "attn-desktop.ini.bad").read_text(encoding="utf-8").endswith(DEEP_VARIANT + "\n")
