"""Saving keeps what a user expects of a file: links, permissions, owner, long names, no litter.

write_bytes_atomically is what Save, Save As, autosave and every export use.
"""

import errno
import os
import stat
import subprocess
import sys
import time

import pytest

from attn_desktop.model import Role
from attn_desktop.model.files import safe_write
from attn_desktop.model.files.safe_write import (
    STALE_AFTER_SECONDS,
    NotAFileError,
    ReadOnlyFileError,
    stale_temporaries,
    temporary_name,
    write_bytes_atomically,
    write_text_atomically,
)
from attn_desktop.model.scene_files import open_scene, read_scene_data, save_scene
from attn_desktop.paths import DEFAULT_SCENE, scene_path

from tests.support.project_root import ROOT

OLD, NEW = b"old contents\n", b"new contents, a little longer\n"


def names(folder):
    return sorted(os.listdir(folder))


# ----- links --------------------------------------------------------------------------------

@pytest.mark.parametrize("relative", [True, False])
def test_saving_to_a_symlink_writes_through_to_its_target(tmp_path, relative):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "scene.json"
    target.write_bytes(OLD)
    link = tmp_path / "link.json"
    link.symlink_to(os.path.join("real", "scene.json") if relative else target)
    write_bytes_atomically(link, NEW)
    assert link.is_symlink() and os.readlink(link) == (os.path.join("real", "scene.json") if relative else str(target))
    assert target.read_bytes() == NEW
    assert names(tmp_path) == ["link.json", "real"] and names(tmp_path / "real") == ["scene.json"]


def test_a_chain_of_symlinks_and_a_dangling_one(tmp_path):
    target = tmp_path / "scene.json"
    target.write_bytes(OLD)
    (tmp_path / "one.json").symlink_to(target)
    (tmp_path / "two.json").symlink_to(tmp_path / "one.json")
    write_bytes_atomically(tmp_path / "two.json", NEW)
    assert target.read_bytes() == NEW and (tmp_path / "two.json").is_symlink() and (tmp_path / "one.json").is_symlink()
    (tmp_path / "new-link.json").symlink_to(tmp_path / "not-yet.json")
    write_bytes_atomically(tmp_path / "new-link.json", NEW)
    assert (tmp_path / "new-link.json").is_symlink() and (tmp_path / "not-yet.json").read_bytes() == NEW


@pytest.mark.parametrize("links", [2, 3])
def test_hard_links_keep_sharing_the_new_contents(tmp_path, links):
    first = tmp_path / "scene.json"
    first.write_bytes(OLD * 50)  # longer than the new bytes: the old tail must not survive
    others = [tmp_path / f"copy{i}.json" for i in range(1, links)]
    for other in others:
        os.link(first, other)
    inode = first.stat().st_ino
    write_bytes_atomically(others[-1], NEW)
    for path in (first, *others):
        assert path.read_bytes() == NEW and path.stat().st_ino == inode and path.stat().st_nlink == links
    assert len(names(tmp_path)) == links  # no temporary left


def test_a_hard_linked_file_gets_its_old_bytes_back_when_the_copy_fails(tmp_path, monkeypatch):
    first, second = tmp_path / "scene.json", tmp_path / "other.json"
    first.write_bytes(OLD)
    os.link(first, second)
    real_overwrite = safe_write._overwrite
    calls = []

    def disk_full_once(stream, data):
        calls.append(data)
        if len(calls) == 1:
            stream.seek(0)
            stream.write(data[:5])  # half written, then the disk is full
            raise OSError(errno.ENOSPC, "No space left on device")
        real_overwrite(stream, data)

    monkeypatch.setattr(safe_write, "_overwrite", disk_full_once)
    with pytest.raises(OSError, match="No space left"):
        write_bytes_atomically(first, NEW)
    assert first.read_bytes() == OLD == second.read_bytes() and names(tmp_path) == ["other.json", "scene.json"]


# ----- permissions and owner ----------------------------------------------------------------

@pytest.mark.parametrize("mode", [0o444, 0o400, 0o440, 0o000])
def test_a_read_only_file_is_not_replaced(tmp_path, mode):
    path = tmp_path / "scene.json"
    path.write_bytes(OLD)
    path.chmod(mode)
    with pytest.raises(ReadOnlyFileError) as caught:
        write_bytes_atomically(path, NEW)
    assert isinstance(caught.value, PermissionError) and "read-only" in caught.value.strerror
    assert caught.value.filename == str(path)
    path.chmod(0o600)
    assert path.read_bytes() == OLD and names(tmp_path) == ["scene.json"]


