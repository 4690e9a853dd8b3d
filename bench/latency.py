"""How fast Attention Desktop answers a drag, how fast it starts, and how much memory it takes.

Run by hand from the project root (it prints figures; it checks nothing):

    python bench/latency.py [--moves 300] [--startup-runs 5]

What it measures:

* Drag latency, at n = 6 tokens (the default scene) and n = 64 (a random
  scene). The real MainWindow is built offscreen, the key arrow of token 1 is
  pressed and then moved around a circle with real mouse events sent to the
  canvas viewport. Each move is timed from just before its mouse event is
  sent until the event loop has recomputed the scene and repainted every
  panel that changed: canvas, score table, matrix, weights chart and output
  panel. Paint events are counted on those widgets, so the clock stops at the
  end of the last event-loop pass that still painted something, and a move
  after which a panel did not repaint is reported.
  A second figure stops the clock when the event has been handled: the scene
  has recomputed and every panel holds the new numbers and has asked Qt for a
  repaint (what a 60 Hz display then shows at its next frame). The headline
  figures are the painted ones.
* The floor: the same window with every visible widget repainted once, in one
  event-loop pass through Qt's backing store (the way a move's paints reach the
  screen), timed at each size. A move cannot cost less than its own share of
  that, and should not cost much more than all of it: the headline ratio is
  painted / floor. (``window.repaint()`` alone is not the floor: Qt keeps the
  pixels of opaque widgets, the canvas, the weights chart and the table
  headers among them, when their parent repaints; it is printed for comparison.)
* The paint floor: after each timed move, outside its clock, the canvas's arrows are replayed with
  the app's own drawing calls in one QPainter pass into an image the size of the canvas (white,
  antialiased, each plot clipped to its view; see paint_floor.py): what the canvas cannot paint
  faster than. Beside it, the canvas's own paintEvent is timed in the real pass (its viewport's
  Paint events are handled by a filter that calls the canvas's viewportEvent between two clocks,
  which leaves the picture as it was: checked once per size). Printed: the paint floor's median,
  the canvas paint's median, and painted, canvas and update (the "updated" median) over the paint
  floor, with their targets.
* One pass of what a move changes: after the drag, the widgets a move painted
  are repainted once more, in one pass, with nothing recomputed. A move that
  paints each of them once and nothing else costs its update time plus this;
  painted / (updated + one pass) near 1 says there is no second pass, no
  layout and no widget painted twice.
* A matplotlib baseline (benchmark-only dependency; see matplotlib_baseline.py):
  the same four panels at the same size, cleared and redrawn with the Agg canvas
  on each move of the same drag, as a notebook would; reported as the ratio
  matplotlib / painted at n = 6.
* Cold start: ``python -m attn_desktop --quit-after-paint`` is launched a few
  times; the app prints the wall-clock time of its first paint and quits.
* Peak resident memory, of this process (which holds the n = 64 window) and
  of the start-up children.

The last line printed is one JSON object with the headline figures: per size the medians and p95s,
the floors, the paint floor (``n6_paint_floor_ms``, ``n64_paint_floor_ms``), the canvas paint
(``n64_canvas_paint_ms``) and the ratios to it (``n6_painted_over_paint_floor``,
``n64_painted_over_paint_floor``, ``n64_canvas_over_paint_floor``, ``n64_update_over_paint_floor``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Before Qt is imported: the benchmark needs no display (a real one may be chosen by setting it).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
PROJECT_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT_ROOT))  # measure the source tree, not an installed copy

import numpy as np
import pyqtgraph as pg
import PySide6
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from attn_desktop.model import Scene
from attn_desktop.model.files.scene_types import DirectScene
from attn_desktop.ui.window.main_window import MainWindow
from attn_desktop.ui.window.startup.app import build_window, make_application

from bench_targets import PAINT_FLOOR_TARGETS, TARGET_MPL_OVER_PAINTED, TARGET_PAINTED_OVER_FLOOR, TARGETS, verdict
from cold_start import bench_startup, rusage_peak_rss_mb
from drag_timing import DragRun, timed_drag
from paint_watch import FLOOR_REPEATS, full_repaint_ms, visible_widgets

WINDOW_SIZE = (1320, 880)
MPL_MOVES = 40  # a matplotlib redraw takes a good part of a second: fewer moves give a steady median


# ----- the floor ---------------------------------------------------------
def bench_floor(app: QApplication, window: MainWindow, n: int) -> float:
    """The median time to repaint the whole window; printed with window.repaint() for comparison."""
    show(app, window)
    full = [full_repaint_ms(app, window) for _ in range(FLOOR_REPEATS)]
    painted_widgets = full[-1][1]
    floor = statistics.median(elapsed for elapsed, _ in full)
    repaint_only = []
    for _ in range(FLOOR_REPEATS):
        began = time.perf_counter_ns()
        window.repaint()
        repaint_only.append((time.perf_counter_ns() - began) / 1e6)
    print(f"floor at n={n}: every visible widget repainted once ({painted_widgets} of "
          f"{len(visible_widgets(window))} painted): median {floor:.2f} ms")
    print(f"  (window.repaint() alone, which keeps the opaque widgets' pixels: {statistics.median(repaint_only):.2f} ms)")
    return floor


# ----- windows -------------------------------------------------------------
def random_scene(n: int) -> Scene:
    rng = np.random.default_rng(0)
    data = DirectScene(
        tokens=[f"t{i}" for i in range(n)],
        queries=rng.uniform(-2, 2, (n, 2)).tolist(),
        keys=rng.uniform(-2, 2, (n, 2)).tolist(),
        values=rng.uniform(-2, 2, (n, 2)).tolist(),
        scale=True,
        selected=0,
        title=f"{n} random tokens",
    )
    return Scene(data)


def show(app: QApplication, window: MainWindow) -> None:
    window.resize(*WINDOW_SIZE)
    window.show()
    # Let the first layout and paint settle so they are not timed as a move.
    for _ in range(5):
        app.processEvents()


def close(app: QApplication, window: MainWindow) -> None:
    window.history.reset()  # the benchmark's drags are not work to save: close without asking
    window.close()
    window.deleteLater()
    for _ in range(3):
        app.processEvents()


def bench_drag(app: QApplication, window: MainWindow, n: int, moves: int) -> tuple[dict, dict, float, dict]:
    """Figures until painted, and until updated (before any paint), the floor of the same window, and the
    figures against the paint floor (see paint_floor_figures)."""
    floor = bench_floor(app, window, n)
    run = timed_drag(app, window, moves)
    close(app, window)
    painted, updated = summarize(run.times_ms), summarize(run.update_ms)
    print_drag(n, run, painted, updated)
    ratio = painted["median"] / floor
    print(f"  painted / floor: {ratio:.2f} {verdict(ratio, TARGET_PAINTED_OVER_FLOOR, '×')}")
    one_pass = updated["median"] + run.one_pass_ms
    print(f"  one pass of what a move changes ({run.widgets_per_move} widgets): {run.one_pass_ms:.2f} ms; "
          f"painted / (updated + one pass): {painted['median'] / one_pass:.2f}")
    return painted, updated, floor, paint_floor_figures(n, run, painted, updated)


def paint_floor_figures(n: int, run: DragRun, painted: dict, updated: dict) -> dict[str, float]:
    """The paint floor's and the canvas paint's medians, and the move's times over the paint floor; printed."""
    paint_floor = statistics.median(run.paint_floor_ms)
    canvas = statistics.median(run.canvas_paint_ms)
    figures = {
        f"n{n}_paint_floor_ms": paint_floor,
        f"n{n}_canvas_paint_ms": canvas,
        f"n{n}_painted_over_paint_floor": painted["median"] / paint_floor,
        f"n{n}_canvas_over_paint_floor": canvas / paint_floor,
        f"n{n}_update_over_paint_floor": updated["median"] / paint_floor,
    }
    same = "the same picture as Qt's own delivery" if run.same_canvas_picture else "A DIFFERENT PICTURE (check)"
    print(f"  paint floor (the canvas's arrows replayed in one painter pass after each move): "
          f"median {paint_floor:.2f} ms")
    print(f"  canvas paintEvent per move: median {canvas:.2f} ms (timed in the real pass; {same})")
    for what, key in (("painted", "painted"), ("canvas", "canvas"), ("update", "update")):
        name = f"n{n}_{key}_over_paint_floor"
        note = verdict(figures[name], PAINT_FLOOR_TARGETS[name], "×") if name in PAINT_FLOOR_TARGETS else ""
        print(f"  {what} / paint floor: {figures[name]:.2f} {note}")
    return figures


