"""attn-desktop train translate, run as a user runs it: the JSON it writes read back with a forward pass written
here from the formula the issue states (NumPy only; none of the app's maths), so a reader who checks the file by
hand gets the numbers it holds; and its refusals: one line, exit 2, nothing written.
"""

import json
import os
import re
import signal
import subprocess
import sys

import numpy as np
import pytest

from attn_desktop.cli import main
from attn_desktop.model.training import training
from attn_desktop.model.training.translation_trainer import TranslationTrainer

from tests.support.project_root import ROOT

BOS, EOS = "<bos>", "<eos>"
MAX_DECODED = 12


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """The command's defaults, seed 0: (document, what it printed)."""
    out = tmp_path_factory.mktemp("translate") / "translator.json"
    code = main(["train", "translate", "--seed", "0", "-o", str(out)])
    assert code == 0
    return json.loads(out.read_text(encoding="utf-8"))


# A forward pass written from the formula, reading only the JSON's lists.

def _softmax(scores):
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def _attention(block, reads_queries, reads_keys, causal):
    """concat_h(softmax(q kᵀ / √d_head + mask) v) W_O, and every head's weights."""
    outputs, weights = [], []
    for head in block["heads"]:
        q = reads_queries @ np.array(head["w_q"])
        k = reads_keys @ np.array(head["w_k"])
        v = reads_keys @ np.array(head["w_v"])
        scores = q @ k.T / np.sqrt(q.shape[1])
        if causal:
            scores = scores + np.triu(np.full(scores.shape, -np.inf), 1)
        weights.append(_softmax(scores))
        outputs.append(weights[-1] @ v)
    return np.concatenate(outputs, axis=1) @ np.array(block["w_o"]), weights


def _mlp(mlp, x):
    if mlp is None:
        return 0.0
    hidden = np.maximum(x @ np.array(mlp["w_in"]) + np.array(mlp["b_in"]), 0.0)
    return hidden @ np.array(mlp["w_out"]) + np.array(mlp["b_out"])


def _run(document, source, written):
    """(logits of every decoder position, cross_attention[layer][head][t][s]) for SOURCE's words, the decoder fed WRITTEN."""
    model = document["model"]
    encoder, decoder = model["encoder"], model["decoder"]
    source_ids = [document["source_vocab"].index(word) for word in source]
    x = np.array(encoder["embed"])[source_ids] + np.array(encoder["pos"])[:len(source_ids)]
    for layer in encoder["layers"]:
        x = x + _attention(layer, x, x, causal=False)[0]
        x = x + _mlp(layer["mlp"], x)
    written_ids = [document["target_vocab"].index(word) for word in written]
    y = np.array(decoder["embed"])[written_ids] + np.array(decoder["pos"])[:len(written_ids)]
    cross_attention = []
    for layer in decoder["layers"]:
        y = y + _attention(layer["self"], y, y, causal=True)[0]
        added, weights = _attention(layer["cross"], y, x, causal=False)
        y = y + added
        y = y + _mlp(layer["mlp"], y)
        cross_attention.append(weights)
    return y @ np.array(model["w_u"]) + np.array(model["b_u"]), np.array(cross_attention)


def _greedy(document, source):
    """From <bos>, the likeliest word each time, to <eos> or MAX_DECODED tokens."""
    written = [BOS]
    while len(written) <= MAX_DECODED and written[-1] != EOS:
        logits, _ = _run(document, source, written)
        written.append(document["target_vocab"][int(logits[-1].argmax())])
    return written[1:]


def test_the_document_has_the_promised_parts(trained):
    assert trained["task"] == "translate"
    assert {"task", "source_vocab", "target_vocab", "model", "test_pairs", "metrics", "example"} <= set(trained)
    assert BOS in trained["target_vocab"] and EOS in trained["target_vocab"]
    assert "gato" in trained["source_vocab"] and "cat" in trained["target_vocab"]
    model = trained["model"]
    assert set(model) == {"encoder", "decoder", "w_u", "b_u"}
    assert set(model["encoder"]) == {"embed", "pos", "layers"} and set(model["decoder"]) == {"embed", "pos", "layers"}
    for layer in model["decoder"]["layers"]:
        assert set(layer) == {"self", "cross", "mlp"}
        assert set(layer["self"]) == set(layer["cross"]) == {"heads", "w_o"}
        assert all(set(head) == {"w_q", "w_k", "w_v"} for head in layer["self"]["heads"] + layer["cross"]["heads"])
        assert layer["mlp"] is None or set(layer["mlp"]) == {"w_in", "b_in", "w_out", "b_out"}
    assert np.shape(model["w_u"]) == (np.shape(model["decoder"]["embed"])[1], len(trained["target_vocab"]))
    assert set(trained["metrics"]) >= {"loss", "exact_match", "steps", "seconds"}
    assert trained["metrics"]["steps"] == 500 and trained["metrics"]["seconds"] > 0
    assert set(trained["example"]) == {"source", "target", "cross_attention"}


