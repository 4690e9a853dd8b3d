"""Ctrl+C in the terminal stops every headless command as `train` stops: one line on standard error, exit
code 130 (as a shell reports it), no traceback, no crash, and nothing written (an earlier output stays as it
was). Snapshot and export's pictures build the real window: Ctrl+C must not unwind through its Qt callbacks.

Each command runs as `python -m attn_desktop` in a child process with Ctrl+C's usual disposition (a shell
running the tests in the background would have it ignored), and gets SIGINT once it is busy.
"""

import os
import signal
import subprocess
import sys
import time

import pytest

from attn_desktop.paths import DEFAULT_SCENE, scene_path

from tests.support.project_root import ROOT

pytestmark = [
    pytest.mark.slow,  # each case starts the app's command line in a child process
    pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process is a POSIX matter"),
]

EARLIER_OUTPUT = b"an earlier output, to be left as it was\n"


# Ctrl+C's usual disposition restored (ignored if the tests run in a background job), then the command itself.
AS_FROM_A_TERMINAL = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                      "os.execv(sys.executable, [sys.executable, '-m', 'attn_desktop', *sys.argv[1:]])")


def _interrupt(tmp_path, arguments, busy_after_s):
    """Run the command, send SIGINT BUSY_AFTER_S seconds after it started; (exit code, stderr)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "ATTN_DESKTOP_DATA_DIR": str(tmp_path / "data")}
    process = subprocess.Popen([sys.executable, "-c", AS_FROM_A_TERMINAL, *arguments], cwd=ROOT, env=env,
                               text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(busy_after_s)
        assert process.poll() is None, "the command ended before Ctrl+C: make it longer"
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, stderr


def _assert_stopped_cleanly(code, stderr, output):
    assert code == 130, (code, stderr)
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr
    assert output.read_bytes() == EARLIER_OUTPUT  # nothing written over it
    assert sorted(path.name for path in output.parent.iterdir() if path.name.startswith(output.name)) == [output.name]


def test_ctrl_c_stops_a_snapshot_walk_cleanly(tmp_path):
    output = tmp_path / "walk.png"
    output.write_bytes(EARLIER_OUTPUT)
    code, stderr = _interrupt(tmp_path, ["snapshot", "-o", str(output), "--size", "1024x768",
                                         "--steps", ",".join(["restart"] * 40)], busy_after_s=8)
    _assert_stopped_cleanly(code, stderr, output)


def test_ctrl_c_stops_a_picture_export_cleanly(tmp_path):
    output = tmp_path / "picture.png"
    output.write_bytes(EARLIER_OUTPUT)
    code, stderr = _interrupt(tmp_path, ["export", str(scene_path(DEFAULT_SCENE)), "-o", str(output),
                                         "--scale", "8"], busy_after_s=1.5)
    _assert_stopped_cleanly(code, stderr, output)


def test_ctrl_c_while_a_model_reads_is_one_line_and_exit_130(monkeypatch, tmp_path, capsys):
    """Ctrl+C arrives as KeyboardInterrupt in the middle of the model's arithmetic (no Qt in this command)."""
    pytest.importorskip("gguf")
    pytest.importorskip("tokenizers")
    from attn_desktop.cli import main
    from attn_desktop.model.pretrained import induction

    from tests.support.tiny_llama import write_tiny_llama

    model = tmp_path / "tiny.gguf"
    write_tiny_llama(model)

    def pressed_ctrl_c(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(induction, "probe_induction", pressed_ctrl_c)
    output = tmp_path / "induction.json"
    output.write_bytes(EARLIER_OUTPUT)
    assert main(["induction", "--model", str(model), "-o", str(output)]) == 130
    stderr = capsys.readouterr().err
    assert len(stderr.strip().splitlines()) == 1 and "Ctrl+C" in stderr, stderr
    assert output.read_bytes() == EARLIER_OUTPUT
