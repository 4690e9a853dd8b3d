"""Checking the values a lesson file holds: objects with known fields only, lists of bounded length,
plain text of bounded length, ids, names from a closed list, finite numbers.

A lesson file comes from another machine, so every check raises one LessonFileError naming the place
in the document ("exercises[2].tolerance") and what was found there: its reader can say in one line
what is wrong and where. The number and text checks are the scene file's own (files/values.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterable
from typing import Any, TypeVar

from attn_desktop.language import tr
from attn_desktop.model.files.values import SceneFileError, describe, printable, text_at
from attn_desktop.model.files.values import number as scene_number

T = TypeVar("T")

MAX_DEPTH = 16  # a lesson holds a scene holding layers of heads of grids: ten levels; more is no lesson
MAX_ID_CHARS = 64
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*\Z")
# Text keeps line breaks and tabs (Markdown needs them); any other control character is refused.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class LessonFileError(SceneFileError):
    """A lesson file that cannot be used, with where and why, in one line (a SceneFileError too, so whatever
    reports a scene file's problem reports a lesson file's)."""


def fields(value: Any, where: str, known: Collection[str] | None, required: Iterable[str] = ()) -> dict[str, Any]:
    """VALUE as an object holding only KNOWN fields (any, when None) and every one of REQUIRED."""
    if not isinstance(value, dict):
        raise LessonFileError(tr("{where}: expected an object, found {found}").format(
            where=where, found=describe(value)))
    for name in value:
        if known is not None and name not in known:
            raise LessonFileError(tr("{where}: unknown field {name}; the fields here are {known}").format(
                where=where, name=shown_name(name), known=", ".join(known)))
    for name in required:
        if name not in value:
            raise LessonFileError(tr("{where}: missing; a lesson file needs it").format(where=f"{where}.{name}"))
    return value


def items(value: Any, where: str, limit: int, at_least: int = 0) -> list[Any]:
    """VALUE as a list of AT_LEAST to LIMIT items."""
    if not isinstance(value, list):
        raise LessonFileError(tr("{where}: expected a list, found {found}").format(where=where, found=describe(value)))
    if not at_least <= len(value) <= limit:
        raise LessonFileError(tr("{where}: {count:,} items; a lesson file allows {low} to {high:,} here").format(
            where=where, count=len(value), low=at_least, high=limit))
    return value


def text(value: Any, where: str, limit: int) -> str:
    """Plain text of at most LIMIT characters: kept as text, never run, fetched or rendered as HTML."""
    checked = as_lesson_error(lambda: text_at(value, where, limit))
    control = _CONTROL.search(checked)
    if control:
        raise LessonFileError(tr("{where}: a control character (\\u{code:04x}) at character {position}; "
                                 "text may hold line breaks and tabs only").format(
            where=where, code=ord(control.group()), position=control.start() + 1))
    return checked


def identifier(value: Any, where: str) -> str:
    """An exercise's or a challenge's id: letters, digits, '-', '_' and '.', as a results file keys it."""
    checked = text(value, where, MAX_ID_CHARS)
    if not _ID.match(checked):
        raise LessonFileError(tr("{where}: {found} is not an id; use letters, digits, - and _ only").format(
            where=where, found=quoted(checked)))
    return checked


def one_of(value: Any, where: str, allowed: Collection[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise LessonFileError(tr("{where}: expected one of {allowed}, found {found}").format(
            where=where, allowed=", ".join(name or '""' for name in sorted(allowed))[:300], found=describe(value)))
    return value


def index(value: Any, where: str, count: int, low: int = 0) -> int:
    """A whole number from LOW to COUNT - 1."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < count:
        raise out_of_range(value, where, low, count - 1)
    return value


def out_of_range(value: Any, where: str, low: int, high: int) -> LessonFileError:
    return LessonFileError(tr("{where}: expected a whole number from {low} to {high}, found {found}").format(
        where=where, low=low, high=high, found=describe(value)))


def number(value: Any, where: str, low: float | None = None) -> float:
    """A finite number within the scene files' limits (and at least LOW)."""
    checked = as_lesson_error(lambda: scene_number(value, where))
    if low is not None and checked < low:
        raise LessonFileError(tr("{where}: expected a number from {low:g}, found {found}").format(
            where=where, low=low, found=describe(value)))
    return checked


def boolean(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise LessonFileError(tr("{where}: expected true or false, found {found}").format(
            where=where, found=describe(value)))
    return value


def unique_ids(ids: list[str], where: str) -> None:
    seen: set[str] = set()
    for position, found in enumerate(ids):
        if found in seen:
            raise LessonFileError(tr("{where}: the id {found} is used twice; every id is different").format(
                where=f"{where}[{position}].id", found=quoted(found)))
        seen.add(found)


def check_depth(document: Any) -> None:
    """Refuse a document nested deeper than MAX_DEPTH (walked without recursion: the walk cannot overflow)."""
    stack = [(document, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (list, dict)):
            if depth > MAX_DEPTH:
                raise LessonFileError(tr("the document is nested more than {limit} levels deep; no lesson is").format(
                    limit=MAX_DEPTH))
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)


def as_lesson_error(check: Callable[[], T]) -> T:
    """CHECK(), its SceneFileError (a scene file's check) raised as a LessonFileError: one type for the caller."""
    try:
        return check()
    except LessonFileError:
        raise
    except SceneFileError as error:
        raise LessonFileError(str(error)) from None


def shown_name(name: str) -> str:
    return printable(name if len(name) <= 40 else name[:37] + "...")


def quoted(name: str) -> str:
    """NAME in quotes for a one-line message: "cat", "" (shortened, control characters escaped)."""
    return printable(json.dumps(name if len(name) <= 40 else name[:37] + "...", ensure_ascii=False))
