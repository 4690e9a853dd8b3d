"""The √d_k lab's numbers: random scores spread like √d_k, divided they spread like 1, and an
unscaled softmax collapses onto one key as the width grows."""

import contextlib
import io
import math

import numpy as np
import pytest

from attn_desktop.model import explain
from attn_desktop.model.attention import entropy_bits
from attn_desktop.model.teaching import scaling_lab
from attn_desktop.model.teaching.exercises import exercises_for

WIDTHS = (2, 16, 64, 256, 512)


@pytest.mark.parametrize("d_k", WIDTHS)
def test_raw_scores_spread_like_the_root_of_the_width_and_divided_ones_like_1(d_k):
    shown = scaling_lab.reading(d_k)
    assert shown.raw_spread == pytest.approx(math.sqrt(d_k), rel=0.05)
    assert shown.scaled_spread == pytest.approx(1.0, rel=0.05)
    assert shown.scaled_spread == pytest.approx(shown.raw_spread / math.sqrt(d_k), rel=1e-12)


def test_without_the_division_the_softmax_collapses_as_the_width_grows():
    entropies = [scaling_lab.reading(d_k).raw_entropy for d_k in WIDTHS]
    assert entropies == sorted(entropies, reverse=True)
    assert entropies[0] > 2.0 and entropies[-1] < 0.25  # most of 3 bits at d_k = 2, nearly one-hot at 512
    last = scaling_lab.reading(512)
    assert last.raw_weights.max() > 0.95 and last.scaled_weights.max() < 0.6


def test_with_the_division_the_entropy_stays_near_its_most_at_every_width():
    lab = scaling_lab.curves()
    assert lab.widths[0] == 2 and lab.widths[-1] == 512 and len(lab.widths) == 511
    assert np.all((lab.scaled_entropy > 2.2) & (lab.scaled_entropy < 3.0))
    assert scaling_lab.reading(2).most_entropy == 3.0  # eight keys sharing evenly


@pytest.mark.parametrize("d_k", WIDTHS)
def test_the_curves_go_through_the_readings(d_k):
    lab, shown = scaling_lab.curves(), scaling_lab.reading(d_k)
    at = d_k - 2
    assert lab.raw_spread[at] == pytest.approx(shown.raw_spread, abs=1e-12)
    assert lab.scaled_spread[at] == pytest.approx(shown.scaled_spread, abs=1e-12)
    assert lab.raw_entropy[at] == pytest.approx(shown.raw_entropy, abs=1e-12)
    assert lab.scaled_entropy[at] == pytest.approx(shown.scaled_entropy, abs=1e-12)


def test_a_width_shows_the_same_numbers_every_time():
    assert scaling_lab.ScalingLab().reading(64).raw_spread == scaling_lab.reading(64).raw_spread


@pytest.mark.parametrize("d_k", [64, 300])
def test_the_script_prints_what_the_lab_shows(d_k):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(scaling_lab.numpy_code(d_k), {})  # noqa: S102 - the app's own generated script
    shown = scaling_lab.reading(d_k)
    spread_line, entropy_line = printed.getvalue().splitlines()
    assert f"spread of q.k: {shown.raw_spread:.2f}" in spread_line
    assert f"divided by sqrt(d_k): {shown.scaled_spread:.2f}" in spread_line
    assert f"average entropy: {shown.raw_entropy:.2f} bits" in entropy_line
    assert f"divided by sqrt(d_k): {shown.scaled_entropy:.2f} bits" in entropy_line
    assert scaling_lab.numpy_code(d_k).isascii()


@pytest.mark.parametrize("bad, message", [
    (1, "between 2 and 512, found 1"), (513, "between 2 and 512, found 513"), (-4, "found -4"),
    (2.5, "whole number"), (True, "whole number"), ("64", "whole number"), (float("nan"), "whole number"),
])
def test_a_width_out_of_range_is_refused_with_one_clear_message(bad, message):
    with pytest.raises((ValueError, TypeError), match=message):
        scaling_lab.reading(bad)


def test_entropy_in_bits():
    assert entropy_bits(np.full(8, 1 / 8)) == pytest.approx(3.0)
    assert entropy_bits(np.array([0.0, 1.0, 0.0])) == 0.0
    assert entropy_bits(np.array([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]])).tolist() == [1.0, 0.0]  # masked keys add nothing


def test_the_exercises_quote_the_readings_the_lab_shows():
    by_id = {exercise.id: exercise for exercise in exercises_for("why-sqrt-dk")}
    for exercise_id, d_k in (("dk-spread-64", 64), ("dk-spread-256", 256)):
        shown = scaling_lab.reading(d_k).raw_spread
        exercise = by_id[exercise_id]
        assert explain.number(shown) in exercise.explanation
        assert exercise.check(explain.number(shown)).correct  # reading the lab's number is a right answer
        assert exercise.answer == (math.sqrt(d_k),)
