"""The weights cache: a second load of a model file maps what the first one read, and gives the same heads.

What a user sees is checked: the same attention, queries, keys, values and next tokens as a load from the
file itself, whatever state the cache folder is in (missing, stale, damaged, unwritable). Whether the GGUF
file was read again is seen by making its reader raise.
"""

from __future__ import annotations

import os
import threading
import time

import numpy as np
import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

import gguf

from attn_desktop.model.pretrained import weights_cache
from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE, LlamaModel
from attn_desktop.model.pretrained.loading import finish_cache_writes
from attn_desktop.model.pretrained.weights_cache import KEPT_CACHES, SUFFIX, cache_folder, cache_path

from tests.support.tiny_llama import write_tiny_llama

SENTENCES = [DEFAULT_SENTENCE, "on the mat the cat sat and sat and sat on it", "x"]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("ATTN_DESKTOP_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def model_file(tmp_path):
    path = tmp_path / "models" / "tiny.gguf"
    path.parent.mkdir()
    write_tiny_llama(path, seed=7, layer_count=3, tied_embeddings=False)
    return path


def load_and_cache(path, **options):
    """LlamaModel.load(PATH) as a process makes it before it ends: the model, its cache written (a first load
    writes it on a thread of its own, after the load has returned)."""
    model = LlamaModel.load(path, **options)
    finish_cache_writes()
    return model


def heads(model):
    """What the heads of each sentence show: every array of each run, and the next tokens."""
    runs = [model.run(sentence) for sentence in SENTENCES]
    return [(run.tokens, run.attention, run.queries, run.keys, run.values, run.next_tokens) for run in runs]


def assert_same_heads(first, second):
    for (tokens, *arrays, next_tokens), (other_tokens, *other_arrays, other_next) in zip(first, second, strict=True):
        assert tokens == other_tokens and next_tokens == other_next
        for array, other in zip(arrays, other_arrays, strict=True):
            np.testing.assert_array_equal(array, other)


def uncached_heads(path, monkeypatch):
    """The heads of a load from the file itself, with the cache folder out of reach."""
    with monkeypatch.context() as patch:
        patch.setenv("ATTN_DESKTOP_CACHE_DIR", str(path.parent / "no-cache" / "x"))
        (path.parent / "no-cache").write_text("a file where the cache folder's parent should be")
        model = load_and_cache(path)
        assert not any(isinstance(array, np.memmap) for array in _arrays(model))  # really uncached
        return heads(model)


def _arrays(model):
    return [model._embed, model._unembed, *(array for layer in model._layers for array in vars(layer).values())]


def test_a_second_load_reads_the_cache_and_shows_the_same_heads(cache_dir, model_file, monkeypatch):
    expected = uncached_heads(model_file, monkeypatch)
    first = load_and_cache(model_file)
    assert [path.suffix for path in cache_dir.iterdir()] == [SUFFIX]
    assert_same_heads(heads(first), expected)
    with monkeypatch.context() as patch:
        patch.setattr(gguf, "GGUFReader", None)  # any use of the reader fails
        second = load_and_cache(model_file)
    assert all(isinstance(array, np.memmap) for array in _arrays(second))  # mapped, not read into memory
    assert second.name == first.name and second.config == first.config
    assert_same_heads(heads(second), expected)


def test_a_cached_load_reports_progress_at_once_up_to_done(cache_dir, model_file, monkeypatch):
    load_and_cache(model_file)
    monkeypatch.setattr(gguf, "GGUFReader", None)
    reports = []
    load_and_cache(model_file, progress=lambda fraction, text: reports.append((fraction, text)))
    fractions = [fraction for fraction, _ in reports]
    assert fractions[0] == 0.0 and fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)
    assert len(reports) >= 10 and all(text for _, text in reports)


