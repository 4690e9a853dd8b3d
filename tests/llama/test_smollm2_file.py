"""The real SmolLM2 file of the optional pack: its words, digits, heads and next tokens (skipped without it)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE
from attn_desktop.model.pretrained.run import NEXT_TOKEN_COUNT

from tests.support.llama_reference import TOLERANCE


def test_smollm2_splits_the_default_sentence_into_words(smollm2):
    assert smollm2.tokenize(DEFAULT_SENTENCE) == [
        "The", " cat", " sat", " on", " the", " mat", " because", " it", " was", " tired"
    ]


def test_smollm2_splits_numbers_into_single_digits(smollm2):
    assert smollm2.tokenize("In 2024 there were 365 days") == [
        "In", " ", "2", "0", "2", "4", " there", " were", " ", "3", "6", "5", " days"
    ]


def test_smollm2_has_30_layers_of_9_heads_sharing_3_key_value_heads(smollm2):
    c = smollm2.config
    assert (c.layer_count, c.head_count, c.kv_head_count, c.width, c.head_width) == (30, 9, 3, 576, 64)
    run = smollm2.run(DEFAULT_SENTENCE)
    assert run.attention.shape == (30, 9, 10, 10)
    assert run.queries.shape == run.keys.shape == run.values.shape == (30, 9, 10, 64)
    assert run.kv_group_size == 3 and [run.kv_head_of(h) for h in range(9)] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert 400e6 < smollm2.memory_bytes < 900e6  # 135 M weights as float32


@pytest.mark.parametrize("sentence", [DEFAULT_SENTENCE, "Hi", "In 2024 there were 365 days, and it rained on 12 of them."])
def test_smollm2_rows_sum_to_one_and_the_mask_holds(smollm2, sentence):
    attention = smollm2.run(sentence).attention
    n = attention.shape[-1]
    assert np.isfinite(attention).all() and np.all(attention >= 0)
    np.testing.assert_allclose(attention.sum(axis=-1), 1.0, rtol=0, atol=TOLERANCE)
    above = np.triu(np.ones((n, n), dtype=bool), k=1)
    assert np.all(attention[..., above] == 0.0)


def test_smollm2_predicts_sensible_next_tokens(smollm2):
    run = smollm2.run("The capital of France is")
    probabilities = [p for _, p in run.next_tokens]
    assert len(run.next_tokens) == NEXT_TOKEN_COUNT
    assert probabilities == sorted(probabilities, reverse=True)
    assert all(0 < p <= 1 for p in probabilities) and sum(probabilities) <= 1 + 1e-9
    assert run.next_tokens[0][0] == " Paris", run.next_tokens
