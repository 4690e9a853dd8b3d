"""Checking the values a JSON document of ours holds: numbers, lists of numbers, text, switches.

Every check raises one SceneFileError naming the place in the document ("w_q[1][0]") and what
was found there, so a file's reader can say in one line what is wrong and where. The scene file,
its multi-head part and the other documents the app reads share these checks and limits.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

# Limits that keep a hostile or mistaken file from freezing the app.
MAX_TOKENS = 256
MAX_WIDTH = 64
MAX_TOKEN_CHARS = 40
MAX_TITLE_CHARS = 200
MAX_ABS_COORDINATE = 1e9


class SceneFileError(ValueError):
    """A scene file (or scene data) that cannot be used, with where and why."""


def printable(text: str) -> str:
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return "".join(char if char.isprintable() or char == " " else ascii(char)[1:-1] for char in text)


def text_at(value: Any, where: str, limit: int) -> str:
    if not isinstance(value, str):
        raise SceneFileError(f"{where}: expected text, found {describe(value)}")
    check_text(value, where)
    if len(value) > limit:
        raise SceneFileError(f"{where}: longer than {limit:,} characters")
    return value


def whole(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SceneFileError(f"{where}: expected a whole number, found {describe(value)}")
    return value


_BROKEN_CHARACTER = re.compile("[\ud800-\udfff]")


def is_valid_text(text: str) -> bool:
    """False for text holding a lone surrogate, which UTF-8 (and so a file) cannot hold."""
    return _BROKEN_CHARACTER.search(text) is None


def check_text(text: str, where: str) -> None:
    """Refuse a lone surrogate: JSON's \\ud800 escapes decode to one, but no file (UTF-8) can hold it,
    so the scene could never be saved again."""
    broken = _BROKEN_CHARACTER.search(text)
    if broken:
        raise SceneFileError(
            f"{where}: not valid text (a broken character, like half an emoji, "
            f"at character {broken.start() + 1}: \\u{ord(broken.group()):04x})"
        )


def matrix_at(rows: Any, where: str) -> list[list[float]]:
    if rows is None:
        raise SceneFileError(f"{where}: missing; a scene needs {where} as a list of number lists")
    if not isinstance(rows, list):
        raise SceneFileError(f"{where}: expected a list of number lists, found {describe(rows)}")
    if not rows:
        raise SceneFileError(f"{where}: the list is empty")
    if len(rows) > MAX_TOKENS:
        raise SceneFileError(f"{where}: {len(rows):,} rows; scenes are limited to {MAX_TOKENS}")
    width = None
    matrix = []
    for row_index, row in enumerate(rows):
        place = f"{where}[{row_index}]"
        if not isinstance(row, list):
            raise SceneFileError(f"{place}: expected a list of numbers, found {describe(row)}")
        if not row:
            raise SceneFileError(f"{place}: the row is empty")
        if len(row) > MAX_WIDTH:
            raise SceneFileError(f"{place}: {len(row)} numbers; vectors are limited to {MAX_WIDTH}")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise SceneFileError(f"{place}: has {len(row)} numbers but {where}[0] has {width}; rows must be the same length")
        matrix.append([number(item, f"{place}[{column}]") for column, item in enumerate(row)])
    return matrix


def number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SceneFileError(f"{where}: expected a number, found {describe(value)}")
    if isinstance(value, int) and abs(value) > MAX_ABS_COORDINATE:  # before float(): a huge one overflows
        raise SceneFileError(
            f"{where}: {shown_number(value)} is too large; coordinates are limited to ±{MAX_ABS_COORDINATE:g}"
        )
    number = float(value)
    if not math.isfinite(number):
        raise SceneFileError(f"{where}: {value} is not a finite number")
    if abs(number) > MAX_ABS_COORDINATE:
        raise SceneFileError(f"{where}: {value:g} is too large; coordinates are limited to ±{MAX_ABS_COORDINATE:g}")
    return number


def boolean(document: dict[str, Any], where: str, default: bool) -> bool:
    value = document.get(where, default)
    if not isinstance(value, bool):
        raise SceneFileError(f"{where}: expected true or false, found {describe(value)}")
    return value


def describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 20 else value[:17] + "..."
        return f"the text {printable(json.dumps(shown, ensure_ascii=False))}"
    if isinstance(value, (int, float)):
        shown = shown_number(value)
        return shown if shown.startswith("a whole number") else f"the number {shown}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def shown_number(value: float) -> str:
    """A number short enough for a one-line message (str() of a 5,000-digit int even raises)."""
    if isinstance(value, int) and abs(value) >= 10**15:
        digits = int(abs(value).bit_length() * 0.30103) + 1
        return f"a whole number of about {digits:,} digits"
    return str(value)


def rows(matrix: Any) -> list[list[float]]:
    return [[float(item) for item in row] for row in matrix]
