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
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

# Before Qt is imported: the benchmark needs no display (a real one may be chosen by setting it).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
PROJECT_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT_ROOT))  # measure the source tree, not an installed copy

import numpy as np
import pyqtgraph as pg
import PySide6
from PySide6.QtCore import QEvent, QObject, QPointF, QRect, QSettings, QSize
from PySide6.QtWidgets import QApplication, QWidget

from attn_desktop.model import Role, Scene
from attn_desktop.model.files.scene_types import DirectScene
from attn_desktop.ui.canvas.arrow_geometry import HANDLE_RADIUS_PX
from attn_desktop.ui.canvas.arrow_item import ArrowItem
from attn_desktop.ui.tools.synthetic_mouse import move_holding, press, release, viewport_pos_of
from attn_desktop.ui.window.main_window import MainWindow
from attn_desktop.ui.window.startup.app import build_window, make_application

from paint_floor import CanvasPaintTimer, canvas_image, replay_arrows_ms, same_picture

TARGETS = {
    "n6_median_ms": 4.0,
    "n6_p95_ms": 8.0,
    "n64_p95_ms": 16.0,
    "startup_s": 1.5,
    "peak_rss_mb": 250.0,
}
# Against the paint floor (the canvas's arrows replayed in one painter pass; see paint_floor.py).
PAINT_FLOOR_TARGETS = {
    "n6_painted_over_paint_floor": 4.0,
    "n64_painted_over_paint_floor": 4.0,
    "n64_canvas_over_paint_floor": 1.5,
    "n64_update_over_paint_floor": 1.2,
}
WINDOW_SIZE = (1320, 880)
WARMUP_MOVES = 20
DRAG_RADIUS_PX = 50.0  # a circle 100 px across
STEPS_PER_TURN = 60  # about 5 px a step: every move lands on a new pixel
MAX_FLUSH_PASSES = 8  # a guard; a move needs two passes (see flush_until_painted)
STARTUP_TIMEOUT_S = 60.0
FLOOR_REPEATS = 60
TARGET_PAINTED_OVER_FLOOR = 1.4
TARGET_MPL_OVER_PAINTED = 12.0
MPL_MOVES = 40  # a matplotlib redraw takes a good part of a second: fewer moves give a steady median


# ----- watching paints ---------------------------------------------------
class PaintCounter(QObject):
    """Counts Paint events on a few widgets, so a move is timed to its last paint."""

    def __init__(self, widgets: dict[str, QWidget]) -> None:
        super().__init__()
        self.widgets = widgets
        self.names = {id(widget): name for name, widget in widgets.items()}
        self.painted: set[str] = set()
        for widget in widgets.values():
            widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.painted.add(self.names[id(watched)])
        return False

    def detach(self) -> None:
        for widget in self.widgets.values():
            widget.removeEventFilter(self)


def watched_panels(window: MainWindow) -> tuple[dict[str, QWidget], set[str]]:
    """The widgets a drag should repaint, and which of them must repaint on every move.

    The output panel's labels repaint only when their rounded text changes,
    so they are watched (a move waits for them) but not required.
    """
    widgets = {
        "canvas": window.canvas.viewport(),
        "table": window.score_panel.table.viewport(),
        "matrix": window.matrix_view,
        "chart": window.weights_chart.viewport(),
        "output": window.output_panel.vector_label,
        "blend": window.output_panel.blend_label,
        "formula": window.score_panel.formula_label,
    }
    return widgets, {"canvas", "table", "matrix", "chart"}


def flush_until_painted(app: QApplication, counter: PaintCounter) -> tuple[int, set[str]]:
    """Run event-loop passes until one paints nothing; return when the last paint ended.

    The first pass repaints every panel; a label whose text got wider asks
    for a new layout and repaints in the second. The closing empty pass is
    only there to see that nothing is left, so it is not counted.
    """
    painted: set[str] = set()
    last_paint_end = time.perf_counter_ns()
    for _ in range(MAX_FLUSH_PASSES):
        counter.painted.clear()
        app.processEvents()
        now = time.perf_counter_ns()
        if not counter.painted:
            break
        painted |= counter.painted
        last_paint_end = now
    return last_paint_end, painted


# ----- the floor ---------------------------------------------------------
def visible_widgets(window: MainWindow) -> list[QWidget]:
    return [window] + [widget for widget in window.findChildren(QWidget) if widget.isVisible()]


def full_repaint_ms(app: QApplication, window: MainWindow) -> tuple[float, int]:
    """One event-loop pass that repaints every visible widget once; its time, and how many widgets painted."""
    widgets = visible_widgets(window)
    counter = PaintCounter({str(index): widget for index, widget in enumerate(widgets)})
    app.processEvents()  # nothing of the window's own left pending
    elapsed = repaint_once_ms(app, widgets)
    counter.detach()
    return elapsed, len(counter.painted)


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


# ----- the drag ----------------------------------------------------------
def circle_point(start: QPointF, step: int) -> QPointF:
    """The step-th point of a circle through ``start``, so the drag begins where it was pressed."""
    angle = 2 * math.pi * step / STEPS_PER_TURN
    return start + QPointF(DRAG_RADIUS_PX * (math.cos(angle) - 1), DRAG_RADIUS_PX * math.sin(angle))


def arrows_near(window: MainWindow, point: QPointF) -> list[ArrowItem]:
    """The arrows a press at this viewport point could start dragging.

    The same test as pyqtgraph's GraphicsScene.itemsNearEvent: an item's
    shape touching a small box (the scene's click radius) around the point.
    """
    view = window.canvas
    radius = view.scene()._clickRadius
    corner = (point - QPointF(radius, radius)).toPoint()
    box = view.mapToScene(QRect(corner, QSize(2 * radius + 1, 2 * radius + 1))).boundingRect()
    arrows = [arrow for items in view.arrows.values() for arrow in items]
    return [arrow for arrow in arrows if arrow.shape().intersects(arrow.mapFromScene(box).boundingRect())]


