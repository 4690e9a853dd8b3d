"""Step-by-step generation with the key-value cache: a step computes only the new token, reuses every earlier
token's keys and values, and gives the very same numbers (to the last bit) as the longer sentence computed
whole; the multiply-adds it counts are a hand count's."""

import itertools

import numpy as np
import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.generation import ROWS, multiply_adds, rows_times
from attn_desktop.model.pretrained.gguf_config import LlamaConfig
from attn_desktop.model.pretrained.llama import LlamaModel

from tests.support.tiny_llama import write_tiny_llama

SENTENCE = "The cat sat on the mat because it was tired"  # 19 tokens of the tiny vocabulary

SMOLLM2 = LlamaConfig(name="SmolLM2-135M", layer_count=30, head_count=9, kv_head_count=3, width=576, head_width=64,
                      ffn_width=1536, vocab_size=49152, rope_base=100000.0, rms_epsilon=1e-5, context_length=8192)


def test_a_step_at_a_30_token_context_counts_as_by_hand():
    # per token and layer: q, k, v 576 x (576 + 2 x 192) = 552,960; output 576 x 576 = 331,776;
    # MLP gate, up and down 3 x 576 x 1536 = 2,654,208: 3,538,944 in all.
    # The new token (position 30) reads 31 keys: 9 heads x 64 x 31 for its scores, as many for the mix: 35,712.
    # 30 layers x (3,538,944 + 35,712) = 107,239,680, and the unembedding 576 x 49,152 = 28,311,552.
    assert multiply_adds(SMOLLM2, 30, 1) == 107_239_680 + 28_311_552
    # Without the cache all 31 tokens: 31 x 3,538,944 = 109,707,264 and 9 x 64 x 2 x (1 + 2 + ... + 31 = 496)
    # = 571,392 per layer; 30 x 110,278,656 = 3,308,359,680, and one unembedding.
    assert multiply_adds(SMOLLM2, 0, 31) == 3_308_359_680 + 28_311_552


