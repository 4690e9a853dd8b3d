"""The standalone app's two budgets: its size on disk and how fast it paints its first window.

Run by hand from the project root after ``python packaging/build.py`` (it prints figures; it checks nothing):

    python bench/frozen_app.py [--startup-runs 5]

* Size: dist/attn-desktop/ as ``du`` counts it (allocated blocks), the Debian package's size if one is in
  dist/, and the 30 largest files with what needs each (bench/bundle_contents.py), so a change that grows
  the bundle shows where.
* Cold start: dist/attn-desktop/attn-desktop --quit-after-paint is launched a few times, offscreen;
  the app prints the wall-clock time of its first paint and quits (the same clock as bench/latency.py).

The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import json
import sys

from bundle_contents import largest_files

from bench_targets import verdict
from cold_start import PROJECT_ROOT, bench_startup  # bench/ is this script's folder, so it is on sys.path

sys.path.insert(0, str(PROJECT_ROOT / "packaging"))
from bundle_files import DEB_BUDGET_MIB, SIZE_BUDGET_MB, disk_usage_mb

BUNDLE = PROJECT_ROOT / "dist" / "attn-desktop"
APP = BUNDLE / ("attn-desktop.exe" if sys.platform == "win32" else "attn-desktop")
STARTUP_BUDGET_S = 2.5
LARGEST_SHOWN = 30


def print_size() -> float:
    size = disk_usage_mb(BUNDLE)
    print(f"bundle {BUNDLE.relative_to(PROJECT_ROOT)}: {size:.1f} MB {verdict(size, SIZE_BUDGET_MB, 'MB')}")
    for line in largest_files(BUNDLE, LARGEST_SHOWN):
        print(f"  {line}")
    return size


def print_deb_size() -> float | None:
    debs = sorted(BUNDLE.parent.glob("attn-desktop_*.deb"))
    if not debs:
        return None
    size = debs[-1].stat().st_size / 2**20
    print(f"package {debs[-1].relative_to(PROJECT_ROOT)}: {size:.1f} MiB {verdict(size, DEB_BUDGET_MIB, 'MiB')}")
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
    deb_size = print_deb_size()
    startup, own_peak = bench_startup(args.startup_runs, app=[str(APP)], target_s=STARTUP_BUDGET_S)
    if own_peak is not None:
        print(f"  the frozen app's own peak RSS at first paint: {own_peak:.1f} MB")
    print(json.dumps({
        "bundle_mb": round(size, 1),
        "deb_mib": None if deb_size is None else round(deb_size, 1),
        "startup_s": None if startup is None else round(startup, 3),
        "peak_rss_mb": None if own_peak is None else round(own_peak, 1),
    }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
