"""What a student has completed, remembered between runs.

One small JSON file in the user's data folder:

    {"format": "attention-desktop-progress", "version": 2,
     "done": {"challenges": ["scaled-focus"], "exercises": []},
     "predictions": {"rounds": 12, "total_score": 861.5, "winners_right": 9, "best_score": 97.0},
     "lessons": {"open": "projections", "scenes": {"projections": {...a scene file's document...}}}}

Version 2 added "predictions" (Predict, then see: every round played, on any run). "lessons" is the
lesson the student was last on and the lessons' scenes they left changed (a Show me, a drag): switching
lessons or quitting keeps them, and the lesson opens on them again. Versions without it keep it untouched.
A version 1 file reads as having played none, and is written back as version 2;
copies of the app that know only version 1 keep the new key untouched.

Progress is a convenience, never a reason to stop the app. The file is read by the scene files'
hardened reader (a regular file only, never a pipe or a device, UTF-8 with or without a BOM, no endless
numbers, no NaN, no deep nesting), and its numbers are range-checked. One damaged kept scene costs that scene,
not progress (progress_reading): what the parser refuses inside a kept scene, a kept scene that takes the file
past MAX_FILE_BYTES (it is read up to MAX_READ_BYTES), and "lessons", "scenes" or a kept scene that is not an
object are cut out of what is read and set aside (below) before the first write replaces them. A missing file starts empty; an
unreadable or corrupt one starts empty too, is left as it is while the app only reads, and is moved
aside before anything is written in its place: to ``progress.json.bad``, or ``.bad-2``, ``.bad-3``… when
an earlier one is kept there, so a student's record is never destroyed by a bug or a half-copied file.
A dangling symlink is written through, as the scene files' links are (a folder not mounted yet, say).
A kept lesson scene this version cannot open (one a newer version kept, or a damaged one) is set aside
with the same care (set_aside_kept_scene, and every write for what reading cut out): its JSON, as the file held
it, goes to a file of its own beside progress.json, a line to the log, and only then does it leave progress.json; where that file cannot be written, the scene stays in
progress.json, moved under "lessons" → "set_aside", so what the student made is never lost.

Saving failures are kept in ``last_error`` instead of raised: progress is saved as a side effect of a
student's work (a challenge met, an exercise answered), and that work must go on even when the disk is
full. ``notice`` words what the window shows about it; watch() tells a window when that changes.

No Qt here: the command line and the tests use it too.
"""

from __future__ import annotations

import enum
import logging
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attn_desktop.language import tr
from attn_desktop.model.files.json_reading import named, read_file_bytes, shown_path
from attn_desktop.model.files.safe_write import write_json_atomically
from attn_desktop.model.files.values import SceneFileError
from attn_desktop.model.teaching.prediction import Comparison, SessionScore
from attn_desktop.model.teaching.progress_reading import (
    MAX_FILE_BYTES,
    MAX_READ_BYTES,
    Unusable,
    held_aside,
    json_text,
    parse_progress_text,
    unusable_shapes,
)

DATA_DIR_VARIABLE = "ATTN_DESKTOP_DATA_DIR"
FILE_NAME = "progress.json"
FORMAT_MARKER = "attention-desktop-progress"
FORMAT_VERSION = 2  # 2: "predictions" was added
PREDICTIONS = "predictions"
LESSONS = "lessons"
BAD_SUFFIX = ".bad"
ASIDE = "{name}.{part}{number}.json"  # progress.json.soft-lookup.scene.json, then .scene-2.json…; .lessons.json
SET_ASIDE = "set_aside"  # under "lessons": scenes that could be kept nowhere else, [{"lesson": id, "scene": {…}}]
_log = logging.getLogger(__name__)
MAX_NUMBERED_BAD_COPIES = 999  # then a time stamp names the copy


class ProgressKind(str, enum.Enum):
    """What is remembered; the value is its key in the file."""

    CHALLENGES = "challenges"
    EXERCISES = "exercises"


