"""The logit lens: the stream after each layer, at one position, through the final norm and the unembedding.
After "The capital of France is", SmolLM2's " Paris" rises into the likeliest tokens before the last layer and
tops it; the columns are transformers' hidden states through model.norm and lm_head."""

import numpy as np
import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.llama import LlamaModel

from tests.support.tiny_llama import write_tiny_llama

SENTENCE = "The cat sat on the mat because it was tired"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "tiny.gguf"
    write_tiny_llama(path, layer_count=3, head_count=4, kv_head_count=2)
    return LlamaModel.load(path)


def test_the_lens_has_a_column_per_layer_and_its_last_is_the_prediction(tiny):
    run = tiny.run(SENTENCE)
    lens = tiny.logit_lens(run, len(run.token_ids) - 1)
    assert len(lens) == 3 and all(len(layer) == 5 for layer in lens)
    assert lens[-1] == run.next_tokens  # the last layer's stream through the final norm is the model's guess
    for layer in lens:
        probabilities = [p for _, p in layer]
        assert probabilities == sorted(probabilities, reverse=True) and 0 < sum(probabilities) <= 1 + 1e-9
    assert len(tiny.logit_lens(run, 0, count=2)[0]) == 2


def test_the_lens_of_an_earlier_position_is_that_position_s_guess(tiny):
    short = tiny.run("The cat sat")
    longer = tiny.run("The cat sat on the mat")
    position = len(short.token_ids) - 1
    assert tiny.logit_lens(longer, position)[-1] == short.next_tokens


@pytest.mark.parametrize("position", [-1, 19, 400])
def test_a_position_out_of_range_is_refused_in_one_line(tiny, position):
    run = tiny.run(SENTENCE)
    with pytest.raises(ValueError) as refused:
        tiny.logit_lens(run, position)
    assert str(refused.value) == f"position {position} is out of range: the sentence has positions 0 to 18"


# ----- SmolLM2 (the optional pack) -------------------------------------------------------------------------------
def test_smollm2_s_paris_appears_before_the_last_layer_and_tops_it(smollm2):
    run = smollm2.run("The capital of France is")
    lens = smollm2.logit_lens(run, len(run.token_ids) - 1)
    assert len(lens) == 30
    first = min(layer for layer, column in enumerate(lens) if " Paris" in [token for token, _ in column])
    assert first < 29
    assert lens[29][0][0] == " Paris" and lens[29] == run.next_tokens
    assert lens[0][0][0] != " Paris"  # the embedding's stream alone does not know it


@pytest.mark.slow
def test_smollm2_s_lens_is_transformers_hidden_states_through_the_final_norm_and_lm_head(smollm2):
    import torch

    from tests.support.smollm2_reference import smollm2_reference_model

    reference = smollm2_reference_model(smollm2.path)
    sentence = "The capital of France is"
    run = smollm2.run(sentence)
    with torch.no_grad():
        states = reference(torch.tensor([run.token_ids]), output_hidden_states=True, use_cache=False).hidden_states
        # states[0] is the embedding, states[l + 1] the stream after layer l; the last is already normed
        logits = [reference.lm_head(reference.model.norm(state[0])) for state in states[1:-1]]
        logits.append(reference.lm_head(states[-1][0]))
    for position in (2, len(run.token_ids) - 1):
        lens = smollm2.logit_lens(run, position)
        for layer, column in enumerate(lens):
            row = logits[layer][position].numpy()
            expected = np.exp(row - row.max()) / np.exp(row - row.max()).sum()
            best = np.argsort(-expected, kind="stable")[:5]
            assert [token for token, _ in column] == [smollm2.tokenizer.text_of(int(t)) for t in best], layer
            np.testing.assert_allclose([p for _, p in column], expected[best], rtol=0, atol=1e-4)
