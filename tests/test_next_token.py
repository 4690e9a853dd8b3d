"""The prediction at a temperature (next_token.py): softmax(logits / T), the top-k and top-p cut-offs, sampling
from what they keep, and the one-line refusal of a temperature that is not above 0. No model needed."""

import math

import numpy as np
import pytest

from attn_desktop.model.pretrained.next_token import (
    NextTokenScores,
    TemperatureError,
    kept_count,
    likeliest_ids,
    moved_most,
    probabilities_at,
    sample_token,
    temperature_problem,
)

# e^0, e^ln2, e^ln4: at T = 1 the probabilities are 1/7, 2/7 and 4/7
LOGITS = np.array([0.0, math.log(2), math.log(4)], dtype=np.float32)


def scores(logits, texts=None):
    logits = np.asarray(logits, dtype=np.float32)
    top = likeliest_ids(logits)
    texts = texts or [f"t{token}" for token in range(len(logits))]
    return NextTokenScores(logits, tuple(int(t) for t in top), tuple(texts[t] for t in top))


def test_at_temperature_1_the_probabilities_are_the_softmax_of_the_logits():
    np.testing.assert_allclose(probabilities_at(LOGITS, 1.0), [1 / 7, 2 / 7, 4 / 7], rtol=1e-6)


def test_at_temperature_2_each_share_goes_as_the_square_root():
    # e^(logit / 2): 1, √2, 2, out of 3 + √2
    total = 3 + math.sqrt(2)
    np.testing.assert_allclose(probabilities_at(LOGITS, 2.0), [1 / total, math.sqrt(2) / total, 2 / total], rtol=1e-6)


def test_a_low_temperature_puts_nearly_everything_on_the_likeliest_and_a_high_one_spreads_it():
    assert probabilities_at(LOGITS, 0.1)[2] > 0.999
    np.testing.assert_allclose(probabilities_at(LOGITS, 1000.0), 1 / 3, atol=1e-3)
    # a temperature far below any the slider offers still gives probabilities, not NaN
    np.testing.assert_array_equal(probabilities_at(LOGITS, 1e-310), [0.0, 0.0, 1.0])


def test_the_order_of_the_tokens_is_the_same_at_every_temperature():
    logits = np.random.default_rng(0).normal(0, 3, 1000).astype(np.float32)
    order = np.argsort(-logits, kind="stable")[:10]
    for temperature in (0.1, 0.5, 1.0, 3.0):
        probabilities = probabilities_at(logits, temperature)
        assert math.isclose(probabilities.sum(), 1.0, rel_tol=1e-12)
        assert list(np.argsort(-probabilities, kind="stable")[:10]) == list(order)


def test_the_shown_tokens_are_the_likeliest_by_name_with_their_probabilities():
    shown = scores([1.0, 3.0, 2.0, 0.5], ["a", "b", "c", "d"])
    assert shown.top_texts[:3] == ("b", "c", "a")
    top = shown.top(1.0, 2)
    assert [text for text, _ in top] == ["b", "c"]
    total = math.exp(1) + math.exp(3) + math.exp(2) + math.exp(0.5)
    assert top[0][1] == pytest.approx(math.exp(3) / total, rel=1e-6)


def test_equal_logits_are_ranked_by_the_lower_id():
    logits = np.zeros(50, dtype=np.float32)
    logits[[7, 3, 41]] = 1.0
    assert list(likeliest_ids(logits, 5)) == [3, 7, 41, 0, 1]


SORTED = np.array([0.5, 0.3, 0.15, 0.05])


@pytest.mark.parametrize("top_k, top_p, kept", [
    (0, 1.0, 4),    # no cut-off
    (2, 1.0, 2),    # the two likeliest
    (9, 1.0, 4),    # more than there are
    (0, 0.8, 2),    # 0.5 + 0.3 reaches 0.8
    (0, 0.81, 3),   # 0.5 + 0.3 falls short: the third is kept too
    (0, 0.4, 1),    # the likeliest alone reaches it
    (1, 0.95, 1),   # the stricter of the two
    (3, 0.8, 2),
])
def test_top_k_and_top_p_keep_the_likeliest_tokens(top_k, top_p, kept):
    assert kept_count(SORTED, top_k, top_p) == kept


def test_sampling_draws_only_what_the_cut_offs_keep_in_their_renormalized_shares():
    probabilities = np.array([0.05, 0.5, 0.15, 0.3])  # by id: the likeliest are 1, then 3
    drawn = [sample_token(probabilities, 2, 1.0, np.random.default_rng(seed)) for seed in range(2000)]
    assert set(drawn) == {1, 3}
    assert drawn.count(1) / len(drawn) == pytest.approx(0.5 / 0.8, abs=0.03)
    by_top_p = {sample_token(probabilities, 0, 0.8, np.random.default_rng(seed)) for seed in range(300)}
    assert by_top_p == {1, 3}
    assert {sample_token(probabilities, 1, 1.0, np.random.default_rng(seed)) for seed in range(50)} == {1}


def test_the_same_seed_draws_the_same_tokens():
    probabilities = probabilities_at(np.random.default_rng(1).normal(0, 2, 500), 1.5)
    first = np.random.default_rng(7)
    second = np.random.default_rng(7)
    assert ([sample_token(probabilities, 40, 0.9, first) for _ in range(20)]
            == [sample_token(probabilities, 40, 0.9, second) for _ in range(20)])


@pytest.mark.parametrize("temperature", [0.0, -1.0, float("nan"), float("inf"), -0.0])
def test_a_temperature_that_is_not_above_0_is_refused_in_one_line(temperature):
    problem = temperature_problem(temperature)
    assert problem is not None and "\n" not in problem and "temperature must be" in problem
    with pytest.raises(TemperatureError, match="temperature must be"):
        probabilities_at(LOGITS, temperature)
    with pytest.raises(TemperatureError):
        scores(LOGITS).top(temperature)


def test_the_token_that_moved_most_is_named_with_its_probability_before_and_after():
    before = scores([2.0, 1.0, 0.0, -5.0], ["a", "b", "c", "d"])
    after = scores([0.0, 1.0, 2.0, -5.0], ["a", "b", "c", "d"])
    text, was, now = moved_most(before, after)
    assert text in ("a", "c")  # both moved by the same amount: the lower id is named
    assert text == "a" and was == pytest.approx(before.probabilities()[0]) and now == pytest.approx(after.probabilities()[0])
    assert was > 0.6 and now < 0.1
