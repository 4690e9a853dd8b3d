"""The NumPy forward pass against transformers' LlamaForCausalLM on the same weights: every layer's attention,
q, k and v, the logits and the next tokens, to 1e-5 (skipped without torch and transformers)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE, LlamaModel

from tests.support.llama_reference import (
    SENTENCES,
    TOLERANCE,
    assert_matches_reference,
    reference_model,
    reference_pass,
    reference_tokenizer,
)
from tests.support.tiny_llama import write_tiny_llama


@pytest.mark.parametrize("sentence", SENTENCES)
def test_every_layer_and_the_logits_match_transformers(tiny, tiny_reference, sentence):
    assert_matches_reference(tiny[0], tiny_reference, sentence)


def test_sentences_that_share_a_start_match_transformers(tmp_path):
    """The app reuses an earlier sentence's keys and values for a shared start; each sentence still
    matches the reference whatever came before it."""
    info = write_tiny_llama(tmp_path / "tiny.gguf", seed=7, kv_head_count=1)
    app, reference = LlamaModel.load(tmp_path / "tiny.gguf"), reference_model(info)
    for sentence in [
        "The cat sat",
        "The cat sat on the mat",            # the start of the one before, extended
        DEFAULT_SENTENCE,                    # extended again
        "The cat was on the mat",            # shares two tokens, then differs
        "The cat sat on",                    # shorter than one remembered
        "The cat sat on the mat",            # seen before
    ]:
        assert_matches_reference(app, reference, sentence)


def test_the_reference_is_sensitive_to_the_permutation(default_tiny):
    """The comparison can fail: reading q and k without undoing the converter's row permutation
    (RoPE on the wrong pairs) changes the attention by far more than the tolerance."""
    app, info = default_tiny
    wrong = dict(info, weights=dict(info["weights"]))
    for name in wrong["weights"]:
        if name.endswith(("q_proj.weight", "k_proj.weight")):
            heads = info["head_count"] if "q_proj" in name else info["kv_head_count"]
            array = info["weights"][name]
            wrong["weights"][name] = array.reshape(heads, 2, -1, array.shape[1]).swapaxes(1, 2).reshape(array.shape)
    ids = reference_tokenizer().encode(DEFAULT_SENTENCE).ids
    attention, *_ = reference_pass(reference_model(wrong), ids)
    assert np.abs(app.run(DEFAULT_SENTENCE).attention - attention).max() > 100 * TOLERANCE


