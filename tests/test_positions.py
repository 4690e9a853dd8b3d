"""Positions as the lessons will show them: sinusoidal encodings, RoPE's turns (against the app's own forward
pass and transformers' apply_rotary_pos_emb), the score that depends on the distance only, and attention that
cannot tell a shuffled sentence from the original."""

import math

import numpy as np
import pytest

from attn_desktop.model.attention import attention
from attn_desktop.model.positions import (
    halves_to_adjacent,
    rope_frequencies,
    rotate,
    rotated_score,
    shuffled_attention,
    sinusoidal_encoding,
    unrotate,
)

SMOLLM2_BASE = 100000.0  # llama.rope.freq_base in SmolLM2-135M-Instruct's file
HEAD_WIDTH = 64


def test_sinusoidal_encoding_is_the_original_transformer_s():
    encoding = sinusoidal_encoding(50, 8)
    assert encoding[0].tolist() == [0.0, 1.0] * 4  # position 0: sin 0 and cos 0 in every pair
    for position, pair in ((1, 0), (7, 1), (49, 3)):
        rate = 10000 ** (-2 * pair / 8)
        assert encoding[position, 2 * pair] == pytest.approx(math.sin(position * rate), abs=1e-15)
        assert encoding[position, 2 * pair + 1] == pytest.approx(math.cos(position * rate), abs=1e-15)
    assert sinusoidal_encoding(3, 5).shape == (3, 5)  # an odd width ends on a sine
    with pytest.raises(ValueError, match="width of 1 or more"):
        sinusoidal_encoding(4, 0)


def test_rope_frequencies_run_from_one_radian_a_position_down():
    frequencies = rope_frequencies(HEAD_WIDTH, SMOLLM2_BASE)
    assert frequencies.shape == (32,) and frequencies[0] == 1.0
    assert frequencies[-1] == pytest.approx(SMOLLM2_BASE ** (-62 / 64))
    assert np.all(np.diff(frequencies) < 0)
    with pytest.raises(ValueError, match="not an even number"):
        rope_frequencies(63, SMOLLM2_BASE)
    with pytest.raises(ValueError, match="base must be a number above 1"):
        rope_frequencies(64, math.nan)


@pytest.mark.parametrize("layout", ["adjacent", "halves"])
def test_a_turn_keeps_each_pair_s_length_and_turns_back(layout):
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(6, HEAD_WIDTH))
    frequencies = rope_frequencies(HEAD_WIDTH, SMOLLM2_BASE)
    turned = rotate(vectors, np.arange(6), frequencies, layout)
    np.testing.assert_allclose(np.linalg.norm(turned, axis=1), np.linalg.norm(vectors, axis=1), rtol=1e-13)
    np.testing.assert_allclose(unrotate(turned, np.arange(6), frequencies, layout), vectors, atol=1e-13)
    assert np.array_equal(turned[0], vectors[0])  # position 0 is not turned


def test_a_2d_pair_turns_by_the_position_times_theta():
    turned = rotate(np.array([[1.0, 0.0]]), [3], np.array([0.5]))
    np.testing.assert_allclose(turned[0], [math.cos(1.5), math.sin(1.5)], atol=1e-15)


@pytest.mark.parametrize("shift", [1, 7, 100, 1000, 8192])
def test_the_score_depends_on_the_distance_only(shift):
    rng = np.random.default_rng(shift)
    q, k = rng.normal(size=HEAD_WIDTH), rng.normal(size=HEAD_WIDTH)
    frequencies = rope_frequencies(HEAD_WIDTH, SMOLLM2_BASE)
    for m, n in ((4, 0), (9, 9), (3, 10)):
        assert rotated_score(q, k, m + shift, n + shift, frequencies) == pytest.approx(
            rotated_score(q, k, m, n, frequencies), abs=1e-9)


def test_the_lesson_s_exercise_the_score_at_7_and_3_is_the_one_at_4_and_0():
    q, k = np.array([1.2, -0.4]), np.array([0.3, 0.9])
    frequencies = np.array([0.6])
    assert rotated_score(q, k, 7, 3, frequencies) == pytest.approx(rotated_score(q, k, 4, 0, frequencies), abs=1e-12)
    assert rotated_score(q, k, 7, 3, frequencies) != pytest.approx(rotated_score(q, k, 7, 0, frequencies))


def test_the_turns_are_the_app_s_own_model_s():
    """The forward pass of pretrained/llama.py (its llama_maths.py) turns adjacent pairs by the same angles."""
    from attn_desktop.model.pretrained import llama_maths

    config = type("Config", (), {"head_width": HEAD_WIDTH, "rope_base": SMOLLM2_BASE})()
    cos, sin = llama_maths.rope_tables(config, 12)
    rng = np.random.default_rng(3)
    x = rng.normal(size=(2, 12, HEAD_WIDTH)).astype(np.float32)
    theirs = llama_maths.rotate(x, cos, sin)
    ours = rotate(x.astype(np.float64), np.arange(12), rope_frequencies(HEAD_WIDTH, SMOLLM2_BASE))
    np.testing.assert_allclose(ours, theirs, atol=1e-5)  # float32 in the model


def test_the_turns_are_transformers_own_in_either_layout():
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

    config = LlamaConfig(hidden_size=576, num_attention_heads=9, num_key_value_heads=3, head_dim=HEAD_WIDTH,
                         rope_theta=SMOLLM2_BASE, max_position_embeddings=8192)
    rng = np.random.default_rng(4)
    n = 30
    q, k = rng.normal(size=(1, 1, n, HEAD_WIDTH)), rng.normal(size=(1, 1, n, HEAD_WIDTH))
    q32, k32 = (torch.tensor(array, dtype=torch.float32) for array in (q, k))
    cos, sin = LlamaRotaryEmbedding(config)(q32, torch.arange(n)[None, :])
    their_q, their_k = (t.numpy()[0, 0] for t in apply_rotary_pos_emb(q32, k32, cos, sin))
    frequencies = rope_frequencies(HEAD_WIDTH, SMOLLM2_BASE)
    np.testing.assert_allclose(rotate(q[0, 0], np.arange(n), frequencies, "halves"), their_q, atol=1e-5)
    # The GGUF file's rows are reordered to adjacent pairs: turned that way, reordered back, the same numbers.
    order = halves_to_adjacent(HEAD_WIDTH)
    adjacent = rotate(k[0, 0][:, order], np.arange(n), frequencies, "adjacent")
    np.testing.assert_allclose(adjacent, their_k[:, order], atol=1e-5)


def test_without_positions_a_shuffled_sentence_gets_the_same_attention_shuffled():
    rng = np.random.default_rng(5)
    q, k, v = (rng.normal(size=(5, 2)) for _ in range(3))  # "the dog chased the cat", no position
    order = [3, 4, 2, 0, 1]  # "the cat chased the dog"
    original, shuffled = attention(q, k, v), shuffled_attention(q, k, v, order)
    np.testing.assert_allclose(shuffled.weights, original.weights[np.ix_(order, order)], atol=1e-12)
    np.testing.assert_allclose(shuffled.output, original.output[order], atol=1e-12)
    with pytest.raises(ValueError, match="is not an ordering of the 5 words"):
        shuffled_attention(q, k, v, [0, 0, 1, 2, 3])
