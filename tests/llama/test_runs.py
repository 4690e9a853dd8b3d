"""What any run holds (shapes, rows that sum to one, the causal mask, the next tokens) and how a load reports
progress; no torch needed."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained import quick_metadata
from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE, LlamaModel
from attn_desktop.model.pretrained.run import NEXT_TOKEN_COUNT

from tests.support.llama_reference import SENTENCES, TOLERANCE, softmax
from tests.support.tiny_llama import write_tiny_llama


def test_a_run_has_every_heads_arrays_in_the_documented_shapes(tiny):
    app, info = tiny
    run = app.run(DEFAULT_SENTENCE)
    n, layers, heads, width = len(run.tokens), info["layer_count"], info["head_count"], info["head_width"]
    assert (run.layer_count, run.head_count, run.head_width) == (layers, heads, width)
    assert run.attention.shape == (layers, heads, n, n)
    for array in (run.queries, run.keys, run.values):
        assert array.shape == (layers, heads, n, width)
    assert run.kv_group_size == heads // info["kv_head_count"]
    assert [run.kv_head_of(head) for head in range(heads)] == [head // run.kv_group_size for head in range(heads)]
    # Heads sharing a key/value head hold the same keys and values.
    for head in range(heads):
        first_of_group = run.kv_head_of(head) * run.kv_group_size
        np.testing.assert_array_equal(run.keys[:, head], run.keys[:, first_of_group])
        np.testing.assert_array_equal(run.values[:, head], run.values[:, first_of_group])
    assert run.model_name == info["name"] == app.name
    assert run.sentence == DEFAULT_SENTENCE


def test_the_config_is_what_the_file_says(tiny):
    app, info = tiny
    c = app.config
    assert (c.layer_count, c.head_count, c.kv_head_count, c.width, c.head_width, c.ffn_width) == (
        info["layer_count"], info["head_count"], info["kv_head_count"], info["width"], info["head_width"], info["ffn_width"]
    )
    assert (c.vocab_size, c.context_length) == (info["vocab_size"], info["context_length"])
    assert c.rope_base == pytest.approx(info["rope_base"]) and c.rms_epsilon == pytest.approx(info["rms_epsilon"])
    assert app.memory_bytes >= sum(array.nbytes for array in info["weights"].values())


@pytest.mark.parametrize("sentence", SENTENCES)
def test_rows_sum_to_one_and_nothing_attends_to_a_later_token(default_tiny, sentence):
    app, _ = default_tiny
    attention = app.run(sentence).attention
    n = attention.shape[-1]
    np.testing.assert_allclose(attention.sum(axis=-1), 1.0, rtol=0, atol=TOLERANCE)
    assert np.all(attention >= 0)
    assert np.all(attention[..., np.triu(np.ones((n, n), dtype=bool), k=1)] == 0.0)
    assert np.all(attention[..., 0, 0] == pytest.approx(1.0))  # the first token can only see itself


def test_the_weights_are_softmax_of_the_runs_own_queries_and_keys(default_tiny):
    """What a head opened as a scene recomputes: softmax(q·k / √d) with the causal mask."""
    app, _ = default_tiny
    run = app.run(DEFAULT_SENTENCE)
    n = len(run.tokens)
    scores = run.queries.astype(np.float64) @ np.swapaxes(run.keys.astype(np.float64), -1, -2) / math.sqrt(run.head_width)
    scores = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    np.testing.assert_allclose(run.attention, weights / weights.sum(axis=-1, keepdims=True), rtol=0, atol=TOLERANCE)


def test_next_tokens_are_the_likeliest_in_descending_order(default_tiny):
    app, _ = default_tiny
    run = app.run(DEFAULT_SENTENCE)
    probabilities = [p for _, p in run.next_tokens]
    assert len(run.next_tokens) == NEXT_TOKEN_COUNT
    assert probabilities == sorted(probabilities, reverse=True)
    assert all(0 < p <= 1 for p in probabilities) and sum(probabilities) <= 1 + 1e-9
    np.testing.assert_allclose(
        probabilities, np.sort(softmax(app.all_logits(DEFAULT_SENTENCE)[-1].astype(np.float64)))[::-1][:NEXT_TOKEN_COUNT],
        rtol=0, atol=TOLERANCE,
    )


def test_the_same_sentence_gives_the_same_numbers(tmp_path):
    """Two loads of one file, and a sentence run before and after others, give identical runs."""
    write_tiny_llama(tmp_path / "tiny.gguf", seed=11)
    first, second = LlamaModel.load(tmp_path / "tiny.gguf"), LlamaModel.load(tmp_path / "tiny.gguf")
    before = first.run(DEFAULT_SENTENCE)
    second.run("The cat sat on the mat")  # leaves a shared start to reuse
    second.run("was it")
    after = second.run(DEFAULT_SENTENCE)
    again = first.run(DEFAULT_SENTENCE)
    for name in ("attention", "queries", "keys", "values"):
        np.testing.assert_array_equal(getattr(again, name), getattr(before, name), err_msg=name)
        np.testing.assert_allclose(getattr(after, name), getattr(before, name), rtol=0, atol=TOLERANCE, err_msg=name)
    assert [t for t, _ in after.next_tokens] == [t for t, _ in before.next_tokens]


def test_the_same_seed_writes_the_same_model(tmp_path):
    one = write_tiny_llama(tmp_path / "one.gguf", seed=3)
    write_tiny_llama(tmp_path / "two.gguf", seed=3)
    other = write_tiny_llama(tmp_path / "other.gguf", seed=4)
    assert (tmp_path / "one.gguf").read_bytes() == (tmp_path / "two.gguf").read_bytes()
    assert not np.array_equal(one["weights"]["model.embed_tokens.weight"], other["weights"]["model.embed_tokens.weight"])
    a, b = (LlamaModel.load(tmp_path / name).run(DEFAULT_SENTENCE) for name in ("one.gguf", "other.gguf"))
    assert not np.allclose(a.attention, b.attention)


def test_loading_reports_progress_up_to_done(tmp_path):
    write_tiny_llama(tmp_path / "tiny.gguf")
    reports: list[tuple[float, str]] = []
    LlamaModel.load(tmp_path / "tiny.gguf", progress=lambda fraction, text: reports.append((fraction, text)))
    fractions = [fraction for fraction, _ in reports]
    assert fractions and fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)
    assert all(0 <= fraction <= 1 and text for fraction, text in reports)


def test_reading_the_vocabulary_and_layout_entry_by_entry_reports_how_far_it_has_read(tmp_path, monkeypatch):
    """A file read by llama.cpp's reader entry by entry (one the quick reading refuses: another byte order, a
    key twice): SmolLM2's vocabulary took six of its ten seconds so, before any weight: the bar moves meanwhile."""
    monkeypatch.setattr(quick_metadata, "quick_reader_and_metadata", lambda _path, _reader: None)
    write_tiny_llama(tmp_path / "tiny.gguf")
    reports: list[tuple[float, str]] = []
    LlamaModel.load(tmp_path / "tiny.gguf", progress=lambda fraction, text: reports.append((fraction, text)))
    first_weight = next(i for i, (_, text) in enumerate(reports) if text.startswith("Reading weights"))
    layout = reports[:first_weight]
    assert {text for _, text in layout} == {"Reading the vocabulary and the layers' layout"}
    fractions = [fraction for fraction, _ in layout]
    assert len(fractions) >= 20  # about each 1 % of the metadata read, in step
    assert fractions == sorted(fractions) and fractions[0] == 0.0
    assert 0.45 <= fractions[-1] <= 0.55  # six tenths of reading, which is nine tenths of a load


