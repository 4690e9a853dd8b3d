"""`attn-desktop heads --no-rope`, run as a user runs it: every head's weights from its q and k before RoPE, the
JSON saying "rope": false; on SmolLM2 the same numbers as transformers' q_proj and k_proj give, and its clearest
previous-token head losing the token before."""

import json
import subprocess
import sys

import numpy as np
import pytest

from tests.support.project_root import ROOT

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.head_kinds import CLEAR_PREVIOUS_TOKEN_HEAD, PREVIOUS_TOKEN_SENTENCE
from attn_desktop.model.pretrained.llama import LlamaModel

from tests.support.random_model_run import causal_softmax_attention
from tests.support.tiny_llama import write_tiny_llama

SENTENCE = "The cat sat on the mat because it was tired"


def heads(*args):
    return subprocess.run([sys.executable, "-m", "attn_desktop", "heads", *args], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=180)


def written(out) -> dict:
    return json.loads(out.read_text(encoding="utf-8"))


def previous_token_weight(matrix) -> float:
    n = len(matrix)
    return float(np.asarray(matrix)[np.arange(1, n), np.arange(n - 1)].mean())


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "tiny.gguf"
    write_tiny_llama(path, layer_count=3, head_count=4, kv_head_count=2)
    return path


@pytest.mark.slow
def test_no_rope_writes_the_weights_from_q_and_k_before_the_turns(tiny_model, tmp_path):
    on, off = tmp_path / "on.json", tmp_path / "off.json"
    assert heads(SENTENCE, "--model", str(tiny_model), "-o", str(on)).returncode == 0
    done = heads(SENTENCE, "--model", str(tiny_model), "--no-rope", "-o", str(off))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "3 layers x 4 heads over 19 tokens of tiny-llama, RoPE off" in done.stdout
    with_rope, without = written(on), written(off)
    assert with_rope["rope"] is True and without["rope"] is False
    assert list(without) == ["model", "sentence", "tokens", "rope", "knocked_out", "temperature", "attention", "next_tokens"]
    attention = np.array(without["attention"])
    assert attention.shape == (3, 4, 19, 19)
    np.testing.assert_allclose(attention.sum(axis=-1), 1.0, atol=1e-12)
    assert np.all(np.triu(attention, k=1) == 0)  # still causal
    assert np.abs(attention - np.array(with_rope["attention"])).max() > 0.05
    expected = LlamaModel.load(tiny_model).run(SENTENCE).attention_without_rope()
    np.testing.assert_allclose(attention, expected, rtol=0, atol=1e-15)  # the numbers in full
    assert without["tokens"] == with_rope["tokens"] and without["next_tokens"] == with_rope["next_tokens"]


@pytest.mark.slow
def test_no_rope_to_standard_output(tiny_model):
    done = heads("The cat", "--model", str(tiny_model), "--no-rope", "-o", "-")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["rope"] is False and np.array(document["attention"]).shape == (3, 4, 2, 2)


def test_bad_input_with_no_rope_is_refused_as_before(tmp_path, capsys):
    from attn_desktop.cli import main

    out = tmp_path / "heads.json"
    assert main(["heads", "  ", "--no-rope", "-o", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "the sentence is empty" in error
    assert not out.exists()
    with pytest.raises(SystemExit) as stopped:
        main(["heads", SENTENCE, "--no-rope=yes", "-o", str(out)])
    assert stopped.value.code == 2 and not out.exists()


def test_the_help_tells_what_no_rope_does(capsys):
    from attn_desktop.cli import main

    with pytest.raises(SystemExit):
        main(["heads", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--no-rope recompute every head's weights from its q and k before RoPE turned them" in text
    assert 'The JSON\'s "rope" says whether q and k were turned by RoPE' in text


# ----- SmolLM2 (the optional pack) ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pack_path():
    from attn_desktop.model.pretrained.pack import ModelUnavailable, find_pack_model

    try:
        return find_pack_model()
    except ModelUnavailable as missing:
        pytest.skip(str(missing))


@pytest.mark.slow
def test_smollm2_no_rope_is_transformers_q_proj_and_k_proj_and_the_previous_token_head_loses_its_diagonal(
        pack_path, tmp_path):
    from tests.support.smollm2_reference import projections_before_rope, smollm2_reference_model

    on, off = tmp_path / "on.json", tmp_path / "off.json"
    assert heads(PREVIOUS_TOKEN_SENTENCE, "-o", str(on)).returncode == 0
    assert heads(PREVIOUS_TOKEN_SENTENCE, "--no-rope", "-o", str(off)).returncode == 0
    with_rope, without = written(on), written(off)
    assert without["rope"] is False and without["tokens"][:3] == ["the", " dog", " chased"]
    attention = np.array(without["attention"])
    np.testing.assert_allclose(attention.sum(axis=-1), 1.0, atol=1e-12)
    # softmax(q·kᵀ/√64 + causal mask) of transformers' projections, query head h reading key/value head h // 3
    ids = LlamaModel.load(pack_path).token_ids(PREVIOUS_TOKEN_SENTENCE)
    queries, keys = projections_before_rope(smollm2_reference_model(pack_path), ids)
    expected = causal_softmax_attention(queries, np.repeat(keys, queries.shape[1] // keys.shape[1], axis=1))
    np.testing.assert_allclose(attention, expected, rtol=0, atol=1e-4)
    layer, head = CLEAR_PREVIOUS_TOKEN_HEAD
    assert previous_token_weight(with_rope["attention"][layer][head]) > 0.8
    assert previous_token_weight(without["attention"][layer][head]) < 0.16
