"""Reading a JSON document of ours with limits a hostile or mistaken file cannot get past.

Scene files, the autosave copy and the progress file are all read here: a regular file only
(never a device, pipe or folder), at most MAX_FILE_BYTES, UTF-8, JSON without NaN or Infinity,
whole numbers of sensible length and no nesting deep enough to exhaust the stack. Every problem
is one SceneFileError whose message names the file and the place in it.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar

from attn_desktop.language import tr
from attn_desktop.model.files.safe_write import file_kind
from attn_desktop.model.files.values import SceneFileError
from attn_desktop.model.files.values import printable as _printable

T = TypeVar("T")

MAX_FILE_BYTES = 4 * 1024 * 1024


def load_json_file(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> Any:
    """Any JSON document of ours (a scene, the autosave copy, the progress file), read with these limits.

    Raises only SceneFileError, its message starting with the file's name:
    a folder, device or pipe, a file over the size limit, text that is not
    UTF-8, JSON that is broken, nested too deeply or holds numbers too long
    to be numbers.
    """
    return named(path, lambda: parse_json_bytes(read_file_bytes(path, limit)))


def named(path: str | os.PathLike[str], read: Callable[[], T]) -> T:
    try:
        return read()
    except SceneFileError as error:
        raise SceneFileError(f"{shown_path(path)}: {error}") from None


def read_file_bytes(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file, reading at most LIMIT; SceneFileError (without the name) otherwise.

    The size on disk is not trusted (a device or a pipe says 0): the type is
    checked before opening, the file is opened non-blocking (a FIFO swapped in
    meanwhile cannot hang the open) and checked again, and the read stops one
    byte past the limit.
    """
    try:
        info = os.stat(path)  # through symlinks: what counts is what the link points at
        if not stat.S_ISREG(info.st_mode):
            raise SceneFileError(tr("{file_kind}, not a scene file").format(file_kind=file_kind(info.st_mode)))
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as error:
        raise SceneFileError(tr("cannot read the file ({reason})").format(reason=error.strerror or error)) from None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise SceneFileError(tr("{file_kind}, not a scene file").format(file_kind=file_kind(info.st_mode)))
        if info.st_size > limit:
            raise SceneFileError(_too_big(tr("{size:,} bytes").format(size=info.st_size), limit))
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(handle, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # it grew while being read
            raise SceneFileError(_too_big(tr("more than {size:,} bytes").format(size=limit), limit))
        return b"".join(chunks)
    except OSError as error:
        raise SceneFileError(tr("cannot read the file ({reason})").format(reason=error.strerror or error)) from None
    finally:
        os.close(handle)


def _too_big(size: str, limit: int) -> str:
    return tr("the file is {size}; scenes are limited to {limit:,}").format(size=size, limit=limit)


def shown_path(path: str | os.PathLike[str]) -> str:
    """A file name fit for a one-line message: undecodable bytes and control characters escaped."""
    return _printable(os.fsencode(path).decode("utf-8", "backslashreplace"))


def parse_json_bytes(raw: bytes) -> Any:
    if len(raw) > MAX_FILE_BYTES:
        raise SceneFileError(_too_big(tr("{size:,} bytes").format(size=len(raw)), MAX_FILE_BYTES))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SceneFileError(tr("not UTF-8 text (byte 0x{byte:02x} at offset {start})").format(
            byte=raw[error.start], start=error.start)) from None
    return parse_json_text(text)


MAX_INTEGER_DIGITS = 30  # every whole number a scene holds is far shorter; 5,000 digits would stall int()
_LONG_INTEGER = re.compile(rf"-?[0-9]{{{MAX_INTEGER_DIGITS + 1},}}")


class Refusals(NamedTuple):
    """How parse_json_text words a refused number for what the text is (a scene, a setting)."""

    constant: Callable[[str], str]  # NaN or Infinity
    long_number: Callable[[int], str]  # a whole number of that many digits


def parse_json_text(text: str, refusals: Refusals | None = None) -> Any:
    """Decode JSON, refusing NaN and Infinity, whole numbers too long to be sensible and too much nesting.
    REFUSALS words the refused numbers (by default, for a scene)."""
    words = refusals or Refusals(_constant_in_a_scene, _long_number_in_a_scene)

    def refuse_constant(name: str) -> Any:
        raise SceneFileError(words.constant(name))

    def whole_number(digits: str) -> int:
        count = len(digits.lstrip("-"))
        if count > MAX_INTEGER_DIGITS:
            raise _LongInteger(words.long_number(count))
        return int(digits)

    try:
        return json.loads(text, parse_constant=refuse_constant, parse_int=whole_number)
    except _LongInteger as error:
        raise SceneFileError(f"{error}{_where(text, _LONG_INTEGER)}") from None
    except SceneFileError as error:
        name = str(error).split()[0]
        raise SceneFileError(f"{error}{_where(text, re.compile(re.escape(name)))}") from None
    except json.JSONDecodeError as error:
        raise SceneFileError(tr("not valid JSON: {msg} at line {lineno} column {colno}").format(
            msg=error.msg, lineno=error.lineno, colno=error.colno)) from None
    except RecursionError:
        raise SceneFileError(tr("not usable JSON: it is nested too deeply")) from None
    except (ValueError, OverflowError, MemoryError) as error:  # whatever else the decoder's limits raise
        raise SceneFileError(tr("not usable JSON: {reason}").format(reason=_printable(str(error))[:120])) from None


class _LongInteger(SceneFileError):
    pass


def _long_number_in_a_scene(count: int) -> str:
    return tr("a whole number with {count:,} digits is far too large for a scene").format(count=count)


def _constant_in_a_scene(name: str) -> str:
    return tr("{name} is not a number a scene can hold; use finite numbers only").format(name=name)


def _where(text: str, pattern: re.Pattern[str]) -> str:
    """' (line L column C)' for the first match of PATTERN outside a JSON string, or ''.

    Strings are matched whole as the first alternative, so a hit of PATTERN
    is never inside one; the regex engine does the scan (a 4 MB file in well under a second).
    """
    combined = re.compile(rf'"[^"\\\\]*(?:\\\\.[^"\\\\]*)*"|(?P<hit>{pattern.pattern})', re.DOTALL)
    for match in combined.finditer(text):
        if match.group("hit") is not None:
            position = match.start()
            line = text.count("\n", 0, position) + 1
            column = position - (text.rfind("\n", 0, position) + 1) + 1
            return tr(" (line {line} column {column})").format(line=line, column=column)
    return ""