def bench_matplotlib(scene: Scene, painted_median_ms: float, moves: int) -> float | None:
    """The matplotlib redraw's median per move, and its ratio to the app's painted median; None without it."""
    import matplotlib_baseline  # only now: matplotlib in this process would inflate the memory figures

    if not matplotlib_baseline.available():
        print("matplotlib baseline: matplotlib is not installed (pip install matplotlib): skipped")
        return None
    times = matplotlib_baseline.timed_drag(scene, moves, WINDOW_SIZE)
    median = statistics.median(times)
    ratio = median / painted_median_ms
    print(f"matplotlib baseline at n={scene.n_tokens} ({len(times)} moves, Agg, {WINDOW_SIZE[0]}×{WINDOW_SIZE[1]} px): "
          f"median {median:.1f} ms, p95 {np.percentile(times, 95):.1f} ms")
    print(f"  matplotlib / painted: {ratio:.1f} (target >= {TARGET_MPL_OVER_PAINTED:g}: "
          f"{'ok' if ratio >= TARGET_MPL_OVER_PAINTED else 'MISSED'})")
    return ratio


def summarize(times_ms: list[float]) -> dict[str, float]:
    return {
        "median": statistics.median(times_ms),
        "p95": float(np.percentile(times_ms, 95)),
        "max": max(times_ms),
        "count": len(times_ms),
    }


