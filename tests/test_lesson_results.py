"""Results files: a student's hand-in written and read back; hostile files refused in one line; a folder
collected into one group per lesson, a student handing in twice counted once; the CSV a teacher exports."""

import copy
import csv
import io
import json
import os
from datetime import UTC, datetime, timedelta

import pytest

from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file
from attn_desktop.model.teaching.lesson_results import (
    ChallengeResult,
    ExerciseResult,
    LessonOfResults,
    LessonResults,
    Verdict,
    read_lesson_file_with_sha256,
    results_document,
    suggested_results_name,
    write_results_file,
)
from attn_desktop.model.teaching.lesson_results_csv import results_csv, spreadsheet_safe, write_results_csv
from attn_desktop.model.teaching.lesson_results_reading import (
    MAX_RESULTS_BYTES,
    ResultsFileError,
    collect_results,
    read_results_file,
)

LESSON = LessonOfResults(title="Ms Rao's pronouns", sha256="ab" * 32, version=1)
OTHER_VERSION = LessonOfResults(title="Ms Rao's pronouns", sha256="cd" * 32, version=1)
START = datetime(2026, 12, 7, 9, 0, 0, tzinfo=UTC)


def results(student="Ana", lesson=LESSON, minutes=20, verdict=Verdict.RIGHT, answer="0.82") -> LessonResults:
    return LessonResults(
        student=student, lesson=lesson,
        exercises=(ExerciseResult("w-it-cat", answer, verdict), ExerciseResult("pick", "", Verdict.NOT_TRIED)),
        challenges=(ChallengeResult("cat-small", True), ChallengeResult("all-on-sat", False)),
        started=START, handed_in=START + timedelta(minutes=minutes))


def test_a_results_file_reads_back_as_written(tmp_path):
    path = tmp_path / "Ana - pronouns.attn-results"
    write_results_file(results(student="Ana López 李"), path)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == "attn-results" and document["version"] == 1
    assert document["started"] == "2026-12-07T09:00:00Z" and document["handed_in"] == "2026-12-07T09:20:00Z"
    assert read_results_file(path) == results(student="Ana López 李")
    assert read_results_file(path).challenges_done == ("cat-small",)


def test_the_opened_lessons_hash_is_of_its_bytes(tmp_path):
    path = tmp_path / "lesson.attn-lesson"
    write_lesson_file(builtin_lesson_file("self-attention"), path)
    import hashlib
    lesson, sha256 = read_lesson_file_with_sha256(path)
    assert sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert lesson.title == builtin_lesson_file("self-attention").title


def test_the_suggested_name_holds_no_path():
    assert suggested_results_name("Ana", "Pronouns") == "Ana - Pronouns.attn-results"
    assert suggested_results_name("../../etc/x", "a/b: c?") == "etc-x - a-b- c.attn-results"
    assert "/" not in suggested_results_name("/", "\\") and suggested_results_name("", "").endswith(".attn-results")


def good() -> dict:
    return results_document(results())


def changed(path: str, value):
    """The good document with the field at PATH ("exercises.0.verdict") set to VALUE (a missing one: deleted)."""
    document = copy.deepcopy(good())
    *parents, last = path.split(".")
    place = document
    for part in parents:
        place = place[int(part)] if isinstance(place, list) else place[part]
    if value is MISSING:
        del place[last]
    elif isinstance(place, list):
        place[int(last)] = value
    else:
        place[last] = value
    return document


MISSING = object()

