"""What the command line says to a user: every command's --help as printed, the model pack's hint,
and the line a window start with no display prints instead of Qt's abort."""

import pytest

from attn_desktop.cli import HEADLESS_COMMANDS, main


def _help_of(command: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", [[], *([name] for name in HEADLESS_COMMANDS)], ids=lambda c: c[0] if c else "app")
def test_every_help_shows_a_percent_sign_once(command, capsys):
    text = _help_of(command, capsys)
    assert "%%" not in text and "%(" not in text, text


def test_train_help_says_every_ten_percent(capsys):
    assert "every 10%," in " ".join(_help_of(["train"], capsys).split())


def test_snapshot_help_says_two_hundred_percent(capsys):
    assert "at 200%)" in " ".join(_help_of(["snapshot"], capsys).split())