# ----- printing ----------------------------------------------------------
def print_drag(n: int, run: DragRun, figures: dict[str, float], updated: dict[str, float]) -> None:
    print(f"drag at n={n}: {figures['count']} moves of {run.label}, ms per move")
    median_key, p95_key = f"n{n}_median_ms", f"n{n}_p95_ms"
    for name, numbers in (("event sent -> all panels painted", figures),
                          ("event sent -> all panels updated, paint requested", updated)):
        median_note = verdict(numbers["median"], TARGETS[median_key], "ms") if median_key in TARGETS else ""
        p95_note = verdict(numbers["p95"], TARGETS[p95_key], "ms") if p95_key in TARGETS else ""
        print(f"  {name}:")
        print(f"    median {numbers['median']:7.2f} {median_note}")
        print(f"    p95    {numbers['p95']:7.2f} {p95_note}")
        print(f"    max    {numbers['max']:7.2f}")
    start, end = np.round(run.start_vector, 3).tolist(), np.round(run.end_vector, 3).tolist()
    moved = not np.array_equal(run.start_vector, run.end_vector)
    print(f"  {run.label} {'moved' if moved else 'DID NOT MOVE'}: {start} -> {end}; "
          f"{run.moves_that_changed}/{figures['count']} timed moves changed it")
    if not run.grabbed_right_arrow:
        print(f"  WARNING: the press did not grab {run.label}; the figures time some other drag")
    if run.moves_missing_paint:
        print(f"  WARNING: moves after which a panel did not repaint: {run.moves_missing_paint}")
    else:
        print("  every timed move repainted canvas, table, matrix and chart")


def print_rss(own: float, children: float, child_own: float | None) -> float:
    peak = max(own, children)
    print(f"peak RSS: drag benchmark (this process, incl. the n=64 window) {own:.1f} MB; "
          f"start-up children {children:.1f} MB by RUSAGE_CHILDREN")
    if child_own is not None:
        # RUSAGE_CHILDREN cannot be below this process's own peak (see own_peak_rss_mb).
        print(f"  a start-up child's own peak (VmHWM at first paint) {child_own:.1f} MB")
    print(f"  peak {peak:.1f} MB {verdict(peak, TARGETS['peak_rss_mb'], 'MB')}")
    return peak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300, help="timed drag moves per scene size (default 300)")
    parser.add_argument("--startup-runs", type=int, default=5, help="cold starts to time (default 5)")
    args = parser.parse_args(argv)

    # The benchmark's windows autosave and remember their layout like the real app;
    # keep that in a temporary folder, away from the user's own.
    scratch = tempfile.mkdtemp(prefix="attn-desktop-bench-")
    os.environ["ATTN_DESKTOP_DATA_DIR"] = scratch
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, scratch)
    app = make_application()  # also sets pyqtgraph's mouseRateLimit=0, as the app does
    print(f"Attention Desktop latency benchmark: Python {sys.version.split()[0]}, PySide6 {PySide6.__version__}, "
          f"pyqtgraph {pg.__version__}, NumPy {np.__version__}, platform {app.platformName()}, "
          f"{os.cpu_count()} CPUs")
    default_window = build_window()
    default_scene = Scene(default_window.scene.to_data())  # a copy, for the matplotlib baseline
    n6, n6_updated, n6_floor, n6_paint = bench_drag(app, default_window, 6, args.moves)
    n64, n64_updated, n64_floor, n64_paint = bench_drag(app, MainWindow(random_scene(64)), 64, args.moves)
    startup, child_own_peak = bench_startup(args.startup_runs)
    peak = print_rss(*rusage_peak_rss_mb(), child_own_peak)
    mpl_over_painted = bench_matplotlib(default_scene, n6["median"], MPL_MOVES)  # after the memory figures

    summary = {
        "n6_median_ms": round(n6["median"], 3),
        "n6_p95_ms": round(n6["p95"], 3),
        "n64_median_ms": round(n64["median"], 3),
        "n64_p95_ms": round(n64["p95"], 3),
        "n6_update_median_ms": round(n6_updated["median"], 3),
        "n6_update_p95_ms": round(n6_updated["p95"], 3),
        "n64_update_median_ms": round(n64_updated["median"], 3),
        "n64_update_p95_ms": round(n64_updated["p95"], 3),
        "n6_floor_ms": round(n6_floor, 3),
        "n64_floor_ms": round(n64_floor, 3),
        "n6_painted_over_floor": round(n6["median"] / n6_floor, 3),
        "n64_painted_over_floor": round(n64["median"] / n64_floor, 3),
        **{key: round(value, 3) for key, value in {**n6_paint, **n64_paint}.items()},
        "mpl_over_painted": None if mpl_over_painted is None else round(mpl_over_painted, 2),
        "startup_s": None if startup is None else round(startup, 3),
        "peak_rss_mb": round(peak, 1),
    }
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