HOSTILE = {
    "format": (changed("format", "attn-lesson"), "format"),
    "version too new": (changed("version", 2), "version"),
    "version a text": (changed("version", "1"), "version"),
    "student missing": (changed("student", MISSING), "student"),
    "student empty": (changed("student", "   "), "student"),
    "student a number": (changed("student", 7), "student"),
    "student too long": (changed("student", "A" * 101), "student"),
    "student two lines": (changed("student", "Ana\nBob"), "student"),
    "student control": (changed("student", "Ana\x1b[31m"), "student"),
    "unknown field": (changed("script", "rm -rf /"), "script"),
    "sha256 short": (changed("lesson.sha256", "abc"), "lesson.sha256"),
    "sha256 upper": (changed("lesson.sha256", "AB" * 32), "lesson.sha256"),
    "lesson version float": (changed("lesson.version", 1.5), "lesson.version"),
    "lesson title too long": (changed("lesson.title", "t" * 201), "lesson.title"),
    "lesson a list": (changed("lesson", ["x"]), "lesson"),
    "exercises not a list": (changed("exercises", {"id": "x"}), "exercises"),
    "too many exercises": (changed("exercises", [{"id": f"e{n}", "answer": "", "verdict": "not tried"}
                                                 for n in range(201)]), "exercises"),
    "exercise id a path": (changed("exercises.0.id", "../x"), "exercises[0].id"),
    "verdict unknown": (changed("exercises.0.verdict", "perfect"), "exercises[0].verdict"),
    "verdict with no answer": (changed("exercises.0.answer", ""), "exercises[0]"),
    "answer too long": (changed("exercises.0.answer", "1" * 501), "exercises[0].answer"),
    "answer a number": (changed("exercises.0.answer", 0.82), "exercises[0].answer"),
    "same exercise twice": (changed("exercises.1", {"id": "w-it-cat", "answer": "", "verdict": "not tried"}),
                            "exercises[1].id"),
    "done a text": (changed("challenges.0.done", "yes"), "challenges[0].done"),
    "time not UTC": (changed("started", "2026-12-07T09:00:00+02:00"), "started"),
    "time impossible": (changed("handed_in", "2026-02-30T09:00:00Z"), "handed_in"),
    "handed in before started": (changed("handed_in", "2026-12-07T08:00:00Z"), "handed_in"),
    "not an object": ([1, 2, 3], "results"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_results_file_is_refused_in_one_line_naming_the_place(tmp_path, name):
    document, place = HOSTILE[name]
    path = tmp_path / "hostile.attn-results"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(ResultsFileError) as refused:
        read_results_file(path)
    message = str(refused.value)
    assert "\n" not in message and message.startswith(str(path)) and place in message


@pytest.mark.parametrize("raw", [b"\xff\xfe not utf-8", b'{"format": "attn-results", "version": NaN}', b"{" * 5000,
                                 b'{"format": "attn-results"', b" " * (MAX_RESULTS_BYTES + 1)])
def test_broken_bytes_are_refused_in_one_line(tmp_path, raw):
    path = tmp_path / "broken.attn-results"
    path.write_bytes(raw)
    with pytest.raises(ResultsFileError) as refused:
        read_results_file(path)
    assert "\n" not in str(refused.value)


def test_a_folder_pipe_or_link_to_one_is_refused(tmp_path):
    folder = tmp_path / "a folder.attn-results"
    folder.mkdir()
    with pytest.raises(ResultsFileError):
        read_results_file(folder)
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.attn-results")
        with pytest.raises(ResultsFileError):
            read_results_file(tmp_path / "pipe.attn-results")


def test_a_folder_is_grouped_by_lesson_and_broken_files_are_skipped(tmp_path):
    write_results_file(results("Ana"), tmp_path / "ana.attn-results")
    write_results_file(results("Bo", verdict=Verdict.WRONG, answer="0.5"), tmp_path / "bo.attn-results")
    write_results_file(results("Cy", lesson=OTHER_VERSION), tmp_path / "cy.attn-results")  # the lesson changed since
    (tmp_path / "hostile.attn-results").write_text('{"format": "attn-results", "version": 1}', encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a results file", encoding="utf-8")

    collected = collect_results(tmp_path)

    assert [group.lesson for group in collected.lessons] == [LESSON, OTHER_VERSION]  # never mixed
    assert [r.student for r in collected.lessons[0].results] == ["Ana", "Bo"]
    assert [r.student for r in collected.lessons[1].results] == ["Cy"]
    assert len(collected.skipped) == 1 and "hostile.attn-results" in collected.skipped[0]
    assert "\n" not in collected.skipped[0]


def test_a_student_who_hands_in_twice_counts_once_the_latest(tmp_path):
    write_results_file(results("Ana", minutes=30, verdict=Verdict.RIGHT), tmp_path / "ana again.attn-results")
    write_results_file(results("ana ", minutes=10, verdict=Verdict.WRONG, answer="0.1"), tmp_path / "ana.attn-results")
    write_results_file(results("Bo"), tmp_path / "bo.attn-results")

    group = collect_results(tmp_path).lessons[0]

    assert [r.student for r in group.results] == ["Ana", "Bo"]
    assert group.results[0].exercises[0].verdict is Verdict.RIGHT  # 09:30 beats 09:10
    assert group.handed_in_again == ["Ana"]


def test_the_csv_has_a_row_per_student_with_verdicts_answers_and_challenges(tmp_path):
    write_results_file(results("Ana"), tmp_path / "ana.attn-results")
    write_results_file(results("=HYPERLINK(\"http://x\")", verdict=Verdict.WRONG, answer="-0.5"),
                       tmp_path / "evil.attn-results")
    write_results_file(results("Bo", verdict=Verdict.WRONG, answer="@SUM(A1)"), tmp_path / "bo.attn-results")
    group = collect_results(tmp_path).lessons[0]
    path = tmp_path / "class.csv"

    write_results_csv(group, path)

    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))
    assert rows[0] == ["student", "handed in (UTC)", "started (UTC)", "w-it-cat verdict", "w-it-cat answer",
                       "pick verdict", "pick answer", "cat-small", "all-on-sat", "challenges done"]
    by_name = {row[0]: row for row in rows[1:]}
    assert by_name["Ana"][1:] == ["2026-12-07T09:20:00Z", "2026-12-07T09:00:00Z", "right", "0.82", "not tried", "",
                                  "done", "not done", "1"]
    assert by_name["'=HYPERLINK(\"http://x\")"][3:5] == ["wrong", "-0.5"]  # a plain number stays a number
    assert by_name["Bo"][4] == "'@SUM(A1)"
    assert path.read_text(encoding="utf-8") == results_csv(group)


@pytest.mark.parametrize("cell, safe", [("=1+1", "'=1+1"), ("+1", "'+1"), ("-1+1", "'-1+1"), ("@A1", "'@A1"),
                                        ("\t=1", "'\t=1"), ("Ana", "Ana"), ("-0.25", "-0.25"), ("3", "3")])
def test_cells_a_spreadsheet_would_run_are_made_text(cell, safe):
    assert spreadsheet_safe(cell) == safe


def test_a_folder_past_the_limit_is_read_up_to_it_and_the_rest_counted(tmp_path, monkeypatch):
    from attn_desktop.model.teaching import lesson_results_reading

    monkeypatch.setattr(lesson_results_reading, "MAX_RESULTS_FILES", 2)
    for name in ("Ana", "Bo", "Cy", "Dee"):
        write_results_file(results(name), tmp_path / f"{name}.attn-results")
    collected = collect_results(tmp_path)
    assert [r.student for r in collected.lessons[0].results] == ["Ana", "Bo"] and collected.unread == 2


def test_a_name_or_answer_as_typed_is_made_one_line_the_reader_takes(tmp_path):
    from attn_desktop.model.teaching.lesson_results import one_line
    from attn_desktop.model.teaching.lesson_results_reading import MAX_STUDENT_CHARS

    typed = one_line("  Ana\tLópez\x07\n" + "x" * 300, MAX_STUDENT_CHARS)
    assert typed.startswith("Ana López x") and len(typed) == MAX_STUDENT_CHARS
    write_results_file(results(typed), tmp_path / "typed.attn-results")
    assert read_results_file(tmp_path / "typed.attn-results").student == typed
