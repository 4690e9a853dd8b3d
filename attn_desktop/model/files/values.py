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

from attn_desktop.language import tr

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
        raise SceneFileError(tr("{where}: expected text, found {found}").format(
            where=where, found=describe(value)))
    check_text(value, where)
    if len(value) > limit:
        raise SceneFileError(tr("{where}: longer than {limit:,} characters").format(where=where, limit=limit))
    return value


def whole(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SceneFileError(tr("{where}: expected a whole number, found {found}").format(
            where=where, found=describe(value)))
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
            tr("{where}: not valid text (a broken character, like half an emoji, at character {position}: \\u{code:04x})").format(
                where=where, position=broken.start() + 1, code=ord(broken.group()))
        )


def matrix_at(rows: Any, where: str) -> list[list[float]]:
    if rows is None:
        raise SceneFileError(tr("{where}: missing; a scene needs {where} as a list of number lists").format(
            where=where))
    if not isinstance(rows, list):
        raise SceneFileError(tr("{where}: expected a list of number lists, found {found}").format(
            where=where, found=describe(rows)))
    if not rows:
        raise SceneFileError(tr("{where}: the list is empty").format(where=where))
    if len(rows) > MAX_TOKENS:
        raise SceneFileError(tr("{where}: {rows_count:,} rows; scenes are limited to {max_tokens}").format(
            where=where, rows_count=len(rows), max_tokens=MAX_TOKENS))
    width = None
    matrix = []
    for row_index, row in enumerate(rows):
        place = f"{where}[{row_index}]"
        if not isinstance(row, list):
            raise SceneFileError(tr("{place}: expected a list of numbers, found {found}").format(
                place=place, found=describe(row)))
        if not row:
            raise SceneFileError(tr("{place}: the row is empty").format(place=place))
        if len(row) > MAX_WIDTH:
            raise SceneFileError(tr("{place}: {row_count} numbers; vectors are limited to {max_width}").format(
                place=place, row_count=len(row), max_width=MAX_WIDTH))
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise SceneFileError(tr("{place}: has {row_count} numbers but {where}[0] has {width}; rows must be the "
                                    "same length").format(
                place=place, row_count=len(row), where=where, width=width))
        matrix.append([number(item, f"{place}[{column}]") for column, item in enumerate(row)])
    return matrix


def number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SceneFileError(tr("{where}: expected a number, found {found}").format(
            where=where, found=describe(value)))
    if isinstance(value, int) and abs(value) > MAX_ABS_COORDINATE:  # before float(): a huge one overflows
        raise SceneFileError(
            tr("{where}: {shown_number} is too large; coordinates are limited to ±{max_abs_coordinate:g}").format(
                where=where, shown_number=shown_number(value), max_abs_coordinate=MAX_ABS_COORDINATE)
        )
    number = float(value)
    if not math.isfinite(number):
        raise SceneFileError(tr("{where}: {value} is not a finite number").format(where=where, value=value))
    if abs(number) > MAX_ABS_COORDINATE:
        raise SceneFileError(tr("{where}: {value:g} is too large; coordinates are limited to ±{max_abs_coordinate:g}").format(
            where=where, value=value, max_abs_coordinate=MAX_ABS_COORDINATE))
    return number


def boolean(document: dict[str, Any], where: str, default: bool) -> bool:
    value = document.get(where, default)
    if not isinstance(value, bool):
        raise SceneFileError(tr("{where}: expected true or false, found {found}").format(
            where=where, found=describe(value)))
    return value


def describe(value: Any) -> str:
    """What a file holds where something else was expected, for a message: "the number 3", "a list"."""
    if value is None:
        return "null"  # JSON's own words: not translated
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 20 else value[:17] + "..."
        return tr("the text {text}").format(text=printable(json.dumps(shown, ensure_ascii=False)))
    if isinstance(value, (int, float)):
        shown = shown_number(value)
        return shown if _too_long_to_write(value) else tr("the number {number}").format(number=shown)
    if isinstance(value, list):
        return tr("a list")
    if isinstance(value, dict):
        return tr("an object")
    return type(value).__name__


def shown_number(value: float) -> str:
    """A number short enough for a one-line message (str() of a 5,000-digit int even raises)."""
    if _too_long_to_write(value):
        digits = int(abs(int(value)).bit_length() * 0.30103) + 1
        return tr("a whole number of about {digits:,} digits").format(digits=digits)
    return str(value)


def _too_long_to_write(value: float) -> bool:
    return isinstance(value, int) and abs(value) >= 10**15


def rows(matrix: Any) -> list[list[float]]:
    return [[float(item) for item in row] for row in matrix]
