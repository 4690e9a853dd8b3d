"""The `slow` rule, checked: a test not marked slow that starts python in a child process fails, saying so.

Starting the interpreter (or the app, from source or frozen) costs a second or more each time, which is why
such a test belongs to the slow part (tests/conftest.py says what `slow` means). Other programs (a C compiler,
ldd, mount, a validator) start in milliseconds and are allowed. The check watches subprocess.Popen, which
subprocess.run and its siblings go through, and QProcess.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

PYTHON_NAME = re.compile(r"python[0-9.]*")
APP_NAME = "attn-desktop"  # the command pip installs, and the frozen build's program
# Programs that run another program named among their arguments: what they run is what starts.
RUNNERS = frozenset({"strace", "ltrace", "xvfb-run", "timeout", "env", "nice", "setsid", "stdbuf", "taskset",
                     "dbus-run-session", "sudo", "valgrind"})
QPROCESS_STARTS = ("start", "startCommand", "startDetached")


def words_of(command) -> list[str]:
    """A command as Popen takes it (a list of words, or one string to be split) as a list of strings."""
    if isinstance(command, (str, bytes, os.PathLike)):
        return split(os.fsdecode(command))
    return [os.fsdecode(word) for word in command]


def split(command_line: str) -> list[str]:
    """A command line's words, as a shell would split them (by spaces if its quotes do not pair up)."""
    try:
        return shlex.split(command_line)
    except ValueError:
        return command_line.split()


def starts_python(words: list[str]) -> bool:
    """Whether a command line starts python: the interpreter or the app, as the program or through a program
    that runs another (strace, xvfb-run, ...). A program that only reads one (readelf -d dist/.../attn-desktop,
    dpkg -r attn-desktop) starts nothing."""
    if not words:
        return False
    if _is_python(words[0]):
        return True
    if os.path.basename(words[0]) in RUNNERS:
        # The runner's own options come first, some with a value (strace -o LOG): any python named is what runs.
        return any(_is_python(word) for word in words[1:])
    return False


def _is_python(word: str) -> bool:
    """The interpreter, or the app (the command pip installs, or a frozen build's program)."""
    name = os.path.basename(word)
    return word == sys.executable or PYTHON_NAME.fullmatch(name) is not None or name == APP_NAME


def refusal(test: str, words: list[str]) -> str:
    shown = " ".join(words)
    shown = shown if len(shown) <= 160 else shown[:157] + "..."
    return (f"{test} starts python in a child process ({shown}) but is not marked slow: mark it "
            "@pytest.mark.slow, or pytestmark = pytest.mark.slow for a file whose every test does "
            "(tests/conftest.py says what slow means)")


@contextmanager
def python_children_refused(test: str) -> Iterator[None]:
    """While it lasts, starting python in a child process fails `test` with a message saying to mark it slow."""

    class PopenOfAQuickTest(subprocess.Popen):
        def __new__(cls, args, *rest, **options):  # refused before a Popen exists, so none is left half-made
            words = words_of(args) + ([os.fsdecode(options["executable"])] if options.get("executable") else [])
            if starts_python(words):
                pytest.fail(refusal(test, words))
            return super().__new__(cls)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(subprocess, "Popen", PopenOfAQuickTest)
        _refuse_python_in_qprocess(patch, test)
        yield


def _refuse_python_in_qprocess(patch: pytest.MonkeyPatch, test: str) -> None:
    from PySide6.QtCore import QProcess

    for name in QPROCESS_STARTS:
        real = getattr(QProcess, name)

        def checked_start(*args, real=real, **options):
            # A QProcess not yet given a program contributes an empty one: the program is the first word given.
            words = [word for arg in args for word in _qprocess_words(arg) if word]
            if starts_python(words):
                pytest.fail(refusal(test, words))
            return real(*args, **options)

        patch.setattr(QProcess, name, checked_start)


def _qprocess_words(arg) -> list[str]:
    """The words a QProcess start's argument contributes: the process's own program and arguments, a program
    or command line, a list of arguments."""
    from PySide6.QtCore import QProcess

    if isinstance(arg, QProcess):
        return [arg.program(), *arg.arguments()]
    if isinstance(arg, str):
        return split(arg)
    if isinstance(arg, (list, tuple)) and all(isinstance(word, str) for word in arg):
        return list(arg)
    return []
