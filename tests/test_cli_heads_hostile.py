"""attn-desktop heads given a hostile model file or sentence, as a user runs it: one line on standard
error, exit 2, nothing written, nothing else printed (no warning, no traceback)."""

import os
import subprocess
import sys

import numpy as np
import pytest

from tests.support.project_root import ROOT

pytestmark = pytest.mark.slow  # every test runs the app's heads command in a child process

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from tests.support.tiny_llama import every_weight, write_tiny_llama

SENTENCE = "The cat sat"


def run(*args, **options):
    return subprocess.run([sys.executable, "-m", "attn_desktop", "heads", *args], check=False, cwd=ROOT,
                          capture_output=True, timeout=120, **options)


def assert_one_line_refusal(done, expected, output=None):
    error = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2, error
    assert error.startswith("attn-desktop: error: ") and error.count("\n") == 1 and expected in error, error
    assert done.stdout == b""
    assert output is None or not output.exists()


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "tiny.gguf"
    write_tiny_llama(path, layer_count=1)
    return path


@pytest.mark.parametrize("changes, expected", [
    ({"metadata": {"llama.rope.freq_base": 0.0}}, "tiny.gguf: llama.rope.freq_base is 0"),
    ({"metadata": {"llama.attention.layer_norm_rms_epsilon": float("nan")}}, "layer_norm_rms_epsilon is nan"),
    ({"metadata": {"llama.block_count": 2_000_000_000}}, "llama.block_count says 2,000,000,000 layers"),
    ({"tensors": {"output_norm.weight": np.full(32, 3e38, np.float32)}}, "tiny.gguf: the next-token scores overflow"),
    ({"tensors": every_weight(1e30)}, "tiny.gguf: layer 0's queries, keys and values overflow"),
])
def test_a_hostile_model_file_is_one_line_and_writes_nothing(tmp_path, changes, expected):
    model = tmp_path / "tiny.gguf"
    write_tiny_llama(model, layer_count=1, **changes)
    out = tmp_path / "heads.json"
    assert_one_line_refusal(run(SENTENCE, "--model", str(model), "-o", str(out)), expected, out)


def test_a_file_of_proc_is_refused_in_one_line(tmp_path):
    out = tmp_path / "heads.json"
    done = run(SENTENCE, "--model", "/proc/self/mem", "-o", str(out))
    assert_one_line_refusal(done, "mem: not a regular file (its size reads as 0 bytes", out)


@pytest.mark.parametrize("sentence, expected", [
    (b"cat \xff sat", "the sentence is not valid text (at character 5: a byte that is not UTF-8"),
    ("cat \ud83d sat".encode("utf-8", "surrogatepass"), "the sentence is not valid text (at character 5"),
    (b"a" * 10_000, "the sentence has 10,000 characters; the limit is 2,000"),
])
def test_a_sentence_no_model_could_take_is_refused_before_loading(tmp_path, sentence, expected):
    out = tmp_path / "heads.json"
    # A model file that would take long to fail: the sentence must be refused before it is even opened.
    done = run(sentence, "--model", "/no/such/model.gguf", "-o", str(out))
    assert_one_line_refusal(done, expected, out)


def test_standard_output_closed_says_so_as_export_does(tiny_model):
    done = subprocess.run(
        [sys.executable, "-m", "attn_desktop", "heads", SENTENCE, "--model", str(tiny_model), "-o", "-"],
        check=False, cwd=ROOT, stdout=None, stderr=subprocess.PIPE, text=True, timeout=120,
        preexec_fn=lambda: os.close(1),
    )
    assert done.returncode == 2
    assert done.stderr == "attn-desktop: error: cannot write to standard output (it is closed)\n"


def test_a_good_model_still_writes_its_heads(tiny_model, tmp_path):
    out = tmp_path / "heads.json"
    done = run(SENTENCE, "--model", str(tiny_model), "-o", str(out))
    assert done.returncode == 0 and done.stderr == b"" and out.exists()