def test_a_read_only_file_behind_a_symlink_is_not_replaced(tmp_path):
    target = tmp_path / "scene.json"
    target.write_bytes(OLD)
    target.chmod(0o444)
    (tmp_path / "link.json").symlink_to(target)
    with pytest.raises(ReadOnlyFileError):
        write_text_atomically(tmp_path / "link.json", "new")
    assert target.read_bytes() == OLD


@pytest.mark.parametrize("hard_linked", [False, True])
def test_when_the_user_says_replace_a_read_only_file_it_is_replaced_and_stays_read_only(tmp_path, hard_linked):
    path = tmp_path / "scene.json"
    path.write_bytes(OLD)
    if hard_linked:
        os.link(path, tmp_path / "other.json")
    path.chmod(0o444)
    write_bytes_atomically(path, NEW, replace_read_only=True)
    assert path.read_bytes() == NEW and stat.S_IMODE(path.stat().st_mode) == 0o444


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664, 0o755])
def test_the_mode_is_kept(tmp_path, mode):
    path = tmp_path / "scene.json"
    path.write_bytes(OLD)
    path.chmod(mode)
    write_bytes_atomically(path, NEW)
    assert stat.S_IMODE(path.stat().st_mode) == mode and path.read_bytes() == NEW


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root may give a file to another owner")
@pytest.mark.parametrize("owner", [(1234, 5678), (0, 4321), (65534, 65534)])
def test_the_owner_and_group_are_kept(tmp_path, owner):
    path = tmp_path / "scene.json"
    path.write_bytes(OLD)
    os.chown(path, *owner)
    write_bytes_atomically(path, NEW)
    assert (path.stat().st_uid, path.stat().st_gid) == owner and path.read_bytes() == NEW


def test_a_user_who_may_not_change_the_owner_still_saves(tmp_path, monkeypatch):
    path = tmp_path / "scene.json"
    path.write_bytes(OLD)
    tried = []

    def refuse(path, uid, gid):
        tried.append((uid, gid))
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "chown", refuse)
    write_bytes_atomically(path, NEW)
    assert path.read_bytes() == NEW and tried[-1][0] == -1  # it fell back to keeping the group only


# ----- things that are not files ------------------------------------------------------------

def test_a_folder_or_a_fifo_is_never_replaced(tmp_path):
    (tmp_path / "folder.json").mkdir()
    with pytest.raises(NotAFileError, match="a folder"):
        write_bytes_atomically(tmp_path / "folder.json", NEW)
    os.mkfifo(tmp_path / "pipe.json")
    with pytest.raises(NotAFileError, match="a pipe"):
        write_bytes_atomically(tmp_path / "pipe.json", NEW)
    assert (tmp_path / "folder.json").is_dir() and stat.S_ISFIFO(os.stat(tmp_path / "pipe.json").st_mode)
    assert names(tmp_path) == ["folder.json", "pipe.json"]


def test_text_with_a_broken_character_is_refused_before_anything_is_touched(tmp_path):
    path = tmp_path / "table.csv"
    path.write_bytes(OLD)
    with pytest.raises(UnicodeEncodeError):
        write_text_atomically(path, "a,\ud800\n")
    assert path.read_bytes() == OLD and names(tmp_path) == ["table.csv"]


# ----- long names and temporary names -------------------------------------------------------

@pytest.mark.parametrize("name", ["a" * 250 + ".json", "b" * 255, "é" * 125 + ".json", "😀" * 62 + ".csv"])
def test_names_at_the_file_system_limit_can_be_saved(tmp_path, name):
    assert len(os.fsencode(name)) <= 255
    path = tmp_path / name
    write_bytes_atomically(path, OLD)
    write_bytes_atomically(path, NEW)
    assert path.read_bytes() == NEW and names(tmp_path) == [name]


@pytest.mark.parametrize("name", ["scene.json", "x" * 255, "autosave.json", "a.csv", "pic.png"])
def test_temporary_names_are_short_hidden_and_never_offered_as_scenes(tmp_path, name):
    temporary = temporary_name(tmp_path / name)
    assert temporary.startswith(".") and len(temporary) <= 40
    assert not temporary.endswith((".json", ".csv", ".png", ".svg", ".tmp"))
    assert temporary != temporary_name(tmp_path / name)  # unique each time


