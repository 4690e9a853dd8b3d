"""write_files_together: a snapshot's picture and audit are both replaced or neither (issue 44: `snapshot -o
out.png --audit /dev/full` replaced the user's out.png, then failed on the audit)."""

import errno
import os

import pytest

from attn_desktop.model.files import safe_write
from attn_desktop.model.files.safe_write import NotAFileError, ReadOnlyFileError, write_files_together

OLD_PICTURE, OLD_AUDIT = b"the user's picture", b'{"the user\'s": "audit"}\n'
NEW_PICTURE, NEW_AUDIT = b"\x89PNG new picture", b'{"new": "audit"}\n'


@pytest.fixture
def old_files(tmp_path):
    picture, audit = tmp_path / "out.png", tmp_path / "audit.json"
    picture.write_bytes(OLD_PICTURE)
    audit.write_bytes(OLD_AUDIT)
    return picture, audit


def names(folder):
    return sorted(os.listdir(folder))


def test_both_files_are_written(old_files, tmp_path):
    picture, audit = old_files
    write_files_together([(picture, NEW_PICTURE), (audit, NEW_AUDIT)])
    assert picture.read_bytes() == NEW_PICTURE and audit.read_bytes() == NEW_AUDIT
    assert names(tmp_path) == ["audit.json", "out.png"]


def test_new_files_are_made_and_a_symlink_is_written_through(tmp_path):
    (tmp_path / "real").mkdir()
    link = tmp_path / "audit.json"
    link.symlink_to(tmp_path / "real" / "audit.json")
    write_files_together([(tmp_path / "out.png", NEW_PICTURE), (link, NEW_AUDIT)])
    assert (tmp_path / "out.png").read_bytes() == NEW_PICTURE
    assert link.is_symlink() and (tmp_path / "real" / "audit.json").read_bytes() == NEW_AUDIT


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_an_audit_on_a_device_leaves_the_old_picture(old_files, tmp_path):
    picture, _audit = old_files
    with pytest.raises(NotAFileError):
        write_files_together([(picture, NEW_PICTURE), ("/dev/full", NEW_AUDIT)])
    assert picture.read_bytes() == OLD_PICTURE and names(tmp_path) == ["audit.json", "out.png"]


def test_a_read_only_audit_leaves_the_old_picture(old_files, tmp_path):
    picture, audit = old_files
    audit.chmod(0o444)
    with pytest.raises(ReadOnlyFileError):
        write_files_together([(picture, NEW_PICTURE), (audit, NEW_AUDIT)])
    assert picture.read_bytes() == OLD_PICTURE and audit.read_bytes() == OLD_AUDIT


def test_a_full_disk_while_the_audit_is_written_leaves_the_old_picture(old_files, tmp_path, monkeypatch):
    picture, audit = old_files
    real_write = safe_write._write_temporary

    def full_on_the_audit(target, data, existing):
        if target.name == "audit.json":
            real_write(target, iter([b"half", _raise_disk_full()]), existing)
        return real_write(target, data, existing)

    monkeypatch.setattr(safe_write, "_write_temporary", full_on_the_audit)
    with pytest.raises(OSError) as failed:
        write_files_together([(picture, NEW_PICTURE), (audit, NEW_AUDIT)])
    assert failed.value.errno == errno.ENOSPC
    assert picture.read_bytes() == OLD_PICTURE and audit.read_bytes() == OLD_AUDIT
    assert names(tmp_path) == ["audit.json", "out.png"]  # no temporary left behind


def _raise_disk_full():
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("picture_existed", [True, False])
def test_when_the_second_rename_fails_the_first_file_gets_its_old_bytes_back(old_files, tmp_path, monkeypatch,
                                                                             picture_existed):
    picture, audit = old_files
    if not picture_existed:
        picture.unlink()
    picture_inode = picture.stat().st_ino if picture_existed else None
    real_replace = os.replace

    def failing_on_the_audit(source, target):
        if os.fspath(target).endswith("audit.json"):
            raise OSError(errno.EIO, "Input/output error", os.fspath(target))
        return real_replace(source, target)

    monkeypatch.setattr(safe_write.os, "replace", failing_on_the_audit)
    with pytest.raises(OSError):
        write_files_together([(picture, NEW_PICTURE), (audit, NEW_AUDIT)])
    monkeypatch.setattr(safe_write.os, "replace", real_replace)
    if picture_existed:
        assert picture.read_bytes() == OLD_PICTURE and picture.stat().st_ino == picture_inode
        assert names(tmp_path) == ["audit.json", "out.png"]
    else:
        assert names(tmp_path) == ["audit.json"]
    assert audit.read_bytes() == OLD_AUDIT


def test_the_same_file_twice_is_refused_before_anything_is_written(old_files, tmp_path):
    picture, _audit = old_files
    (tmp_path / "again.png").symlink_to(picture)
    with pytest.raises(ValueError):
        write_files_together([(picture, NEW_PICTURE), (tmp_path / "again.png", NEW_AUDIT)])
    assert picture.read_bytes() == OLD_PICTURE
