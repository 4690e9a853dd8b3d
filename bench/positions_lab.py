"""What the Positions lab costs a drag, page by page, and what `heads --no-rope` costs a model's run.

Run by hand from the project root (it prints figures; it checks nothing):

    python bench/positions_lab.py [--moves 200]

What it measures:

* A drag in lesson 10 ("the dog chased the cat", three plots) at 1024 × 768: the tip of x·chased is pressed
  and moved around a circle with real mouse events sent to the canvas viewport; each move is timed from just
  before its event until the event loop has recomputed the scene and repainted (two passes, as
  bench/latency.py does). Measured with the lab closed, then with each of its four pages in front, side by
  side in one run: the figures are medians and 95th percentiles, and each page's median over the closed
  lab's (the lab's share of a move). A move should stay within a 60 Hz frame (16.7 ms).
* With the SmolLM2 pack installed (else skipped): the Real head page's sentence through the whole model, then
  every head's weights recomputed from q and k before RoPE (`ModelRun.attention_without_rope`, what
  `attn-desktop heads --no-rope` adds), medians of five runs each.

The last line printed is one JSON object with the headline figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # before Qt: no display needed
PROJECT_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT_ROOT))  # measure the source tree, not an installed copy

from PySide6.QtCore import QPointF, QTimer
from PySide6.QtWidgets import QApplication

from attn_desktop.model import Role
from attn_desktop.model.teaching.dock_id import DockId

WINDOW_SIZE = (1024, 768)
PAGES = ("Order", "Added", "Rotated", "Real head")
WARMUP_MOVES = 20
DRAG_RADIUS_PX = 30.0
STEPS_PER_TURN = 40
FRAME_MS = 1000 / 60
SENTENCE = "the dog chased the cat because it was fast"  # the Real head page's sentence
MODEL_RUNS = 5


def timed_drag(window, moves: int) -> list[float]:
    """Milliseconds per move of x·chased's tip around a circle, each until recomputed and repainted."""
    from attn_desktop.ui.tools.synthetic_mouse import move_holding, press, release, viewport_pos_of

    app = QApplication.instance()
    arrow = window.canvas.arrows[Role.EMBEDDING][2]  # x·chased
    viewport = window.canvas.viewport()
    centre = viewport_pos_of(arrow, arrow.tip)
    press(viewport, centre)
    times = []
    for step in range(WARMUP_MOVES + moves):
        angle = 2 * math.pi * step / STEPS_PER_TURN
        pos = centre + QPointF(DRAG_RADIUS_PX * (math.cos(angle) - 1), DRAG_RADIUS_PX * math.sin(angle))
        started = time.perf_counter()
        move_holding(viewport, pos)
        app.processEvents()
        app.processEvents()  # the paints a move's first pass asked for
        if step >= WARMUP_MOVES:
            times.append((time.perf_counter() - started) * 1000)
    release(viewport, centre)
    app.processEvents()
    return times


def lab_drags(moves: int) -> dict[str, list[float]]:
    from attn_desktop.ui.window.startup.app import build_window, settle

    window = build_window()
    window.resize(*WINDOW_SIZE)
    window.show()
    window.open_lesson("positions")
    settle(window)
    measured: dict[str, list[float]] = {}
    window.docks[DockId.POSITIONS_LAB].hide()
    settle(window)
    timed_drag(window, moves)  # a first drag warms the caches up; it is not counted
    window.history.stack.undo()
    measured["lab closed"] = timed_drag(window, moves)
    window.history.stack.undo()  # the drag taken back: every page starts from the lesson's scene
    for page in PAGES:
        window.dock_layout.show_wide(DockId.POSITIONS_LAB)
        window.positions_lab.show_page(page)
        settle(window)
        measured[page] = timed_drag(window, moves)
        window.history.stack.undo()
    window.history.reset()
    window.close()
    QTimer.singleShot(0, QApplication.quit)  # ended as the app ends: its threads are stopped on the way out
    QApplication.exec()
    return measured


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def model_runs() -> dict[str, float] | None:
    """Seconds for the sentence through SmolLM2, and for every head recomputed without RoPE."""
    try:
        from attn_desktop.model.pretrained import pack
        from attn_desktop.model.pretrained.llama import LlamaModel

        path = pack.find_pack_model()
    except Exception as missing:  # noqa: BLE001 - no pack, no gguf: the figure is skipped, said why
        print(f"SmolLM2: skipped ({missing})")
        return None
    model = LlamaModel.load(path)
    forward, without = [], []
    for _ in range(MODEL_RUNS):
        model._recent.clear()  # a fresh run each time, not the remembered one
        started = time.perf_counter()
        run = model.run(SENTENCE)
        forward.append(time.perf_counter() - started)
        started = time.perf_counter()
        for layer in range(run.layer_count):
            run.attention_without_rope(layer)
        without.append(time.perf_counter() - started)
    return {"forward_s": statistics.median(forward), "without_rope_s": statistics.median(without),
            "tokens": len(run.tokens)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as home:  # the user's settings and lessons stay untouched
        os.environ["ATTN_DESKTOP_DATA_DIR"] = home
        os.environ["XDG_CONFIG_HOME"] = home
        from attn_desktop.ui.window.startup.app import make_application

        make_application([])
        drags = lab_drags(args.moves)
    closed = statistics.median(drags["lab closed"])
    figures: dict[str, float] = {}
    print(f"Lesson 10, a drag of x·chased at {WINDOW_SIZE[0]} × {WINDOW_SIZE[1]}, {args.moves} moves each:")
    for name, times in drags.items():
        median, p95 = statistics.median(times), percentile(times, 0.95)
        ratio = median / closed
        print(f"  {name:11s} median {median:6.2f} ms   p95 {p95:6.2f} ms   {ratio:4.2f} × the lab closed"
              f"   {'within' if p95 <= FRAME_MS else 'OVER'} a 60 Hz frame")
        key = name.lower().replace(" ", "_")
        figures[f"{key}_median_ms"], figures[f"{key}_p95_ms"] = round(median, 2), round(p95, 2)
    model = model_runs()
    if model is not None:
        print(f"SmolLM2, {model['tokens']} tokens: the forward pass {model['forward_s'] * 1000:.0f} ms, every "
              f"head again without RoPE {model['without_rope_s'] * 1000:.0f} ms "
              f"({model['without_rope_s'] / model['forward_s']:.2f} × the pass)")
        figures.update({f"smollm2_{key}": round(value, 4) for key, value in model.items()})
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
