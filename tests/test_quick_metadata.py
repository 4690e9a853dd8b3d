"""A first load reads the metadata quickly (struct) and leaves the reader only the tensors: the very entries,
tensors and numbers the reader gives reading entry by entry; a file the quick reading refuses is read the
slow way, which says what is wrong with it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained import gguf_metadata, quick_metadata
from attn_desktop.model.pretrained.gguf_file import (
    LAYOUT_SHARE,
    QUICK_LAYOUT_SHARE,
    ModelFileError,
    _metadata,
    _open_reader,
    _reader_and_metadata,
    plain_array_reader,
)
from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE, LlamaModel
from attn_desktop.model.pretrained.pack import ModelUnavailable, find_pack_model

from tests.support.tiny_llama import write_tiny_llama


def model_files(tmp_path):
    for weight_type, tied in (("F32", True), ("Q4_1", False), ("Q8_0", True)):
        path = tmp_path / f"tiny-{weight_type}.gguf"
        write_tiny_llama(path, weight_type=weight_type, tied_embeddings=tied, width=64, ffn_width=96)
        yield path
    try:
        yield find_pack_model()
    except ModelUnavailable:  # without the pack: the tiny files alone
        pass


def test_the_quick_reading_gives_the_readers_own_entries_and_tensors(tmp_path):
    for path in model_files(tmp_path):
        quick, metadata, share = _reader_and_metadata(path, path.name, None)
        slow = _open_reader(path, path.name)
        assert share == QUICK_LAYOUT_SHARE and type(quick).__name__ == "SkimmingReader"
        assert list(metadata.items()) == list(_metadata(slow, path.name).items())  # the same order too
        assert (quick.alignment, quick.data_offset) == (slow.alignment, slow.data_offset)
        assert [(t.name, t.tensor_type, t.data.shape) for t in quick.tensors] == [
            (t.name, t.tensor_type, t.data.shape) for t in slow.tensors]
        assert all(np.array_equal(a.data, b.data) for a, b in zip(quick.tensors, slow.tensors, strict=True))


def test_a_file_the_quick_reading_refuses_is_read_entry_by_entry_to_the_same_model(tmp_path, monkeypatch):
    path = tmp_path / "tiny.gguf"
    write_tiny_llama(path, seed=3)
    expected = LlamaModel.load(path).run(DEFAULT_SENTENCE)

    def refused(*_args):
        raise ValueError("not a file this reader knows")

    monkeypatch.setattr(gguf_metadata, "read_entries", refused)
    monkeypatch.setattr(quick_metadata, "read_entries", refused)
    assert _reader_and_metadata(path, path.name, None)[2] == LAYOUT_SHARE  # read entry by entry
    again = LlamaModel.load(path).run(DEFAULT_SENTENCE)
    assert again.tokens == expected.tokens and again.next_tokens == expected.next_tokens
    np.testing.assert_array_equal(again.attention, expected.attention)


def test_a_key_written_twice_is_refused_as_the_reader_refuses_it(tmp_path):
    """Read quickly the second value would quietly win; the reader refuses the file, in one line."""
    path = tmp_path / "twice.gguf"
    write_tiny_llama(path)
    data = Path(path).read_bytes()
    assert len(b"tokenizer.ggml.model") == len(b"general.architecture")
    path.write_bytes(data.replace(b"tokenizer.ggml.model", b"general.architecture", 1))
    assert quick_metadata.quick_reader_and_metadata(path, plain_array_reader()) is None
    with pytest.raises(ModelFileError, match="twice.gguf: a damaged or truncated GGUF file .*general.architecture"):
        LlamaModel.load(path)