# ----- stale temporaries --------------------------------------------------------------------

def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def temporary_for(target, pid, age_seconds=0.0, tail="abc123"):
    name = temporary_name(target).rsplit(".attn-tmp-", 1)[0] + f".attn-tmp-{pid}-{tail}"
    path = target.parent / name
    path.write_bytes(b"half a sce")
    stamp = time.time() - age_seconds
    os.utime(path, (stamp, stamp))
    return path


@pytest.mark.slow
def test_stale_temporaries_of_this_file_are_cleaned_on_its_next_save(tmp_path):
    target = tmp_path / "scene.json"
    other = tmp_path / "other.json"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        dead_writer = temporary_for(target, dead_pid(), tail="000001")
        old_live_writer = temporary_for(target, sleeper.pid, age_seconds=STALE_AFTER_SECONDS + 5, tail="000002")
        busy_live_writer = temporary_for(target, sleeper.pid, tail="000003")  # another process writing right now
        mine = temporary_for(target, os.getpid(), age_seconds=600, tail="000004")  # this process's own
        someone_elses = temporary_for(other, dead_pid(), tail="000005")  # belongs to another file
        old_style = tmp_path / ".scene.json.k2j_x9q1.tmp"
        old_style.write_bytes(b"{")
        os.utime(old_style, (time.time() - 3600, time.time() - 3600))
        fresh_old_style = tmp_path / ".scene.json.abcdefgh.tmp"
        fresh_old_style.write_bytes(b"{")
        unrelated = [tmp_path / ".scene.json.notes.tmp", tmp_path / "scene.json.bak", tmp_path / ".hidden"]
        for path in unrelated:
            path.write_bytes(b"keep me")
            os.utime(path, (time.time() - 3600, time.time() - 3600))

        assert set(stale_temporaries(target)) == {dead_writer, old_live_writer, old_style}
        write_bytes_atomically(target, NEW)
        left = set(os.listdir(tmp_path))
        assert not {p.name for p in (dead_writer, old_live_writer, old_style)} & left
        assert {p.name for p in (busy_live_writer, mine, someone_elses, fresh_old_style, *unrelated)} <= left
        assert target.read_bytes() == NEW
    finally:
        sleeper.kill()
        sleeper.wait()


KILLED_WRITER = """
import os, sys, time
from attn_desktop.model.files import safe_write
def hang(descriptor):
    print("writing", flush=True)
    time.sleep(600)
safe_write.os.fsync = hang
safe_write.write_bytes_atomically(sys.argv[1], b"x" * 100000)
"""


@pytest.mark.slow
def test_a_save_killed_mid_write_leaves_the_old_file_and_the_next_save_cleans_up(tmp_path):
    target = tmp_path / "scene.json"
    target.write_bytes(OLD)
    writer = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(target)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout.readline().strip() == "writing"
    writer.kill()
    writer.wait()
    litter = [name for name in names(tmp_path) if name != "scene.json"]
    assert len(litter) == 1 and ".attn-tmp-" in litter[0] and not litter[0].endswith(".json")
    assert target.read_bytes() == OLD  # the old file is whole
    save_scene(read_scene_data(scene_path(DEFAULT_SCENE)), target)
    assert names(tmp_path) == ["scene.json"] and open_scene(target).tokens[0] == "The"


def test_a_failed_rename_leaves_no_temporary_and_the_old_file(tmp_path, monkeypatch):
    scene = open_scene(scene_path(DEFAULT_SCENE))
    path = tmp_path / "mine.json"
    save_scene(scene, path)
    before = path.read_bytes()
    scene.set_vector(Role.KEY, 0, [9, 9])
    monkeypatch.setattr(os, "replace", lambda *args: (_ for _ in ()).throw(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        save_scene(scene, path)
    assert path.read_bytes() == before and names(tmp_path) == ["mine.json"]


@pytest.mark.slow
def test_stale_temporaries_are_found_beside_a_links_target(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "scene.json"
    target.write_bytes(OLD)
    (tmp_path / "link.json").symlink_to(target)
    litter = temporary_for(target, dead_pid())
    assert stale_temporaries(str(tmp_path / "link.json")) == [litter]
    write_bytes_atomically(tmp_path / "link.json", NEW)
    assert names(tmp_path / "real") == ["scene.json"]