@pytest.mark.parametrize("change", ["other weights, same size", "touched"])
def test_a_changed_model_file_is_read_again(cache_dir, model_file, monkeypatch, change):
    load_and_cache(model_file)
    size, before = model_file.stat().st_size, model_file.stat().st_mtime_ns
    if change == "touched":
        os.utime(model_file, ns=(before + 10**9, before + 10**9))
    else:
        write_tiny_llama(model_file, seed=8, layer_count=3, tied_embeddings=False)
        os.utime(model_file, ns=(before, before))  # only the contents tell
        assert model_file.stat().st_size == size
    reads = []

    class CountedReader(gguf.GGUFReader):
        def __init__(self, *args, **kwargs):
            reads.append(args)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(gguf, "GGUFReader", CountedReader)
    reloaded = heads(load_and_cache(model_file))
    assert reads  # the file was read again, not the stale cache
    assert_same_heads(reloaded, uncached_heads(model_file, monkeypatch))
    assert len(list(cache_dir.iterdir())) == 1  # the new cache replaced the old one


def _damaged(path, damage):
    data = bytearray(path.read_bytes())
    if damage == "truncated":
        return bytes(data[: len(data) // 2])
    if damage == "cut by one byte":
        return bytes(data[:-1])
    if damage == "a weight changed":
        data[4096] ^= 0x40
        return bytes(data)
    if damage == "its description changed":
        data[-100] ^= 0x01
        return bytes(data)
    if damage == "wrong magic":
        return b"NOTACACH" + bytes(data[8:])
    if damage == "garbage":
        return np.random.default_rng(0).integers(0, 256, len(data), dtype=np.uint8).tobytes()
    if damage == "empty":
        return b""
    raise AssertionError(damage)


@pytest.mark.parametrize("damage", ["truncated", "cut by one byte", "a weight changed", "its description changed",
                                    "wrong magic", "garbage", "empty"])
def test_a_damaged_cache_is_refused_and_rebuilt(cache_dir, model_file, monkeypatch, damage):
    expected = heads(load_and_cache(model_file))
    cached = cache_path(model_file)
    whole = cached.read_bytes()
    cached.write_bytes(_damaged(cached, damage))
    assert_same_heads(heads(load_and_cache(model_file)), expected)
    assert cached.read_bytes() == whole  # rebuilt as it was
    monkeypatch.setattr(gguf, "GGUFReader", None)
    assert_same_heads(heads(load_and_cache(model_file)), expected)  # and used again


def test_a_cache_folder_that_cannot_be_made_leaves_the_load_uncached(tmp_path, model_file, monkeypatch):
    (tmp_path / "a-file").write_text("not a folder")
    monkeypatch.setenv("ATTN_DESKTOP_CACHE_DIR", str(tmp_path / "a-file" / "cache"))
    expected = uncached_heads(model_file, monkeypatch)
    assert_same_heads(heads(load_and_cache(model_file)), expected)
    assert_same_heads(heads(load_and_cache(model_file)), expected)


def test_a_full_disk_leaves_the_load_uncached_and_no_partial_file(cache_dir, model_file, monkeypatch):
    expected = uncached_heads(model_file, monkeypatch)
    real_write = weights_cache._write_contents

    def disk_full(file, *args, **kwargs):
        real_write(file, *args, **kwargs)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(weights_cache, "_write_contents", disk_full)
    assert_same_heads(heads(load_and_cache(model_file)), expected)
    assert list(cache_dir.iterdir()) == []  # no temporary file, no half a cache


def test_a_disk_with_too_little_room_is_left_alone(cache_dir, model_file, monkeypatch):
    monkeypatch.setattr(weights_cache.shutil, "disk_usage", lambda _folder: type("Usage", (), {"free": 10**6})())
    load_and_cache(model_file)
    assert list(cache_dir.iterdir()) == []


def test_the_heads_come_before_the_cache_is_written_and_a_load_meanwhile_reads_the_file(cache_dir, model_file,
                                                                                          monkeypatch):
    expected = uncached_heads(model_file, monkeypatch)
    writing, may_finish = threading.Event(), threading.Event()
    write_contents = weights_cache._write_contents

    def slow_disk(*args, **kwargs):
        writing.set()
        assert may_finish.wait(60)
        write_contents(*args, **kwargs)

    monkeypatch.setattr(weights_cache, "_write_contents", slow_disk)
    model = LlamaModel.load(model_file)  # returns while the cache is still being written
    assert writing.wait(60)
    assert_same_heads(heads(model), expected)
    assert not cache_path(model_file).exists()  # only the temporary file: never a half-written cache
    assert_same_heads(heads(LlamaModel.load(model_file)), expected)  # a load meanwhile reads the file
    may_finish.set()
    finish_cache_writes()
    monkeypatch.setattr(gguf, "GGUFReader", None)  # the next load reads the cache, whole
    assert_same_heads(heads(LlamaModel.load(model_file)), expected)


def test_only_the_most_recently_used_caches_are_kept(cache_dir, tmp_path):
    paths = []
    for seed in range(KEPT_CACHES + 2):
        path = tmp_path / f"model-{seed}.gguf"
        write_tiny_llama(path, seed=seed)
        load_and_cache(path)
        paths.append(path)
    kept = sorted(cache_dir.iterdir())
    assert len(kept) == KEPT_CACHES
    assert kept == sorted(cache_path(path) for path in paths[-KEPT_CACHES:])


def test_the_cache_folder_is_never_the_users_own_when_a_data_folder_is_given(tmp_path, monkeypatch):
    monkeypatch.delenv("ATTN_DESKTOP_CACHE_DIR")
    monkeypatch.setenv("ATTN_DESKTOP_DATA_DIR", str(tmp_path / "data"))
    assert cache_folder() == tmp_path / "data" / "cache"
    monkeypatch.setenv("ATTN_DESKTOP_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert cache_folder() == tmp_path / "elsewhere"


def _with_description(path, change):
    """The cache with its description changed by CHANGE and its checksum made to fit: well-formed, but lying."""
    import json
    import zlib

    data = path.read_bytes()
    trailer = weights_cache.TRAILER
    magic, offset, length, _checksum, version = trailer.unpack(data[-trailer.size:])
    description = json.loads(data[offset: offset + length])
    change(description)
    text = json.dumps(description).encode()
    return data[:offset] + text + trailer.pack(magic, offset, len(text), zlib.crc32(text), version)


def _shift_an_array(description):
    description["arrays"]["blk.0.qkv"]["offset"] += 64


def _wrong_shape(description):
    description["arrays"]["blk.1.down"]["shape"] = [48, 32]


def _past_the_data(description):
    description["arrays"]["blk.2.down"]["offset"] = description["data_end"]


def _fewer_layers(description):
    description["config"]["layer_count"] = 2


def _config_of_the_wrong_kind(description):
    description["config"]["width"] = "32"


@pytest.mark.parametrize("lie", [_shift_an_array, _wrong_shape, _past_the_data, _fewer_layers,
                                 _config_of_the_wrong_kind])
def test_a_cache_whose_description_lies_about_sizes_is_refused(cache_dir, model_file, monkeypatch, lie):
    expected = heads(load_and_cache(model_file))
    cached = cache_path(model_file)
    whole = cached.read_bytes()
    cached.write_bytes(_with_description(cached, lie))
    assert_same_heads(heads(load_and_cache(model_file)), expected)
    assert cached.read_bytes() == whole


def test_the_heads_command_ends_with_its_cache_whole(cache_dir, model_file, tmp_path, monkeypatch):
    """The command writes its JSON while the cache is written in the background, and waits for it before it
    ends: the next command's load reads the cache."""
    from attn_desktop.cli import main

    write_contents = weights_cache._write_contents

    def slow_disk(*args, **kwargs):
        time.sleep(0.5)
        write_contents(*args, **kwargs)

    monkeypatch.setattr(weights_cache, "_write_contents", slow_disk)
    output = tmp_path / "heads.json"
    assert main(["heads", DEFAULT_SENTENCE, "--model", str(model_file), "-o", str(output)]) == 0
    assert output.exists() and cache_path(model_file).exists()
    monkeypatch.setattr(gguf, "GGUFReader", None)  # the next load reads the cache
    assert main(["heads", DEFAULT_SENTENCE, "--model", str(model_file), "-o", str(output)]) == 0
