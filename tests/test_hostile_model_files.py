"""A tiny valid LLaMA GGUF with one field or tensor changed, as a hostile or damaged file would be:
every one is refused with one ModelFileError naming the file and what was found, in bounded memory,
with nothing printed; a fuzz over the metadata finds nothing else escaping."""

import math
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.llama import LlamaModel, ModelFileError

from tests.support.tiny_llama import CONTROL_TOKEN, every_weight, vocabulary, write_tiny_llama

TOKENS, TYPES, _ = vocabulary()
LOAD_MEMORY_LIMIT = 40 * 1024 * 1024  # a tiny model's load peaks near 5 MB; 2 billion layers' entries took 6 GB


def tiny(folder, name="tiny.gguf", **changes):
    path = Path(folder) / name
    write_tiny_llama(path, layer_count=1, **changes)
    return path


def refusal(path) -> str:
    """The one line the load says, with any warning on the way made an error too (nothing else may show)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ModelFileError) as error:
            LlamaModel.load(path)
    message = str(error.value)
    assert "\n" not in message and message.startswith(Path(path).name + ":"), message
    return message


@pytest.mark.parametrize("field, value, expected", [
    ("llama.rope.freq_base", 0.0, "llama.rope.freq_base is 0; it should be a positive number"),
    ("llama.rope.freq_base", math.nan, "llama.rope.freq_base is nan"),
    ("llama.rope.freq_base", -math.inf, "llama.rope.freq_base is -inf"),
    ("llama.rope.freq_base", "ten thousand", "llama.rope.freq_base should be a number; it is 'ten thousand'"),
    ("llama.attention.layer_norm_rms_epsilon", -1.0, "layer_norm_rms_epsilon is -1; it should be a positive number"),
    ("llama.attention.layer_norm_rms_epsilon", math.nan, "layer_norm_rms_epsilon is nan"),
    ("llama.attention.layer_norm_rms_epsilon", 1e300, "layer_norm_rms_epsilon is 1e+300"),
    ("llama.block_count", 0, "llama.block_count is 0; it should be at least 1"),
    ("llama.block_count", 2, "llama.block_count says 2 layers, but the file holds the weights of 1"),
    ("llama.block_count", 2.5, "llama.block_count should be a whole number; it is 2.5"),
    ("llama.block_count", True, "llama.block_count should be a whole number; it is True"),
    ("llama.attention.head_count", 0, "llama.attention.head_count is 0"),
    ("llama.attention.head_count_kv", 3, "4 heads and 3 key/value heads do not fit width 32"),
    ("llama.attention.head_count", 32, "heads 1 numbers wide; RoPE turns pairs"),
    ("llama.embedding_length", -(2 ** 40), "llama.embedding_length is -1,099,511,627,776"),
    ("llama.feed_forward_length", 49, "the tensor blk.0.ffn_gate.weight has shape (48, 32), expected (49, 32)"),
    ("llama.vocab_size", 10 ** 12, "the tensor token_embd.weight has shape (281, 32), expected (1000000000000, 32)"),
    ("llama.context_length", None, "the metadata entry llama.context_length is missing"),
    ("tokenizer.ggml.bos_token_id", 10 ** 9, "tokenizer.ggml.bos_token_id is 1,000,000,000; it should be from 0 to 280"),
    ("tokenizer.ggml.eos_token_id", -1, "tokenizer.ggml.eos_token_id is -1"),
    ("tokenizer.ggml.token_type", [*TYPES, CONTROL_TOKEN], "token_type has 282 entries for 281 tokens"),
    ("tokenizer.ggml.token_type", ["control"] * len(TYPES), "token_type should be a list of whole numbers"),
    ("tokenizer.ggml.tokens", [1, 2, 3], "tokenizer.ggml.tokens should be a list of texts; it is a list of 3"),
    ("tokenizer.ggml.tokens", [*TOKENS, "extra"], "the tokenizer has 282 tokens but the model only 281"),
    ("tokenizer.ggml.add_bos_token", "yes", "add_bos_token should be true or false; it is 'yes'"),
])
def test_a_field_out_of_range_is_one_line_naming_it(tmp_path, field, value, expected):
    assert expected in refusal(tiny(tmp_path, metadata={field: value}))


def test_a_rope_base_so_small_that_its_angles_overflow_is_one_line(tmp_path):
    path = tiny(tmp_path, width=256, head_count=2, kv_head_count=1, metadata={"llama.rope.freq_base": 5e-324})
    assert "llama.rope.freq_base 4.94066e-324 turns the positions by angles too large to compute" in refusal(path)


def test_a_huge_bos_id_that_would_be_added_is_refused(tmp_path):
    path = tiny(tmp_path, metadata={"tokenizer.ggml.bos_token_id": 10 ** 9, "tokenizer.ggml.add_bos_token": True})
    assert "bos_token_id is 1,000,000,000" in refusal(path)


@pytest.mark.timing
def test_two_billion_layers_in_a_small_file_are_refused_at_once_in_bounded_memory(tmp_path):
    path = tiny(tmp_path, width=16, ffn_width=16, metadata={"llama.block_count": 2_000_000_000})
    assert path.stat().st_size < 32_000
    started = time.perf_counter()
    tracemalloc.start()
    try:
        message = refusal(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "llama.block_count says 2,000,000,000 layers, but the file holds the weights of 1" in message
    assert peak < LOAD_MEMORY_LIMIT and time.perf_counter() - started < 10


def test_weights_of_1e30_overflow_in_one_line_and_no_warning(tmp_path):
    path = tiny(tmp_path, "huge.gguf", tensors=every_weight(1e30))
    assert "layer 0's queries, keys and values overflow" in refusal(path)


def test_final_norm_weights_of_3e38_overflow_the_next_token_scores(tmp_path):
    path = tiny(tmp_path, "norm.gguf", tensors={"output_norm.weight": np.full(32, 3e38, np.float32)})
    assert "the next-token scores overflow" in refusal(path)


def test_a_weight_that_is_not_a_number_is_named(tmp_path):
    broken = np.ones((48, 32), np.float32)
    broken[3, 4] = np.nan
    path = tiny(tmp_path, "nan.gguf", tensors={"blk.0.ffn_up.weight": broken})
    assert "the tensor blk.0.ffn_up.weight holds numbers that are not finite" in refusal(path)


def test_a_missing_tensor_is_named(tmp_path):
    assert "the tensor blk.0.attn_k.weight is missing" in refusal(tiny(tmp_path, tensors={"blk.0.attn_k.weight": None}))


def test_a_file_of_proc_that_says_it_is_empty_is_refused():
    with pytest.raises(ModelFileError) as error:
        LlamaModel.load("/proc/self/mem")
    assert str(error.value).startswith("mem: not a regular file (its size reads as 0 bytes")


def test_the_unchanged_tiny_model_loads(tmp_path):
    assert LlamaModel.load(tiny(tmp_path)).config.layer_count == 1  # the helper's changes are what fails above


# ----- fuzz: any value of any type in the fields the loader reads --------------------------------
FIELDS = [
    "llama.block_count", "llama.embedding_length", "llama.feed_forward_length", "llama.attention.head_count",
    "llama.attention.head_count_kv", "llama.rope.dimension_count", "llama.rope.freq_base",
    "llama.attention.layer_norm_rms_epsilon", "llama.context_length", "llama.vocab_size",
    "llama.rope.scaling.type", "general.name", "general.architecture", "tokenizer.ggml.model",
    "tokenizer.ggml.pre", "tokenizer.ggml.tokens", "tokenizer.ggml.merges", "tokenizer.ggml.token_type",
    "tokenizer.ggml.bos_token_id", "tokenizer.ggml.eos_token_id", "tokenizer.ggml.add_bos_token",
]
NUMBERS = st.one_of(
    st.integers(-(2 ** 63), 2 ** 64 - 1),
    st.sampled_from([0, 1, 2, 3, 4, 31, 32, 33, 48, 281, 2 ** 31, 2 ** 32 - 1, 2_000_000_000]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 1e-45, 1e-320, 1e38, 3.5e38, 1e308, math.nan, math.inf, 1e-5, 10000.0]),
)
VALUES = st.one_of(
    st.none(),  # the field removed
    st.booleans(),
    NUMBERS,
    st.text(max_size=20).filter(lambda text: text.encode("utf-8", "surrogatepass") == text.encode("utf-8", "ignore")),
    st.lists(st.integers(-(2 ** 31), 2 ** 31 - 1), min_size=1, max_size=300),
    st.lists(st.text(min_size=1, max_size=3, alphabet="abcĠ ").filter(bool), min_size=1, max_size=300),
    st.lists(st.floats(allow_nan=True), min_size=1, max_size=5),
)


@pytest.fixture(scope="module")
def fuzz_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.dictionaries(st.sampled_from(FIELDS), VALUES, min_size=1, max_size=3))
def test_any_metadata_raises_only_model_file_error_in_bounded_memory(fuzz_folder, changes):
    path = fuzz_folder / "fuzzed.gguf"
    write_tiny_llama(path, layer_count=1, metadata=changes)
    tracemalloc.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                model = LlamaModel.load(path)
            except ModelFileError as error:
                assert "\n" not in str(error) and str(error).startswith("fuzzed.gguf:")
            else:
                model.run("The cat sat on the mat")  # a file that loads also runs a sentence
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < LOAD_MEMORY_LIMIT
