"""Induction heads: the score rule on numbers checked by hand, the repeated random sequence, the probe on a tiny
random model, and SmolLM2's scores against transformers' eager attention on the same token ids."""

from __future__ import annotations

import numpy as np
import pytest

from attn_desktop.model.pretrained.head_kinds import KIND_THRESHOLD, HeadKind, kind_scores
from attn_desktop.model.pretrained.induction import (
    COMMON_TOKENS,
    DEFAULT_LENGTH,
    DEFAULT_SEED,
    INDUCTION_THRESHOLD,
    MAX_LENGTH,
    InductionProbe,
    induction_scores,
    longest_length,
    repeated_random_ids,
    settings_problem,
)

from tests.support.smollm2_reference import smollm2_reference_attention


# ----- the rule, by hand ----------------------------------------------------------------------------
def test_the_score_is_the_mean_weight_on_the_token_after_the_earlier_occurrence():
    """A beginning-of-text token, then A B C, then A B C (start 1, R = 3): the second A (position 4) should look
    at position 2 (the B after the first A), the second B (5) at 3, the second C (6) at 4 (the A after the first C)."""
    attention = np.zeros((1, 2, 7, 7))
    attention[0, 0, 4, 2], attention[0, 0, 5, 3], attention[0, 0, 6, 4] = 0.9, 0.6, 0.3   # mean 0.6
    attention[0, 1, 4, 1], attention[0, 1, 5, 2], attention[0, 1, 6, 3] = 1.0, 1.0, 1.0   # the same token: 0
    attention[0, 1, 5, 3] += 0.2                                                           # mean 0.2 / 3
    scores = induction_scores(attention, start=1, length=3)
    np.testing.assert_allclose(scores, [[0.6, 0.2 / 3]], rtol=0, atol=1e-15)


def test_without_a_beginning_token_the_stripe_starts_at_the_first_token():
    attention = np.zeros((1, 1, 4, 4))  # A B A B: the second A (2) looks at 1, the second B (3) at 2
    attention[0, 0, 2, 1], attention[0, 0, 3, 2] = 0.5, 0.7
    assert induction_scores(attention, start=0, length=2)[0, 0] == pytest.approx(0.6)


def test_a_sequence_shorter_than_two_copies_is_refused():
    with pytest.raises(ValueError, match="covers 5 tokens"):
        induction_scores(np.zeros((1, 1, 5, 5)), start=0, length=3)


# ----- the sequence --------------------------------------------------------------------------------------
class FakeTokenizer:
    def __init__(self, vocab_size=50_000, special=range(17), bos=None):
        self.vocab_size, self.special_ids, self.bos = vocab_size, frozenset(special), bos

    def first_token_ids(self):
        return [] if self.bos is None else [self.bos]


def test_the_sequence_is_r_ordinary_tokens_twice_with_no_repeat_in_a_copy():
    ids = repeated_random_ids(FakeTokenizer(), 20, seed=3)
    first, second = ids[:20], ids[20:]
    assert len(ids) == 40 and first == second
    assert len(set(first)) == 20
    assert all(17 <= token < COMMON_TOKENS for token in first)


def test_a_beginning_of_text_token_comes_first_when_the_tokenizer_adds_one():
    ids = repeated_random_ids(FakeTokenizer(bos=1), 5, seed=0)
    assert ids[0] == 1 and len(ids) == 11 and ids[1:6] == ids[6:]
    assert 1 not in ids[1:]  # special tokens are never drawn


def test_the_same_seed_gives_the_same_tokens_and_another_seed_others():
    tokenizer = FakeTokenizer()
    assert repeated_random_ids(tokenizer, 20, 7) == repeated_random_ids(tokenizer, 20, 7)
    assert repeated_random_ids(tokenizer, 20, 7) != repeated_random_ids(tokenizer, 20, 8)


def test_a_small_vocabulary_limits_the_length():
    tokenizer = FakeTokenizer(vocab_size=40, special=range(3))
    assert longest_length(tokenizer) == 37  # 37 ordinary tokens, none repeated in a copy
    with pytest.raises(ValueError, match="from 2 to 37"):
        repeated_random_ids(tokenizer, 38, 0)
    assert longest_length(FakeTokenizer(bos=1)) == 127  # 1 + 2 × 127 = 255 of the 256 tokens read


@pytest.mark.parametrize("length, seed, expected", [
    (1, 0, "from 2 to 128"), (129, 0, "from 2 to 128"), (10**9, 0, "it was 1,000,000,000"),
    (20, -1, "the seed must be a whole number from 0"), (20, 2**31, "the seed must be"),
])
def test_settings_out_of_range_are_refused_in_words(length, seed, expected):
    assert expected in settings_problem(length, seed)


def test_the_defaults_are_accepted():
    assert settings_problem(DEFAULT_LENGTH, DEFAULT_SEED) is None and settings_problem(MAX_LENGTH, 0) is None


def test_the_commands_defaults_are_the_models():
    from attn_desktop.cli import induction as command

    assert (command.DEFAULT_LENGTH, command.DEFAULT_SEED) == (DEFAULT_LENGTH, DEFAULT_SEED)


# ----- the probe on a model (a random one: a model function need not find real induction heads) ---------------
@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    pytest.importorskip("gguf")
    pytest.importorskip("tokenizers")
    from attn_desktop.model.pretrained.llama import LlamaModel

    from tests.support.tiny_llama import write_tiny_llama

    path = tmp_path_factory.mktemp("tiny") / "tiny.gguf"
    write_tiny_llama(path, layer_count=3, head_count=4, kv_head_count=2)
    return LlamaModel.load(path)


