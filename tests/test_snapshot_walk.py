"""`attn-desktop snapshot --steps`: a teacher's walk through one window, audited after every step.

The walks' audits are not required to be clean here (the layouts that make them so are work of their
own): these tests check that a walk runs, audits every step with every key, and refuses a bad step.
"""

import json

import pytest
from PySide6.QtGui import QImage

from tests.support.snapshot_run import assert_one_line_error, run_snapshot

pytestmark = pytest.mark.slow  # every test runs the app's snapshot command in a child process

LAYOUT_KEYS = {"score_rows", "score_rows_visible", "matrix_numbers_shown", "matrix_font_px", "chart_label_overlaps",
               "label_overlaps", "labels_over_heads", "labels_over_shafts", "labels_cut", "max_label_offset_px",
               "label_line_height_px", "panels_cut", "untranslated_texts", "accessibility"}
WALK_KEYS = {"plots_too_small", "key_labels_missing", "texts_elided", "text_overlaps", "max_label_distance_px"}


def _refused(tmp_path, done, *words):
    assert_one_line_error(done, *words)
    assert not (tmp_path / "out.png").exists() and not (tmp_path / "audit.json").exists()


@pytest.mark.parametrize("steps, named", [("present,dance", "'dance'"), ("lesson:transformers", "transformers"),
                                          ("train:reverse:-3", "train:reverse:-3"), ("", "--steps")])
def test_a_step_that_cannot_be_read_is_refused_before_any_window(tmp_path, steps, named):
    _refused(tmp_path, run_snapshot(tmp_path, "--size", "1024x768", steps=steps), named)


@pytest.mark.parametrize("steps, named", [("present,drag:k:40:0:0", "drag:k:40:0:0"), ("undo", "'undo'"),
                                          ("lesson:two-heads,predict", "'predict'")])
def test_a_step_the_window_cannot_take_is_named_and_nothing_is_written(tmp_path, steps, named):
    _refused(tmp_path, run_snapshot(tmp_path, "--size", "1024x768", steps=steps), named)


def test_a_walk_audits_every_step_with_every_key(tmp_path):
    done = run_snapshot(tmp_path, "--size", "1024x768", steps="lesson:two-heads,present,unpresent,lesson:projections")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    walk = json.loads((tmp_path / "audit.json").read_text())
    assert list(walk) == ["steps"]
    assert [entry["step"] for entry in walk["steps"]] == ["lesson:two-heads", "present", "unpresent",
                                                        "lesson:projections"]
    for entry in walk["steps"]:
        assert set(entry["audit"]) >= LAYOUT_KEYS | WALK_KEYS, entry["step"]
        audit = entry["audit"]
        for key in ("plots_too_small", "key_labels_missing", "texts_elided", "text_overlaps"):
            assert isinstance(audit[key], list)
        assert audit["max_label_distance_px"] >= 0
    presenting, everyday = walk["steps"][1]["audit"], walk["steps"][2]["audit"]
    assert presenting["label_line_height_px"] > everyday["label_line_height_px"]  # present, then back
    picture = QImage(str(tmp_path / "out.png"))
    assert (picture.width(), picture.height()) == (1024, 768)


def test_a_restart_restores_the_saved_window_in_the_snapshots_own_settings(tmp_path):
    done = run_snapshot(tmp_path, "--size", "1280x720", steps="drag:k:1:1:1,present,restart,undo")
    assert done.returncode == 2 and "'undo'" in done.stderr  # the new window has no history to undo into
    done = run_snapshot(tmp_path, "--size", "1280x720", steps="drag:k:1:1:1,present,restart")
    assert done.returncode == 0, done.stderr
    walk = json.loads((tmp_path / "audit.json").read_text())["steps"]
    before, presenting, after = (entry["audit"] for entry in walk)
    assert after["label_line_height_px"] == before["label_line_height_px"] < presenting["label_line_height_px"]
    assert not (tmp_path / "user").exists()  # neither the user's settings nor their data were touched


def test_without_steps_the_audit_keeps_its_format(tmp_path):
    done = run_snapshot(tmp_path, "--size", "1024x768")
    assert done.returncode == 0, done.stderr
    assert set(json.loads((tmp_path / "audit.json").read_text())) == LAYOUT_KEYS


def test_leaving_presentation_with_the_lab_open_after_other_lessons_does_not_crash(tmp_path):
    # Re-tabbing the reading panels while presentation mode had hidden them beside the shown √d_k lab
    # crashed Qt inside tabifyDockWidget (a segmentation fault, every run).
    done = run_snapshot(tmp_path, "--size", "1024x768", steps="lesson:soft-lookup,present,lesson:self-attention,"
                        "lesson:trained-heads,unpresent,lesson:why-sqrt-dk,present,unpresent,lesson:soft-lookup")
    assert done.returncode == 0, done.stderr[-2000:]
