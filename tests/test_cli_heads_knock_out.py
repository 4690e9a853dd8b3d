"""attn-desktop heads --knock-out, --temperature and --logit-lens: the JSON's next tokens are the model's with
those heads knocked out, at that temperature; a bad head or temperature is one line, exit 2, nothing written
(a head's syntax refused before the model loads, a head the model lacks after)."""

import json
import subprocess
import sys

import numpy as np
import pytest

from tests.support.project_root import ROOT

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.cli import main
from attn_desktop.model.pretrained.llama import LlamaModel

from tests.support.tiny_llama import write_tiny_llama

SENTENCE = "The cat sat on the mat because it was tired"


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "tiny.gguf"
    write_tiny_llama(path, layer_count=3, head_count=4, kv_head_count=2)
    return path


def heads(*args):
    """The command run in this process: its exit code (argparse's refusals exit through SystemExit)."""
    try:
        return main(["heads", *args])
    except SystemExit as stopped:
        return stopped.code


def test_next_tokens_are_the_model_s_with_the_heads_knocked_out_at_the_temperature(tiny_model, tmp_path, capsys):
    out = tmp_path / "heads.json"
    assert heads(SENTENCE, "--model", str(tiny_model), "--knock-out", "1.3,0.0", "--temperature", "0.5",
                 "-o", str(out)) == 0
    assert "2 heads knocked out" in capsys.readouterr().out
    document = json.loads(out.read_text(encoding="utf-8"))
    assert set(document) == {"model", "sentence", "tokens", "rope", "knocked_out", "temperature", "attention",
                             "next_tokens"}
    assert document["knocked_out"] == [[0, 0], [1, 3]] and document["temperature"] == 0.5
    run = LlamaModel.load(tiny_model).run(SENTENCE, {(1, 3), (0, 0)})
    logits = run.next_scores.logits.astype(np.float64) / 0.5
    expected = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    assert [token for token, _ in document["next_tokens"]] == list(run.next_scores.top_texts[:5])
    np.testing.assert_allclose([p for _, p in document["next_tokens"]], expected[list(run.next_scores.top_ids[:5])],
                               rtol=1e-12)
    np.testing.assert_array_equal(np.array(document["attention"]), run.attention)
    intact = LlamaModel.load(tiny_model).run(SENTENCE)
    assert [p for _, p in document["next_tokens"]] != [p for _, p in intact.next_scores.top(0.5, 5)]


def test_the_logit_lens_adds_each_layer_s_five_likeliest_at_the_last_token(tiny_model, tmp_path):
    out = tmp_path / "heads.json"
    assert heads(SENTENCE, "--model", str(tiny_model), "--logit-lens", "-o", str(out)) == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["knocked_out"] == [] and document["temperature"] == 1.0
    model = LlamaModel.load(tiny_model)
    run = model.run(SENTENCE)
    expected = [[[token, p] for token, p in layer] for layer in model.logit_lens(run, len(run.token_ids) - 1)]
    assert document["logit_lens"] == expected
    assert len(document["logit_lens"]) == 3 and all(len(layer) == 5 for layer in document["logit_lens"])
    assert document["logit_lens"][-1] == document["next_tokens"]


def test_standard_output_gets_the_same_json(tiny_model, tmp_path, capsys):
    out = tmp_path / "heads.json"
    assert heads(SENTENCE, "--model", str(tiny_model), "--knock-out", "2.1", "--logit-lens", "-o", str(out)) == 0
    capsys.readouterr()
    assert heads(SENTENCE, "--model", str(tiny_model), "--knock-out", "2.1", "--logit-lens", "-o", "-") == 0
    assert json.loads(capsys.readouterr().out) == json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("option, value, expected", [
    ("--knock-out", "3", "'3' is not a head: write layer.head"),
    ("--knock-out", "a.b", "'a.b' is not a head"),
    ("--knock-out", "3.", "'3.' is not a head"),
    ("--knock-out", "-1.2", "'-1.2' is not a head"),
    ("--knock-out", "1.2,,3.0", "'' is not a head"),
    ("--knock-out", "", "'' is not a head"),
    ("--temperature", "0", "the temperature must be above 0"),
    ("--temperature", "-1", "the temperature must be above 0"),
    ("--temperature", "nan", "the temperature must be a number above 0, not 'nan'"),
    ("--temperature", "inf", "the temperature must be a number above 0, not 'inf'"),
    ("--temperature", "warm", "the temperature must be a number above 0, not 'warm'"),
])
def test_a_bad_head_or_temperature_is_refused_before_the_model_loads(tmp_path, capsys, option, value, expected):
    out = tmp_path / "heads.json"
    missing_model = tmp_path / "no-such-model.gguf"  # never opened: the syntax is refused first
    assert heads(SENTENCE, "--model", str(missing_model), f"{option}={value}", "-o", str(out)) == 2
    error = capsys.readouterr().err
    assert error.startswith("attn-desktop: error: ") and error.count("\n") == 1 and expected in error, error
    assert "no-such-model" not in error
    assert not out.exists()


@pytest.mark.parametrize("value, expected", [
    ("3.0", "tiny-llama has layers 0 to 2; there is no layer 3"),
    ("0.1,1.4", "tiny-llama has heads 0 to 3 in each layer; there is no head 4"),
])
def test_a_head_the_model_lacks_is_refused_after_it_loads_and_nothing_is_written(tiny_model, tmp_path, capsys,
                                                                                   value, expected):
    out = tmp_path / "heads.json"
    out.write_text("the user's earlier file", encoding="utf-8")
    assert heads(SENTENCE, "--model", str(tiny_model), "--knock-out", value, "-o", str(out)) == 2
    captured = capsys.readouterr()
    assert captured.err == f"attn-desktop: error: {expected}\n" and captured.out == ""
    assert out.read_text(encoding="utf-8") == "the user's earlier file"


@pytest.mark.slow
def test_as_a_user_runs_it_a_bad_temperature_writes_nothing(tiny_model, tmp_path):
    out = tmp_path / "heads.json"
    done = subprocess.run([sys.executable, "-m", "attn_desktop", "heads", SENTENCE, "--model", str(tiny_model),
                           "--temperature", "nan", "-o", str(out)], check=False, cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "temperature" in done.stderr
    assert done.stdout == "" and not out.exists()


@pytest.mark.slow
def test_smollm2_without_layer_23_s_heads_guesses_new_york_rather_than_paris(tmp_path):
    from attn_desktop.model.pretrained.pack import ModelUnavailable, find_pack_model

    try:
        path = find_pack_model()
    except ModelUnavailable as missing:
        pytest.skip(str(missing))
    out = tmp_path / "heads.json"
    knocked = ",".join(f"23.{head}" for head in range(9))
    assert heads("The capital of France is", "--knock-out", knocked, "--logit-lens", "-o", str(out)) == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["knocked_out"] == [[23, head] for head in range(9)]
    run = LlamaModel.load(path).run("The capital of France is", {(23, head) for head in range(9)})
    assert document["next_tokens"] == [[token, p] for token, p in run.next_tokens]
    assert document["next_tokens"][0][0] == " New"
    assert len(document["logit_lens"]) == 30 and document["logit_lens"][-1] == document["next_tokens"]
