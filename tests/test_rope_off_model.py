"""Heads without their rotation: the model keeps q and k from before RoPE, and recomputes a head's weights from
them. On a tiny random model (the turn, the sentence that reuses an earlier one's start), and on SmolLM2 against
transformers' own apply_rotary_pos_emb and q_proj/k_proj outputs, and its previous-token head losing its
diagonal."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from attn_desktop.model.positions import halves_to_adjacent, rope_frequencies, rotate
from attn_desktop.model.pretrained.head_kinds import (
    CLEAR_PREVIOUS_TOKEN_HEAD,
    PREVIOUS_TOKEN_SENTENCE,
    HeadKind,
    kind_scores,
)
from attn_desktop.model.teaching.exercises import exercises_for

from tests.support.random_model_run import causal_softmax_attention, random_model_run

SENTENCE = "The cat sat on the mat because it was tired"


def previous_token_weight(attention: np.ndarray) -> float:
    """A head's mean weight (n, n) on the token just before each query, queries 1 to n - 1 (head_kinds' rule)."""
    n = len(attention)
    return float(attention[np.arange(1, n), np.arange(n - 1)].mean())


# ----- a made-up run: the recomputation itself ---------------------------------------------------------------
def test_without_rope_the_weights_are_the_softmax_of_the_unturned_q_and_k():
    run = random_model_run()
    expected = causal_softmax_attention(run.unturned_queries, run.unturned_keys)
    np.testing.assert_allclose(run.attention_without_rope(), expected, rtol=0, atol=1e-12)
    np.testing.assert_allclose(run.attention_without_rope(1), expected[1], rtol=0, atol=1e-12)
    assert not np.allclose(expected, run.attention, atol=1e-3)  # the turns matter
    np.testing.assert_allclose(run.attention_without_rope().sum(axis=-1), 1.0, atol=1e-12)


def test_a_layer_the_run_does_not_have_or_a_run_without_unturned_q_and_k_is_refused():
    run = random_model_run()
    with pytest.raises(ValueError, match="layers 0 to 2; there is no layer 3"):
        run.attention_without_rope(3)
    bare = dataclasses.replace(run, unturned_queries=None, unturned_keys=None)
    assert not bare.has_unturned
    with pytest.raises(ValueError, match="did not keep its queries and keys from before RoPE"):
        bare.attention_without_rope()


# ----- the app's own forward pass, on a tiny random model ----------------------------------------------------
@pytest.fixture(scope="module")
def tiny_path(tmp_path_factory):
    pytest.importorskip("gguf")
    pytest.importorskip("tokenizers")
    from tests.support.tiny_llama import write_tiny_llama

    path = tmp_path_factory.mktemp("tiny") / "tiny.gguf"
    write_tiny_llama(path, layer_count=3, head_count=4, kv_head_count=2, rope_base=10000.0)
    return path


def load(path):
    from attn_desktop.model.pretrained.llama import LlamaModel

    return LlamaModel.load(path)


def test_the_model_keeps_q_and_k_before_the_turn_that_gives_the_turned_ones(tiny_path):
    run = load(tiny_path).run(SENTENCE)
    assert run.unturned_queries.shape == run.queries.shape and run.unturned_keys.shape == run.keys.shape
    assert run.unturned_queries.dtype == run.unturned_keys.dtype == np.float32
    np.testing.assert_array_equal(run.unturned_queries[:, :, 0], run.queries[:, :, 0])  # position 0 is not turned
    frequencies = rope_frequencies(run.head_width, 10000.0)
    positions = np.arange(len(run.tokens))
    np.testing.assert_allclose(rotate(run.unturned_queries, positions, frequencies), run.queries, atol=1e-5)
    np.testing.assert_allclose(rotate(run.unturned_keys, positions, frequencies), run.keys, atol=1e-5)
    # keys are shared by groups of query heads, before the turn as after it
    np.testing.assert_array_equal(run.unturned_keys[:, 0], run.unturned_keys[:, 1])
    assert not np.array_equal(run.unturned_keys[:, 1], run.unturned_keys[:, 2])


def test_a_sentence_reusing_an_earlier_start_keeps_the_same_unturned_q_and_k(tiny_path):
    """Typing a word at the end reuses the start's keys: the q and k before RoPE must come along, in their places.
    (The new tokens' products are computed in another batch: float32's last digit may differ.)"""
    reusing = load(tiny_path)
    reusing.run("The cat sat")
    extended = reusing.run(SENTENCE)
    fresh = load(tiny_path).run(SENTENCE)
    np.testing.assert_allclose(extended.unturned_queries, fresh.unturned_queries, rtol=0, atol=1e-5)
    np.testing.assert_allclose(extended.unturned_keys, fresh.unturned_keys, rtol=0, atol=1e-5)
    np.testing.assert_allclose(extended.attention_without_rope(), fresh.attention_without_rope(), rtol=0, atol=1e-5)
    shorter = reusing.run("The cat")  # a start of a remembered sentence: cut from it (its last token afresh)
    np.testing.assert_array_equal(shorter.unturned_queries[:, :, 0], extended.unturned_queries[:, :, 0])
    np.testing.assert_allclose(shorter.unturned_keys, extended.unturned_keys[:, :, :2], rtol=0, atol=1e-5)


def test_with_unturned_q_and_k_equal_to_the_turned_ones_the_model_s_own_weights_come_back(tiny_path):
    """The recomputation is the forward pass's own softmax: given the turned q and k it gives the weights exactly."""
    run = load(tiny_path).run(SENTENCE)
    same = dataclasses.replace(run, unturned_queries=run.queries, unturned_keys=run.keys)
    np.testing.assert_array_equal(same.attention_without_rope(), run.attention)


