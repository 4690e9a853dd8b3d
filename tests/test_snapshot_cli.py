"""`attn-desktop snapshot` on bad input: one line, exit 2, nothing written."""

import subprocess
import sys

import pytest

from tests.support.project_root import ROOT
from tests.support.snapshot_run import assert_one_line_error

pytestmark = pytest.mark.slow  # every test runs the app's snapshot command in a child process


def snapshot(*args):
    return subprocess.run([sys.executable, "-m", "attn_desktop", "snapshot", *args], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def _one_line_error(done, *words):
    assert_one_line_error(done, *words)


@pytest.mark.parametrize("size", ["0x0", "abc", "1024", "1024x", "x768", "100x100", "99999x768",
                                  "1024x768x2", "1e3x768", ""])
def test_a_bad_size_is_refused(tmp_path, size):
    out = tmp_path / "out.png"
    _one_line_error(snapshot("-o", str(out), "--size", size), "--size")
    assert not out.exists()


@pytest.mark.parametrize("scale", ["0", "nan", "inf", "-2", "two", "9"])
def test_a_bad_scale_is_refused(tmp_path, scale):
    _one_line_error(snapshot("-o", str(tmp_path / "out.png"), "--size", "1024x768", "--scale", scale), "--scale")


def test_a_missing_scene_is_refused(tmp_path):
    _one_line_error(snapshot(str(tmp_path / "nope.json"), "-o", str(tmp_path / "out.png"), "--size", "1024x768"),
                    "nope.json")


def test_a_broken_scene_is_refused(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{ not json")
    out = tmp_path / "out.png"
    _one_line_error(snapshot(str(broken), "-o", str(out), "--size", "1024x768"), "broken.json")
    assert not out.exists()


def test_an_unknown_lesson_is_refused_and_the_known_ones_are_named(tmp_path):
    _one_line_error(snapshot("-o", str(tmp_path / "out.png"), "--size", "1024x768", "--lesson", "transformers"),
                    "transformers", "soft-lookup", "scaled-attention")


@pytest.mark.parametrize("where", ["missing-folder/out.png", "out.jpg", "folder.png"])
def test_an_output_that_cannot_be_written_is_refused_before_any_drawing(tmp_path, where):
    (tmp_path / "folder.png").mkdir()
    _one_line_error(snapshot("-o", str(tmp_path / where), "--size", "1024x768"))


def test_an_audit_that_cannot_be_written_is_refused(tmp_path):
    out = tmp_path / "out.png"
    _one_line_error(snapshot("-o", str(out), "--size", "1024x768", "--audit", str(tmp_path / "no" / "a.json")),
                    "a.json")
    assert not out.exists()


def test_a_read_only_folder_is_refused(tmp_path):
    import os

    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as a user who can write anywhere")
        _one_line_error(snapshot("-o", str(folder / "out.png"), "--size", "1024x768"), "locked")
    finally:
        folder.chmod(0o700)


def test_an_audit_of_a_dash_goes_to_standard_output_as_export_s_does(tmp_path):
    import json
    import os

    out = tmp_path / "out.png"
    done = subprocess.run([sys.executable, "-m", "attn_desktop", "snapshot", "-o", str(out), "--size", "1024x768",
                           "--audit", "-"], check=False, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"\x89PNG")
    audit = json.loads(done.stdout)  # the audit itself, and nothing else, on standard output
    assert isinstance(audit, dict) and audit
    assert not (tmp_path / "-").exists()  # no file named "-" in the current folder
