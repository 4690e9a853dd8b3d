"""`attn-desktop snapshot --steps` with hostile numbers and a walk too long to run: one line, exit 2, at once,
and nothing written (issue 44)."""

import time

import pytest

from tests.support.snapshot_run import assert_one_line_error, run_snapshot

pytestmark = pytest.mark.slow  # every test runs the app's snapshot command in a child process


@pytest.mark.parametrize("steps", ["train:reverse:²", "train:reverse:①", "drag:q:²:1:1"])
def test_a_digit_int_refuses_is_one_line_naming_the_step(tmp_path, steps):
    done = run_snapshot(tmp_path, "--size", "1024x768", steps=steps)
    assert_one_line_error(done, repr(steps))
    assert not (tmp_path / "out.png").exists() and not (tmp_path / "audit.json").exists()


def test_thirty_thousand_steps_are_refused_before_anything_runs(tmp_path):
    started = time.monotonic()
    done = run_snapshot(tmp_path, "--size", "1024x768", steps=",".join(["lab"] * 30_000))
    assert_one_line_error(done, "at most 1,000 steps", "30,000")
    assert time.monotonic() - started < 30  # no window was built (the walk ran past five minutes)
    assert not (tmp_path / "out.png").exists()
