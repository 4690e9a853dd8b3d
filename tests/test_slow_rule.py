"""The `slow` rule checked by the suite itself (tests/support/slow_rule.py): a test not marked slow that starts
python in a child process fails with a message saying to mark it; other programs start freely."""

import shutil
import subprocess
import sys

import pytest
from PySide6.QtCore import QProcess

from tests.support.slow_rule import starts_python, words_of


def command_line(command) -> str:
    return command if isinstance(command, str) else " ".join(command)


def test_an_unmarked_test_that_starts_python_fails_saying_to_mark_it_slow():
    with pytest.raises(pytest.fail.Exception, match="not marked slow: mark it @pytest.mark.slow"):
        subprocess.run([sys.executable, "-c", "pass"], check=False)


def test_an_unmarked_test_that_starts_python_through_qprocess_fails_too():
    with pytest.raises(pytest.fail.Exception, match="not marked slow"):
        QProcess().start(sys.executable, ["-c", "pass"])


@pytest.mark.skipif(shutil.which("true") is None, reason="needs the `true` program")
def test_a_program_other_than_python_starts_in_an_unmarked_test():
    assert subprocess.run(["true"], check=False).returncode == 0


@pytest.mark.parametrize("command", [
    pytest.param([sys.executable, "-m", "attn_desktop"], id="this python -m attn_desktop"),
    ["python3", "-c", "pass"],
    ["/usr/bin/python3.12", "script.py"],
    ["strace", "-f", "-o", "log", "python", "-c", "pass"],
    "python -c 'print(1)'",
    ["attn-desktop", "--self-test"],
    ["dist/attn-desktop/attn-desktop", "--version"],
    ["strace", "-f", "-e", "trace=socket,connect", "-o", "log", "dist/attn-desktop/attn-desktop", "--self-test"],
], ids=command_line)
def test_these_start_python(command):
    assert starts_python(words_of(command))


@pytest.mark.parametrize("command", [
    ["cc", "-shared", "-o", "libx.so", "x.c"],
    ["ldd", "/usr/lib/libqxcb.so"],
    ["dpkg", "-r", "attn-desktop"],
    ["readelf", "-d", "dist/attn-desktop/attn-desktop"],  # reads the frozen program, runs nothing
    ["ldd", "dist/attn-desktop/_internal/python3.11"],
    ["desktop-file-validate", "attn-desktop.desktop"],
    "xdotool mousemove 10 10",
], ids=command_line)
def test_these_do_not(command):
    assert not starts_python(words_of(command))
