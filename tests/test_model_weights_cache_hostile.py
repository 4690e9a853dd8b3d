"""The weights cache read as untrusted input: a cache rewritten with a correct checksum, a special file where
the cache should be, a model file changed where its start does not tell, and the cleanup of the cache folder.

Every wrong cache must give what the model file itself gives (the cache is set aside and the file read
afresh), never a traceback, never a hang, never the numbers of another model; and the cleanup must never
delete a file it cannot prove is one of its own caches.
"""

from __future__ import annotations

import json
import os
import threading
import zlib

import numpy as np
import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

import gguf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_desktop.model.pretrained import weights_cache
from attn_desktop.model.pretrained.weights_cache import KEPT_CACHES, cache_path

from tests.support.tiny_llama import write_tiny_llama
from tests.test_model_weights_cache import assert_same_heads, heads, load_and_cache, uncached_heads

MERGES = "tokenizer.ggml.merges"
BOS = "tokenizer.ggml.bos_token_id"


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


def _rewritten(path, change):
    """The cache at PATH with its description's text changed by CHANGE (text → text), the checksum made to fit."""
    data = path.read_bytes()
    trailer = weights_cache.TRAILER
    magic, offset, length, _checksum, version = trailer.unpack(data[-trailer.size:])
    text = change(data[offset: offset + length].decode()).encode()
    return data[:offset] + text + trailer.pack(magic, offset, len(text), zlib.crc32(text), version)


def _document_change(change):
    def in_text(text):
        description = json.loads(text)
        change(description)
        return json.dumps(description)

    return in_text


def _twice_the_heads(description):  # the file's arrays, read as 8 heads of 8 numbers in a 32-wide model
    description["config"]["head_count"] *= 2


def _merges_as_numbers(description):
    description["tokenizer"][MERGES] = list(range(len(description["tokenizer"][MERGES])))


def _a_bos_beyond_the_vocabulary(description):
    description["tokenizer"][BOS] = 10**9
    description["tokenizer"]["tokenizer.ggml.add_bos_token"] = True


def _negative_rms_epsilon(description):
    description["config"]["rms_epsilon"] = -1e-5


def _another_rope_base(description):  # a valid number, but not the file's
    description["config"]["rope_base"] = 500000.0


def _fewer_merges(description):  # a valid list, but not the file's: other tokens
    description["tokenizer"][MERGES] = description["tokenizer"][MERGES][:3]


def _no_output_matrix(description):  # as if the file's embedding were its output matrix too
    del description["arrays"]["output"]


def _two_layers_swapped(description):  # each array whole, with its own checksum, in the other's place
    arrays = description["arrays"]
    arrays["blk.0.qkv"], arrays["blk.1.qkv"] = arrays["blk.1.qkv"], arrays["blk.0.qkv"]


def _nested_200000_deep(text):
    return text.replace('"tokenizer":', '"deep": ' + "[" * 200_000 + "]" * 200_000 + ', "tokenizer":', 1)


LIES = {
    "head count doubled": _document_change(_twice_the_heads),
    "merges as numbers": _document_change(_merges_as_numbers),
    "bos token id 10^9": _document_change(_a_bos_beyond_the_vocabulary),
    "negative rms epsilon": _document_change(_negative_rms_epsilon),
    "another rope base": _document_change(_another_rope_base),
    "fewer merges": _document_change(_fewer_merges),
    "no output matrix": _document_change(_no_output_matrix),
    "two layers swapped": _document_change(_two_layers_swapped),
    "200,000 nested arrays": _nested_200000_deep,
}


@pytest.mark.parametrize("lie", list(LIES))
def test_a_cache_rewritten_with_a_correct_checksum_gives_the_model_files_numbers(cache_dir, model_file, monkeypatch,
                                                                                lie):
    expected = heads(load_and_cache(model_file))
    cached = cache_path(model_file)
    whole = cached.read_bytes()
    cached.write_bytes(_rewritten(cached, LIES[lie]))
    assert_same_heads(heads(load_and_cache(model_file)), expected)
    assert cached.read_bytes() == whole  # the file was read afresh and the cache written again


def test_a_fallback_leaves_a_line_in_the_log_and_nothing_on_screen(cache_dir, model_file, caplog, capsys):
    load_and_cache(model_file)
    cached = cache_path(model_file)
    cached.write_bytes(_rewritten(cached, LIES["merges as numbers"]))
    capsys.readouterr()
    with caplog.at_level("INFO", logger="attn_desktop"):
        load_and_cache(model_file)
    assert any("not used" in record.getMessage() and cached.name in record.getMessage() for record in caplog.records)
    assert capsys.readouterr() == ("", "")


