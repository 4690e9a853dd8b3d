"""Every command's argument mistakes are the one promised line on standard error and exit code 2, with no usage
block above it: the window's own command line and snapshot's as much as export's, train's, heads' and
induction's."""

import pytest

from attn_desktop.cli import HEADLESS_COMMANDS, main

PREFIX = "attn-desktop: error: "
COMMANDS = [[], *([name] for name in HEADLESS_COMMANDS)]


def one_error_line(capsys, argv) -> str:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    stderr = capsys.readouterr().err
    assert stopped.value.code == 2, stderr
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(PREFIX) and "usage:" not in stderr, stderr
    return lines[0]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0] if command else "window")
def test_an_unknown_option_is_one_line(capsys, command):
    line = one_error_line(capsys, [*command, "--no-such-option"])  # (or the arguments it lacks, said first)
    assert f"see {' '.join(['attn-desktop', *command])} --help" in line


def test_a_snapshot_without_its_output_is_one_line(capsys):
    assert "-o/--output" in one_error_line(capsys, ["snapshot", "--size", "1024x768"])


def test_the_window_given_two_scenes_is_one_line(capsys):
    assert "unrecognized arguments: b.json" in one_error_line(capsys, ["a.json", "b.json"])
