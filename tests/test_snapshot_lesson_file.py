"""`attn-desktop snapshot --lesson-file FILE.attn-lesson`: the window as a student has it once the teacher's lesson
file is open (its scene, its text, its hidden controls gone), drawn with the usual audit; a broken lesson file is
one line, exit 2, and nothing written."""

from __future__ import annotations

import json
import os
from dataclasses import replace

import pytest
from PySide6.QtGui import QImage

from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file

from tests.support.snapshot_run import assert_one_line_error, run_snapshot

pytestmark = pytest.mark.slow  # every test runs the app's snapshot command in a child process

TITLE = "Ms Rao's pronouns"
HIDDEN = ("scale-switch", "causal-switch", "training")


def write_lesson(tmp_path):
    path = tmp_path / "Pronouns.attn-lesson"
    lesson = replace(builtin_lesson_file("self-attention"), title=TITLE, hidden_controls=HIDDEN)
    write_lesson_file(lesson, path)
    return path, lesson


def test_the_lesson_file_is_drawn_as_a_student_opens_it_with_the_usual_audit(tmp_path):
    path, lesson = write_lesson(tmp_path)
    done = run_snapshot(tmp_path, "--size", "1024x768", "--lesson-file", str(path))
    assert done.returncode == 0, done.stderr
    picture = QImage(str(tmp_path / "out.png"))
    assert (picture.width(), picture.height()) == (1024, 768)
    audit = json.loads((tmp_path / "audit.json").read_text(encoding="utf-8"))
    assert audit["score_rows"] == audit["score_rows_visible"] == lesson.new_scene().n_tokens
    assert audit["matrix_numbers_shown"] and audit["panels_cut"] == [] and audit["labels_cut"] == 0
    assert audit["accessibility"]["unnamed"] == []
    opened = audit["lesson_file"]
    assert opened["title"] == TITLE and TITLE in opened["window_title"]
    assert opened["hidden_controls"] == list(HIDDEN)
    assert opened["hidden_controls_offered"] == []  # in no menu, on no toolbar, no shortcut


def test_a_broken_lesson_file_is_one_line_and_nothing_is_written(tmp_path):
    path = tmp_path / "broken.attn-lesson"
    path.write_text('{"format": "attn-lesson", "version": 1, "title": "x", "scene": {}, "tolerence": 1}',
                    encoding="utf-8")
    done = run_snapshot(tmp_path, "--size", "1024x768", "--lesson-file", str(path))
    assert_one_line_error(done, "broken.attn-lesson", "tolerence")
    assert not (tmp_path / "out.png").exists() and not (tmp_path / "audit.json").exists()


def test_a_missing_lesson_file_is_one_line(tmp_path):
    done = run_snapshot(tmp_path, "--size", "1024x768", "--lesson-file", str(tmp_path / "gone.attn-lesson"))
    assert_one_line_error(done, "gone.attn-lesson")
    assert not (tmp_path / "out.png").exists()


@pytest.mark.parametrize("other", [["--lesson", "soft-lookup"], ["scene.json"]])
def test_a_lesson_file_opens_its_own_scene_so_it_comes_alone(tmp_path, other):
    path, _ = write_lesson(tmp_path)
    (tmp_path / "scene.json").write_text("{}", encoding="utf-8")
    other = [str(tmp_path / name) if name.endswith(".json") else name for name in other]
    done = run_snapshot(tmp_path, "--size", "1024x768", "--lesson-file", str(path), *other)
    assert_one_line_error(done, "--lesson-file", "own scene")
    assert not (tmp_path / "out.png").exists()


def test_the_picture_never_replaces_the_lesson_file_by_another_name(tmp_path):
    path, _ = write_lesson(tmp_path)
    before = path.read_bytes()
    os.link(path, tmp_path / "out.png")  # the picture's name, a hard link to the lesson file
    done = run_snapshot(tmp_path, "--size", "1024x768", "--lesson-file", str(path))
    assert_one_line_error(done, "out.png", "lesson file itself")
    assert path.read_bytes() == before
