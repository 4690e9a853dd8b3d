"""Writing a file so that no work is ever lost: Save, Save As, autosave and every export.

The new bytes go to a temporary file beside the target, are flushed to the
disk, and only then take the target's name (os.replace, atomic on one file
system): a kill or a full disk mid-write leaves the old file whole.

What a user would expect of a file is kept, where the process may:
- a symlink stays a link: the bytes go to the file it points at;
- a file marked read-only is not replaced unless the caller says so
  (ReadOnlyFileError, a PermissionError, lets the GUI ask first);
- its permission bits are kept, and its owner and group (os.chown; a user who
  is not root can only keep a group they belong to, never another's owner:
  that much is silently given up);
- a file with several hard links is rewritten in place, so every name still
  shows the new contents (see _copy_into for the price of that);
- a folder, device or pipe is never replaced (NotAFileError).
Not kept: extended attributes, ACLs and security labels of a replaced file
(a rename gives the name a fresh inode; a hard-linked file keeps them all).

Temporary names are short and fixed in length, so a target whose own name is
at the file system's limit (255 bytes) can still be saved, and they never end
in .json, so an Open dialog never offers one as a scene. A kill leaves one
behind; the next save of the same file removes it (stale_temporaries).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import secrets
import shutil
import stat
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from attn_desktop.language import tr

STALE_AFTER_SECONDS = 60  # a write takes milliseconds; a minute-old temporary is an orphan
_TEMPORARY = re.compile(r"\.(?P<tag>[0-9a-f]{8})\.attn-tmp-(?P<pid>\d+)-[0-9a-f]{6}\Z")
# mkstemp's names from earlier versions: ".NAME.xxxxxxxx.tmp"
_OLD_TEMPORARY_TAIL = re.compile(r"\.[a-z0-9_]{8}\.tmp\Z")


class ReadOnlyFileError(PermissionError):
    """The target is marked read-only: replacing it needs the user's yes (replace_read_only=True)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(errno.EACCES, tr("the file is marked read-only; it was left as it was"), os.fspath(path))


class NotAFileError(OSError):
    """The target is a folder, a device or a pipe: not something a save may replace."""

    def __init__(self, path: str | os.PathLike[str], kind: str) -> None:
        super().__init__(errno.EINVAL, tr("it is {kind}, not a file").format(kind=kind), os.fspath(path))


def write_text_atomically(path: str | os.PathLike[str], text: str, replace_read_only: bool = False) -> None:
    """Write TEXT as UTF-8. A lone surrogate (half an emoji) raises UnicodeEncodeError before anything is touched."""
    write_bytes_atomically(path, text.encode("utf-8"), replace_read_only=replace_read_only)


def write_json_atomically(path: str | os.PathLike[str], document: Any, replace_read_only: bool = False) -> None:
    """Write a JSON document whole or not at all (see safe_write).

    Text that UTF-8 cannot hold (a lone surrogate, half an emoji) is written
    as a JSON escape instead, so the work is saved faithfully and never lost
    to an encoding error; the loader then names the broken text.
    """
    text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        data = (json.dumps(document, indent=2, ensure_ascii=True, allow_nan=False) + "\n").encode("ascii")
    write_bytes_atomically(path, data, replace_read_only=replace_read_only)


def write_chunks_atomically(path: str | os.PathLike[str], chunks: Iterable[bytes]) -> None:
    """Like write_bytes_atomically, for contents made a piece at a time (hundreds of MB of JSON need not be
    held whole); an exception while the pieces are made leaves the old file as it was."""
    write_bytes_atomically(path, chunks)


def write_bytes_atomically(path: str | os.PathLike[str], data: bytes | Iterable[bytes],
                           replace_read_only: bool = False) -> None:
    """Put DATA (bytes, or pieces of them) under PATH whole or not at all; raise an OSError subclass saying why not."""
    target = Path(os.path.realpath(path))  # through symlinks: the link stays, its target gets the bytes
    existing = _existing(target)
    if existing is not None:
        if not stat.S_ISREG(existing.st_mode):
            raise NotAFileError(path, file_kind(existing.st_mode))
        if is_read_only(target, existing) and not replace_read_only:
            raise ReadOnlyFileError(path)
    remove_stale_temporaries(target)
    temporary = _write_temporary(target, data, existing)
    try:
        if existing is not None and existing.st_nlink > 1 and os.access(target, os.W_OK):
            _copy_into(temporary, target)
            os.unlink(temporary)
        else:  # (a read-only file with several links that the user said to replace loses its links)
            os.replace(temporary, target)
    except BaseException:
        _remove(temporary)
        raise


