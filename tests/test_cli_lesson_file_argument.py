"""`attn-desktop FILE.attn-lesson`: a lesson file given to the window opens as a lesson, not as a scene; a broken
one is one line (and exit 2) before any window opens."""

from dataclasses import replace

from attn_desktop.cli import main
from attn_desktop.cli.open_app import opened_file
from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file
from attn_desktop.model.view_state import ViewState
from attn_desktop.paths import DEFAULT_SCENE, scene_path


def test_a_lesson_file_opens_as_a_lesson(tmp_path):
    path = tmp_path / "Pronouns.ATTN-LESSON"
    write_lesson_file(replace(builtin_lesson_file("self-attention"), title="Ms Rao's pronouns"), path)
    scene, lesson = opened_file(str(path), ViewState())
    assert scene is None and lesson is not None and lesson.title == "Ms Rao's pronouns"


def test_a_scene_file_opens_as_a_scene():
    scene, lesson = opened_file(str(scene_path(DEFAULT_SCENE)), ViewState())
    assert lesson is None and scene is not None and scene.n_tokens == 6


def test_a_broken_lesson_file_is_one_line_from_the_lesson_reader(capsys, tmp_path):
    path = tmp_path / "broken.attn-lesson"
    path.write_text('{"format": "attn-lesson", "version": 1, "title": "x", "scene": {}, "tolerence": 1}',
                    encoding="utf-8")
    assert main([str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and "broken.attn-lesson" in lines[0] and "tolerence" in lines[0], lines
