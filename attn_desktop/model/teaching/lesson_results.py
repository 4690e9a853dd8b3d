"""A student's results for a teacher's lesson file, handed in as a small file: no network, a file to pass on.

A results file (*.attn-results) is UTF-8 JSON, {"format": "attn-results", "version": 1, ...}, holding the
student's name as typed, which lesson it answers (its title, the SHA-256 of the lesson file's bytes and the
lesson file's format version), each exercise's id with the answer given and its verdict, each challenge's
id with whether it was done, and when the lesson was opened and handed in (ISO 8601, UTC). The hash tells
two versions of a lesson apart even when their titles are the same: a teacher collecting a folder sees
the results of each version on their own, never mixed.
"""

from __future__ import annotations

import enum
import hashlib
import json
import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from attn_desktop.model.files.json_reading import read_file_bytes, shown_path
from attn_desktop.model.files.safe_write import write_text_atomically
from attn_desktop.model.files.values import SceneFileError
from attn_desktop.model.teaching.lesson_file import LessonFile
from attn_desktop.model.teaching.lesson_file_checks import LessonFileError
from attn_desktop.model.teaching.lesson_file_reading import MAX_LESSON_BYTES, lesson_from_bytes
from attn_desktop.model.teaching.lesson_file_writing import lesson_file_text

RESULTS_FORMAT = "attn-results"
RESULTS_VERSION = 1
RESULTS_SUFFIX = ".attn-results"
RESULTS_FIELDS = ("format", "version", "student", "lesson", "started", "handed_in", "exercises", "challenges")
# Characters a file name may not hold on one system or another, and control characters.
_NOT_IN_A_FILE_NAME = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]+')
MAX_NAME_IN_A_FILE_NAME = 80
_CONTROL_OR_SPACE = re.compile(r"[\x00-\x1f\x7f\s]+")


class Verdict(str, enum.Enum):
    RIGHT = "right"
    WRONG = "wrong"
    NOT_TRIED = "not tried"  # no answer typed or picked when the student handed in


@dataclass(frozen=True)
class ExerciseResult:
    id: str
    answer: str  # as typed, or the choice's text as the lesson words it; "" when not tried
    verdict: Verdict


@dataclass(frozen=True)
class ChallengeResult:
    id: str
    done: bool


@dataclass(frozen=True)
class LessonOfResults:
    """Which lesson a results file answers: two results belong together only when all three agree."""

    title: str
    sha256: str  # of the lesson file's bytes, 64 hex digits
    version: int  # the lesson file's format version


@dataclass(frozen=True)
class LessonResults:
    student: str  # the name as typed
    lesson: LessonOfResults
    exercises: tuple[ExerciseResult, ...]
    challenges: tuple[ChallengeResult, ...]
    started: datetime  # when the lesson was opened (UTC)
    handed_in: datetime  # when the student handed in (UTC)

    @property
    def challenges_done(self) -> tuple[str, ...]:
        return tuple(challenge.id for challenge in self.challenges if challenge.done)


def lesson_sha256(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def read_lesson_file_with_sha256(path: str | os.PathLike[str]) -> tuple[LessonFile, str]:
    """A lesson file's contents, checked as read_lesson_file checks them, with the SHA-256 of the very bytes
    read (a file changed on disk afterwards does not change which lesson the student answers)."""
    try:
        raw = read_file_bytes(path, MAX_LESSON_BYTES)
        return lesson_from_bytes(raw), lesson_sha256(raw)
    except SceneFileError as error:
        raise LessonFileError(f"{shown_path(path)}: {error}") from None


def sha256_of_lesson(lesson: LessonFile) -> str:
    """For a lesson that came from no file (opened from the app itself): the hash of the file it would be."""
    return lesson_sha256(lesson_file_text(lesson).encode("utf-8"))


def utc_text(moment: datetime) -> str:
    """ISO 8601 in UTC, to the second: "2026-12-07T01:15:43Z"."""
    return moment.astimezone(timezone.utc).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def results_document(results: LessonResults) -> dict[str, Any]:
    lesson = results.lesson
    return {
        "format": RESULTS_FORMAT, "version": RESULTS_VERSION, "student": results.student,
        "lesson": {"title": lesson.title, "sha256": lesson.sha256, "version": lesson.version},
        "started": utc_text(results.started), "handed_in": utc_text(results.handed_in),
        "exercises": [{"id": exercise.id, "answer": exercise.answer, "verdict": exercise.verdict.value}
                      for exercise in results.exercises],
        "challenges": [{"id": challenge.id, "done": challenge.done} for challenge in results.challenges],
    }


def results_file_text(results: LessonResults) -> str:
    return json.dumps(results_document(results), ensure_ascii=False, indent=1) + "\n"


def write_results_file(results: LessonResults, path: str | os.PathLike[str]) -> None:
    """Write RESULTS atomically: a crash mid-write leaves no half a hand-in for the teacher to collect."""
    write_text_atomically(path, results_file_text(results))


def suggested_results_name(student: str, lesson_title: str) -> str:
    """"<name> - <lesson title>.attn-results", with what no file name may hold taken out."""
    def part(text: str) -> str:
        return _NOT_IN_A_FILE_NAME.sub("-", text).strip(" .-")[:MAX_NAME_IN_A_FILE_NAME].strip()
    shown = " - ".join(piece for piece in (part(student), part(lesson_title)) if piece)
    return (shown or "results") + RESULTS_SUFFIX


def one_line(text: str, limit: int) -> str:
    """TEXT as a results file holds a name or an answer: one line, no control characters, at most LIMIT long."""
    return " ".join(_CONTROL_OR_SPACE.sub(" ", text).split())[:limit].strip()
