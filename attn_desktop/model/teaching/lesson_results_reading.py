"""Reading results files, which come from students' machines: every one checked as untrusted.

A file is read as a lesson file is (a regular file only, at most MAX_RESULTS_BYTES, UTF-8, JSON without
NaN, Infinity or endless digits); then every field is checked for its type, length, count and form, and
unknown fields are refused. A broken or hostile file is one line naming it and what is wrong; collecting a
folder lists it as skipped and goes on. Results are grouped by the lesson they answer (title, hash and
version together), and a student who handed in twice counts once: the latest hand-in, said so.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from attn_desktop.language import tr
from attn_desktop.model.files.json_reading import parse_json_bytes, read_file_bytes, shown_path
from attn_desktop.model.files.values import SceneFileError, describe, shown_number, whole
from attn_desktop.model.teaching.lesson_file_checks import (
    LessonFileError,
    as_lesson_error,
    fields,
    identifier,
    items,
    one_of,
    quoted,
    text,
    unique_ids,
)
from attn_desktop.model.teaching.lesson_file_reading import MAX_CHALLENGES, MAX_EXERCISES, MAX_TITLE_CHARS
from attn_desktop.model.teaching.lesson_results import (
    RESULTS_FIELDS,
    RESULTS_FORMAT,
    RESULTS_SUFFIX,
    RESULTS_VERSION,
    ChallengeResult,
    ExerciseResult,
    LessonOfResults,
    LessonResults,
    Verdict,
)

MAX_RESULTS_BYTES = 256 * 1024  # 200 exercises with long answers are some 50 kB
MAX_STUDENT_CHARS = 100
MAX_ANSWER_CHARS = 500
MAX_RESULTS_FILES = 2_000  # a folder for a year of classes; more are left unread, and said so
MAX_LESSON_FORMAT_VERSION = 1_000
_SHA256 = re.compile(r"[0-9a-f]{64}\Z")
_UTC_TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\Z")


class ResultsFileError(LessonFileError):
    """A results file that cannot be used, in one line."""


def read_results_file(path: str | os.PathLike[str]) -> LessonResults:
    """A results file's contents, checked; ResultsFileError, one line starting with the file's name, otherwise."""
    try:
        raw = read_file_bytes(path, MAX_RESULTS_BYTES)
        return results_from_document(as_lesson_error(lambda: parse_json_bytes(raw)))
    except SceneFileError as error:
        raise ResultsFileError(f"{shown_path(path)}: {error}") from None


def results_from_document(document: Any) -> LessonResults:
    fields(document, "results", RESULTS_FIELDS)
    _required(document, "results", RESULTS_FIELDS)
    _check_format(document)
    started = _time(document["started"], "started")
    handed_in = _time(document["handed_in"], "handed_in")
    if handed_in < started:
        raise ResultsFileError(tr("handed_in: {handed_in} is before started, {started}").format(
            handed_in=document["handed_in"], started=document["started"]))
    exercises = [_exercise(value, f"exercises[{position}]") for position, value
                 in enumerate(items(document["exercises"], "exercises", MAX_EXERCISES))]
    unique_ids([exercise.id for exercise in exercises], "exercises")
    challenges = [_challenge(value, f"challenges[{position}]") for position, value
                  in enumerate(items(document["challenges"], "challenges", MAX_CHALLENGES))]
    unique_ids([challenge.id for challenge in challenges], "challenges")
    return LessonResults(student=_student(document["student"]), lesson=_lesson(document["lesson"]),
                         exercises=tuple(exercises), challenges=tuple(challenges),
                         started=started, handed_in=handed_in)


def _required(value: dict[str, Any], where: str, names: tuple[str, ...]) -> None:
    for name in names:
        if name not in value:
            raise ResultsFileError(tr("{where}: missing; a results file needs it").format(where=f"{where}.{name}"))


def _check_format(document: dict[str, Any]) -> None:
    if document["format"] != RESULTS_FORMAT:
        raise ResultsFileError(tr("format: expected \"{format_marker}\", found {found}").format(
            format_marker=RESULTS_FORMAT, found=describe(document["format"])))
    version = as_lesson_error(lambda: whole(document["version"], "version"))
    if not 1 <= version <= RESULTS_VERSION:
        raise ResultsFileError(tr("version: the file is version {shown_number}; this Attention Desktop reads "
                                  "version {format_version}").format(shown_number=shown_number(version),
                                                                     format_version=RESULTS_VERSION))


def _student(value: Any) -> str:
    name = text(value, "student", MAX_STUDENT_CHARS)
    if not name.strip():
        raise ResultsFileError(tr("student: the name is empty"))
    if "\n" in name or "\t" in name:
        raise ResultsFileError(tr("student: a name is one line"))
    return name


def _lesson(value: Any) -> LessonOfResults:
    fields(value, "lesson", ("title", "sha256", "version"))
    _required(value, "lesson", ("title", "sha256", "version"))
    sha256 = value["sha256"]
    if not isinstance(sha256, str) or not _SHA256.match(sha256):
        raise ResultsFileError(tr("lesson.sha256: expected 64 hexadecimal digits, found {found}").format(
            found=describe(sha256)))
    version = value["version"]
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= MAX_LESSON_FORMAT_VERSION:
        raise ResultsFileError(tr("{where}: expected a whole number from {low} to {high}, found {found}").format(
            where="lesson.version", low=1, high=MAX_LESSON_FORMAT_VERSION, found=describe(version)))
    return LessonOfResults(title=text(value["title"], "lesson.title", MAX_TITLE_CHARS), sha256=sha256,
                           version=version)


def _exercise(value: Any, where: str) -> ExerciseResult:
    fields(value, where, ("id", "answer", "verdict"))
    _required(value, where, ("id", "answer", "verdict"))
    verdict = Verdict(one_of(value["verdict"], f"{where}.verdict", [verdict.value for verdict in Verdict]))
    answer = text(value["answer"], f"{where}.answer", MAX_ANSWER_CHARS)
    if verdict is not Verdict.NOT_TRIED and not answer.strip():
        raise ResultsFileError(tr("{where}: a verdict of {verdict} needs the answer it judged").format(
            where=where, verdict=quoted(verdict.value)))
    return ExerciseResult(id=identifier(value["id"], f"{where}.id"), answer=answer, verdict=verdict)


def _challenge(value: Any, where: str) -> ChallengeResult:
    fields(value, where, ("id", "done"))
    _required(value, where, ("id", "done"))
    done = value["done"]
    if not isinstance(done, bool):
        raise ResultsFileError(tr("{where}: expected true or false, found {found}").format(
            where=f"{where}.done", found=describe(done)))
    return ChallengeResult(id=identifier(value["id"], f"{where}.id"), done=done)


def _time(value: Any, where: str) -> datetime:
    """ISO 8601 in UTC, to the second, as the app writes it: "2026-12-07T01:15:43Z"."""
    if not isinstance(value, str) or not _UTC_TIME.match(value):
        raise ResultsFileError(tr("{where}: expected a time like 2026-12-07T09:30:00Z, found {found}").format(
            where=where, found=describe(value)))
    try:
        return datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    except ValueError:
        raise ResultsFileError(tr("{where}: {found} is no such time").format(where=where, found=quoted(value))) from None


# ----- a folder of them ---------------------------------------------------------------------------------------


@dataclass
class ResultsOfOneLesson:
    """The results handed in for one lesson (one version of it): a student's latest hand-in each."""

    lesson: LessonOfResults
    results: list[LessonResults] = field(default_factory=list)  # one per student, in the order of their names
    handed_in_again: list[str] = field(default_factory=list)  # the names of those who handed in more than once

    @property
    def exercise_ids(self) -> list[str]:
        """Every exercise any of them answered, in the lesson's order (the first hand-in that has it)."""
        return _union(exercise.id for results in self.results for exercise in results.exercises)

    @property
    def challenge_ids(self) -> list[str]:
        return _union(challenge.id for results in self.results for challenge in results.challenges)


