"""attn-desktop train with a learning rate far too large: one line, exit 2, nothing written, no warning.

Run through the command's main() in this process (the child-process runs are in test_cli_train.py). The
rates --help offers never diverge, so the divergence cases widen the range for the test: a user whose
run diverges anyway gets the same one line.
"""

import re
import warnings

import pytest

from attn_desktop.cli import main
from attn_desktop.model.training import training
from attn_desktop.model.training.tasks import TASKS


@pytest.fixture(autouse=True)
def warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def train(capsys, *args):
    code = main(["train", *args])
    printed = capsys.readouterr()
    return code, printed.out, printed.err


@pytest.mark.parametrize("lr", ["1e200", "1e120", "1e308", "1e100", "1.5", "0.00005", "-1", "nan", "inf", "1e999"])
@pytest.mark.parametrize("name", list(TASKS))
def test_a_rate_outside_the_range_is_one_line_before_any_training(capsys, tmp_path, name, lr):
    out = tmp_path / "out.json"
    code, stdout, stderr = train(capsys, name, "--steps", "50", "--lr", lr, "-o", str(out))
    assert code == 2 and stdout == "" and not out.exists()
    assert stderr == f"attn-desktop: error: --lr: expected a number from 0.0001 to 1 such as 0.02, found {lr!r}\n"


@pytest.mark.parametrize("lr", ["0.0001", "1"])
def test_both_ends_of_the_range_train_and_write(capsys, tmp_path, lr):
    out = tmp_path / "out.json"
    code, _stdout, stderr = train(capsys, "reverse", "--steps", "20", "--lr", lr, "-o", str(out))
    assert (code, stderr) == (0, "") and out.exists()


def test_help_states_the_range(capsys):
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    assert re.search(r"learning rate, from 0\.0001\s+to 1\b", capsys.readouterr().out)


@pytest.mark.parametrize("lr", ["1e120", "1e200", "1e308"])
@pytest.mark.parametrize("name", list(TASKS))
def test_a_run_that_diverges_stops_with_one_line_and_writes_nothing(capsys, tmp_path, monkeypatch, name, lr):
    monkeypatch.setattr(training, "MAX_LEARNING_RATE", 1e308)
    out = tmp_path / "out.json"
    code, stdout, stderr = train(capsys, name, "--steps", "50", "--lr", lr, "-o", str(out))
    assert code == 2 and not out.exists()
    assert re.fullmatch(r"attn-desktop: error: the (loss|gradient) became NaN at step 2: try a smaller --lr\n",
                        stderr), stderr
    assert "wrote" not in stdout


def test_a_head_blown_up_by_its_last_step_is_not_written(capsys, tmp_path, monkeypatch):
    """One step of 1e100 leaves weights no loss has measured yet: their example overflows, and JSON holds no NaN."""
    monkeypatch.setattr(training, "MAX_LEARNING_RATE", 1e308)
    out = tmp_path / "out.json"
    code, _stdout, stderr = train(capsys, "previous-token", "--steps", "1", "--lr", "1e100", "-o", str(out))
    assert code == 2 and not out.exists()
    assert stderr == "attn-desktop: error: the trained head's numbers are too large to write: try a smaller --lr\n"
