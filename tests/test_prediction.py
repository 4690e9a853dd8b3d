"""Predict, then see: guesses, their comparison with the real weights, and the session's score.

The numbers are worked out by hand in the comments.
"""

import math

import numpy as np
import pytest

from attn_desktop.model.teaching.prediction import (
    SessionScore,
    as_guess,
    compare,
    even_guess,
    winner_guess,
    winners,
    with_share,
)


def test_a_guess_is_scaled_to_add_up_to_one():
    assert as_guess([2, 1, 1], 3).tolist() == [0.5, 0.25, 0.25]
    assert as_guess([60, 30, 10], 3).tolist() == pytest.approx([0.6, 0.3, 0.1])


def test_a_key_the_mask_hides_gets_no_share():
    assert as_guess([1, 1, 2], 3, allowed=[True, True, False]).tolist() == [0.5, 0.5, 0.0]
    assert even_guess(4, allowed=[True, True, False, False]).tolist() == [0.5, 0.5, 0.0, 0.0]


@pytest.mark.parametrize("values, message", [
    ([0.5, math.nan, 0.5], "not NaN"),
    ([0.5, math.inf, 0.5], "not NaN or infinity"),
    ([0.5, -0.1, 0.6], "negative"),
    ([0, 0, 0], "at least one key"),
    ([0.5, 0.5], "each of the 3 keys, not 2"),
])
def test_bad_guesses_are_refused_with_one_clear_message(values, message):
    with pytest.raises(ValueError, match=message):
        as_guess(values, 3)
    with pytest.raises(ValueError, match=message):
        compare(values, [0.2, 0.3, 0.5])


def test_naming_the_winner_gives_it_everything():
    assert winner_guess(1, 3).tolist() == [0.0, 1.0, 0.0]
    with pytest.raises(ValueError, match="one of the 3 keys"):
        winner_guess(3, 3)


def test_dragging_one_bar_keeps_the_others_in_proportion():
    # cat to 0.6: the other 0.4 is shared 1 : 3 as 0.1 and 0.3 were.
    assert with_share(np.array([0.5, 0.1, 0.3, 0.1]), 0, 0.6).tolist() == pytest.approx([0.6, 0.08, 0.24, 0.08])
    # The others had nothing: they share the rest evenly.
    assert with_share(np.array([1.0, 0.0, 0.0]), 0, 0.4).tolist() == pytest.approx([0.4, 0.3, 0.3])
    # Dragged past the ends: clamped to 0 and 1.
    assert with_share(np.array([0.5, 0.5]), 1, 1.7).tolist() == [0.0, 1.0]
    assert with_share(np.array([0.5, 0.5]), 1, -0.2).tolist() == [1.0, 0.0]
    # A masked key stays at 0 and cannot be dragged.
    allowed = [True, True, False]
    assert with_share(np.array([0.5, 0.5, 0.0]), 0, 0.8, allowed).tolist() == pytest.approx([0.8, 0.2, 0.0])
    assert with_share(np.array([0.5, 0.5, 0.0]), 2, 0.8, allowed).tolist() == [0.5, 0.5, 0.0]


def test_the_comparison_by_hand():
    # guess 0.5, 0.3, 0.2; real 0.2, 0.5, 0.3.
    # differences (guess − real): 0.3, −0.2, −0.1; total variation ½ (0.3 + 0.2 + 0.1) = 0.3.
    result = compare([0.5, 0.3, 0.2], [0.2, 0.5, 0.3])
    assert result.differences.tolist() == pytest.approx([0.3, -0.2, -0.1])
    assert result.distance == pytest.approx(0.3)
    assert result.points_off == pytest.approx(30.0)
    assert result.score == pytest.approx(70.0)
    assert result.guessed_winner == 0 and result.real_winners == (1,) and not result.winner_right


def test_the_exact_weights_score_100_and_disjoint_weights_score_0():
    exact = compare([0.25, 0.75], [0.25, 0.75])
    assert exact.distance == 0 and exact.score == 100 and exact.winner_right
    assert compare([1, 0], [0, 1]).score == 0


def test_a_named_winner_against_real_weights():
    # "cat wins" against 0.54, 0.25, 0.16, 0.05: off by 1 − 0.54 = 0.46, score 54, winner right.
    result = compare(winner_guess(0, 4), [0.54, 0.25, 0.16, 0.05])
    assert result.distance == pytest.approx(0.46) and result.score == pytest.approx(54.0) and result.winner_right


def test_ties_in_the_guess_name_no_winner_and_ties_in_the_real_weights_accept_either():
    assert compare([0.5, 0.5, 0.0], [0.6, 0.3, 0.1]).guessed_winner is None
    assert not compare([0.5, 0.5, 0.0], [0.6, 0.3, 0.1]).winner_right
    assert compare([0.1, 0.9], [0.5, 0.5]).winner_right
    assert winners(np.array([0.4, 0.4, 0.2])) == [0, 1]


def test_the_session_score_adds_rounds_up():
    session = SessionScore()
    assert session.average == 0
    session = session.with_round(compare([0.5, 0.3, 0.2], [0.2, 0.5, 0.3]))  # 70, winner wrong
    session = session.with_round(compare([0, 1, 0], [0.1, 0.8, 0.1]))  # off by 0.2: 80, winner right
    assert session.rounds == 2 and session.winners_right == 1
    assert session.average == pytest.approx(75.0) and session.best_score == pytest.approx(80.0)


def test_a_session_record_goes_to_a_dict_and_back():
    session = SessionScore(3, 210.5, 2, 90.0)
    assert SessionScore.from_dict(session.to_dict()) == session
    assert SessionScore.from_dict({}) == SessionScore()


@pytest.mark.parametrize("record", [
    [], {"rounds": -1}, {"rounds": 1.5}, {"rounds": True}, {"rounds": 1, "winners_right": 2},
    {"rounds": 1, "total_score": "high"}, {"rounds": 1, "best_score": 101}, {"rounds": 1, "total_score": 150},
])
def test_a_damaged_record_is_refused(record):
    with pytest.raises(ValueError):
        SessionScore.from_dict(record)
