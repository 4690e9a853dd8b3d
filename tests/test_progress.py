"""Progress is remembered between runs, survives a damaged file and stays in its own folder."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import attn_desktop.model.teaching.progress
from attn_desktop.model.teaching.progress import DATA_DIR_VARIABLE, ProgressKind, ProgressStore, default_progress_path


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv(DATA_DIR_VARIABLE, str(folder))
    return folder


def files_in(folder):
    return sorted(p.name for p in folder.iterdir())


def test_the_default_location_follows_the_environment_variable(data_dir):
    assert default_progress_path() == data_dir / "progress.json"
    assert ProgressStore().path == data_dir / "progress.json"


def test_a_fresh_store_is_empty_and_writes_nothing(data_dir):
    store = ProgressStore()
    assert not store.is_done("challenges", "twin-keys")
    assert store.done_ids("challenges") == set()
    assert not data_dir.exists()


def test_progress_persists_across_instances(data_dir):
    ProgressStore().mark_done("challenges", "twin-keys")
    ProgressStore().mark_done("exercises", "ex-1")
    again = ProgressStore()
    assert again.is_done("challenges", "twin-keys")
    assert again.done_ids("challenges") == {"twin-keys"}
    assert again.done_ids("exercises") == {"ex-1"}
    assert not again.is_done("exercises", "twin-keys")  # kinds are kept apart


def test_two_stores_open_at_once_add_to_each_other(data_dir):
    first, second = ProgressStore(), ProgressStore()
    first.mark_done("challenges", "scaled-focus")
    second.mark_done("challenges", "even-spread")
    assert ProgressStore().done_ids("challenges") == {"scaled-focus", "even-spread"}


def test_reset_clears_one_kind_only(data_dir):
    store = ProgressStore()
    store.mark_done("challenges", "scaled-focus")
    store.mark_done("exercises", "ex-1")
    store.reset("challenges")
    assert store.done_ids("challenges") == set()
    assert ProgressStore().done_ids("challenges") == set()
    assert ProgressStore().done_ids("exercises") == {"ex-1"}


def test_kinds_are_named_by_the_enum_or_by_their_key_in_the_file(data_dir):
    store = ProgressStore()
    store.mark_done(ProgressKind.EXERCISES, "ex-1")
    assert store.is_done("exercises", "ex-1") and ProgressStore().done_ids(ProgressKind.EXERCISES) == {"ex-1"}
    assert json.loads(store.path.read_text(encoding="utf-8"))["done"] == {"exercises": ["ex-1"]}
    with pytest.raises(ValueError):
        store.mark_done("exercise", "ex-2")  # a typo is refused, not saved under a kind nobody reads
    assert ProgressStore().done_ids(ProgressKind.EXERCISES) == {"ex-1"}


def test_several_items_are_marked_in_one_write(data_dir, monkeypatch):
    store = ProgressStore()
    store.mark_done(ProgressKind.CHALLENGES, "twin-keys")
    writes = []
    real_write = attn_desktop.model.teaching.progress.write_json_atomically
    monkeypatch.setattr(attn_desktop.model.teaching.progress, "write_json_atomically",
                        lambda path, document: (writes.append(path), real_write(path, document)))
    store.mark_done(ProgressKind.CHALLENGES, "even-spread", "twin-keys", "scaled-focus", "even-spread")
    store.mark_done(ProgressKind.CHALLENGES, "twin-keys", "scaled-focus")  # nothing new: no write
    assert len(writes) == 1
    assert json.loads(store.path.read_text(encoding="utf-8"))["done"]["challenges"] == [
        "twin-keys", "even-spread", "scaled-focus"]


def test_marking_twice_writes_once(data_dir):
    store = ProgressStore()
    store.mark_done("challenges", "twin-keys")
    stamp = store.path.stat().st_mtime_ns
    os.utime(store.path, ns=(stamp - 10**9, stamp - 10**9))
    store.mark_done("challenges", "twin-keys")
    assert store.path.stat().st_mtime_ns == stamp - 10**9
    assert json.loads(store.path.read_text(encoding="utf-8"))["done"] == {"challenges": ["twin-keys"]}


@pytest.mark.parametrize("damage", [
    b"{not json", b"\xff\xfe garbage", b"[]", b'{"format": "something-else", "done": {}}',
    b'{"format": "attention-desktop-progress", "done": {"challenges": [1, 2]}}', b"",
])
def test_a_damaged_file_starts_empty_and_is_kept_as_bad(data_dir, damage):
    data_dir.mkdir()
    (data_dir / "progress.json").write_bytes(damage)
    store = ProgressStore()
    assert store.done_ids("challenges") == set()
    assert (data_dir / "progress.json").read_bytes() == damage  # reading alone never rewrites it
    store.mark_done("challenges", "even-spread")
    assert (data_dir / "progress.json.bad").read_bytes() == damage
    assert ProgressStore().done_ids("challenges") == {"even-spread"}


def test_a_directory_in_place_of_the_file_is_set_aside_whole(data_dir):
    (data_dir / "progress.json").mkdir(parents=True)
    (data_dir / "progress.json" / "inside.txt").write_text("kept", encoding="utf-8")
    store = ProgressStore()
    assert store.done_ids("challenges") == set() and "a folder, not a progress file" in store.notice
    store.mark_done("challenges", "twin-keys")
    assert (data_dir / "progress.json.bad" / "inside.txt").read_text(encoding="utf-8") == "kept"
    assert ProgressStore().is_done("challenges", "twin-keys") and store.last_error is None


def test_a_data_folder_that_cannot_be_made_keeps_progress_for_the_run_and_says_so(data_dir):
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    data_dir.write_text("a file where the data folder should be", encoding="utf-8")
    store = ProgressStore()
    store.mark_done("challenges", "twin-keys")  # cannot be saved: remembered for this run, and said so
    assert store.is_done("challenges", "twin-keys")
    assert store.last_error and "could not save progress" in store.last_error
    assert store.notice.startswith("Progress is not being saved: could not save progress to ")


def test_a_given_path_writes_only_in_its_own_folder(tmp_path, data_dir):
    folder = tmp_path / "mine"
    store = ProgressStore(folder / "progress.json")
    store.mark_done("challenges", "twin-keys")
    store.reset("challenges")
    store.mark_done("exercises", "ex-1")
    assert files_in(tmp_path) == ["mine"]          # the default folder was never created
    assert files_in(folder) == ["progress.json"]   # and no temporary file was left behind


def test_unknown_parts_of_a_newer_file_are_kept(data_dir):
    data_dir.mkdir()
    newer = {"format": "attention-desktop-progress", "version": 3, "done": {"challenges": ["twin-keys"]},
             "streak": 3}
    (data_dir / "progress.json").write_text(json.dumps(newer), encoding="utf-8")
    store = ProgressStore()
    assert store.is_done("challenges", "twin-keys")
    store.mark_done("challenges", "even-spread")
    saved = json.loads((data_dir / "progress.json").read_text(encoding="utf-8"))
    assert saved["streak"] == 3 and saved["version"] == 3
    assert not (data_dir / "progress.json.bad").exists()


@pytest.mark.slow
def test_the_store_imports_no_qt():
    root = Path(__file__).resolve().parent.parent
    code = (
        "import sys, attn_desktop.model.teaching.progress\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_lesson_left_and_its_changed_scene_are_remembered_by_a_later_run(data_dir, monkeypatch):
    store = ProgressStore()
    store.mark_done(ProgressKind.EXERCISES, "row-for-sat")
    changed = {"title": "moved", "tokens": ["a"]}  # the store keeps a scene's document as it is given
    store.leave_lesson("soft-lookup", changed)
    store.leave_lesson("projections", None)
    later = ProgressStore()
    assert later.last_lesson() == "projections" and later.kept_lesson_scene("soft-lookup") == changed
    assert later.kept_lesson_scene("projections") is None and later.is_done("exercises", "row-for-sat")
    writes = []
    real_write = attn_desktop.model.teaching.progress.write_json_atomically
    monkeypatch.setattr(attn_desktop.model.teaching.progress, "write_json_atomically",
                        lambda path, document: (writes.append(path), real_write(path, document)))
    later.leave_lesson("projections", None)  # nothing new: no write
    later.leave_lesson("soft-lookup", None)  # left as it comes: the changed scene goes
    assert len(writes) == 1 and ProgressStore().kept_lesson_scene("soft-lookup") is None


def test_a_damaged_lessons_entry_costs_the_kept_scenes_only(data_dir):
    store = ProgressStore()
    store.mark_done(ProgressKind.CHALLENGES, "twin-keys")
    document = json.loads(store.path.read_text(encoding="utf-8"))
    document["lessons"] = {"open": 7, "scenes": ["not", "a", "mapping"]}
    store.path.write_text(json.dumps(document), encoding="utf-8")
    again = ProgressStore()
    assert again.last_lesson() is None and again.kept_lesson_scene("soft-lookup") is None
    assert again.is_done(ProgressKind.CHALLENGES, "twin-keys")
    again.leave_lesson("soft-lookup", {"title": "kept"})
    assert ProgressStore().kept_lesson_scene("soft-lookup") == {"title": "kept"}
