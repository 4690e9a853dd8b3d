"""The app's matrix products run on one BLAS thread, fixed before NumPy loads and never changed later.

Changing OpenBLAS's thread count while another thread multiplies (the model's thread, the
training's) is not thread-safe and can hang the whole app; so the count is set once, by the
environment, when the package is first imported. Checked in a fresh interpreter, the way the app
starts, by asking the BLAS library itself (threadpoolctl reads it; the test skips without it).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("threadpoolctl")

PROJECT = Path(__file__).resolve().parents[1]

READ_BLAS_THREADS = """
import json, attn_desktop.cli, numpy
numpy.ones((64, 64)) @ numpy.ones((64, 64))
from threadpoolctl import threadpool_info
print(json.dumps([pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]))
"""


def blas_threads_at_start(**environment: str) -> list[int]:
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    env.update(environment)
    done = subprocess.run([sys.executable, "-c", READ_BLAS_THREADS], cwd=PROJECT, env=env,
                          capture_output=True, text=True, timeout=120, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_the_app_starts_numpy_with_one_blas_thread():
    threads = blas_threads_at_start()
    assert threads, "NumPy's BLAS library was not found"
    assert set(threads) == {1}


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: a second BLAS thread cannot be asked for")
@pytest.mark.slow
def test_a_thread_count_set_by_the_user_is_kept():
    assert set(blas_threads_at_start(OPENBLAS_NUM_THREADS="2")) == {2}


def test_nothing_in_the_app_changes_blas_threads_while_it_runs():
    sources = [path for path in (PROJECT / "attn_desktop").rglob("*.py")]
    changing = [path.name for path in sources
                if "threadpool_limits" in path.read_text(encoding="utf-8")
                or "set_num_threads" in path.read_text(encoding="utf-8")]
    assert changing == []
