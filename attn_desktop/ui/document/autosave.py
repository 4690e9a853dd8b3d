"""Keeps a copy of unsaved work in the user's data folder, so a crash loses nothing.

Each window keeps its own recovery copy, ``autosave-<id>.json`` (the id is the
process id and a random part), written atomically a few seconds after the last
edit. While the copy exists its window holds ``autosave-<id>.lock``, a QLockFile
naming the process. Saving, discarding the work or closing normally removes both.

At start the app looks for copies whose lock is stale (the process that held it
is gone: a crash, a kill, a power cut) and offers them back. A copy whose owner
still runs is someone's live work: it is never offered and never deleted. Taking
a stale lock makes it ours, so two windows starting at once cannot both offer
(or both delete) the same copy. ``autosave.json`` from earlier versions, which
had one shared copy and no lock, counts as left behind.

A copy that cannot be read (damaged, binary, nested too deeply, not a plain file
at all) never stops the app: it is renamed ``…-damaged-<time>.json`` and set aside.

A data folder that cannot be written (read-only, or full) never hides left work: a copy whose
lock cannot be taken there, and whose lock names no process still running, is offered to
restore all the same, read-only: it cannot be deleted, so it stays where it is, and the
question says where. When our own lock cannot be taken, the warning names the reason as
save and export do ("No space left on device"), not Qt's "UnknownError".
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QSysInfo, QTimer, Signal

from attn_desktop.language import tr
from attn_desktop.model import Scene, SceneFileError, ViewState
from attn_desktop.model.files.json_reading import load_json_file, shown_path
from attn_desktop.model.files.safe_write import remove_stale_temporaries, write_json_atomically
from attn_desktop.model.files.scene_types import SceneData
from attn_desktop.model.scene_files import scene_data_from_document, scene_document
from attn_desktop.model.teaching.progress import default_data_dir
from attn_desktop.ui.document.file_problems import failure_text

AUTOSAVE_DELAY_MS = 2000
RETRY_DELAY_MS = 30_000  # after a failed write (a full disk, say): try again, and clear the warning once it works
COPY_NAME = re.compile(r"autosave-(?P<id>\d+-[0-9a-f]+)\.json")
LEGACY_NAME = "autosave.json"  # the one shared copy of versions before per-window copies


def lock_path_for(copy: Path) -> Path:
    return copy.with_suffix(".lock")


def new_lock(path: Path) -> QLockFile:
    lock = QLockFile(str(path))
    # Stale only when its process is gone: a window may run for hours without touching its lock.
    lock.setStaleLockTime(0)
    return lock


class Autosaver(QObject):
    """This window's recovery copy: written after edits, removed when the work is saved or dropped."""

    # "" while the work is protected (or there is none to protect), else why it is not.
    protection_changed = Signal(str)

    def __init__(self, scene: Scene, view: ViewState, parent: QObject | None = None, folder: Path | None = None) -> None:
        super().__init__(parent)
        self.scene, self.view = scene, view  # the copy keeps the query VIEW has chosen, as a saved file does
        self.source_path: Path | None = None  # the file the work belongs to, if any
        self.folder = folder if folder is not None else default_data_dir()
        self.path = self.folder / f"autosave-{os.getpid()}-{secrets.token_hex(4)}.json"
        self._lock = new_lock(lock_path_for(self.path))
        self._adopted: list[LeftWork] = []  # restored copies, removed once our own copy holds their work
        self.problem = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.write_now)

    def schedule(self) -> None:
        self._timer.start(AUTOSAVE_DELAY_MS)  # debounced: a drag writes once, after it settles

    def write_now(self) -> bool:
        """Write the copy now; True once the work is on disk. A failure is reported, never raised."""
        self._timer.stop()
        document = {"source": str(self.source_path) if self.source_path else None, "scene": scene_document(self.scene, self.view)}
        try:
            self._hold_lock()
            write_json_atomically(self.path, document)
        except Exception as error:  # noqa: BLE001 - whatever it was, the work is only in the window now
            self._set_problem(tr("cannot write the recovery copy ({reason})").format(reason=failure_text(error)))
            self._timer.start(RETRY_DELAY_MS)
            return False
        self._set_problem("")
        for left in self._adopted:
            left.remove()  # its work is in our copy now
        self._adopted.clear()
        return True

    def adopt(self, left: LeftWork) -> None:
        """Restored work: keep the dead window's copy until ours holds the same work."""
        self._adopted.append(left)

    def discard(self) -> None:
        """The work is saved (or deliberately dropped): no copy is needed."""
        self._timer.stop()
        _unlink(self.path)
        for left in self._adopted:
            left.remove()
        self._adopted.clear()
        self._lock.unlock()  # after the copy is gone: a copy never lies around unlocked while we run
        self._set_problem("")

    def _hold_lock(self) -> None:
        if self._lock.isLocked():
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        if not self._lock.tryLock(0):
            # Unlocked, the copy would look left behind to another window, which might delete it.
            raise lock_failure(self._lock, lock_path_for(self.path))

    def _set_problem(self, problem: str) -> None:
        if problem != self.problem:
            self.problem = problem
            self.protection_changed.emit(problem)


