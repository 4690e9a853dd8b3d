"""Exports that fail, or would replace what they must not (the scene they come from, a read-only file), say
why and replace nothing."""

import pytest

from attn_desktop.model.scene_files import read_scene_data, save_scene
from attn_desktop.paths import DEFAULT_SCENE, scene_path

from tests.support.never_lost import full_disk, save_as_answers

EXPORTS = {
    "json": lambda window: window.menu_actions["export_action"].trigger(),
    "weights csv": lambda window: window.menu_actions["export_weights_csv_action"].trigger(),
    "scores csv": lambda window: window.menu_actions["export_scores_csv_action"].trigger(),
    "svg": lambda window: window.menu_actions["export_svg_action"].trigger(),
}


@pytest.mark.parametrize("export", EXPORTS)
def test_an_export_never_replaces_the_scene_it_comes_from(qtbot, window, tmp_path, monkeypatch, export):
    path = tmp_path / "lesson.json"
    save_scene(read_scene_data(scene_path(DEFAULT_SCENE)), path)
    assert window.documents.open_scene(path)
    before = path.read_bytes()
    link = tmp_path / "same scene.json"
    link.symlink_to(path)
    for name in (path, link):
        save_as_answers(monkeypatch, name)
        EXPORTS[export](window)
    assert [title for title, _ in window.shown_errors] == ["Cannot export", "Cannot export"]
    assert "this scene's own file" in window.shown_errors[0][1]
    assert path.read_bytes() == before and window.documents.open_scene(path)


@pytest.mark.parametrize("export", EXPORTS)
def test_an_export_over_a_read_only_file_is_refused(qtbot, window, tmp_path, monkeypatch, export):
    path = tmp_path / "handout.out"
    path.write_text("keep me", encoding="utf-8")
    path.chmod(0o444)
    save_as_answers(monkeypatch, path)
    EXPORTS[export](window)
    [(title, message)] = window.shown_errors
    assert title == "Cannot export" and "read-only" in message
    assert path.read_text(encoding="utf-8") == "keep me"


SUFFIXES = {"json": ".json", "weights csv": ".csv", "scores csv": ".csv", "svg": ".svg"}


@pytest.mark.parametrize("export", EXPORTS)
@pytest.mark.parametrize("place, reason", [
    ("gone/out", "No such file or directory"),
    ("a folder", "it is a folder, not a file"),
])
def test_an_export_that_cannot_be_written_says_why(
        qtbot, window, tmp_path, monkeypatch, no_tracebacks, export, place, reason):
    target = tmp_path / (place + SUFFIXES[export])
    if place == "a folder":
        target.mkdir()
    save_as_answers(monkeypatch, target)
    EXPORTS[export](window)
    [(title, message)] = window.shown_errors
    assert title == "Cannot export" and message == f"{target}: {reason}"


def test_an_export_on_a_full_disk_says_so(qtbot, window, tmp_path, monkeypatch, no_tracebacks):
    monkeypatch.setattr("attn_desktop.ui.document.scene_exports.write_text_atomically", full_disk)
    save_as_answers(monkeypatch, tmp_path / "results.json", tmp_path / "weights.csv")
    window.menu_actions["export_action"].trigger()
    window.menu_actions["export_weights_csv_action"].trigger()
    assert [m for _, m in window.shown_errors] == [f"{tmp_path / 'results.json'}: No space left on device",
                                                   f"{tmp_path / 'weights.csv'}: No space left on device"]
    assert not (tmp_path / "results.json").exists()
