"""attn-desktop train, run as a user runs it: headless training, its progress lines, its JSON, its refusals."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from attn_desktop.model.training.head_maths import forward
from attn_desktop.model.training.head_params import params_from_lists
from attn_desktop.model.training.tasks import TASKS

from tests.support.project_root import ROOT

pytestmark = pytest.mark.slow  # every test runs the app's train command in a child process


def run(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "attn_desktop", "train", *args], check=False, cwd=ROOT, capture_output=True,
        text=True, timeout=120, env=env,
    )


def test_train_reverse_writes_a_head_that_reverses(tmp_path):
    out = tmp_path / "reverse.json"
    done = run("reverse", "--steps", "300", "--seed", "3", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["task"] == "reverse" and document["vocab"] == list("0123456789")
    assert document["seq_len"] == 5 and document["causal"] is False and document["optimiser"] == "Adam"
    assert document["metrics"]["steps"] == 300 and document["metrics"]["accuracy"] >= 0.99
    assert 0 < document["metrics"]["loss"] < 0.1
    model = document["model"]
    shapes = {name: np.shape(model[name]) for name in ("embed", "pos", "w_q", "w_k", "w_v", "w_o", "b_o")}
    d_model = shapes["embed"][1]
    assert shapes == {"embed": (10, d_model), "pos": (5, d_model), "w_q": (d_model, 2), "w_k": (d_model, 2),
                      "w_v": (d_model, 2), "w_o": (2, 10), "b_o": (10,)}
    example = document["example"]
    assert example["tokens"] == ["3", "1", "4", "1", "5"] and example["answers"] == ["5", "1", "4", "1", "3"]
    assert np.shape(example["queries"]) == np.shape(example["keys"]) == (5, 2) and np.shape(example["values"]) == (5, 2)
    weights = np.array(example["weights"])
    assert weights.argmax(axis=1).tolist() == [4, 3, 2, 1, 0]  # the anti-diagonal
    # The written numbers are the head: running it again gives the written weights.
    params = params_from_lists(TASKS["reverse"], model)
    np.testing.assert_allclose(forward(params, example["token_ids"], False).weights, weights, rtol=0, atol=1e-12)


def test_one_progress_line_per_tenth_with_loss_and_accuracy(tmp_path):
    done = run("previous-token", "--steps", "50", "-o", str(tmp_path / "out.json"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    progress = [line for line in lines if "%  step " in line]
    assert [line.split("%")[0].strip() for line in progress] == [str(p) for p in range(10, 101, 10)]
    assert progress[0].split()[2] == "5/50" and progress[-1].split()[2] == "50/50"
    assert all(" loss " in line and " accuracy " in line for line in progress)
    first_loss, last_loss = (float(line.split(" loss ")[1].split()[0]) for line in (progress[0], progress[-1]))
    assert last_loss < first_loss
    assert lines[0].startswith("training previous-token: 50 steps of Adam")
    assert lines[-1].startswith("wrote ") and "on 1,000 fresh sequences" in lines[-1]


def test_fewer_steps_than_ten_prints_a_line_per_step_and_no_more(tmp_path):
    done = run("it-noun", "--steps", "3", "-o", str(tmp_path / "out.json"))
    assert done.returncode == 0, done.stderr
    assert sum("%  step " in line for line in done.stdout.splitlines()) == 3


def test_the_same_seed_writes_the_same_head_and_another_seed_another(tmp_path):
    outputs = []
    for name, seed in (("a", "5"), ("b", "5"), ("c", "6")):
        out = tmp_path / f"{name}.json"
        assert run("it-noun", "--steps", "40", "--seed", seed, "-o", str(out)).returncode == 0
        outputs.append(json.loads(out.read_text(encoding="utf-8")))
    assert outputs[0]["model"] == outputs[1]["model"]
    assert outputs[0]["model"]["w_q"] != outputs[2]["model"]["w_q"]


def test_training_imports_no_qt(tmp_path):
    code = (
        "import sys\n"
        "from attn_desktop.cli import main\n"
        f"code = main(['train', 'reverse', '--steps', '5', '-o', {str(tmp_path / 'out.json')!r}])\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph', 'PyQt6'))\n"
        "print('QT', loaded, code)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=False, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "QT [] 0"


def test_training_works_with_no_display_at_all(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    done = run("reverse", "--steps", "20", "-o", str(tmp_path / "out.json"), env=env)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    "args, expected",
    [
        (["reverso"], "unknown task 'reverso'; choose one of reverse, previous-token, it-noun, induction"),
        (["reverse", "--steps", "0"], "--steps: expected a whole number from 1 to 1,000,000, found '0'"),
        (["reverse", "--steps", "-5"], "--steps: expected a whole number"),
        (["reverse", "--steps", "ten"], "--steps: expected a whole number"),
        (["reverse", "--steps", "2.5"], "--steps: expected a whole number"),
        (["reverse", "--steps", "1e3"], "--steps: expected a whole number"),
        (["reverse", "--steps", "99999999999"], "--steps: expected a whole number from 1 to 1,000,000"),
        (["reverse", "--seed", "-1"], "--seed: expected a whole number from 0"),
        (["reverse", "--seed", "abc"], "--seed: expected a whole number"),
        (["reverse", "--lr", "0"], "--lr: expected a number from 0.0001 to 1 such as 0.02, found '0'"),
        (["reverse", "--lr", "-0.1"], "--lr: expected a number from 0.0001 to 1"),
        (["reverse", "--lr", "nan"], "--lr: expected a number from 0.0001 to 1"),
        (["reverse", "--lr", "inf"], "--lr: expected a number from 0.0001 to 1"),
        (["reverse", "--lr", "fast"], "--lr: expected a number from 0.0001 to 1"),
        # Rates that used to blow the head up (a traceback from the JSON writer, or a useless head written).
        (["reverse", "--lr", "1e200"], "--lr: expected a number from 0.0001 to 1 such as 0.02, found '1e200'"),
        (["previous-token", "--lr", "1e120"], "--lr: expected a number from 0.0001 to 1"),
        (["it-noun", "--lr", "1e308"], "--lr: expected a number from 0.0001 to 1"),
        (["it-noun", "--lr", "1e100"], "--lr: expected a number from 0.0001 to 1"),
    ],
)
def test_bad_arguments_exit_2_with_one_line_and_write_nothing(tmp_path, args, expected):
    out = tmp_path / "out.json"
    done = run(*args, "-o", str(out))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("attn-desktop: error: ") and expected in lines[0], lines[0]
    assert not out.exists() and done.stdout == ""


def test_missing_output_is_one_line_too():
    done = run("reverse")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "-o/--output" in done.stderr and "attn-desktop train --help" in done.stderr


def test_an_output_that_is_a_folder_is_refused_before_training(tmp_path):
    done = run("reverse", "-o", str(tmp_path))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "it is a folder, not a file" in done.stderr and done.stdout == ""


def test_an_output_in_a_missing_folder_is_refused(tmp_path):
    out = tmp_path / "no such folder" / "out.json"
    done = run("reverse", "-o", str(out))
    assert done.returncode == 2 and "cannot write there (no such folder)" in done.stderr
    assert not out.parent.exists()


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write into any folder")
def test_an_unwritable_folder_is_refused_and_left_empty(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        done = run("reverse", "-o", str(folder / "out.json"))
    finally:
        folder.chmod(0o700)
    assert done.returncode == 2 and "the folder is not writable" in done.stderr
    assert list(folder.iterdir()) == []


def test_a_read_only_output_is_left_as_it_was(tmp_path):
    out = tmp_path / "kept.json"
    out.write_text("earlier results", encoding="utf-8")
    out.chmod(0o444)
    done = run("reverse", "--steps", "5", "-o", str(out))
    assert done.returncode == 2 and "marked read-only" in done.stderr and done.stdout == ""
    assert out.read_text(encoding="utf-8") == "earlier results"


def test_an_existing_output_is_replaced_whole(tmp_path):
    out = tmp_path / "head.json"
    out.write_text("an older head", encoding="utf-8")
    assert run("previous-token", "--steps", "10", "-o", str(out)).returncode == 0
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["task"] == "previous-token" and document["causal"] is True
    assert sorted(path.name for path in tmp_path.iterdir()) == ["head.json"]  # no temporary left beside it


def test_help_names_the_tasks():
    done = run("--help")
    assert done.returncode == 0
    assert "reverse, previous-token, it-noun" in done.stdout and "--lr" in done.stdout
    assert "learning rate, from 0.0001 to 1" in " ".join(done.stdout.split())


def test_train_induction_writes_two_layers_every_head_s_attention_and_where_the_loss_dropped(tmp_path):
    from attn_desktop.model.training.induction_task import INDUCTION
    from attn_desktop.model.training.layered_maths import forward as layered_forward
    from attn_desktop.model.training.layered_params import layered_params_from_lists

    out = tmp_path / "induction.json"
    done = run("induction", "--steps", "500", "--seed", "1", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert "the loss dropped from its plateau at step" in done.stdout
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["task"] == "induction" and document["vocab"] == list("ABCDEFGHIJKLMNOPQRSTUVWX")
    assert document["seq_len"] == 20 and document["causal"] is True
    assert document["metrics"]["steps"] == 500 and document["metrics"]["accuracy"] >= 0.85
    assert 100 < document["metrics"]["loss_drop_step"] < 400
    model = document["model"]
    assert [len(layer["heads"]) for layer in model["layers"]] == [1, 1]
    assert np.shape(model["layers"][0]["heads"][0]["w_q"]) == (32, 16) and np.shape(model["w_u"]) == (32, 24)
    example = document["example"]
    params = layered_params_from_lists(INDUCTION, model)
    reproduced = layered_forward(params, example["token_ids"])
    for layer, weights in enumerate(example["attention"]):
        assert np.abs(np.array(weights[0]) - reproduced.attention(layer, 0)).max() < 1e-9