def write_files_together(files: Sequence[tuple[str | os.PathLike[str], bytes]]) -> None:
    """Put each file's bytes under its path, all of them or none (a snapshot's picture and its audit).

    First every target is checked (a folder, a device such as /dev/full, or a read-only file: NotAFileError,
    ReadOnlyFileError) and every new file is written whole, and flushed to the disk, under a temporary name
    beside its target: the step where a full disk or a device stops the write, and it touches no target. Only
    then does each temporary take its target's name, in order, the old file kept meanwhile under a second
    name (a hard link: no copy; a copy where links are not allowed). If a later rename fails, every target
    renamed before it gets its old file back from that name (one that did not exist is removed again), so
    the first never stays replaced while the second is not; the kept names go once all are in place.
    What cannot be covered: a kill between two renames leaves the first file new and the old one beside it
    under a temporary name (the next write of that file removes it as stale). Unlike write_bytes_atomically,
    a target with several hard links is replaced by a new file (its other names keep the old bytes): putting
    bytes back into a shared inode could not be undone.
    """
    targets = [Path(os.path.realpath(path)) for path, _ in files]  # through symlinks, as a single write goes
    if len(set(targets)) != len(targets):
        raise ValueError("the same file named twice")
    existing = [_replaceable(path, target) for (path, _), target in zip(files, targets, strict=True)]
    temporaries: list[Path] = []
    try:
        for (_, data), target, old in zip(files, targets, existing, strict=True):
            remove_stale_temporaries(target)
            temporaries.append(_write_temporary(target, data, old))
        _rename_together(temporaries, targets, existing)
    finally:
        for temporary in temporaries:  # those that did not take their target's name
            if os.path.lexists(temporary):
                _remove(temporary)


def _replaceable(path: str | os.PathLike[str], target: Path) -> os.stat_result | None:
    """TARGET's state, if it may be replaced (as write_bytes_atomically checks it); raise otherwise."""
    existing = _existing(target)
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        raise NotAFileError(path, file_kind(existing.st_mode))
    if existing is not None and is_read_only(target, existing):
        raise ReadOnlyFileError(path)
    return existing


def _rename_together(temporaries: list[Path], targets: list[Path], existing: list[os.stat_result | None]) -> None:
    kept: list[tuple[Path, Path | None]] = []  # (target replaced, its old file's second name; None: there was none)
    try:
        for temporary, target, old in zip(temporaries, targets, existing, strict=True):
            old_file = _second_name(target) if old is not None else None
            try:
                os.replace(temporary, target)
            except BaseException:  # this target still holds its old file: only the spare name goes
                if old_file is not None:
                    _remove(old_file)
                raise
            kept.append((target, old_file))
    except BaseException:
        for target, old_file in reversed(kept):
            _put_back(target, old_file)
        raise
    for _target, old_file in kept:
        if old_file is not None:
            _remove(old_file)


def _second_name(target: Path) -> Path:
    """A temporary name beside TARGET for its present bytes: a hard link, or a copy where links are refused."""
    name = target.parent / temporary_name(target)
    try:
        os.link(target, name)
    except OSError:
        try:
            shutil.copy2(target, name)
        except BaseException:
            _remove(name)
            raise
    return name


def _put_back(target: Path, old_file: Path | None) -> None:
    try:
        if old_file is None:
            os.unlink(target)
            return
        os.replace(old_file, target)
    except OSError:  # nothing more can be done; the old bytes stay under their temporary name
        return
    if os.path.lexists(old_file):  # a rename between two names of one file does nothing: the spare name goes
        _remove(old_file)


def is_read_only(path: Path, info: os.stat_result) -> bool:
    """No write bit for anyone, or none for this user: what a file manager shows as read-only.

    The bits are checked as well as os.access because root may write anything:
    a file its owner marked read-only is still not to be replaced without asking.
    """
    return not info.st_mode & 0o222 or not os.access(path, os.W_OK)


def file_kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return tr("a folder")
    if stat.S_ISFIFO(mode):
        return tr("a pipe (FIFO)")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return tr("a device")
    if stat.S_ISSOCK(mode):
        return tr("a socket")
    return tr("not a regular file")


def temporary_name(target: Path) -> str:
    """'.<8 hex of the target's name>.attn-tmp-<pid>-<6 hex>': 30-odd bytes whatever the target's length."""
    return f".{_tag(target)}.attn-tmp-{os.getpid()}-{secrets.token_hex(3)}"


