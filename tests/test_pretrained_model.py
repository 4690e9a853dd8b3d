"""The NumPy LLaMA forward pass, checked against an independent implementation and on the real file.

A tiny random LLaMA-style GGUF (tests/support/tiny_llama.py, written the way llama.cpp's converter writes
one) is loaded by the app like the real SmolLM2 file. The reference is Hugging Face's
`LlamaForCausalLM` (eager attention, float64) built from the same weights in Hugging Face's own
layout, so the converter's q/k row permutation, RoPE, grouped-query attention, RMSNorm and SwiGLU
must all be right for the numbers to agree to 1e-5. `transformers` and `torch` are optional test
dependencies: those comparisons skip without them; the checks after them need neither.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.llama import (
    DEFAULT_SENTENCE,
    MAX_SENTENCE_TOKENS,
    LlamaModel,
    ModelFileError,
    SentenceError,
)
from attn_desktop.model.pretrained.pack import ModelUnavailable, find_pack_model
from attn_desktop.model.pretrained.run import NEXT_TOKEN_COUNT

from tests.support.tiny_llama import DEFAULT_SENTENCE_TOKENS, byte_level_characters, vocabulary, write_tiny_llama

TOLERANCE = 1e-5

SENTENCES = [
    DEFAULT_SENTENCE,                               # 19 tokens
    "x",                                            # one token
    "it",                                           # one token, a merged one
    "The cat sat on the mat in 2024",              # digits, each its own token
    "was it the cat? it was the mat, the mat!",    # punctuation
    "on the mat the cat sat and sat and sat on it",  # 20-odd tokens, repeats
]

# Tiny models that differ where a forward pass can go wrong: tied or separate output matrix,
# grouped (2 query heads per key/value head), plain (one each) and single-key/value-head attention,
# RoPE's base, head width, and weights stored in the real file's quantized types.
VARIANTS = {
    "tied, grouped": {"seed": 0},
    "untied, plain": {"seed": 1, "tied_embeddings": False, "kv_head_count": 4},
    "one kv head, 3 layers, base 1e5": {"seed": 2, "layer_count": 3, "kv_head_count": 1, "rope_base": 100000.0},
    "16-wide heads, untied": {"seed": 3, "width": 64, "head_count": 4, "kv_head_count": 2, "ffn_width": 96, "tied_embeddings": False},
    "stored as Q8_0": {"seed": 4, "width": 64, "head_count": 4, "kv_head_count": 2, "ffn_width": 64, "weight_type": "Q8_0"},
    "stored as Q4_1": {"seed": 5, "width": 64, "head_count": 2, "kv_head_count": 1, "ffn_width": 64, "weight_type": "Q4_1"},
}


@pytest.fixture(scope="module", params=list(VARIANTS), ids=list(VARIANTS))
def tiny(request, tmp_path_factory):
    """(the app's model, what the file holds) for each tiny variant, loaded once per module."""
    path = tmp_path_factory.mktemp("tiny") / "tiny-llama.gguf"
    info = write_tiny_llama(path, **VARIANTS[request.param])
    return LlamaModel.load(path), info


@pytest.fixture(scope="module")
def tiny_reference(tiny):
    """The transformers model for the tiny variant (built once: building it costs a third of a second)."""
    return reference_model(tiny[1])


@pytest.fixture(scope="module")
def default_tiny(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiny") / "tiny-llama.gguf"
    info = write_tiny_llama(path)
    return LlamaModel.load(path), info


# ----- the independent references ---------------------------------------------------------------------
def shown_token_text(token_id: int) -> str:
    """A token's text as the app shows it: decoded, or for a token holding only part of a character
    (which decodes to "�"), its bytes in hexadecimal, "<F0 9F>"."""
    tokenizer = reference_tokenizer()
    text = tokenizer.decode([token_id])
    if "\ufffd" not in text:
        return text
    byte_of = {character: byte for byte, character in enumerate(byte_level_characters())}
    return "<" + " ".join(f"{byte_of[character]:02X}" for character in tokenizer.id_to_token(token_id)) + ">"


def reference_tokenizer():
    """The tiny vocabulary as a Hugging Face byte-level BPE tokenizer with SmolLM2's pre-tokenizer
    (every digit alone, then GPT-2's split), as in SmolLM2's own tokenizer.json."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    tokens, _, merges = vocabulary()
    tokenizer = Tokenizer(models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=[tuple(m.split(" ")) for m in merges]))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)]
    )
    tokenizer.decoder = decoders.ByteLevel()
    return tokenizer


def reference_model(info):
    """transformers' LlamaForCausalLM (eager attention, float64) with the file's weights."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    config = transformers.LlamaConfig(
        vocab_size=info["vocab_size"],
        hidden_size=info["width"],
        intermediate_size=info["ffn_width"],
        num_hidden_layers=info["layer_count"],
        num_attention_heads=info["head_count"],
        num_key_value_heads=info["kv_head_count"],
        max_position_embeddings=info["context_length"],
        rms_norm_eps=info["rms_epsilon"],
        rope_theta=info["rope_base"],
        tie_word_embeddings=info["tied_embeddings"],
        attn_implementation="eager",
    )
    model = transformers.LlamaForCausalLM(config).to(torch.float64).eval()
    state = {name: torch.from_numpy(array.astype(np.float64)) for name, array in info["weights"].items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    assert not unexpected and set(missing) <= {"lm_head.weight"}, (missing, unexpected)
    if info["tied_embeddings"]:
        assert model.lm_head.weight.data_ptr() == model.model.embed_tokens.weight.data_ptr()
    return model


def reference_pass(model, ids):
    """Every layer's attention weights (layers, heads, n, n), the logits (n, vocab), and each layer's
    queries and keys after RoPE and values (layers, heads, n, head_width), keys/values per query head."""
    import torch
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    config = model.config
    head_width = config.hidden_size // config.num_attention_heads
    group = config.num_attention_heads // config.num_key_value_heads
    projections: dict[tuple[int, str], torch.Tensor] = {}
    hooks = []
    for index, layer in enumerate(model.model.layers):
        for part in ("q_proj", "k_proj", "v_proj"):
            def keep(_module, _inputs, output, key=(index, part)):
                projections[key] = output.detach()
            hooks.append(getattr(layer.self_attn, part).register_forward_hook(keep))
    try:
        with torch.no_grad():
            tokens = torch.tensor([ids])
            output = model(tokens, output_attentions=True, use_cache=False)
            positions = torch.arange(len(ids))[None, :]
            cos, sin = model.model.rotary_emb(model.model.embed_tokens(tokens), positions)
    finally:
        for hook in hooks:
            hook.remove()

    def heads(flat):  # (1, n, h * d) -> (h, n, d)
        return flat[0].reshape(len(ids), -1, head_width).transpose(0, 1)

    queries, keys, values = [], [], []
    for index in range(config.num_hidden_layers):
        q, k = apply_rotary_pos_emb(
            heads(projections[index, "q_proj"])[None], heads(projections[index, "k_proj"])[None], cos, sin
        )
        queries.append(q[0].numpy())
        keys.append(np.repeat(k[0].numpy(), group, axis=0))
        values.append(np.repeat(heads(projections[index, "v_proj"]).numpy(), group, axis=0))
    attention = np.stack([a[0].numpy() for a in output.attentions])
    return attention, output.logits[0].numpy(), np.stack(queries), np.stack(keys), np.stack(values)


def in_pair_order(half_ordered: np.ndarray) -> np.ndarray:
    """Hugging Face's RoPE pairs dimension i with i + d/2; llama.cpp's (after the converter's
    permutation) pairs 2i with 2i + 1. The same vector with its dimensions in llama.cpp's order."""
    half = half_ordered.shape[-1] // 2
    return np.stack([half_ordered[..., :half], half_ordered[..., half:]], axis=-1).reshape(half_ordered.shape)


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max())
    return shifted / shifted.sum()


def assert_matches_reference(app: LlamaModel, reference, sentence: str) -> None:
    ids = reference_tokenizer().encode(sentence).ids
    run = app.run(sentence)
    assert run.token_ids == ids
    attention, logits, queries, keys, values = reference_pass(reference, ids)

    assert run.attention.shape == attention.shape
    for layer in range(run.layer_count):
        np.testing.assert_allclose(
            run.attention[layer], attention[layer], rtol=0, atol=TOLERANCE, err_msg=f"attention, layer {layer}"
        )
    # Logits run to about ±10 and the app computes them in float32: to 1e-5 of their scale. The
    # probabilities they give, what a student reads, to 1e-5 outright, at every position.
    app_logits = app.all_logits(sentence)
    scale = np.abs(logits).max()
    np.testing.assert_allclose(app_logits, logits, rtol=0, atol=TOLERANCE * scale, err_msg="logits")
    for position in range(len(ids)):
        np.testing.assert_allclose(
            softmax(app_logits[position].astype(np.float64)), softmax(logits[position]), rtol=0, atol=TOLERANCE,
            err_msg=f"next-token probabilities after token {position}",
        )

    probabilities = softmax(logits[-1])
    best = np.argsort(-probabilities)[:NEXT_TOKEN_COUNT]
    assert [text for text, _ in run.next_tokens] == [shown_token_text(int(token)) for token in best]
    np.testing.assert_allclose([p for _, p in run.next_tokens], probabilities[best], rtol=0, atol=TOLERANCE)

    # q and k after RoPE, in either dimension order (each puts a RoPE pair's two numbers differently).
    for name, app_array, expected in (("queries", run.queries, queries), ("keys", run.keys, keys)):
        if not np.allclose(app_array, expected, rtol=0, atol=TOLERANCE):
            np.testing.assert_allclose(app_array, in_pair_order(expected), rtol=0, atol=TOLERANCE, err_msg=name)
    np.testing.assert_allclose(run.values, values, rtol=0, atol=TOLERANCE, err_msg="values")


# ----- against transformers -----------------------------------------------------------------------
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


# ----- tokens ------------------------------------------------------------------------------------------
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


# ----- properties of any run (no torch) -----------------------------------------------------------------
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


def test_reading_the_vocabulary_and_layout_reports_how_far_it_has_read(tmp_path):
    """SmolLM2's vocabulary takes six of its ten seconds to read, before any weight: the bar moves meanwhile."""
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


def test_a_report_that_stops_the_load_while_the_vocabulary_is_read_stops_it_as_it_is(tmp_path):
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


# ----- bad sentences and bad files (no torch) --------------------------------------------------------------
@pytest.mark.parametrize("sentence", ["", "   ", "\n\t"])
def test_an_empty_sentence_is_refused(default_tiny, sentence):
    app, _ = default_tiny
    with pytest.raises(SentenceError, match="empty"):
        app.run(sentence)
    with pytest.raises(SentenceError):
        app.tokenize(sentence)


def test_a_sentence_over_the_token_limit_is_refused_and_one_at_the_limit_runs(default_tiny):
    app, _ = default_tiny
    assert len(app.tokenize("x" * MAX_SENTENCE_TOKENS)) == MAX_SENTENCE_TOKENS  # no merges: one token a letter
    run = app.run("x" * MAX_SENTENCE_TOKENS)
    assert run.attention.shape[-1] == MAX_SENTENCE_TOKENS
    with pytest.raises(SentenceError, match=str(MAX_SENTENCE_TOKENS)):
        app.run("x" * (MAX_SENTENCE_TOKENS + 1))
    with pytest.raises(SentenceError):
        app.tokenize("x" * (MAX_SENTENCE_TOKENS + 1))


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(ModelFileError, match="nothing-here.gguf"):
        LlamaModel.load(tmp_path / "nothing-here.gguf")


def test_a_file_that_is_not_gguf_says_so(tmp_path):
    path = tmp_path / "notes.gguf"
    path.write_text("These are my notes, not a model.\n" * 10)
    with pytest.raises(ModelFileError, match="notes.gguf") as error:
        LlamaModel.load(path)
    assert "GGUF" in str(error.value) and "\n" not in str(error.value)


def write_other_architecture(path, architecture: str) -> None:
    """A small GGUF of another architecture, with its own keys, the way the converter would write it."""
    import gguf

    tokens, token_types, merges = vocabulary()
    writer = gguf.GGUFWriter(str(path), architecture)
    writer.add_name(f"tiny-{architecture}")
    writer.add_block_count(1)
    writer.add_context_length(64)
    writer.add_embedding_length(32)
    writer.add_feed_forward_length(48)
    writer.add_head_count(4)
    writer.add_layer_norm_rms_eps(1e-6)
    writer.add_tokenizer_model("gpt2")
    writer.add_token_list(tokens)
    writer.add_token_types(token_types)
    writer.add_token_merges(merges)
    writer.add_tensor("token_embd.weight", np.ones((len(tokens), 32), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


@pytest.mark.parametrize("architecture", ["qwen2", "gpt2"])
def test_another_architecture_is_named(tmp_path, architecture):
    path = tmp_path / f"{architecture}.gguf"
    write_other_architecture(path, architecture)
    with pytest.raises(ModelFileError, match=architecture) as error:
        LlamaModel.load(path)
    assert f"{architecture}.gguf" in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("kept", [4, 10, 24, 200, 0.5, -4, -1])
def test_a_truncated_file_is_a_clear_error(tmp_path, kept):
    """Cut inside the header, the metadata, the tensor table and the weights (a partial download)."""
    whole = tmp_path / "whole.gguf"
    write_tiny_llama(whole)
    data = whole.read_bytes()
    cut = int(len(data) * kept) if isinstance(kept, float) else kept if kept > 0 else len(data) + kept
    truncated = tmp_path / "partial.gguf"
    truncated.write_bytes(data[:cut])
    with pytest.raises(ModelFileError, match="partial.gguf") as error:
        LlamaModel.load(truncated)
    assert "\n" not in str(error.value)


def test_a_tensor_missing_from_the_file_is_named(tmp_path):
    """A LLaMA file lacking a layer's tensor (a converter that left one out)."""
    import gguf

    info = write_tiny_llama(tmp_path / "whole.gguf")
    reader = gguf.GGUFReader(str(tmp_path / "whole.gguf"))
    writer = gguf.GGUFWriter(str(tmp_path / "holed.gguf"), "llama")
    for key, field in reader.fields.items():
        if key.startswith("GGUF.") or key == "general.architecture":
            continue
        value_type = field.types[0]
        sub_type = field.types[-1] if value_type == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(key, field.contents(), value_type, sub_type=sub_type)
    for tensor in reader.tensors:
        if tensor.name != "blk.1.ffn_up.weight":
            writer.add_tensor(tensor.name, np.array(tensor.data).reshape(tuple(reversed(tensor.shape.tolist()))))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    assert info["layer_count"] == 2
    with pytest.raises(ModelFileError, match="blk.1.ffn_up.weight"):
        LlamaModel.load(tmp_path / "holed.gguf")


# ----- the real SmolLM2 file (the optional pack) -------------------------------------------------------------
@pytest.fixture(scope="module")
def smollm2():
    try:
        path = find_pack_model()
    except ModelUnavailable as missing:
        pytest.skip(str(missing))
    return LlamaModel.load(path)


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