PROBE_BYTES = 256  # about what a lock file holds (process id, program, host name)


def lock_failure(lock: QLockFile, path: Path) -> OSError:
    """Why LOCK (of PATH) could not be taken, as an OSError that save and export would word.

    Qt says "UnknownError" when the lock file cannot be written (a full disk: its own comment
    says "partition full") and "PermissionError" for a read-only folder; a small write beside it
    finds the system's own reason.
    """
    if lock.error() == QLockFile.LockError.LockFailedError:
        return OSError(errno.EBUSY, f"{path.name} is held by another process")
    reason = _write_probe(path.parent)
    if reason is not None:
        return reason
    if lock.error() == QLockFile.LockError.PermissionError:
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    return OSError(f"cannot lock {path.name} (error {lock.error().name})")


def _write_probe(folder: Path) -> OSError | None:
    """The error a small write in FOLDER meets now (ENOSPC, EROFS, EACCES…), or None if it works."""
    probe = folder / f".attn-probe-{os.getpid()}-{secrets.token_hex(3)}"
    try:
        handle = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError as error:
        return error
    try:
        os.write(handle, b"\n" * PROBE_BYTES)
        os.fsync(handle)
    except OSError as error:
        return error
    finally:
        os.close(handle)
        _unlink(probe)
    return None


@dataclass
class LeftWork:
    """A recovery copy whose window is gone; we hold its lock while we decide what to do with it.

    No lock (read_only): its folder cannot be written, so the copy can be restored but stays where it is.
    """

    path: Path
    lock: QLockFile | None
    data: SceneData
    source: Path | None
    saved_at: float  # when the copy was last written (seconds since the epoch)

    @property
    def read_only(self) -> bool:
        return self.lock is None

    def remove(self) -> None:
        if self.lock is None:
            return  # not ours to delete: we could not lock it (and the folder refuses changes anyway)
        _unlink(self.path)
        remove_stale_temporaries(self.path)  # a write its window was killed in the middle of
        self.lock.unlock()

    def release(self) -> None:
        """Leave it for a later start."""
        if self.lock is not None:
            self.lock.unlock()


class DamagedCopy(Exception):
    """A recovery copy that cannot be read back."""


