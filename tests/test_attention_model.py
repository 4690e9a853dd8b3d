"""The pure model: the seed's numbers, and properties against an independent formula."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attn_desktop.model import attention, causal_mask

from tests.support.seed_numbers import KEYS, MATRIX, QUERIES, SAT, VALUES


def test_seed_row_for_sat():
    result = attention(QUERIES, KEYS, VALUES, scale=True)
    assert np.round(result.scores[SAT], 2).tolist() == [-2.52, 5.88, 2.28, -0.96, -3.48, 3.78]
    assert np.round(result.scaled[SAT], 2).tolist() == [-1.78, 4.16, 1.61, -0.68, -2.46, 2.67]
    assert [round(w * 100) for w in result.weights[SAT]] == [0, 76, 6, 1, 0, 17]
    assert np.round(result.output[SAT], 2).tolist() == [1.54, 0.48]
    assert result.divisor == pytest.approx(math.sqrt(2))


def test_seed_matrix_and_shapes():
    result = attention(QUERIES, KEYS, VALUES, scale=True)
    assert [[f"{w:.2f}" for w in row] for row in result.weights] == MATRIX
    assert result.scores.shape == (6, 6) and result.output.shape == (6, 2)


def test_lesson_self_attention_without_scaling():
    # "cat sat it" from the lesson: unscaled scores, the row for "it" gives (0.77, 0.38).
    x = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]])
    wq = np.array([[0.0, 2.0], [2.0, 0.0]])
    wk = np.array([[2.0, 0.0], [0.0, 1.0]])
    result = attention(x @ wq, x @ wk, x, scale=False)
    assert np.round(result.weights, 2).tolist() == [[0.07, 0.55, 0.37], [0.82, 0.02, 0.17], [0.54, 0.07, 0.39]]
    assert np.round(result.output[2], 2).tolist() == [0.77, 0.38]


def test_causal_mask_hides_later_tokens_and_renormalises():
    result = attention(QUERIES, KEYS, VALUES, scale=True, mask=causal_mask(6, 6))
    assert result.weights[0].tolist() == [1.0, 0, 0, 0, 0, 0]
    assert np.all(result.weights[np.triu_indices(6, 1)] == 0)
    assert np.all(np.isneginf(result.scaled[np.triu_indices(6, 1)]))
    np.testing.assert_allclose(result.weights.sum(axis=1), 1.0, atol=1e-12)


def test_fully_masked_row_gets_zero_weights_not_nan():
    mask = np.ones((2, 3), dtype=bool)
    mask[1] = False
    result = attention(np.eye(2, 2), np.ones((3, 2)), np.ones((3, 2)), mask=mask)
    assert result.weights[1].tolist() == [0, 0, 0]
    assert not np.isnan(result.weights).any() and not np.isnan(result.output).any()


def test_huge_vectors_stay_normalised():
    rng = np.random.default_rng(1)
    q = rng.normal(size=(5, 4)) * 1e6
    k = rng.normal(size=(7, 4)) * 1e6
    result = attention(q, k, rng.normal(size=(7, 3)))
    assert not np.isnan(result.weights).any()
    np.testing.assert_allclose(result.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)


def test_shape_mismatch_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="queries have width 2 but keys have width 3"):
        attention(np.ones((2, 2)), np.ones((3, 3)), np.ones((3, 1)))
    with pytest.raises(ValueError, match="3 keys but 2 values"):
        attention(np.ones((2, 2)), np.ones((3, 2)), np.ones((2, 1)))


def reference_attention(q, k, v, scale, mask):
    """An independent, loop-by-loop formula in plain Python floats."""
    d_k = len(q[0])
    weights, outputs = [], []
    for i, query in enumerate(q):
        logits = [
            sum(a * b for a, b in zip(query, key)) / (math.sqrt(d_k) if scale else 1.0)
            for key in k
        ]
        visible = [j for j in range(len(k)) if mask[i][j]]
        top = max(logits[j] for j in visible)
        exps = [math.exp(logits[j] - top) if j in visible else 0.0 for j in range(len(k))]
        total = sum(exps)
        row = [e / total for e in exps]
        weights.append(row)
        outputs.append([sum(row[j] * v[j][c] for j in range(len(k))) for c in range(len(v[0]))])
    return weights, outputs


coordinates = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


@st.composite
def attention_problems(draw):
    n_q, n, d_k, d_v = (draw(st.integers(1, 7)) for _ in range(4))
    q = draw(arrays(np.float64, (n_q, d_k), elements=coordinates))
    k = draw(arrays(np.float64, (n, d_k), elements=coordinates))
    v = draw(arrays(np.float64, (n, d_v), elements=coordinates))
    mask = draw(arrays(np.bool_, (n_q, n)))
    mask[:, 0] = True  # every query sees at least one key
    return q, k, v, draw(st.booleans()), mask


@settings(max_examples=150, deadline=None)
@given(attention_problems())
def test_matches_independent_formula(problem):
    q, k, v, scale, mask = problem
    result = attention(q, k, v, scale=scale, mask=mask)
    weights, outputs = reference_attention(q.tolist(), k.tolist(), v.tolist(), scale, mask.tolist())
    np.testing.assert_allclose(result.weights, weights, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(result.output, outputs, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(result.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert result.weights.shape == (len(q), len(k)) and result.output.shape == (len(q), v.shape[1])


@settings(max_examples=100, deadline=None)
@given(
    arrays(np.float64, (4, 3), elements=st.floats(-1e6, 1e6)),
    arrays(np.float64, (6, 3), elements=st.floats(-1e6, 1e6)),
)
def test_rows_sum_to_one_for_any_lengths_up_to_a_million(q, k):
    result = attention(q, k, np.ones((6, 2)))
    assert not np.isnan(result.weights).any()
    np.testing.assert_allclose(result.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)
