"""The app's own settings file: window layout, recent files, the language chosen and the teacher's lessons folder.

An explicit INI file (not the platform's registry or plist) so the same code
runs everywhere, and so tests can point it at a temporary folder with
QSettings.setPath and never touch a user's real settings.

It is read before the window opens, so nothing in it may stop a start: the file is checked before Qt reads
it (settings_file.py), and every value is read through settings_reader.py, which drops what its key does not
keep.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from attn_desktop.ui.settings_file import usable_settings_file
from attn_desktop.ui.settings_reader import MAX_RECENT, read_setting

LAYOUT_VERSION = 6  # bump when docks are added or renamed, or the default layout changes: an old saved layout is then ignored


def app_settings() -> QSettings:
    return QSettings(str(usable_settings_file()), QSettings.Format.IniFormat)


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


def lessons_folder() -> Path | None:
    """The folder of the teacher's own lessons (Lessons → Choose Your Lessons Folder…), or None if never chosen."""
    name = read_setting(app_settings(), "lessons_folder")
    return Path(name) if name else None


def remember_lessons_folder(folder: Path) -> None:
    app_settings().setValue("lessons_folder", str(folder))
