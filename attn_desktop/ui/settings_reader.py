"""The one way a value comes out of the settings file: checked for its kind, size, depth and range.

The settings file is the app's own, but a crash, a full disk, another version or a hand edit can leave
anything in it, and it is read before the window opens: a value that is not what its key keeps is dropped
with a line in the log (the caller then does without it), never raised. Every key the app reads is
declared in KEPT_SETTINGS with what it holds; reading a key that is not declared is a mistake in the code.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

from attn_desktop.language import tr
from attn_desktop.model.files.json_reading import Refusals, parse_json_text, shown_path
from attn_desktop.model.files.values import SceneFileError, describe, printable

log = logging.getLogger(__name__)

MAX_RECENT = 8
MAX_FILE_NAME_CHARS = 4096  # PATH_MAX on Linux
MAX_GEOMETRY_BYTES = 4 * 1024  # Qt's saveGeometry writes under a hundred
MAX_WINDOW_STATE_BYTES = 256 * 1024  # saveState: a few kilobytes for the app's dozen panels
MAX_HAND_SIZES_CHARS = 64 * 1024  # a few kilobytes for every activity on every kind of screen
MAX_TEXT_CHARS = 4096


class DroppedValue(Exception):
    """Why a saved value is not used (already in the student's language)."""


Check = Callable[[Any], Any]


def _text(limit: int) -> Check:
    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise DroppedValue(_holds(value))
        if len(value) > limit or "\0" in value:
            raise DroppedValue(tr("longer than {limit:,} characters").format(limit=limit) if len(value) > limit
                               else _holds(value))
        return value
    return check


def _file_names(value: Any) -> list[str]:
    """QSettings reads back a list of one name as that name alone, and an empty list as nothing."""
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else None
    if names is None:
        raise DroppedValue(_holds(value))
    name_check = _text(MAX_FILE_NAME_CHARS)
    kept = []
    for name in names[:MAX_RECENT]:
        try:
            kept.append(name_check(name))
        except DroppedValue:
            continue  # the other names are still good
    return [name for name in kept if name]


def _whole_number(low: int, high: int) -> Check:
    def check(value: Any) -> int:
        # The INI file keeps a number as text; within a run Qt may hand back the int it was given.
        digits = value if isinstance(value, str) else None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif digits is not None and digits.isascii() and digits.isdigit() and len(digits) <= len(str(high)):
            number = int(digits)
        else:
            raise DroppedValue(_holds(value) if not isinstance(value, (int, str)) or isinstance(value, bool)
                               else _out_of_range(low, high))
        if not low <= number <= high:
            raise DroppedValue(_out_of_range(low, high))
        return number
    return check


def _saved_bytes(limit: int) -> Check:
    def check(value: Any) -> QByteArray:
        if isinstance(value, bytes):
            value = QByteArray(value)
        if not isinstance(value, QByteArray):
            raise DroppedValue(_holds(value))
        if value.size() > limit:
            raise DroppedValue(tr("larger than {limit:,} bytes").format(limit=limit))
        return value
    return check


def _json(limit: int) -> Check:
    def check(value: Any) -> Any:
        text = _text(limit)(value)
        try:  # the files' hardened JSON: no nesting deep enough to exhaust the stack, no endless numbers
            return parse_json_text(text, _REFUSED_IN_A_SETTING)
        except SceneFileError as error:
            raise DroppedValue(str(error)) from None
    return check


_REFUSED_IN_A_SETTING = Refusals(
    lambda name: tr("{name} is not a number a setting can hold").format(name=name),
    lambda count: tr("a whole number with {count:,} digits is far too large for a setting").format(count=count))


# Every key the app reads, "*" standing for one part of a group's name (the screen size of a layout).
KEPT_SETTINGS: dict[str, Check] = {
    "language": _text(64),
    "recent_files": _file_names,
    "lessons_folder": _text(MAX_FILE_NAME_CHARS),
    "layout_version": _whole_number(0, 1_000_000),
    "layouts/*/geometry": _saved_bytes(MAX_GEOMETRY_BYTES),
    "layouts/*/window_state": _saved_bytes(MAX_WINDOW_STATE_BYTES),
    "layouts/*/closed_by_user": _text(MAX_TEXT_CHARS),
    "layouts/*/hand_sizes": _json(MAX_HAND_SIZES_CHARS),
}


def declared_key(full_key: str) -> str:
    """The pattern of KEPT_SETTINGS FULL_KEY matches; KeyError if none (a key the code forgot to declare)."""
    parts = full_key.split("/")
    for pattern in KEPT_SETTINGS:
        pattern_parts = pattern.split("/")
        if len(pattern_parts) == len(parts) and all(want in ("*", part) for want, part in zip(pattern_parts, parts)):
            return pattern
    raise KeyError(f"{full_key!r} is read from the settings file but not declared in KEPT_SETTINGS")


def read_setting(settings: QSettings, key: str) -> Any | None:
    """KEY's value (in SETTINGS' current group) if it is what the key keeps; None if absent or dropped."""
    full_key = f"{settings.group()}/{key}" if settings.group() else key
    check = KEPT_SETTINGS[declared_key(full_key)]
    try:
        value = settings.value(key)
        return None if value is None else check(value)
    except DroppedValue as dropped:
        report_dropped(settings, full_key, str(dropped))
    except Exception as error:  # noqa: BLE001 - whatever else a damaged value makes Qt or the check raise
        report_dropped(settings, full_key, printable(f"{type(error).__name__}: {error}")[:200])
    return None


def report_dropped(settings: QSettings, full_key: str, reason: str) -> None:
    log.warning(tr("{file}: the setting {key} was ignored ({reason})").format(
        file=shown_path(settings.fileName()), key=full_key, reason=reason))


def _holds(value: Any) -> str:
    found = describe(value) if value is None or isinstance(value, (bool, int, float, str, list, dict)) \
        else type(value).__name__
    return tr("it holds {found}").format(found=found)


def _out_of_range(low: int, high: int) -> str:
    return tr("not a whole number from {low:,} to {high:,}").format(low=low, high=high)
