"""A teacher's folder of lesson files ("Your lessons"), as the Lessons menu lists it: each file's title, the files
that cannot be read and why, and whether the folder is there at all (a USB stick taken out).

A folder is read when the menu opens, so it is read cheaply: at most MAX_SCANNED names are looked at and MAX_LISTED
files read (the first by name), each read and checked whole by the lesson file reader (a broken file is left out,
with its one line); a file read before and unchanged since (same size and time) is not read again.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from attn_desktop.language import tr
from attn_desktop.model.files.values import SceneFileError
from attn_desktop.model.teaching.lesson_file import LESSON_SUFFIX, LessonFile
from attn_desktop.model.teaching.lesson_file_reading import read_lesson_file

MAX_LISTED = 50  # a menu longer than this is no longer a menu
MAX_SCANNED = 10_000  # names looked at in a folder: a folder of a million files costs no more than this

# A file as last read: its (size, modification time), and its title or why it could not be read.
Seen = dict[Path, tuple[tuple[int, int], str, bool]]


@dataclass(frozen=True)
class FolderLesson:
    title: str
    path: Path


@dataclass(frozen=True)
class LessonFolder:
    """What the menu lists of one folder."""

    folder: Path
    lessons: tuple[FolderLesson, ...] = ()  # by title
    refused: tuple[tuple[Path, str], ...] = ()  # files that cannot be read, and why (one line each)
    not_listed: int = 0  # lesson files past MAX_LISTED, not read
    problem: str = ""  # the folder cannot be listed (gone, or not a folder): why


@dataclass
class LessonFolderReader:
    """Reads a folder's lesson files' titles, remembering each file's until it changes."""

    read: Callable[[Path], LessonFile] = read_lesson_file
    seen: Seen = field(default_factory=dict)

    def read_folder(self, folder: Path, limit: int = MAX_LISTED) -> LessonFolder:
        try:
            names = _lesson_file_names(folder)
        except OSError as error:
            return LessonFolder(folder, problem=_folder_problem(folder, error))
        lessons: list[FolderLesson] = []
        refused: list[tuple[Path, str]] = []
        for name in names[:limit]:
            path = folder / name
            title, readable = self._title(path)
            if readable:
                lessons.append(FolderLesson(title, path))
            else:
                refused.append((path, title))
        read_now = {folder / name for name in names[:limit]}
        self.seen = {path: known for path, known in self.seen.items() if path in read_now}  # only what is listed
        lessons.sort(key=lambda lesson: (lesson.title.casefold(), lesson.path.name))
        return LessonFolder(folder, tuple(lessons), tuple(refused), max(0, len(names) - limit))

    def _title(self, path: Path) -> tuple[str, bool]:
        """PATH's title and True, or why it cannot be read and False."""
        try:
            status = path.stat()
        except OSError as error:
            return tr("{file}: {reason}").format(file=path.name, reason=error.strerror or error), False
        stamp = (status.st_size, status.st_mtime_ns)
        known = self.seen.get(path)
        if known is not None and known[0] == stamp:
            return known[1], known[2]
        try:
            title, readable = self.read(path).title, True
        except (SceneFileError, OSError, ValueError) as error:
            title, readable = str(error), False
        self.seen[path] = (stamp, title, readable)
        return title, readable


def _lesson_file_names(folder: Path) -> list[str]:
    """The names of FOLDER's lesson files, sorted (the first MAX_SCANNED names of the folder looked at)."""
    names = []
    with os.scandir(folder) as entries:
        for scanned, entry in enumerate(entries):
            if scanned >= MAX_SCANNED:
                break
            if entry.name.endswith(LESSON_SUFFIX) and not entry.name.startswith("."):
                names.append(entry.name)
    return sorted(names, key=lambda name: (name.casefold(), name))


def _folder_problem(folder: Path, error: OSError) -> str:
    if isinstance(error, FileNotFoundError):
        return tr("Your lessons folder is not there: {folder}").format(folder=folder)
    if isinstance(error, NotADirectoryError):
        return tr("Your lessons folder is not a folder: {folder}").format(folder=folder)
    return tr("Your lessons folder cannot be read: {folder} ({reason})").format(folder=folder,
                                                                                 reason=error.strerror or error)
