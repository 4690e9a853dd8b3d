"""`attn-desktop snapshot` run as a user runs it, in a child process (its screen is set before Qt starts),
with a home, settings and data folder of its own under the test's temporary folder."""

import os
import subprocess
import sys

from attn_desktop.model.pretrained.weights_cache import CACHE_DIR_VARIABLE

from tests.support.project_root import ROOT
from tests.support.real_model_cache import real_model_cache_dir


def run_snapshot(tmp_path, *args: str, steps: str | None = None) -> subprocess.CompletedProcess:
    """The command with ARGS (and --steps STEPS), drawing tmp_path/out.png and auditing into tmp_path/audit.json."""
    user = tmp_path / "user"
    env = {**{key: value for key, value in os.environ.items() if key.startswith(("PYTHON", "LANG", "LC_", "PATH"))},
           "HOME": str(user), "XDG_CONFIG_HOME": str(user / "config"), "ATTN_DESKTOP_DATA_DIR": str(user / "data"),
           # A walk that opens the real model reads it from the session's cache of it (the first one writes it).
           CACHE_DIR_VARIABLE: str(real_model_cache_dir())}
    command = [sys.executable, "-m", "attn_desktop", "snapshot", "-o", str(tmp_path / "out.png"),
               "--audit", str(tmp_path / "audit.json"), *args]
    if steps is not None:
        command += ["--steps", steps]
    return subprocess.run(command, check=False, cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)


def assert_one_line_error(done: subprocess.CompletedProcess, *words: str) -> None:
    """Refused as the command refuses bad input: exit 2, one line on stderr naming WORDS."""
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("attn-desktop: error:")
    for word in words:
        assert word in lines[0]