def stale_temporaries(target: str | os.PathLike[str], now: float | None = None) -> list[Path]:
    """Temporary files an interrupted save of TARGET left beside it.

    A temporary counts as stale when its writer's process is gone, or when it
    is older than a minute (a process id can be reused, or belong to another
    machine on a shared folder). One this process is writing is never stale.
    """
    now = time.time() if now is None else now
    target = Path(os.path.realpath(target))  # a save through a symlink leaves them beside the link's target
    folder, tag = target.parent, _tag(target)
    found = []
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    for name in names:
        match = _TEMPORARY.match(name)
        if match and match["tag"] == tag:
            pid = int(match["pid"])
            if pid == os.getpid():
                continue
            if not _process_alive(pid) or _age(folder / name, now) > STALE_AFTER_SECONDS:
                found.append(folder / name)
        elif _is_old_style_temporary(name, target.name) and _age(folder / name, now) > STALE_AFTER_SECONDS:
            found.append(folder / name)
    return found


def remove_stale_temporaries(target: str | os.PathLike[str]) -> None:
    for path in stale_temporaries(target):
        _remove(path)


def _tag(target: Path) -> str:
    return hashlib.sha256(os.fsencode(target.name)).hexdigest()[:8]


def _is_old_style_temporary(name: str, target_name: str) -> bool:
    prefix = f".{target_name}"
    return name.startswith(prefix) and bool(_OLD_TEMPORARY_TAIL.fullmatch(name[len(prefix):]))


def _write_temporary(target: Path, data: bytes | Iterable[bytes], existing: os.stat_result | None) -> Path:
    """The whole new contents, on the disk, under a temporary name beside TARGET."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    for _attempt in range(100):
        temporary = target.parent / temporary_name(target)
        try:
            handle = os.open(temporary, flags, 0o600)
            break
        except FileExistsError:
            continue
    else:
        raise FileExistsError(errno.EEXIST, "no free temporary name", os.fspath(target.parent))
    try:
        # Created private (0600) so no one reads half a file; then given the mode a plain
        # write would have, or the mode of the file it replaces, so a class can still read shared scenes.
        os.chmod(temporary, _mode_for(existing))
        _keep_owner(temporary, existing)
        with os.fdopen(handle, "wb") as stream:
            for chunk in [data] if isinstance(data, bytes) else data:
                stream.write(chunk)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException:
        _remove(temporary)
        raise
    return temporary


def _copy_into(source: Path, target: Path) -> None:
    """Rewrite TARGET's own inode with SOURCE's bytes, so every hard link shows the new contents.

    The trade-off: a rename cannot keep hard links (it gives the name a new
    inode), and writing in place is not atomic. So the new bytes are first
    whole and fsynced in SOURCE, the copy is a single short write (a scene is
    a few kilobytes), and if the copy fails (a full disk: the file may need
    more room than before) the old bytes are put back. What cannot be
    covered: a kill or a power cut during the copy itself leaves TARGET
    partly written.
    """
    data = source.read_bytes()
    with open(target, "r+b") as stream:
        old = stream.read()
        try:
            _overwrite(stream, data)
        except BaseException:
            try:
                _overwrite(stream, old)  # fits: those blocks were the file's a moment ago
            except OSError:
                pass
            raise


def _overwrite(stream: BinaryIO, data: bytes) -> None:
    stream.seek(0)
    stream.write(data)
    stream.truncate()
    stream.flush()
    os.fsync(stream.fileno())


def _keep_owner(temporary: Path, existing: os.stat_result | None) -> None:
    """Give the new file the old one's owner and group, or at least its group; quietly less if not allowed."""
    if existing is None or not hasattr(os, "chown"):
        return
    for uid in (existing.st_uid, -1):
        try:
            os.chown(temporary, uid, existing.st_gid)
            return
        except PermissionError:
            continue  # only root may give a file away; a member of the group may still keep the group
        except OSError:
            return


def _mode_for(existing: os.stat_result | None) -> int:
    if existing is not None:
        return stat.S_IMODE(existing.st_mode) & 0o777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _existing(target: Path) -> os.stat_result | None:
    try:
        return os.stat(target)
    except FileNotFoundError:
        return None


def _process_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # it exists but belongs to someone else (or we cannot tell): assume alive
    return True


def _age(path: Path, now: float) -> float:
    try:
        return now - os.lstat(path).st_mtime
    except OSError:
        return 0.0


def _remove(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


__all__ = [
    "STALE_AFTER_SECONDS",
    "NotAFileError",
    "ReadOnlyFileError",
    "file_kind",
    "is_read_only",
    "remove_stale_temporaries",
    "stale_temporaries",
    "temporary_name",
    "write_bytes_atomically",
    "write_files_together",
    "write_text_atomically",
]