def find_left_work(folder: Path | None = None) -> tuple[list[LeftWork], list[str]]:
    """Copies whose window is gone (newest first), and a notice for each damaged one set aside.

    Copies of windows still running are left alone. Nothing here raises: a folder that
    cannot be read simply has no work to offer.
    """
    folder = folder if folder is not None else default_data_dir()
    found: list[LeftWork] = []
    notices: list[str] = []
    for path in _copies_in(folder):
        taken = new_lock(lock_path_for(path))
        lock: QLockFile | None = taken
        if not taken.tryLock(0):
            if _owner_runs(taken):
                continue  # its window still runs: not ours to touch
            lock = None  # left behind in a folder we cannot write: offered read-only
        if not os.path.lexists(path):
            if lock is not None:
                lock.unlock()  # its window removed it a moment ago
            continue
        try:
            data, source, saved_at = read_copy(path)
        except DamagedCopy as problem:
            notices.append(set_aside(path, str(problem)))
            if lock is not None:
                remove_stale_temporaries(path)
                lock.unlock()
            continue
        found.append(LeftWork(path, lock, data, source, saved_at))
    found.sort(key=lambda left: left.saved_at, reverse=True)
    _remove_stale_locks(folder)
    return found, notices


def _owner_runs(lock: QLockFile) -> bool:
    """The lock that could not be taken names a process still running (or one on another machine, which
    we cannot ask): its copy is live work. A stale lock in a read-only folder cannot be taken either."""
    pid, host, _app = lock.getLockInfo()
    if not pid:
        return lock.error() == QLockFile.LockError.LockFailedError  # held, but not readable: assume live
    return host != QSysInfo.machineHostName() or _process_alive(pid)


def _process_alive(pid: int) -> bool:
    if os.name == "nt":
        return True  # os.kill there ends the process instead of asking: assume it runs
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process (or we cannot tell): alive
    return True


def _remove_stale_locks(folder: Path) -> None:
    """Lock files of windows that died with nothing unsaved (or between removing their copy and their lock)."""
    for lock_file in folder.glob("autosave-*.lock"):
        copy = lock_file.with_suffix(".json")
        if os.path.lexists(copy):
            continue
        lock = new_lock(lock_file)
        if lock.tryLock(0):
            remove_stale_temporaries(copy)
            lock.unlock()  # taking a stale lock and letting it go removes the file


def _copies_in(folder: Path) -> list[Path]:
    try:
        names = sorted(entry.name for entry in os.scandir(folder))
    except OSError:
        return []
    return [folder / name for name in names if name == LEGACY_NAME or COPY_NAME.fullmatch(name)]


def read_copy(path: Path) -> tuple[SceneData, Path | None, float]:
    """The scene, its file and when it was written; DamagedCopy for anything else a file may hold."""
    try:
        saved_at = os.stat(path).st_mtime
        # The scene's own reader: refuses pipes and devices before opening, reads at most its limit,
        # and turns broken JSON, deep nesting and endless numbers into one SceneFileError.
        document = load_json_file(path)
        data = scene_data_from_document(document["scene"])
        source = document.get("source")
    except SceneFileError as error:
        raise DamagedCopy(str(error).removeprefix(f"{shown_path(path)}: ")) from None
    except Exception as error:  # noqa: BLE001 - whatever else a file holds, it means "damaged"
        raise DamagedCopy(_damage_text(error)) from None
    return data, Path(source) if isinstance(source, str) and source else None, saved_at


def _damage_text(error: Exception) -> str:
    if isinstance(error, (KeyError, TypeError, AttributeError)):
        return tr("it does not hold a scene")
    return failure_text(error)[:120]


def set_aside(path: Path, problem: str) -> str:
    """Rename a damaged copy out of the way (never delete it: it may be all there is); a one-line notice."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.stem}-damaged-{stamp}.json")
    try:
        os.rename(path, aside)  # renames a link or a pipe itself, never what it points at
    except OSError as error:
        return tr("A recovery copy {problem} and could not be set aside ({reason}); it is ignored.").format(
            problem=problem, reason=failure_text(error))
    return tr("A damaged recovery copy ({problem}) was set aside as {name}.").format(problem=problem, name=aside.name)


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    except OSError:
        pass  # a copy we cannot delete is offered again at the next start: nothing is lost