def test_the_test_pairs_are_the_held_out_sentences_with_their_content_words_aligned(trained):
    pairs = {" ".join(pair["source"]): pair for pair in trained["test_pairs"]}
    assert len(pairs) == len(trained["test_pairs"]) >= 200
    # el lobo blanco ve el pajaro negro -> the white wolf sees the black bird: "the" and "el" are no content words.
    pair = pairs["el lobo blanco ve el pajaro negro"]
    assert " ".join(pair["target"]) == "the white wolf sees the black bird"
    assert pair["alignment"] == [[1, 2], [2, 1], [3, 3], [5, 6], [6, 5]]
    shortest = next(pair for pair in trained["test_pairs"] if len(pair["source"]) == 3)
    assert shortest["alignment"] == [[1, 1], [2, 2]]  # the noun and the verb, in place


def test_the_examples_cross_attention_is_the_formula_on_the_written_weights(trained):
    example = trained["example"]
    source, target = example["source"], example["target"]
    assert target[-1] == EOS  # the model's own translation, to its <eos>: row t is the position writing target[t]
    _, cross_attention = _run(trained, source, [BOS, *target[:-1]])
    written = np.array(example["cross_attention"])
    assert written.shape == cross_attention.shape == (1, 1, len(target), len(source))
    np.testing.assert_allclose(written, cross_attention, rtol=0, atol=1e-9)
    assert np.abs(written - cross_attention).max() < 1e-9


def test_the_example_reads_the_aligned_words_across_the_crossing(trained):
    example = trained["example"]
    assert " ".join(example["source"]) == "el lobo blanco ve el pajaro negro"
    assert " ".join(example["target"]) == f"the white wolf sees the black bird {EOS}"
    looked_at = np.array(example["cross_attention"])[0, 0].argmax(axis=1)
    assert looked_at[[1, 2, 3, 5, 6]].tolist() == [2, 1, 3, 6, 5]  # white-blanco, wolf-lobo, ..., bird-pajaro


def test_greedy_decoding_the_test_pairs_gives_the_exported_exact_match(trained):
    right = [_greedy(trained, pair["source"]) == [*pair["target"], EOS] for pair in trained["test_pairs"]]
    assert trained["metrics"]["exact_match"] == sum(right) / len(right)
    assert trained["metrics"]["exact_match"] >= 0.99
    assert 0 < trained["metrics"]["loss"] < 0.1


def test_progress_says_the_loss_and_the_held_out_exact_match_every_tenth(tmp_path, capsys):
    out = tmp_path / "translator.json"
    assert main(["train", "translate", "--steps", "20", "-o", str(out)]) == 0
    printed = capsys.readouterr()
    assert printed.err == ""
    lines = printed.out.splitlines()
    assert lines[0].startswith("training translate: 20 steps of Adam, learning rate 0.005, batch 64, seed 0")
    progress = [line for line in lines if "%  step " in line]
    assert [line.split("%")[0].strip() for line in progress] == [str(p) for p in range(10, 101, 10)]
    assert all(" loss " in line and " exact match " in line for line in progress)
    document = json.loads(out.read_text(encoding="utf-8"))
    shown = f"{100 * document['metrics']['exact_match']:.1f}%"
    assert progress[-1].split(" exact match ")[1].startswith(shown)
    assert lines[-1].startswith(f"wrote {out}: exact match {shown} on {len(document['test_pairs'])} held-out sentences")


def test_the_same_seed_writes_the_same_model_and_another_seed_another(tmp_path):
    documents = []
    for name, seed in (("a", "4"), ("b", "4"), ("c", "5")):
        out = tmp_path / f"{name}.json"
        assert main(["train", "translate", "--steps", "3", "--seed", seed, "--lr", "0.01", "-o", str(out)]) == 0
        documents.append(json.loads(out.read_text(encoding="utf-8")))
    assert documents[0]["model"] == documents[1]["model"] and documents[0]["lr"] == 0.01
    assert documents[0]["model"]["w_u"] != documents[2]["model"]["w_u"]


