"""A sentence's tokens in the tiny vocabulary, as SmolLM2's tokenizer splits them (digits one by one, no BOS)."""

from __future__ import annotations

import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE

from tests.support.llama_reference import SENTENCES, reference_tokenizer
from tests.support.tiny_llama import DEFAULT_SENTENCE_TOKENS


def test_the_default_sentence_splits_into_the_vocabularys_tokens(default_tiny):
    app, _ = default_tiny
    assert app.tokenize(DEFAULT_SENTENCE) == DEFAULT_SENTENCE_TOKENS
    assert app.run(DEFAULT_SENTENCE).tokens == DEFAULT_SENTENCE_TOKENS


def test_digits_are_split_one_by_one_as_the_smollm_pre_tokenizer_does(default_tiny):
    """The vocabulary has "20" and a merge for it; SmolLM2's pre-tokenizer cuts digits apart first."""
    app, _ = default_tiny
    assert app.tokenize("in 2024") == ["in", " ", "2", "0", "2", "4"]


@pytest.mark.parametrize("sentence", [*SENTENCES, "  two  spaces ", "tab\there", "new\nline", "it's 'quoted'"])
def test_token_ids_equal_a_hugging_face_tokenizer_with_the_same_vocabulary(default_tiny, sentence):
    app, _ = default_tiny
    expected = reference_tokenizer().encode(sentence)
    run = app.run(sentence)
    assert run.token_ids == expected.ids
    assert "".join(run.tokens) == sentence  # ASCII: every token is whole characters


def test_the_first_token_is_the_sentences_own_no_bos_added(default_tiny):
    """SmolLM2's file says add_bos_token = false; the model sees just the sentence."""
    app, info = default_tiny
    assert app.run("The cat").token_ids[0] != info["bos_id"]
    assert app.tokenize("The cat") == ["The", " cat"]


