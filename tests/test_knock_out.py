"""Knocking heads out: a head's output zeroed before its layer's output projection. Knocking none out is the
intact run; restoring gives its numbers back exactly; only the layers from the first knocked one are
recomputed, to the very numbers a whole pass with the heads knocked out gives; SmolLM2's knocked-out
prediction is transformers' with the same heads zeroed at the input of o_proj."""

import numpy as np
import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.generation import multiply_adds
from attn_desktop.model.pretrained.llama import HeadError, LlamaModel

from tests.support.tiny_llama import write_tiny_llama

SENTENCE = "The cat sat on the mat because it was tired"
PARTS = ("attention", "queries", "keys", "values", "residuals", "unturned_queries", "unturned_keys")


def assert_same_numbers(run, other):
    for part in PARTS:
        np.testing.assert_array_equal(getattr(run, part), getattr(other, part), err_msg=part)
    np.testing.assert_array_equal(run.next_scores.logits, other.next_scores.logits)
    assert run.next_tokens == other.next_tokens


@pytest.fixture(scope="module")
def tiny_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "tiny.gguf"
    write_tiny_llama(path, layer_count=3, head_count=4, kv_head_count=2)
    return path


@pytest.fixture
def tiny(tiny_path):
    return LlamaModel.load(tiny_path)


def test_knocking_out_no_head_is_the_intact_run(tiny, tiny_path):
    intact = LlamaModel.load(tiny_path).run(SENTENCE)
    none = tiny.run(SENTENCE, frozenset())
    assert none.knocked_out == frozenset()
    assert_same_numbers(none, intact)


def test_the_layers_before_the_knocked_head_are_the_intact_ones_and_the_rest_a_whole_pass_without_it(tiny):
    intact = tiny.run(SENTENCE)
    knocked = tiny.run(SENTENCE, {(1, 3)})
    assert knocked.knocked_out == {(1, 3)}
    np.testing.assert_array_equal(knocked.attention[:2], intact.attention[:2])  # layer 1's weights: its input is intact
    assert not np.array_equal(knocked.residuals[1], intact.residuals[1])  # ... its output is not
    assert not np.allclose(knocked.attention[2], intact.attention[2])  # layer 2 reads another stream
    assert knocked.reused_tokens == 0
    assert knocked.multiply_adds == multiply_adds(tiny.config, 0, 19, layers=2)  # layers 1 and 2 recomputed
    assert_same_numbers(knocked, tiny.run_without_cache(knocked.token_ids, {(1, 3)}))


def test_restoring_the_heads_gives_the_intact_numbers_back_exactly(tiny, tiny_path):
    intact = tiny.run(SENTENCE)
    tiny.run(SENTENCE, {(0, 1), (2, 2)})
    assert_same_numbers(tiny.run(SENTENCE), intact)
    for word in ("on", "the mat", "because", "it was", "tired", "The dog", "A cat", "it sat", "the"):
        tiny.run(word, {(0, 1)})  # more runs than the model remembers: the intact one is computed again
    assert_same_numbers(tiny.run(SENTENCE), intact)


def test_knocking_out_every_head_of_a_layer_changes_the_prediction(tiny):
    intact = tiny.run(SENTENCE)
    silent = tiny.run(SENTENCE, {(0, head) for head in range(4)})
    assert np.abs(silent.next_scores.probabilities() - intact.next_scores.probabilities()).max() > 1e-3


@pytest.mark.parametrize("knocked, message", [
    ({(3, 0)}, "tiny-llama has layers 0 to 2; there is no layer 3"),
    ({(0, 4)}, "tiny-llama has heads 0 to 3 in each layer; there is no head 4"),
    ({(-1, 0)}, "tiny-llama has layers 0 to 2; there is no layer -1"),
    ({(1.5, 0)}, "a head is a layer and a head numbered from 0, not (1.5, 0)"),
])
def test_a_head_the_model_does_not_have_is_refused_in_one_line(tiny, knocked, message):
    with pytest.raises(HeadError) as refused:
        tiny.run(SENTENCE, knocked)
    assert str(refused.value) == message


# ----- SmolLM2 (the optional pack) -------------------------------------------------------------------------------
TWELVE_TOKENS = "The cat sat on the mat because it was tired and hungry"
KNOCKED = {(3, 2), (10, 3), (23, 5)}


def test_smollm2_names_its_30_layers_and_9_heads_when_refusing(smollm2):
    with pytest.raises(HeadError) as no_layer:
        smollm2.run(TWELVE_TOKENS, {(31, 0)})
    assert str(no_layer.value) == f"{smollm2.name} has layers 0 to 29; there is no layer 31"
    with pytest.raises(HeadError) as no_head:
        smollm2.run(TWELVE_TOKENS, {(2, 9)})
    assert str(no_head.value) == f"{smollm2.name} has heads 0 to 8 in each layer; there is no head 9"


def test_smollm2_knocking_out_a_layer_s_heads_changes_the_prediction_and_restoring_brings_it_back(smollm2):
    sentence = "The capital of France is"
    intact = smollm2.run(sentence)
    assert intact.next_tokens[0][0] == " Paris"
    assert smollm2.run(sentence, {(23, head) for head in range(9)}).next_tokens[0][0] == " New"
    assert smollm2.run(sentence, {(0, head) for head in range(9)}).next_tokens[0][0] == " the"
    assert_same_numbers(smollm2.run(sentence), intact)
    assert_same_numbers(smollm2.run(sentence, set()), intact)


@pytest.mark.slow
def test_smollm2_knocked_out_heads_predict_as_transformers_with_those_heads_zeroed_before_o_proj(smollm2):
    import torch

    from tests.support.smollm2_reference import smollm2_reference_model

    reference = smollm2_reference_model(smollm2.path)
    ids = smollm2.token_ids(TWELVE_TOKENS)
    assert len(ids) == 12
    head_width = smollm2.config.head_width

    def zero_heads(heads):
        def hook(_module, inputs):
            mixed = inputs[0].clone()
            for head in heads:
                mixed[..., head * head_width : (head + 1) * head_width] = 0.0
            return (mixed,)
        return hook

    hooks = [reference.model.layers[layer].self_attn.o_proj.register_forward_pre_hook(
        zero_heads([head for knocked_layer, head in KNOCKED if knocked_layer == layer]))
        for layer in sorted({layer for layer, _ in KNOCKED})]
    try:
        with torch.no_grad():
            logits = reference(torch.tensor([ids]), use_cache=False).logits[0, -1].numpy()
    finally:
        for hook in hooks:
            hook.remove()
    expected = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    run = smollm2.run(TWELVE_TOKENS, KNOCKED)
    top = run.next_scores.top(1.0, 5)
    np.testing.assert_allclose([p for _, p in top], expected[list(run.next_scores.top_ids[:5])], rtol=0, atol=1e-4)
    assert [p for _, p in top] == [p for _, p in run.next_tokens]
    intact = smollm2.run(TWELVE_TOKENS).next_scores.probabilities()
    assert np.abs(intact - expected).max() > 1e-3  # the heads matter: the check could tell them apart