def _refused(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as exit:
        code = exit.code
    printed = capsys.readouterr()
    assert code == 2, printed
    assert printed.err.count("\n") == 1 and printed.err.startswith("attn-desktop: error: "), printed.err
    assert "Traceback" not in printed.err and "wrote" not in printed.out
    return printed.err


@pytest.mark.parametrize("arguments, expected", [
    (["--steps", "0"], "--steps: expected a whole number from 1 to 1,000,000, found '0'"),
    (["--steps", "-1"], "--steps: expected a whole number from 1"),
    (["--steps", "1000001"], "--steps: expected a whole number from 1 to 1,000,000, found '1000001'"),
    (["--steps", "9" * 5000], "--steps: expected a whole number from 1"),
    (["--steps", "²"], "found '²'"),
    (["--steps", "1e3"], "found '1e3'"),
    (["--steps", ""], "found ''"),
    (["--lr", "nan"], "--lr: expected a number from 0.0001 to 1 such as 0.02, found 'nan'"),
    (["--lr", "0"], "found '0'"),
    (["--lr", "-1"], "found '-1'"),
    (["--lr", "inf"], "found 'inf'"),
    (["--lr", "2"], "found '2'"),
    (["--seed", "-1"], "--seed: expected a whole number from 0"),
    (["--seed", "٣"], "found '٣'"),
])
def test_bad_settings_are_one_line_and_nothing_is_written(capsys, tmp_path, arguments, expected):
    out = tmp_path / "translator.json"
    assert expected in _refused(capsys, ["train", "translate", *arguments, "-o", str(out)])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("where, expected", [
    ("a-folder", "it is a folder, not a file"),
    ("no-such-folder/translator.json", "no such folder"),
    ("read-only.json", "the file is marked read-only"),
    ("translator.json" + os.sep, "the name ends in"),
])
def test_an_output_that_cannot_be_written_is_refused_before_training(capsys, tmp_path, where, expected):
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "read-only.json").write_text("kept")
    os.chmod(tmp_path / "read-only.json", 0o444)
    error = _refused(capsys, ["train", "translate", "--steps", "2", "-o", f"{tmp_path}{os.sep}{where}"])
    assert expected in error and "training" not in error
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a-folder", "read-only.json"]
    assert list((tmp_path / "a-folder").iterdir()) == [] and (tmp_path / "read-only.json").read_text() == "kept"


def test_a_run_that_diverges_is_one_line_and_writes_nothing(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(training, "MAX_LEARNING_RATE", 1e308)
    out = tmp_path / "translator.json"
    error = _refused(capsys, ["train", "translate", "--steps", "20", "--lr", "1e200", "-o", str(out)])
    assert error.startswith("attn-desktop: error: the ") and error.endswith(": try a smaller --lr\n")
    assert " at step " in error and not out.exists()


def test_ctrl_c_while_training_is_one_line_exit_130_and_the_earlier_output_stays(capsys, tmp_path, monkeypatch):
    real_step = TranslationTrainer.step

    def pressed_ctrl_c_on_the_third_call(self, count=1):
        if self.steps >= 2:
            raise KeyboardInterrupt
        return real_step(self, count)

    monkeypatch.setattr(TranslationTrainer, "step", pressed_ctrl_c_on_the_third_call)
    out = tmp_path / "translator.json"
    out.write_text("an earlier output\n")
    assert main(["train", "translate", "--steps", "10", "-o", str(out)]) == 130
    printed = capsys.readouterr()
    assert printed.err == "attn-desktop: training stopped at step 2; nothing written\n"
    assert out.read_text() == "an earlier output\n" and [path.name for path in tmp_path.iterdir()] == [out.name]


def test_help_names_translate_and_what_it_writes(capsys):
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    text = re.sub(r"-\s+", "-", " ".join(capsys.readouterr().out.split()))  # argparse may wrap at a hyphen
    assert "induction, translate" in text and "The task translate trains an encoder-decoder" in text
    assert "exact match on held-out sentences never trained on, and one sentence's cross-attention" in text


@pytest.mark.slow
def test_as_a_command_it_trains_and_imports_no_qt(tmp_path):
    out = tmp_path / "translator.json"
    code = ("import sys; from attn_desktop.cli import main; "
            f"assert main(['train', 'translate', '--steps', '5', '-o', {str(out)!r}]) == 0; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph')))")
    done = subprocess.run([sys.executable, "-c", code], check=False, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
    assert json.loads(out.read_text(encoding="utf-8"))["metrics"]["steps"] == 5


def test_a_model_blown_up_by_its_last_step_is_not_written(capsys, tmp_path, monkeypatch):
    """One step of 1e100 leaves weights no loss has measured yet: their loss overflows, and JSON holds no NaN."""
    monkeypatch.setattr(training, "MAX_LEARNING_RATE", 1e308)
    out = tmp_path / "translator.json"
    error = _refused(capsys, ["train", "translate", "--steps", "1", "--lr", "1e100", "-o", str(out)])
    assert error == "attn-desktop: error: the trained model's numbers are too large to write: try a smaller --lr\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
@pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process is a POSIX matter")
def test_ctrl_c_in_the_terminal_stops_it_with_one_line_and_the_earlier_output_stays(tmp_path):
    out = tmp_path / "translator.json"
    out.write_text("an earlier output\n")
    # Ctrl+C's usual disposition restored (a test run in the background has it ignored), then the command.
    as_from_a_terminal = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                          "os.execv(sys.executable, [sys.executable, '-m', 'attn_desktop', *sys.argv[1:]])")
    process = subprocess.Popen([sys.executable, "-c", as_from_a_terminal, "train", "translate", "--steps", "100000",
                                "-o", str(out)], cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stdout.readline().startswith("training translate: 100,000 steps")  # it is training now
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130 and "Traceback" not in stderr, stderr
    assert len(stderr.strip().splitlines()) == 1 and "nothing written" in stderr, stderr
    assert out.read_text() == "an earlier output\n" and [path.name for path in tmp_path.iterdir()] == [out.name]
