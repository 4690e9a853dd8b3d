"""The standalone app's two budgets: its size on disk and how fast it paints its first window.

Run by hand from the project root after ``python packaging/build.py`` (it prints figures; it checks nothing):

    python bench/frozen_app.py [--startup-runs 5]

* Size: dist/attn-desktop/ as ``du`` counts it (allocated blocks), and the ten largest files, so a
  change that grows the bundle shows where.
* Cold start: dist/attn-desktop/attn-desktop --quit-after-paint is launched a few times, offscreen;
  the app prints the wall-clock time of its first paint and quits (the same clock as bench/latency.py).

The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import sys

from bench_targets import verdict
from cold_start import PROJECT_ROOT, bench_startup  # bench/ is this script's folder, so it is on sys.path

sys.path.insert(0, str(PROJECT_ROOT / "packaging"))
from bundle_files import SIZE_BUDGET_MB, disk_usage_mb

BUNDLE = PROJECT_ROOT / "dist" / "attn-desktop"
APP = BUNDLE / ("attn-desktop.exe" if sys.platform == "win32" else "attn-desktop")
STARTUP_BUDGET_S = 2.5
LARGEST_SHOWN = 10


def print_size() -> float:
    size = disk_usage_mb(BUNDLE)
    print(f"bundle {BUNDLE.relative_to(PROJECT_ROOT)}: {size:.1f} MB {verdict(size, SIZE_BUDGET_MB, 'MB')}")
    files = sorted((path for path in BUNDLE.rglob("*") if path.is_file() and not path.is_symlink()),
                   key=lambda path: path.stat().st_size, reverse=True)
    for path in files[:LARGEST_SHOWN]:
        print(f"  {path.stat().st_size / 2**20:6.1f} MB  {path.relative_to(BUNDLE)}")
    return size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--startup-runs", type=int, default=5, help="cold starts to time (default 5)")
    args = parser.parse_args(argv)
    if not APP.is_file():
        print(f"no frozen app at {APP.relative_to(PROJECT_ROOT)}: build it with python packaging/build.py",
              file=sys.stderr)
        return 2
    size = print_size()
    startup, own_peak = bench_startup(args.startup_runs, app=[str(APP)], target_s=STARTUP_BUDGET_S)
    if own_peak is not None:
        print(f"  the frozen app's own peak RSS at first paint: {own_peak:.1f} MB")
    print(json.dumps({
        "bundle_mb": round(size, 1),
        "startup_s": None if startup is None else round(startup, 3),
        "peak_rss_mb": None if own_peak is None else round(own_peak, 1),
    }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
