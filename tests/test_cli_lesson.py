"""`attn-desktop lesson export|check` and `attn-desktop export FILE.attn-lesson`, run in-process as a script
would call them: exit 0, 1 or 2, a report of every exercise and challenge, one line for a file that cannot be read."""

import json

import pytest

from attn_desktop.cli import main
from attn_desktop.model.teaching.lesson_file_reading import read_lesson_file
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file
from attn_desktop.model.teaching.lessons import LESSONS

from tests.test_lesson_file import small_lesson


def error_lines(capsys):
    return capsys.readouterr().err.splitlines()


@pytest.mark.parametrize("lesson_id", [lesson.id for lesson in LESSONS])
def test_lesson_export_then_check_passes_for_every_built_in_lesson(lesson_id, tmp_path, capsys):
    path = tmp_path / f"{lesson_id}.attn-lesson"
    assert main(["lesson", "export", lesson_id, "-o", str(path)]) == 0
    report_path = tmp_path / "report.json"
    assert main(["lesson", "check", str(path), "-o", str(report_path)]) == 0
    report = json.loads(report_path.read_text(encoding="utf-8"))
    lesson = read_lesson_file(path)
    assert report["lesson"] == lesson.title and report["version"] == 1 and report["problems"] == []
    assert [item["id"] for item in report["exercises"]] == [item.id for item in lesson.exercises]
    assert all(item["reference_passes"] and item["wrong_rejected"] for item in report["exercises"])


def test_lesson_check_exits_1_when_a_reference_fails_and_prints_the_report(tmp_path, capsys):
    from attn_desktop.model.teaching.exercise import AnswerKind
    from attn_desktop.model.teaching.lesson_file import LessonExercise

    path = tmp_path / "wide.attn-lesson"
    write_lesson_file(small_lesson(exercises=(
        LessonExercise(id="wide", prompt="p", kind=AnswerKind.NUMBER, answer=(1.0,), tolerance=1e6),)), path)
    assert main(["lesson", "check", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["exercises"] == [{"id": "wide", "reference_passes": True, "wrong_rejected": False}]
    assert len(report["problems"]) == 1


def test_lesson_check_of_a_broken_file_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "broken.attn-lesson"
    path.write_text('{"format": "attn-lesson", "version": 1, "title": 5}', encoding="utf-8")
    assert main(["lesson", "check", str(path)]) == 2
    lines = error_lines(capsys)
    assert len(lines) == 1 and lines[0].startswith("attn-desktop: error: ") and "broken.attn-lesson" in lines[0]


def test_lesson_check_never_writes_its_report_over_the_lesson(tmp_path, capsys):
    path = tmp_path / "mine.attn-lesson"
    write_lesson_file(small_lesson(), path)
    before = path.read_bytes()
    assert main(["lesson", "check", str(path), "-o", str(path)]) == 2
    assert path.read_bytes() == before and len(error_lines(capsys)) == 1


def test_lesson_export_of_an_unknown_lesson_is_one_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["lesson", "export", "no-such-lesson", "-o", str(tmp_path / "x.attn-lesson")])
    assert stopped.value.code == 2 and len(error_lines(capsys)) == 1


def test_export_reads_the_scene_of_a_lesson_file(tmp_path):
    path = tmp_path / "mine.attn-lesson"
    write_lesson_file(small_lesson(), path)
    out = tmp_path / "out.json"
    assert main(["export", str(path), "-o", str(out)]) == 0
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["tokens"] == ["cat", "sat", "it"]
    weights = exported["heads"][0]["weights"] if "heads" in exported else exported["weights"]
    assert weights[2][0] == pytest.approx(0.54, abs=0.005)


def test_lesson_export_writes_the_lesson_in_the_language_asked_for(tmp_path):
    from attn_desktop.language import set_language, tr
    from attn_desktop.model.teaching.lesson_check import check_lesson
    from attn_desktop.model.teaching.lessons import lesson

    path = tmp_path / "es.attn-lesson"
    try:
        assert main(["lesson", "export", "self-attention", "-o", str(path), "--lang", "es"]) == 0
        exported = read_lesson_file(path)
        set_language("es")
        assert exported.language == "es"
        assert exported.title == tr(lesson("self-attention").title) != "3. Every word looks at every word"
        assert tr(lesson("self-attention").explanation) in exported.text
        assert check_lesson(exported).passed
    finally:
        set_language("en")