def default_data_dir() -> Path:
    """The user's data folder for the app, or $ATTN_DESKTOP_DATA_DIR (tests, portable installs)."""
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return Path(override)
    # Imported here so that tests and scripts that set the variable need nothing more.
    import platformdirs

    return Path(platformdirs.user_data_dir("attn-desktop", appauthor=False))


def default_progress_path() -> Path:
    return default_data_dir() / FILE_NAME


class ProgressStore:
    """Completed items by kind (ProgressKind), saved on every change.

    A kind may be given as a ProgressKind or as its value ("challenges").
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_progress_path()
        self.last_error: str | None = None  # why the last save failed; None once one works
        self.read_problem: str | None = None  # why the file on disk could not be used, if it could not
        self.set_aside_as: Path | None = None  # where such a file was kept on this run
        self.scene_set_aside: tuple[str, Path | None] | None = None  # (lesson, its copy) of a kept scene set aside
        self._watchers: list[Callable[[], object]] = []
        self._unsaved_changes: list[Callable[[dict[str, Any]], object]] = []  # made since the last save that worked
        self._cut_out: list[Unusable] = []  # what the last read took out of the document: set aside on writing
        self._refused: dict[str, tuple[dict[str, Any], str]] = {}  # lesson: (kept scene, why), to set aside
        self._document, self._unusable = self._read()

    # ----- what the window says ---------------------------------------------
    @property
    def notice(self) -> str:
        """One line for the window about progress that is not being saved or could not be read; "" if none."""
        if self.last_error:
            return tr("Progress is not being saved: {error}").format(error=self.last_error)
        if self.read_problem and self.set_aside_as is not None:
            return tr("Earlier progress could not be read ({problem}); it was kept as {name}").format(
                problem=self.read_problem, name=self.set_aside_as.name)
        if self.read_problem:
            return tr("Earlier progress could not be read ({problem}); "
                      "it will be kept aside, not overwritten, when new progress is saved").format(problem=self.read_problem)
        if self.scene_set_aside is not None:
            lesson_id, copy = self.scene_set_aside
            if copy is not None:
                return tr("The scene kept for lesson {lesson} could not be opened; it was kept as {name}").format(
                    lesson=lesson_id, name=copy.name)
            return tr("The scene kept for lesson {lesson} could not be opened; it stays in {name}").format(
                lesson=lesson_id, name=self.path.name)
        return ""

    def watch(self, watcher: Callable[[], object]) -> None:
        """WATCHER is called whenever `notice` changes (a window's status bar)."""
        self._watchers.append(watcher)

    def unwatch(self, watcher: Callable[[], object]) -> None:
        if watcher in self._watchers:
            self._watchers.remove(watcher)

    # ----- reading ------------------------------------------------------
    def is_done(self, kind: ProgressKind | str, item_id: str) -> bool:
        return item_id in self._done().get(_key(kind), ())

    def done_ids(self, kind: ProgressKind | str) -> set[str]:
        return set(self._done().get(_key(kind), ()))

    def prediction_record(self) -> SessionScore:
        """Every round of Predict, then see played, on this run and earlier ones."""
        return SessionScore.from_dict(self._document.get(PREDICTIONS, {}))  # _problem_with checked it

    def last_lesson(self) -> str | None:
        """The lesson the student was on when they last left one (another lesson, a file of their own, quitting)."""
        lesson_id = self._lessons().get("open")
        return lesson_id if isinstance(lesson_id, str) else None

    def kept_lesson_scene(self, lesson_id: str) -> dict[str, Any] | None:
        """The scene document of LESSON_ID as the student left it changed; None: the lesson's own is used."""
        scenes = self._lessons().get("scenes")
        scene = scenes.get(lesson_id) if isinstance(scenes, dict) else None
        return scene if isinstance(scene, dict) else None

    def kept_scene_problem(self, lesson_id: str) -> str | None:
        """Why LESSON_ID's kept scene was cut out of what was read (damaged, not an object), or None."""
        return next((value.problem for value in self._cut_out if value.lesson == lesson_id), None)

    # ----- changing -----------------------------------------------------
    def leave_lesson(self, lesson_id: str, scene: dict[str, Any] | None) -> None:
        """The student leaves LESSON_ID with its scene as SCENE (a scene document; None: as the lesson has it).
        One write, none when that is what is kept already."""
        if self.last_lesson() == lesson_id and self.kept_lesson_scene(lesson_id) == scene:
            return

        def keep(document: dict[str, Any]) -> None:
            lessons = document.get(LESSONS)
            lessons = document[LESSONS] = lessons if isinstance(lessons, dict) else {}
            scenes = lessons.get("scenes")
            scenes = lessons["scenes"] = scenes if isinstance(scenes, dict) else {}
            lessons["open"] = lesson_id
            if scene is None:
                scenes.pop(lesson_id, None)
            else:
                scenes[lesson_id] = scene

        self._update_document(keep)

    def set_aside_kept_scene(self, lesson_id: str, problem: str) -> Path | None:
        """LESSON_ID's kept scene, which this version cannot open (PROBLEM: made by a newer version, say), is
        set aside, never dropped: its JSON is written whole to a new file beside progress.json (SCENE_ASIDE,
        never over an earlier one; a newer version opens it with File → Open), a line goes to the log, and
        only then does the scene leave progress.json. If that file cannot be written, the scene stays in
        progress.json, moved under "lessons" → "set_aside". Either way the lesson then opens on its own
        scene. A kept scene reading cut out (kept_scene_problem: damaged, not an object) goes the same way.
        The copy's path, or None."""
        scene = self.kept_lesson_scene(lesson_id)
        if scene is None and self.kept_scene_problem(lesson_id) is None:
            return None
        if scene is not None:
            self._refused[lesson_id] = (scene, problem)
        before = self.notice
        self.scene_set_aside = None
        self._update_document(lambda document: None)  # the writing sets it aside
        self._tell_watchers_if_changed(before)  # the status bar says where the scene is
        return self.scene_set_aside[1] if self.scene_set_aside and self.scene_set_aside[0] == lesson_id else None

    def mark_done(self, kind: ProgressKind | str, *item_ids: str) -> None:
        """Remember these items as done, in one write (none if every one of them was done already)."""
        new = [item_id for item_id in dict.fromkeys(item_ids) if not self.is_done(kind, item_id)]
        if not new:
            return

        def add(done: dict[str, list[str]]) -> None:
            ids = done.setdefault(_key(kind), [])
            ids += [item_id for item_id in new if item_id not in ids]  # another run may have added some since

        self._update(add)

    def record_prediction(self, comparison: Comparison) -> None:
        """Add one round of Predict, then see to the record, in one write."""

        def add(document: dict[str, Any]) -> None:
            record = SessionScore.from_dict(document.get(PREDICTIONS, {}))  # another run may have added some since
            document[PREDICTIONS] = record.with_round(comparison).to_dict()

        self._update_document(add)

    def reset(self, kind: ProgressKind | str) -> None:
        self._update(lambda done: done.pop(_key(kind), None))

    # ----- internals ----------------------------------------------------
    def _lessons(self) -> dict[str, Any]:
        lessons = self._document.get(LESSONS)  # read leniently: a damaged entry costs a kept scene, not progress
        return lessons if isinstance(lessons, dict) else {}

    def _done(self) -> dict[str, list[str]]:
        done: dict[str, list[str]] = self._document["done"]  # _problem_with checked its shape
        return done

    def _update(self, change: Callable[[dict[str, list[str]]], object]) -> None:
        self._update_document(lambda document: change(document["done"]))

    def _update_document(self, change: Callable[[dict[str, Any]], object]) -> None:
        # Re-read first, so two windows (or two runs) add to each other's progress instead of overwriting it.
        # Changes whose save failed (a full disk, a link to a folder not mounted) are made again on what is
        # read, so a later save holds them too and they stay in this run's progress meanwhile.
        on_disk, unusable = self._read()
        if unusable:
            self._unusable = True  # keep what this run knows; the file is moved aside before writing
        else:
            self._document, self._unusable = on_disk, False
            self._set_aside_what_cannot_be_used()
            for unsaved in self._unsaved_changes:
                unsaved(self._document)
        self._refused.clear()
        change(self._document)
        self._unsaved_changes.append(change)
        if not isinstance(self._document.get("version"), int) or self._document["version"] < FORMAT_VERSION:
            self._document["version"] = FORMAT_VERSION  # an older file now holds what this version writes
        self._save()
        if self.last_error is None:
            self._unsaved_changes.clear()

    def _save(self) -> None:
        before = self.notice
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self._unusable and os.path.lexists(self.path):
                self.set_aside_as = set_aside(self.path)  # a pipe or a link is renamed itself, never followed
                _log.warning(tr("earlier progress could not be read ({problem}); it was kept as {name}").format(
                    problem=self.read_problem, name=shown_path(self.set_aside_as)))
            self._unusable = False
            write_json_atomically(self.path, self._document)
            self.last_error = None
        except Exception as error:  # noqa: BLE001 - a full disk or anything else: the student's work goes on
            # The change stays in memory for this run; the old file (if any) is untouched.
            self.last_error = self._save_failure(error)
        self._tell_watchers_if_changed(before)

    def _tell_watchers_if_changed(self, before: str) -> None:
        if self.notice != before:
            for watcher in list(self._watchers):
                watcher()

    def _save_failure(self, error: Exception) -> str:
        reason = (error.strerror or str(error)) if isinstance(error, OSError) else (str(error) or type(error).__name__)
        if os.path.islink(self.path) and not os.path.exists(self.path):
            return tr("{path} links to {target}, which cannot be written ({reason})").format(
                path=shown_path(self.path), target=shown_path(os.path.realpath(self.path)), reason=reason)
        return tr("could not save progress to {path}: {reason}").format(path=shown_path(self.path), reason=reason)

    def _read(self) -> tuple[dict[str, Any], bool]:
        """The document on disk and whether an existing file could not be used (read_problem says why)."""
        self._cut_out = []  # only what this read finds is set aside
        if not os.path.lexists(self.path) or _dangling_link(self.path):
            return _empty_document(), False  # a dangling link is written through; a failure then says so
        try:  # the scene files' hardened reading: a regular file, UTF-8, JSON within limits
            document, cut_out = named(self.path, self._parse)
        except SceneFileError as error:
            self.read_problem = _about_progress(str(error))
            return _empty_document(), True
        problem = _problem_with(document)
        if problem is not None:
            self.read_problem = f"{shown_path(self.path)}: {problem}"
            return _empty_document(), True
        self._cut_out = cut_out + unusable_shapes(document)
        return document, False

    def _parse(self) -> tuple[Any, list[Unusable]]:
        raw = read_file_bytes(self.path, MAX_READ_BYTES)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise SceneFileError(tr("not UTF-8 text (byte 0x{byte:02x} at offset {start})").format(
                byte=raw[error.start], start=error.start)) from None
        return parse_progress_text(text, len(raw))

    def _set_aside_what_cannot_be_used(self) -> None:
        """Before a write: what reading cut out of the file, and the kept scenes the lessons refused, each copied
        to a file beside it with a line in the log, or (where that cannot be written) kept under "set_aside"."""
        found = list(self._cut_out)
        scenes = self._lessons().get("scenes")
        for lesson_id, (scene, problem) in self._refused.items():
            if isinstance(scenes, dict) and scenes.get(lesson_id) == scene:  # another run may have changed it since
                del scenes[lesson_id]
            found.append(Unusable((LESSONS, "scenes", lesson_id), json_text(scene), problem))
        for value in found:
            self._set_aside_value(value)
        self._cut_out = []

    def _set_aside_value(self, value: Unusable) -> None:
        part = f"{_safe_name(value.lesson)}.scene" if value.lesson is not None else value.where[-1]
        try:
            copy: Path | None = _write_scene_aside(self.path, part, value.text)
            if value.lesson is not None:
                _log.warning(tr("the scene kept for lesson {lesson} could not be opened ({problem}); "
                                "it was kept as {name}").format(lesson=value.lesson, problem=value.problem, name=copy))
            else:
                _log.warning(tr("{key} in {path} could not be used ({problem}); it was kept as {name}").format(
                    key="/".join(value.where), path=shown_path(self.path), problem=value.problem, name=copy))
        except (OSError, ValueError) as error:
            copy = None
            _log.warning(tr("{key} in {path} could not be used ({problem}) nor copied beside it ({error}); "
                            "it stays in that file").format(key="/".join(value.where), path=shown_path(self.path),
                                                            problem=value.problem, error=error))
            lessons = self._document.get(LESSONS)
            lessons = self._document[LESSONS] = lessons if isinstance(lessons, dict) else {}
            held = lessons.get(SET_ASIDE)
            lessons[SET_ASIDE] = [*(held if isinstance(held, list) else [held] if held is not None else []),
                                  held_aside(value)]
        if value.lesson is not None:
            self.scene_set_aside = (value.lesson, copy)


def set_aside(path: Path) -> Path:
    """Rename PATH to PATH.bad, or .bad-2, .bad-3…, never over an earlier copy; the new name.

    OSError if it cannot be renamed (a read-only folder): then nothing may be written over it either.
    """
    for number in range(1, MAX_NUMBERED_BAD_COPIES + 1):
        aside = path.with_name(path.name + BAD_SUFFIX + (f"-{number}" if number > 1 else ""))
        if not os.path.lexists(aside):
            os.rename(path, aside)  # a name taken in the moment between the check and here is not ours to replace
            return aside
    aside = path.with_name(f"{path.name}{BAD_SUFFIX}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}")
    os.rename(path, aside)
    return aside


def _write_scene_aside(path: Path, part: str, text: str) -> Path:
    """TEXT written whole (flushed to the disk) to a new file beside PATH named after PART (a lesson's scene,
    "lessons"); its path. Created exclusively: never over an earlier copy or anything else of that name."""
    data = (text.rstrip("\n") + "\n").encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    for number in range(1, MAX_NUMBERED_BAD_COPIES + 1):
        copy = path.with_name(ASIDE.format(name=path.name, part=part, number=f"-{number}" if number > 1 else ""))
        try:
            handle = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
        except FileExistsError:
            continue
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
        except BaseException:
            copy.unlink(missing_ok=True)  # half a copy is no copy: the scene stays in progress.json
            raise
        return copy
    raise FileExistsError(f"{MAX_NUMBERED_BAD_COPIES} copies of that scene are kept already")


def _safe_name(lesson_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", lesson_id)[:64]


def _about_progress(message: str) -> str:
    """The shared reader's message, naming what this file is (it words its refusals for scene files)."""
    for scene_words, progress_words in (("not a scene file", "not a progress file"),
                                        ("scenes are limited to", "progress files are limited to"),
                                        ("far too large for a scene", "far too large for progress")):
        message = message.replace(scene_words, progress_words)
    return message


def _dangling_link(path: Path) -> bool:
    return os.path.islink(path) and not os.path.exists(path)


def _key(kind: ProgressKind | str) -> str:
    # The file holds plain strings; an unknown kind (a typo) raises here instead of saving under a new key.
    return ProgressKind(kind).value


def _empty_document() -> dict[str, Any]:
    return {"format": FORMAT_MARKER, "version": FORMAT_VERSION, "done": {}}


def _problem_with(document: Any) -> str | None:
    """Why DOCUMENT is not progress this version can use, or None.

    Unknown top-level keys (from a newer version) are kept and written back untouched.
    """
    if not isinstance(document, dict) or document.get("format") != FORMAT_MARKER:
        return tr("it is not a progress file")
    if PREDICTIONS in document:
        try:
            SessionScore.from_dict(document[PREDICTIONS])
        except ValueError as error:
            return tr("its record of predictions is damaged: {error}").format(error=error)
    done = document.get("done")
    if not (isinstance(done, dict) and all(
        isinstance(kind, str) and isinstance(ids, list) and all(isinstance(i, str) for i in ids)
        for kind, ids in done.items()
    )):
        return tr("its list of completed items is damaged")
    return None


__all__ = ["DATA_DIR_VARIABLE", "MAX_FILE_BYTES", "MAX_READ_BYTES", "ProgressKind", "ProgressStore", "default_data_dir", "default_progress_path"]
