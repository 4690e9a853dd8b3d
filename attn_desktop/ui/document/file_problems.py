"""What the window checks before writing a file, and how it words a failure for a dialog."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from attn_desktop.language import tr
from attn_desktop.model.files.safe_write import is_read_only


def read_only(path: str | os.PathLike) -> bool:
    """A file (through links) marked read-only, which the writers refuse to replace: ask or say so first."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and is_read_only(Path(path), info)


def same_file(a: str | os.PathLike | None, b: str | os.PathLike | None) -> bool:
    """Both name one file on disk (through links, or spelled differently)."""
    if a is None or b is None:
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def failure_text(error: BaseException) -> str:
    """Why a read or a write failed, in a few words for a message."""
    if isinstance(error, OSError):
        return error.strerror or str(error) or type(error).__name__
    if isinstance(error, UnicodeEncodeError):
        return tr("it holds text that cannot be written as UTF-8 (half of a character pair, for example)")
    if isinstance(error, RecursionError):
        return tr("it is nested too deeply")
    if isinstance(error, MemoryError):
        return tr("there is not enough memory")
    text = str(error)
    return text if text else type(error).__name__