def test_a_cache_whose_weights_were_rewritten_with_their_checksums_gives_the_model_files_numbers(
        cache_dir, model_file, monkeypatch):
    expected = heads(load_and_cache(model_file))
    cached = cache_path(model_file)
    whole = cached.read_bytes()
    data = bytearray(whole)
    trailer = weights_cache.TRAILER
    magic, offset, length, _checksum, version = trailer.unpack(data[-trailer.size:])
    description = json.loads(data[offset: offset + length])
    entry = description["arrays"]["token_embd"]
    size = int(np.prod(entry["shape"])) * 4
    # NaN: a model built from it fails its first run (finite forged weights would need the file dequantized
    # again to be found out, which is what the cache saves)
    forged = np.full(size // 4, np.nan, dtype="<f4").tobytes()
    data[entry["offset"]: entry["offset"] + size] = forged
    entry["crc32"] = zlib.crc32(forged)
    text = json.dumps(description).encode()
    cached.write_bytes(bytes(data[:offset]) + text + trailer.pack(magic, offset, len(text), zlib.crc32(text), version))
    assert_same_heads(heads(load_and_cache(model_file)), expected)
    assert cached.read_bytes() == whole


def _load_in_a_thread(path):
    """LlamaModel.load(PATH) in a thread: (finished within 60 s, its exception or None)."""
    outcome = []

    def load():
        try:
            load_and_cache(path)
            outcome.append(None)
        except BaseException as error:  # noqa: BLE001 - handed to the test
            outcome.append(error)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(60)
    return not thread.is_alive(), outcome[0] if outcome else None


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_special_file_at_the_cache_path_is_refused_without_blocking(cache_dir, model_file, monkeypatch, kind):
    expected = uncached_heads(model_file, monkeypatch)
    cached = cache_path(model_file)
    cached.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(cached)
    else:
        cached.mkdir()
    try:
        finished, error = _load_in_a_thread(model_file)
    finally:
        if kind == "fifo":  # a reader still blocked in open() is let go, so the test run can end
            try:
                os.close(os.open(cached, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
    assert finished, "the load blocked on the special file"
    assert error is None
    assert_same_heads(heads(load_and_cache(model_file)), expected)
    assert (cached.is_fifo() if kind == "fifo" else cached.is_dir())  # left alone: not provably ours


def _tensor_span(path, name):
    reader = gguf.GGUFReader(str(path))
    tensor = next(tensor for tensor in reader.tensors if tensor.name == name)
    return int(tensor.data_offset), int(tensor.n_bytes)


def test_a_model_file_changed_past_its_start_with_size_and_time_restored_is_read_again(cache_dir, tmp_path,
                                                                                       monkeypatch):
    path = tmp_path / "wide.gguf"
    write_tiny_llama(path, seed=3, layer_count=2, width=256, head_count=4, kv_head_count=2, ffn_width=1024)
    size, mtime = path.stat().st_size, path.stat().st_mtime_ns
    offset, length = _tensor_span(path, "blk.1.attn_q.weight")
    assert offset > weights_cache.HEADER_BYTES_HASHED  # the change is past the hashed start
    load_and_cache(path)
    data = bytearray(path.read_bytes())
    weights = np.frombuffer(data, dtype="<f4", count=length // 4, offset=offset) * -2.0
    data[offset: offset + length] = weights.astype("<f4").tobytes()
    path.write_bytes(bytes(data))
    os.utime(path, ns=(mtime, mtime))
    assert path.stat().st_size == size
    assert_same_heads(heads(load_and_cache(path)), uncached_heads(path, monkeypatch))


# ----- a property: whatever the description is changed to, the model file's numbers or nothing else -------------

def _paths(document, prefix=()):
    """Every place in the JSON DOCUMENT (paths of keys and indexes), long lists sampled at their ends."""
    yield prefix
    if isinstance(document, dict):
        for key, value in document.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(document, list):
        for index in sorted({0, 1, len(document) - 1} & set(range(len(document)))):
            yield from _paths(document[index], (*prefix, index))


HUGE_AND_ODD = [10**18, 10**30, -1, 0, -(10**9), 1e308, -1e-300, 2**63, 0.5, True, None, "", "32", [], {}]
DEEP = "@@DEEP@@"


def _mutate(description, path, mutation, value):
    """DESCRIPTION with the value at PATH changed by MUTATION (in place; the root is never replaced)."""
    *parents, last = path
    holder = description
    for key in parents:
        holder = holder[key]
    current = holder[last]
    if mutation == "drop":
        del holder[last]
    elif mutation == "replace":
        holder[last] = value
    elif mutation == "truncate":
        holder[last] = current[: len(current) // 2] if isinstance(current, (list, str)) else current
    elif mutation == "wrap":
        holder[last] = [current]
    elif mutation == "deep":
        holder[last] = DEEP
    elif mutation == "retype":
        holder[last] = str(current) if not isinstance(current, str) else len(current)
    elif mutation == "nan":
        holder[last] = float("nan")
    elif mutation == "swap":  # with the next value of the same container (two layers' arrays, say)
        keys = list(holder) if isinstance(holder, dict) else list(range(len(holder)))
        other = keys[(keys.index(last) + 1) % len(keys)]
        holder[last], holder[other] = holder[other], current


SECTIONS = ["config", "tokenizer", "arrays", "source", None]  # None: anywhere in the description
MUTATIONS = ["drop", "replace", "truncate", "wrap", "deep", "retype", "nan", "swap"]
VALUES = st.one_of(st.sampled_from(HUGE_AND_ODD), st.integers(-(2**70), 2**70), st.integers(0, 300),
                   st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5), st.booleans())
mutations = st.lists(st.tuples(st.sampled_from(SECTIONS), st.integers(0, 10**6), st.sampled_from(MUTATIONS), VALUES,
                               st.integers(2, 100_000)), min_size=1, max_size=3)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(changes=mutations)
def test_any_change_to_the_description_gives_the_model_files_numbers(cache_dir, model_file, monkeypatch, changes):
    """Up to three changes anywhere in the description (a value dropped, replaced by a huge, negative, NaN or
    odd one, cut short, wrapped, nested up to 100,000 deep, of another type, swapped with its neighbour),
    its checksum made to fit: the load finishes, without an exception, with the model file's very numbers."""
    expected = _expected(model_file, monkeypatch)
    cached = cache_path(model_file)
    whole = _whole_cache(model_file)
    cached.write_bytes(whole)
    depth = [1]

    def change(text):
        description = json.loads(text)
        for section, pick, mutation, value, deep in changes:
            places = [path for path in _paths(description) if path and section in (None, path[0])]
            if places:
                _mutate(description, places[pick % len(places)], mutation, value)
                depth[0] = deep
        return json.dumps(description).replace(json.dumps(DEEP), "[" * depth[0] + "]" * depth[0])

    cached.write_bytes(_rewritten(cached, change))
    finished, error = _load_in_a_thread(model_file)
    assert finished and error is None, error
    assert_same_heads(heads(load_and_cache(model_file)), expected)


_EXPECTED: dict = {}


def _expected(path, monkeypatch):
    """The heads of the model file itself, computed once for the property's examples (keyed by the file)."""
    if ("heads", path) not in _EXPECTED:
        _EXPECTED["heads", path] = uncached_heads(path, monkeypatch)
    return _EXPECTED["heads", path]


def _whole_cache(path):
    """The whole cache of the model file (its key holds the file's modification time: one per file)."""
    if ("cache", path) not in _EXPECTED:
        load_and_cache(path)
        _EXPECTED["cache", path] = cache_path(path).read_bytes()
    return _EXPECTED["cache", path]


# ----- the cleanup of the cache folder: only the app's own caches ------------------------------------------------

def test_the_cleanup_deletes_only_the_apps_own_caches(cache_dir, tmp_path):
    cache_dir.mkdir(parents=True)
    users = cache_dir / "yolov3.weights"
    users.write_bytes(np.random.default_rng(0).integers(0, 256, 100_000, dtype=np.uint8).tobytes())
    lookalike = cache_dir / f"model-{'0123456789abcdef'}.weights"  # our name pattern, not our header
    lookalike.write_bytes(b"not a cache of ours" * 100)
    folder_like = cache_dir / f"folder-{'fedcba9876543210'}.weights"
    folder_like.mkdir()
    fifo_like = cache_dir / f"fifo-{'00112233445566ff'}.weights"  # never opened: it would block
    os.mkfifo(fifo_like)
    for old in (users, lookalike, folder_like, fifo_like):
        os.utime(old, (1, 1))  # the oldest of the folder
    caches = []
    for seed in range(KEPT_CACHES + 1):
        path = tmp_path / f"model-{seed}.gguf"
        write_tiny_llama(path, seed=seed)
        load_and_cache(path)
        caches.append(cache_path(path))
        os.utime(caches[-1], (1000 + seed, 1000 + seed))  # loaded in this order, long ago
    weights_cache.remove_old_caches(cache_dir)
    assert users.exists() and lookalike.exists() and folder_like.is_dir() and fifo_like.is_fifo()
    assert not caches[0].exists()  # the oldest cache goes
    assert all(cache.exists() for cache in caches[1:])


def test_the_real_model_is_loaded_from_its_cache_the_second_time(cache_dir, monkeypatch):
    """The pack's SmolLM2 (skipped without it): its entries read by the quick reader equal llama.cpp's reader's,
    so its cache is used, not refused on every load as if it were not the file's own."""
    from attn_desktop.model.pretrained.pack import ModelUnavailable, find_pack_model

    try:
        path = find_pack_model()
    except ModelUnavailable as missing:
        pytest.skip(str(missing))
    first = load_and_cache(path)
    expected = [(run.tokens, run.attention, run.next_tokens) for run in [first.run("The cat sat on the mat")]]
    del first
    monkeypatch.setattr(gguf, "GGUFReader", None)  # any use of the reader fails
    second = load_and_cache(path)
    assert isinstance(second._embed, np.memmap)
    run = second.run("The cat sat on the mat")
    assert run.tokens == expected[0][0] and run.next_tokens == expected[0][2]
    np.testing.assert_array_equal(run.attention, expected[0][1])