def test_recomputing_from_a_later_layer_counts_only_those_layers():
    assert multiply_adds(SMOLLM2, 0, 12, layers=20) - 28_311_552 == 20 * (
        12 * 3_538_944 + 2 * 9 * 64 * (12 * 13 // 2))
    assert multiply_adds(SMOLLM2, 5, 0) == 0


def test_a_row_of_a_projection_comes_out_the_same_whatever_else_is_computed_with_it():
    rng = np.random.default_rng(0)
    matrix = rng.normal(size=(300, 96)).astype(np.float32)
    rows = rng.normal(size=(37, 96)).astype(np.float32)
    whole = rows_times(rows, matrix)
    np.testing.assert_allclose(whole, rows @ matrix.T, rtol=1e-5, atol=1e-4)  # the product it stands for
    for first in (0, 5, ROWS, 36):
        np.testing.assert_array_equal(rows_times(rows[first:], matrix), whole[first:])
        np.testing.assert_array_equal(rows_times(rows[first : first + 1], matrix), whole[first : first + 1])


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "tiny.gguf"
    write_tiny_llama(path, layer_count=3, head_count=4, kv_head_count=2)
    return LlamaModel.load(path)


@pytest.mark.parametrize("shape", [(3072, 576), (576, 1536), (960, 576), (100, 64)])
def test_a_matrix_taken_a_piece_at_a_time_gives_each_row_the_bits_of_the_whole_matrix(shape):
    """SmolLM2's projections (gate and up, down, q k v) and one smaller than a piece: every number of a pass
    (its rows through the matrix a piece at a time) the same as a generation step's row alone, and as one
    matrix-vector product per row through the whole matrix (what the model computed before the pieces)."""
    rng = np.random.default_rng(1)
    matrix = rng.normal(size=shape).astype(np.float32)
    rows = rng.normal(size=(19, shape[1])).astype(np.float32)
    whole_pass = rows_times(rows, matrix)
    for index, row in enumerate(rows):
        np.testing.assert_array_equal(rows_times(row[None], matrix)[0], whole_pass[index])
    np.testing.assert_array_equal(whole_pass, np.matmul(rows[:, None, :], matrix.T)[:, 0])


def assert_same_run(step, whole):
    assert step.token_ids == whole.token_ids
    for part in ("attention", "queries", "keys", "values", "residuals", "unturned_queries", "unturned_keys"):
        np.testing.assert_array_equal(getattr(step, part), getattr(whole, part), err_msg=part)
    np.testing.assert_array_equal(step.next_scores.logits, whole.next_scores.logits)
    assert step.next_tokens == whole.next_tokens


def generate(model, run, steps):
    runs = [run]
    for _ in range(steps):
        runs.append(model.extend(runs[-1], runs[-1].next_scores.top_ids[0]))
    return runs


def test_each_step_computes_only_the_new_token_and_equals_the_longer_sentence_computed_whole(tiny):
    runs = generate(tiny, tiny.run(SENTENCE), 9)  # 19 to 28 tokens: across the blocks of 8 rows at 24
    for before, step in itertools.pairwise(runs):
        n = len(before.token_ids)
        assert step.token_ids == before.token_ids + [before.next_scores.top_ids[0]]
        assert step.sentence == before.sentence + step.tokens[-1]
        assert step.reused_tokens == n
        assert step.multiply_adds == multiply_adds(tiny.config, n, 1)
        assert step.multiply_adds_without_cache == multiply_adds(tiny.config, 0, n + 1)
        assert_same_run(step, tiny.run_without_cache(step.token_ids))


def test_a_step_keeps_the_heads_knocked_out(tiny):
    knocked = tiny.run(SENTENCE, {(1, 2), (2, 0)})
    step = tiny.extend(knocked, 5)
    assert step.knocked_out == {(1, 2), (2, 0)} and step.reused_tokens == len(knocked.token_ids)
    assert_same_run(step, tiny.run_without_cache(step.token_ids, {(1, 2), (2, 0)}))


def test_a_step_from_a_run_the_model_has_forgotten_still_computes_only_the_new_token(tiny):
    run = tiny.run("The cat sat")
    for word in ("on", "the mat", "because", "it was", "tired", "The dog", "A cat", "it sat", "the"):
        tiny.run(word)  # more sentences than the model remembers
    step = tiny.extend(run, run.token_ids[1])
    assert step.reused_tokens == len(run.token_ids)
    assert_same_run(step, tiny.run_without_cache(step.token_ids))


def test_a_token_the_model_does_not_have_is_refused(tiny):
    from attn_desktop.model.pretrained.llama import SentenceError

    run = tiny.run("The cat")
    with pytest.raises(SentenceError, match="token ids must be from 0 to"):
        tiny.extend(run, 10**6)


# ----- SmolLM2 (the optional pack) -------------------------------------------------------------------------------
def test_smollm2_generating_with_the_cache_gives_the_logits_of_the_whole_sentence(smollm2):
    runs = generate(smollm2, smollm2.run("The capital of France is"), 4)
    assert "".join(run.tokens[-1] for run in runs[1:]).startswith(" Paris")
    for step in runs[1:]:
        whole = smollm2.run_without_cache(step.token_ids)
        # the tolerance asked is 1e-9; the blocks of rows make it exactly 0
        np.testing.assert_allclose(step.next_scores.logits, whole.next_scores.logits, rtol=0, atol=1e-9)
        np.testing.assert_array_equal(step.next_scores.logits, whole.next_scores.logits)
        np.testing.assert_array_equal(step.residuals, whole.residuals)
        assert step.multiply_adds * 3 < step.multiply_adds_without_cache


def test_remembered_runs_stay_within_their_byte_budget_and_a_step_still_reads_the_last(tmp_path, monkeypatch):
    from attn_desktop.model.pretrained import llama
    from attn_desktop.model.pretrained.forward_pass import pass_bytes

    path = tmp_path / "tiny.gguf"
    write_tiny_llama(path, layer_count=2, head_count=4, kv_head_count=2)
    model = LlamaModel.load(path)
    sentences = ("A dog ran in the park", "My sister sang a song", "My dog ran to a song")  # 17 tokens each here
    model.run(sentences[0])
    one_pass = pass_bytes(next(reversed(model._recent.values())))
    monkeypatch.setattr(llama, "REMEMBERED_BYTES", int(2.5 * one_pass))  # two passes of this length
    for sentence in sentences:
        model.run(sentence)
    assert sum(map(pass_bytes, model._recent.values())) <= llama.REMEMBERED_BYTES
    assert len(model._recent) < 3  # the oldest forgotten
    run = model.run(sentences[-1])
    step = model.extend(run, run.next_scores.top_ids[0])
    assert step.reused_tokens == len(run.token_ids)  # the last run is kept: the step reads its keys and values
    whole = model.run_without_cache(step.token_ids)
    assert np.array_equal(step.next_scores.logits, whole.next_scores.logits)