def test_the_vocabulary_and_layout_read_quickly_are_a_tenth_of_the_bar_then_the_weights_move_it(tmp_path):
    write_tiny_llama(tmp_path / "tiny.gguf")
    reports: list[tuple[float, str]] = []
    LlamaModel.load(tmp_path / "tiny.gguf", progress=lambda fraction, text: reports.append((fraction, text)))
    first_weight = next(i for i, (_, text) in enumerate(reports) if text.startswith("Reading weights"))
    assert reports[:first_weight] == [(0.0, "Reading the vocabulary and the layers' layout")]
    weights = [fraction for fraction, text in reports if text.startswith("Reading weights")]
    assert len(weights) >= 10 and weights == sorted(weights)
    assert 0.09 <= weights[0] <= 0.2  # each tensor's share of nine tenths of a load, after a tenth of reading


def test_a_report_that_stops_the_load_while_the_vocabulary_is_read_stops_it_as_it_is(tmp_path, monkeypatch):
    """Read entry by entry (see above): the report's own exception comes through the reader's handling of damage."""
    monkeypatch.setattr(quick_metadata, "quick_reader_and_metadata", lambda _path, _reader: None)

    class Stopped(Exception):
        pass

    def stop_halfway(fraction, _text):
        if fraction > 0.2:
            raise Stopped  # as the window's worker stops a load when the app quits

    write_tiny_llama(tmp_path / "tiny.gguf")
    with pytest.raises(Stopped):
        LlamaModel.load(tmp_path / "tiny.gguf", progress=stop_halfway)


def test_the_metadata_span_ends_where_the_tensors_are_described(tmp_path):
    from gguf import GGUFReader

    from attn_desktop.model.pretrained.gguf_file import _metadata_span

    write_tiny_llama(tmp_path / "tiny.gguf")
    assert _metadata_span(tmp_path / "tiny.gguf") == (24, GGUFReader(str(tmp_path / "tiny.gguf")).tensors[0].field.offset)
    (tmp_path / "cut.gguf").write_bytes((tmp_path / "tiny.gguf").read_bytes()[:2000])
    assert _metadata_span(tmp_path / "cut.gguf") is None  # the reader then says it is damaged; no progress from here