@dataclass
class CollectedResults:
    lessons: list[ResultsOfOneLesson]  # the lesson with the most students first
    skipped: list[str]  # one line per file that could not be read, naming it and why
    unread: int = 0  # files past MAX_RESULTS_FILES, left unread


def collect_results(folder: str | os.PathLike[str]) -> CollectedResults:
    """Every *.attn-results file in FOLDER (not in folders under it), read, checked and grouped by lesson."""
    try:
        paths = sorted(entry for entry in Path(folder).iterdir() if entry.name.lower().endswith(RESULTS_SUFFIX))
    except OSError as error:
        return CollectedResults([], [tr("{file}: {reason}").format(file=shown_path(folder),
                                                                  reason=error.strerror or error)])
    skipped: list[str] = []
    read: list[LessonResults] = []
    for path in paths[:MAX_RESULTS_FILES]:
        try:
            read.append(read_results_file(path))
        except SceneFileError as error:
            skipped.append(str(error))
    return CollectedResults(group_by_lesson(read), skipped, max(0, len(paths) - MAX_RESULTS_FILES))


def group_by_lesson(all_results: list[LessonResults]) -> list[ResultsOfOneLesson]:
    groups: dict[LessonOfResults, dict[str, list[LessonResults]]] = {}
    for results in all_results:
        groups.setdefault(results.lesson, {}).setdefault(same_student(results.student), []).append(results)
    lessons = []
    for lesson, students in groups.items():
        group = ResultsOfOneLesson(lesson)
        for hand_ins in students.values():
            latest = max(hand_ins, key=lambda results: results.handed_in)
            group.results.append(latest)
            if len(hand_ins) > 1:
                group.handed_in_again.append(latest.student)
        group.results.sort(key=lambda results: same_student(results.student))
        lessons.append(group)
    lessons.sort(key=lambda group: (-len(group.results), group.lesson.title, group.lesson.sha256))
    return lessons


def same_student(name: str) -> str:
    """A name as compared: "Ana  López" typed twice, once with a capital and once without, is one student."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def _union(ids: Any) -> list[str]:
    return list(dict.fromkeys(ids))
