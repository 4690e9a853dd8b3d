"""The app's own settings file: window layout, recent files and the language chosen.

An explicit INI file (not the platform's registry or plist) so the same code
runs everywhere, and so tests can point it at a temporary folder with
QSettings.setPath and never touch a user's real settings.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

LAYOUT_VERSION = 6  # bump when docks are added or renamed, or the default layout changes: an old saved layout is then ignored
MAX_RECENT = 8


def app_settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "attn-desktop", "attn-desktop")


def recent_files() -> list[Path]:
    value = app_settings().value("recent_files", [])
    # QSettings reads back a list of one name as that name alone, and an empty list as None.
    names = [value] if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) else []
    return [Path(name) for name in names if name]


def remember_recent(path: Path) -> None:
    path = Path(path).resolve()
    names = [str(path)] + [str(p) for p in recent_files() if p != path]
    app_settings().setValue("recent_files", names[:MAX_RECENT])


def forget_recent(path: Path) -> None:
    app_settings().setValue("recent_files", [str(p) for p in recent_files() if p != Path(path).resolve()])


def saved_language() -> str | None:
    """The language chosen in View → Language last time, or None if never chosen."""
    value = app_settings().value("language")
    return value if isinstance(value, str) and value else None


def remember_language(code: str) -> None:
    app_settings().setValue("language", code)
