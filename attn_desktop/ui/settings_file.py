"""Which settings file QSettings may read: checked before Qt opens it, as Qt reads the whole file as the
QSettings object is made, before any value can be checked (settings_reader.py checks those).

- A file that is not a regular one is neither read nor written (a pipe would block the start for ever, a
  device could never end), nor is one far too large: this run keeps its settings in an empty stand-in.
- Values only another program writes, "@Variant(…)" (the app writes text, numbers and @ByteArray), are
  taken out of the file, which is first set aside as attn-desktop.ini.bad: Qt decodes a @Variant's nested
  lists recursively, and 30,000 levels crash it in C++ before a line of Python can refuse them.
"""

from __future__ import annotations

import atexit
import logging
import os
import re
import shutil
import stat
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings

from attn_desktop.language import tr
from attn_desktop.model.files.json_reading import shown_path
from attn_desktop.model.files.safe_write import file_kind, write_bytes_atomically
from attn_desktop.model.teaching.progress import set_aside

ORGANIZATION = APPLICATION = "attn-desktop"
MAX_SETTINGS_FILE_BYTES = 1024 * 1024  # layouts for dozens of screen sizes take a few hundred kilobytes
_PATH_PROBE = ("attn-desktop-settings-path", "probe")  # a file nobody has: where Qt would keep one
FOREIGN_VALUE = re.compile(rb'(?:=|,)[ \t]*"?@Variant\(')  # at the start of a value or of a list's item
log = logging.getLogger(__name__)
_refused: dict[Path, Path] = {}  # a settings file refused this run → the empty stand-in used instead
_checked: dict[Path, tuple[int, int]] = {}  # a file found usable → its (size, time) then: not read again


def settings_file_path() -> Path:
    """Where the settings file is, as QSettings.setPath or the platform says, found without reading it."""
    probe = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, *_PATH_PROBE).fileName()
    return Path(probe).parent.parent / ORGANIZATION / f"{APPLICATION}.ini"


def usable_settings_file() -> Path:
    """The settings file, once it is safe for Qt to read; else this run's empty stand-in."""
    path = settings_file_path()
    if path not in _refused:
        problem = settings_file_problem(path) or _foreign_values_taken_out(path)
        if problem is None:
            return path
        log.warning(tr("{file}: {problem}; the window's layout, the recent files and the language are neither "
                       "read from it nor saved to it this time").format(file=shown_path(path), problem=problem))
        _refused[path] = _stand_in()
    return _refused[path]


def settings_file_problem(path: Path) -> str | None:
    """Why the file at PATH must not be read (checked without opening it), or None (also when there is none)."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None  # a first start, or a dangling link Qt writes through
    except OSError as error:
        return error.strerror or str(error)
    if not stat.S_ISREG(status.st_mode):
        return file_kind(status.st_mode)
    if status.st_size > MAX_SETTINGS_FILE_BYTES:
        return tr("larger than {limit:,} bytes").format(limit=MAX_SETTINGS_FILE_BYTES)
    return None


def _foreign_values_taken_out(path: Path) -> str | None:
    """Take the lines with @Variant values out of the file at PATH (set aside first); why it cannot be, or None."""
    try:
        status = os.stat(path)
        if _checked.get(path) == (status.st_size, status.st_mtime_ns):
            return None
        with open(path, "rb") as file:  # a regular file of at most MAX_SETTINGS_FILE_BYTES: checked just now
            data = file.read(MAX_SETTINGS_FILE_BYTES + 1)
        if FOREIGN_VALUE.search(data):
            kept = b"".join(line for line in data.splitlines(keepends=True) if not FOREIGN_VALUE.search(line))
            aside = set_aside(path)
            write_bytes_atomically(path, kept)
            log.warning(tr("{file}: values the app never writes were taken out; the file as it was is {aside}")
                        .format(file=shown_path(path), aside=shown_path(aside)))
            status = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        return error.strerror or str(error)
    _checked[path] = (status.st_size, status.st_mtime_ns)
    return None


def _stand_in() -> Path:
    folder = tempfile.mkdtemp(prefix="attn-desktop-settings-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return Path(folder) / f"{APPLICATION}.ini"
