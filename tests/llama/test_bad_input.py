"""Sentences and files the forward pass refuses, each in one line naming what is wrong (no torch needed)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.llama import MAX_SENTENCE_TOKENS, LlamaModel, ModelFileError, SentenceError

from tests.support.tiny_llama import vocabulary, write_tiny_llama


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