# ----- SmolLM2 (the optional pack) against transformers -------------------------------------------------------
@pytest.mark.slow
def test_smollm2_s_turns_are_transformers_apply_rotary_pos_emb_on_its_real_q_and_k(smollm2):
    """The model's q and k before RoPE, laid out in Hugging Face's halves and turned by transformers with SmolLM2's
    configuration, are the model's turned q and k. Both are float32, and the numbers run to about ±19: each is
    compared to 1e-6 of its vector's largest magnitude (at least 1), float32's rounding of a turned pair."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

    c = smollm2.config
    config = LlamaConfig(hidden_size=c.width, num_attention_heads=c.head_count, num_key_value_heads=c.kv_head_count,
                         head_dim=c.head_width, rope_theta=c.rope_base, max_position_embeddings=8192)
    run = smollm2.run("the dog chased the cat because it was fast, and then it ran all the way home")
    to_adjacent = halves_to_adjacent(c.head_width)
    to_halves = np.argsort(to_adjacent)
    q, k = (torch.tensor(array[..., to_halves]) for array in (run.unturned_queries, run.unturned_keys))
    cos, sin = LlamaRotaryEmbedding(config)(q, torch.arange(len(run.tokens))[None, :])
    their_q, their_k = (turned.numpy()[..., to_adjacent] for turned in apply_rotary_pos_emb(q, k, cos, sin))
    for ours, theirs in ((run.queries, their_q), (run.keys, their_k)):
        scale = np.maximum(1.0, np.abs(ours).max(axis=-1, keepdims=True))
        assert np.abs(ours - theirs).max() > 0  # two computations, not one array compared with itself
        assert (np.abs(ours - theirs) / scale).max() < 1e-6
    assert np.abs(run.queries).max() > 5  # real numbers of a real model, not small ones


@pytest.mark.slow
def test_smollm2_without_rope_is_the_softmax_of_transformers_q_proj_and_k_proj(smollm2):
    """softmax(q·kᵀ/√64 + causal mask) of transformers' q_proj and k_proj outputs, query head h reading key/value
    head h // 3 as the model groups them, equals the app's weights without RoPE to 1e-4."""
    from tests.support.smollm2_reference import projections_before_rope, smollm2_reference_model

    run = smollm2.run(PREVIOUS_TOKEN_SENTENCE)
    queries, keys = projections_before_rope(smollm2_reference_model(smollm2.path), run.token_ids)
    group = smollm2.config.head_count // smollm2.config.kv_head_count
    expected = causal_softmax_attention(queries, np.repeat(keys, group, axis=1))
    np.testing.assert_allclose(run.attention_without_rope(), expected, rtol=0, atol=1e-4)
    assert np.abs(run.attention_without_rope() - run.attention).max() > 0.3  # RoPE off is another pattern


def test_smollm2_s_clearest_previous_token_head_loses_its_diagonal_without_rope(smollm2):
    run = smollm2.run(PREVIOUS_TOKEN_SENTENCE)
    scores = kind_scores(run, HeadKind.PREVIOUS_TOKEN)
    assert np.unravel_index(scores.argmax(), scores.shape) == CLEAR_PREVIOUS_TOKEN_HEAD
    layer, head = CLEAR_PREVIOUS_TOKEN_HEAD
    with_rope = previous_token_weight(run.attention[layer, head])
    without = previous_token_weight(run.attention_without_rope(layer)[head])
    assert with_rope == pytest.approx(0.807, abs=0.005)  # the numbers head_kinds' comment gives
    assert without == pytest.approx(0.155, abs=0.005)
    n = len(run.tokens)
    evenly = np.mean([1 / (query + 1) for query in range(1, n)])  # a head spreading its weight over what it sees
    assert without < evenly < with_rope
    # Lesson 10's third exercise quotes the three numbers, rounded as a student reads them
    exercise = next(item for item in exercises_for("positions") if item.id == "positions-real-head-without-rope")
    said = f"{with_rope:.0%} of its weight on average with RoPE and {without:.0%} without, less than the {evenly:.0%}"
    assert said in exercise.explanation