def grab_point(window: MainWindow, arrow: ArrowItem) -> QPointF:
    """The point nearest the arrow's tip, on its grab handle, that no other arrow's handle reaches.

    In a crowded scene other tips overlap k_1's; a press where they overlap
    would drag whichever is on top.
    """
    tip = viewport_pos_of(arrow, arrow.tip)
    reach = int(HANDLE_RADIUS_PX) - 2
    offsets = [(dx, dy) for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)]
    for dx, dy in sorted(offsets, key=lambda offset: offset[0] ** 2 + offset[1] ** 2):
        if dx * dx + dy * dy <= reach * reach and arrows_near(window, tip + QPointF(dx, dy)) == [arrow]:
            return tip + QPointF(dx, dy)
    return tip  # no clear point: timed_drag reports that another arrow was grabbed


@dataclass
class DragRun:
    times_ms: list[float] = field(default_factory=list)
    one_pass_ms: float = 0.0  # the widgets a move paints, repainted once in one pass with nothing recomputed
    widgets_per_move: int = 0
    moves_that_changed: int = 0
    moves_missing_paint: dict[str, int] = field(default_factory=dict)
    grabbed_right_arrow: bool = False
    update_ms: list[float] = field(default_factory=list)
    canvas_paint_ms: list[float] = field(default_factory=list)  # the canvas's paintEvent, in the move's passes
    paint_floor_ms: list[float] = field(default_factory=list)  # its arrows replayed after the move (untimed)
    same_canvas_picture: bool = False  # the paint timer leaves the canvas's picture as it was
    label: str = ""
    start_vector: np.ndarray | None = None
    end_vector: np.ndarray | None = None


def timed_drag(app: QApplication, window: MainWindow, moves: int) -> DragRun:
    """Press k_1, make warm-up moves, then time ``moves`` moves, then release."""
    arrow = window.canvas.arrows[Role.KEY][1]
    keys = window.scene.vectors(Role.KEY)
    viewport = window.canvas.viewport()
    widgets, required = watched_panels(window)
    run_same_picture = same_picture(window.canvas)
    canvas_timer = CanvasPaintTimer(window.canvas)  # before the counter: the counter still sees every paint
    counter = PaintCounter(widgets)
    floor_image = canvas_image(window.canvas)
    run = DragRun(label=f"k·{window.scene.tokens[1]}", start_vector=keys[1].copy(),
                  same_canvas_picture=run_same_picture)
    start = grab_point(window, arrow)

    press(viewport, start)
    flush_until_painted(app, counter)
    for step in range(1, WARMUP_MOVES + 1):
        move_holding(viewport, circle_point(start, step))
        flush_until_painted(app, counter)
    # Tips can overlap in a crowded scene; make sure the press took k_1.
    run.grabbed_right_arrow = window.canvas.drags.dragged_arrow() is arrow
    canvas_timer.take_ms()

    for step in range(WARMUP_MOVES + 1, WARMUP_MOVES + moves + 1):
        before = keys[1].copy()
        began = time.perf_counter_ns()
        move_holding(viewport, circle_point(start, step))
        # The event has been handled: the scene recomputed and every panel
        # holds the new numbers and has asked Qt to repaint it.
        updated = time.perf_counter_ns()
        ended, painted = flush_until_painted(app, counter)
        run.update_ms.append((updated - began) / 1e6)
        run.times_ms.append((ended - began) / 1e6)
        run.canvas_paint_ms.append(canvas_timer.take_ms())
        # After the clock stopped: the paint floor of the picture the move left, and bookkeeping.
        run.paint_floor_ms.append(replay_arrows_ms(window.canvas, floor_image))
        run.moves_that_changed += not np.array_equal(before, keys[1])
        for name in required - painted:
            run.moves_missing_paint[name] = run.moves_missing_paint.get(name, 0) + 1

    last = WARMUP_MOVES + moves + 1  # a point not yet visited: the move changes something
    painted_by_a_move = widgets_a_move_paints(app, counter, lambda: move_holding(viewport, circle_point(start, last)))
    run.widgets_per_move = len(painted_by_a_move)
    run.one_pass_ms = statistics.median(repaint_once_ms(app, painted_by_a_move) for _ in range(FLOOR_REPEATS))
    release(viewport, circle_point(start, last))
    flush_until_painted(app, counter)
    counter.detach()
    canvas_timer.detach()
    run.end_vector = window.scene.vectors(Role.KEY)[1].copy()
    return run


class EveryPaint(QObject):
    """Records every widget that paints while installed on the application."""

    def __init__(self) -> None:
        super().__init__()
        self.widgets: dict[int, QWidget] = {}

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.widgets[id(watched)] = watched
        return False


def widgets_a_move_paints(app: QApplication, counter: PaintCounter, move) -> list[QWidget]:
    """Make one more (untimed) move and list every widget it painted."""
    recorder = EveryPaint()
    app.installEventFilter(recorder)
    move()
    flush_until_painted(app, counter)
    app.removeEventFilter(recorder)
    return list(recorder.widgets.values())


def repaint_once_ms(app: QApplication, widgets: list[QWidget]) -> float:
    began = time.perf_counter_ns()
    for widget in widgets:
        widget.update()
    app.processEvents()
    return (time.perf_counter_ns() - began) / 1e6


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


# ----- start-up ----------------------------------------------------------
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


# ----- printing ----------------------------------------------------------
def verdict(value: float, target: float, unit: str) -> str:
    return f"(target <= {target:g} {unit}: {'ok' if value <= target else 'MISSED'})"


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
