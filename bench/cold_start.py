"""How fast the app paints its first window, and the memory it takes: the app launched a few times with
--quit-after-paint (it prints the wall-clock time of its first paint and quits). Used by latency.py and
frozen_app.py."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bench_targets import TARGETS, verdict

PROJECT_ROOT = Path(__file__).resolve().parents[1]
STARTUP_TIMEOUT_S = 60.0


@dataclass
class ColdStart:
    seconds: float  # from just before launching to the first paint
    own_peak_mb: float | None  # the child's own peak RSS up to its first paint


def own_peak_rss_mb(pid: int) -> float | None:
    """A live process's own peak RSS (VmHWM), in MB; None once it has gone.

    Not ru_maxrss: Linux carries the peak of the address space a process
    replaces in exec() into its ru_maxrss, and subprocess spawns with vfork,
    so each child's ru_maxrss starts at this (large) process's peak.
    """
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024  # kB
    return None


SOURCE_APP = [sys.executable, "-m", "attn_desktop"]


def one_cold_start(app: list[str]) -> ColdStart | None:
    """Launch the app once and read its first-paint time, or None if it never painted."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    command = [*app, "--quit-after-paint"]
    with tempfile.TemporaryFile("w+") as errors:  # a file, so a chatty child cannot block on a full pipe
        launched = time.time()
        child = subprocess.Popen(command, cwd=PROJECT_ROOT, env=env, stdout=subprocess.PIPE, stderr=errors, text=True)
        watchdog = threading.Timer(STARTUP_TIMEOUT_S, child.kill)
        watchdog.start()
        result = None
        for line in child.stdout:
            if line.startswith("first-paint "):
                # Read the peak now: the app quits right after printing this.
                result = ColdStart(float(line.split()[1]) - launched, own_peak_rss_mb(child.pid))
                break
        child.communicate()
        watchdog.cancel()
        if result is None:
            errors.seek(0)
            said = errors.read().strip()[-300:]
            print(f"  a start-up run printed no first-paint line (exit {child.returncode}): {said}")
        return result


def bench_startup(runs: int, app: list[str] = SOURCE_APP, target_s: float = TARGETS["startup_s"]
                  ) -> tuple[float | None, float | None]:
    """The median start-up time in seconds, and the largest child's own peak RSS in MB."""
    starts = [start for start in (one_cold_start(app) for _ in range(runs)) if start is not None]
    if not starts:
        return None, None
    seconds = [start.seconds for start in starts]
    peaks = [start.own_peak_mb for start in starts if start.own_peak_mb is not None]
    median = statistics.median(seconds)
    print(f"start-up ({len(starts)}/{runs} runs, s): {' '.join(f'{t:.3f}' for t in seconds)}")
    print(f"  median {median:.3f} s  {verdict(median, target_s, 's')}")
    return median, max(peaks, default=None)


def rusage_peak_rss_mb() -> tuple[float, float]:
    """ru_maxrss of this process and of its largest child, in MB (ru_maxrss is KiB on Linux)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children
