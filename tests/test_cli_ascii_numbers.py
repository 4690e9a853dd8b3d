"""Every number on the command line is read as the walk's steps read theirs: ASCII digits only. Python's int() and
float() take "٣", "０.１" and "1_0"; a command takes none of them, and says so in one line with exit code 2 before
any work (no model loaded, no window built, nothing written)."""

import pytest

from attn_desktop.cli import main


def _exit_code(argv):
    try:
        return main(argv)
    except SystemExit as exited:  # argparse's one-line refusal
        return exited.code


@pytest.mark.parametrize("command", [
    ["snapshot", "--size", "０１０２４x768"],
    ["snapshot", "--size", "1024x٧٦٨"],
    ["snapshot", "--size", "1024x768", "--scale", "２"],
    ["snapshot", "--size", "1024x768", "--scale", "1_5"],
    ["train", "reverse", "--steps", "٥"],
    ["train", "reverse", "--steps", "1_0"],
    ["train", "reverse", "--seed", "١"],
    ["train", "reverse", "--lr", "０.１"],
    ["train", "reverse", "--lr", "0.0_1"],
    ["induction", "--length", "٣"],
    ["induction", "--length", "1_0"],
    ["induction", "--seed", "١"],
    ["induction", "--seed", "²"],
    ["heads", "the cat", "--temperature", "１"],
    ["heads", "the cat", "--temperature", "1_0"],
    ["export", "SCENE", "--scale", "２"],
])
def test_a_number_not_in_ascii_digits_is_refused_in_one_line(command, tmp_path, capsys):
    from attn_desktop.paths import DEFAULT_SCENE, scene_path

    command = [str(scene_path(DEFAULT_SCENE)) if part == "SCENE" else part for part in command]
    output = tmp_path / ("out.png" if command[0] in ("snapshot", "export") else "out.json")
    assert _exit_code([*command, "-o", str(output)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("attn-desktop: error:") and len(err.strip().splitlines()) == 1, err
    assert not output.exists()


@pytest.mark.parametrize("command", [["induction", "--length", "12", "--seed", "7"],
                                     ["train", "reverse", "--steps", "3", "--seed", "2", "--lr", "0.02"]])
def test_plain_ascii_numbers_are_still_taken(command, tmp_path, monkeypatch):
    from attn_desktop.cli import induction, train

    taken = {}
    monkeypatch.setattr(induction, "_probe_and_write", lambda *args: taken.setdefault("args", args) and 0)
    monkeypatch.setattr(train, "_train_and_write", lambda *args: taken.setdefault("args", args) and 0)
    assert _exit_code([*command, "-o", str(tmp_path / "out.json")]) == 0
    numbers = [value for value in taken["args"] if isinstance(value, (int, float))]
    assert numbers == ([12, 7] if command[0] == "induction" else [3, 2, 0.02])
