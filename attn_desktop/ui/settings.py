"""The app's own settings file: window layout, recent files and the language chosen.

An explicit INI file (not the platform's registry or plist) so the same code
runs everywhere, and so tests can point it at a temporary folder with
QSettings.setPath and never touch a user's real settings.

It is read before the window opens, so nothing in it may stop a start: a file that is not a regular one
(a pipe would block the start for ever, a device could never end) or far too large is neither read nor
written, and every value is read through settings_reader.py, which drops what its key does not keep.
"""

from __future__ import annotations

import logging
import os
import stat
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings

from attn_desktop.language import tr
from attn_desktop.model.files.json_reading import shown_path
from attn_desktop.model.files.safe_write import file_kind
from attn_desktop.ui.settings_reader import MAX_RECENT, read_setting

LAYOUT_VERSION = 6  # bump when docks are added or renamed, or the default layout changes: an old saved layout is then ignored
ORGANIZATION = APPLICATION = "attn-desktop"
MAX_SETTINGS_FILE_BYTES = 1024 * 1024  # layouts for dozens of screen sizes take a few hundred kilobytes
_PATH_PROBE = ("attn-desktop-settings-path", "probe")  # a file nobody has: where Qt would keep one
log = logging.getLogger(__name__)
_refused: dict[Path, Path] = {}  # a settings file refused this run → the empty stand-in used instead


def settings_file_path() -> Path:
    """Where the settings file is, as QSettings.setPath or the platform says, found without reading it:
    QSettings reads its file as it is made, and a pipe there would block the start for ever."""
    probe = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, *_PATH_PROBE).fileName()
    return Path(probe).parent.parent / ORGANIZATION / f"{APPLICATION}.ini"


def app_settings() -> QSettings:
    path = settings_file_path()
    if path not in _refused:
        problem = settings_file_problem(path)
        if problem is None:
            return QSettings(str(path), QSettings.Format.IniFormat)
        log.warning(tr("{file}: {problem}; the window's layout, the recent files and the language are neither "
                       "read from it nor saved to it this time").format(file=shown_path(path), problem=problem))
        _refused[path] = Path(tempfile.mkdtemp(prefix="attn-desktop-settings-")) / f"{APPLICATION}.ini"
    return QSettings(str(_refused[path]), QSettings.Format.IniFormat)


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


def recent_files() -> list[Path]:
    return [Path(name) for name in read_setting(app_settings(), "recent_files") or []]


def remember_recent(path: Path) -> None:
    path = Path(path).resolve()
    names = [str(path)] + [str(p) for p in recent_files() if p != path]
    app_settings().setValue("recent_files", names[:MAX_RECENT])


def forget_recent(path: Path) -> None:
    app_settings().setValue("recent_files", [str(p) for p in recent_files() if p != Path(path).resolve()])


def saved_language() -> str | None:
    """The language chosen in View → Language last time, or None if never chosen."""
    return read_setting(app_settings(), "language") or None


def remember_language(code: str) -> None:
    app_settings().setValue("language", code)
