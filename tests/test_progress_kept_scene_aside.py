"""A lesson scene kept in progress.json that this version cannot open (one a newer version kept) is set aside
with the same care as a bad progress file: its JSON in a file of its own beside progress.json, a line in the
log, and never silently dropped (issue 44: it was removed from progress.json on the next start)."""

import errno
import json
import logging

import pytest

from attn_desktop.model.scene_files import read_scene_data, scene_document
from attn_desktop.model.teaching import progress as progress_module
from attn_desktop.model.teaching.progress import DATA_DIR_VARIABLE, ProgressStore
from attn_desktop.paths import scene_path


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(folder))
    return folder


def newer_scene(title="made in version 7"):
    """The soft-lookup lesson's scene as a newer version keeps it: version 6, a key this version does not know."""
    document = scene_document(read_scene_data(scene_path("lessons/1_soft_lookup.json")))
    return dict(document, version=7, title=title, glow={"every": "token"})


def progress_with(data_dir, scenes, done=("twin-keys",)):
    data_dir.mkdir(parents=True, exist_ok=True)
    document = {"format": "attention-desktop-progress", "version": 2, "done": {"challenges": list(done)},
                "lessons": {"open": "soft-lookup", "scenes": scenes}}
    (data_dir / "progress.json").write_text(json.dumps(document), encoding="utf-8")


def on_disk(data_dir):
    return json.loads((data_dir / "progress.json").read_text(encoding="utf-8"))


def test_a_newer_versions_scene_is_kept_in_a_file_beside_the_progress_and_logged(data_dir, caplog):
    scene = newer_scene()
    progress_with(data_dir, {"soft-lookup": scene, "projections": {"title": "mine"}})
    store = ProgressStore()
    with caplog.at_level(logging.WARNING):
        copy = store.set_aside_kept_scene("soft-lookup", "made by a newer Attention Desktop")
    assert copy == data_dir / "progress.json.soft-lookup.scene.json"
    assert json.loads(copy.read_text(encoding="utf-8")) == scene  # every key, the unknown one too
    saved = on_disk(data_dir)
    assert saved["lessons"]["scenes"] == {"projections": {"title": "mine"}}  # the other kept scene stays
    assert saved["done"] == {"challenges": ["twin-keys"]}
    assert store.kept_lesson_scene("soft-lookup") is None
    assert "progress.json.soft-lookup.scene.json" in store.notice
    logged = [record.getMessage() for record in caplog.records]
    assert len(logged) == 1 and "soft-lookup" in logged[0] and "newer" in logged[0] and str(copy) in logged[0]


def test_a_second_copy_never_replaces_the_first(data_dir):
    progress_with(data_dir, {"soft-lookup": newer_scene("first")})
    first = ProgressStore().set_aside_kept_scene("soft-lookup", "newer")
    progress_with(data_dir, {"soft-lookup": newer_scene("second")})
    second = ProgressStore().set_aside_kept_scene("soft-lookup", "newer")
    assert second == data_dir / "progress.json.soft-lookup.scene-2.json" != first
    assert json.loads(first.read_text(encoding="utf-8"))["title"] == "first"
    assert json.loads(second.read_text(encoding="utf-8"))["title"] == "second"


def test_a_scene_that_cannot_be_copied_stays_in_the_progress_file(data_dir, monkeypatch, caplog):
    scene = newer_scene()
    progress_with(data_dir, {"soft-lookup": scene})

    def disk_full(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(progress_module, "_write_scene_aside", disk_full)
    store = ProgressStore()
    with caplog.at_level(logging.WARNING):
        assert store.set_aside_kept_scene("soft-lookup", "newer") is None
    assert on_disk(data_dir)["lessons"]["set_aside"] == [{"lesson": "soft-lookup", "scene": scene}]
    assert "No space left" in caplog.records[0].getMessage()
    assert "progress.json" in store.notice
    store.leave_lesson("soft-lookup", {"title": "changed since"})  # the student works on: it stays aside
    saved = on_disk(data_dir)["lessons"]
    assert saved["scenes"] == {"soft-lookup": {"title": "changed since"}}
    assert saved["set_aside"] == [{"lesson": "soft-lookup", "scene": scene}]
    assert list(data_dir.iterdir()) == [data_dir / "progress.json"]


def test_a_half_written_copy_is_removed_and_the_scene_stays(data_dir, monkeypatch):
    scene = newer_scene()
    progress_with(data_dir, {"soft-lookup": scene})

    def fail_to_sync(descriptor):
        raise OSError(errno.EIO, "Input/output error")

    before = (data_dir / "progress.json").read_bytes()
    monkeypatch.setattr(progress_module.os, "fsync", fail_to_sync)  # the disk fails: the save of progress too
    store = ProgressStore()
    assert store.set_aside_kept_scene("soft-lookup", "newer") is None
    monkeypatch.undo()
    assert sorted(path.name for path in data_dir.iterdir()) == ["progress.json"]
    assert (data_dir / "progress.json").read_bytes() == before and store.last_error  # the scene is still there


def test_a_scene_another_run_changed_meanwhile_is_left_as_it_is(data_dir):
    progress_with(data_dir, {"soft-lookup": newer_scene("read at the start")})
    store = ProgressStore()
    progress_with(data_dir, {"soft-lookup": {"title": "saved by another window since"}})
    copy = store.set_aside_kept_scene("soft-lookup", "newer")
    assert json.loads(copy.read_text(encoding="utf-8"))["title"] == "read at the start"
    assert on_disk(data_dir)["lessons"]["scenes"] == {"soft-lookup": {"title": "saved by another window since"}}