def test_the_probe_runs_exactly_the_ids_and_scores_every_head(tiny):
    from attn_desktop.model.pretrained.induction import probe_induction

    probe = probe_induction(tiny, 8, seed=2)
    assert probe.token_ids == repeated_random_ids(tiny.tokenizer, 8, 2) and probe.start == 0
    assert probe.run.attention.shape == (3, 4, 16, 16)
    expected = np.array([[np.mean([probe.run.attention[layer, head, 8 + i, i + 1] for i in range(8)])
                          for head in range(4)] for layer in range(3)])
    np.testing.assert_allclose(probe.scores, expected, rtol=0, atol=1e-15)
    top = probe.top()
    assert len(top) == 10 and [s.score for s in top] == sorted((s.score for s in top), reverse=True)
    assert (top[0].layer, top[0].head) == np.unravel_index(np.argmax(expected), expected.shape)
    assert all(s.score >= INDUCTION_THRESHOLD for s in probe.induction_heads())


def test_token_ids_the_model_cannot_read_are_refused(tiny):
    from attn_desktop.model.pretrained.llama import MAX_SENTENCE_TOKENS, SentenceError

    with pytest.raises(SentenceError, match="the model reads 1 to 256"):
        tiny.run_token_ids([])
    with pytest.raises(SentenceError, match="257 tokens"):
        tiny.run_token_ids([5] * (MAX_SENTENCE_TOKENS + 1))
    with pytest.raises(SentenceError, match="token ids must be from 0 to"):
        tiny.run_token_ids([5, tiny.tokenizer.vocab_size])
    assert tiny.run_token_ids([5, 6]).token_ids == [5, 6]


def test_feeding_heads_are_previous_token_heads_before_the_first_induction_head():
    from tests.support.random_model_run import random_model_run

    run = random_model_run(tokens=["a", "b", "c", "a", "b", "c"], layers=3, heads=2)
    attention = np.zeros_like(run.attention)
    attention[:, :, 0, 0] = 1.0
    for query in range(1, 6):
        attention[:, :, query, query] = 1.0           # every head looks at itself...
        attention[0, 1, query] = 0.0
        attention[0, 1, query, query - 1] = 1.0       # ...but layer 0's head 1, at the token before
        attention[2, 1, query] = 0.0
        attention[2, 1, query, query - 1] = 1.0       # and layer 2's head 1, after the induction head
    for query, key in ((3, 1), (4, 2), (5, 3)):
        attention[1, 0, query] = 0.0
        attention[1, 0, query, key] = 1.0             # layer 1's head 0: an induction head
    from dataclasses import replace

    run = replace(run, attention=attention)
    probe = InductionProbe(run, 3, 0, 0, induction_scores(attention, 0, 3))
    assert [(s.layer, s.head, s.score) for s in probe.induction_heads()] == [(1, 0, 1.0)]
    assert kind_scores(run, HeadKind.PREVIOUS_TOKEN)[2, 1] >= KIND_THRESHOLD  # a previous-token head, but later
    assert [(s.layer, s.head) for s in probe.feeding_heads()] == [(0, 1)]
    assert probe.feeding_layers() == [0]


# ----- SmolLM2 (the optional pack) against transformers ---------------------------------------------------
@pytest.mark.slow
def test_smollm2_induction_scores_match_transformers(smollm2):
    from attn_desktop.model.pretrained.induction import probe_induction

    probe = probe_induction(smollm2, DEFAULT_LENGTH, DEFAULT_SEED)
    assert probe.start == 0 and len(probe.token_ids) == 2 * DEFAULT_LENGTH  # SmolLM2 adds no beginning token
    attention = smollm2_reference_attention(smollm2.path, probe.token_ids)
    expected = induction_scores(attention, 0, DEFAULT_LENGTH)
    np.testing.assert_allclose(probe.scores, expected, rtol=0, atol=1e-4)
    best = probe.top(1)[0]
    assert (best.layer, best.head) == (18, 6) and best.score > 0.85


def test_smollm2s_induction_heads_are_in_layers_17_and_18_fed_by_earlier_previous_token_heads(smollm2):
    from attn_desktop.model.pretrained.induction import probe_induction, strongest_induction_head

    for seed in (0, 1, 2):
        probe = probe_induction(smollm2, DEFAULT_LENGTH, seed)
        strong = {(s.layer, s.head) for s in probe.induction_heads()}
        assert {(17, 3), (17, 4), (17, 5), (18, 6)} <= strong, seed
        assert {1, 2, 11, 16} <= set(probe.feeding_layers()) and max(probe.feeding_layers()) < 17
    assert (strongest_induction_head(smollm2).layer, strongest_induction_head(smollm2).head) == (18, 6)


def test_lesson_9_s_exercise_names_smollm2_s_strongest_induction_head(smollm2):
    from attn_desktop.model.pretrained.induction import strongest_induction_head
    from attn_desktop.model.teaching.exercises import EXERCISES
    from attn_desktop.model.teaching.induction_exercises import SMOLLM2_STRONGEST_INDUCTION_HEAD

    strongest = strongest_induction_head(smollm2)
    assert (strongest.layer, strongest.head) == SMOLLM2_STRONGEST_INDUCTION_HEAD
    exercise = next(e for e in EXERCISES if e.id == "induction-smollm2-strongest")
    assert exercise.check(f"{strongest.layer}, {strongest.head}").correct
    assert f"{round(100 * strongest.score)}%" in exercise.explanation
