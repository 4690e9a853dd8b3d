"""The same drag drawn the way a teacher would in a notebook: matplotlib, redrawn on every move.

Used by latency.py for its baseline; matplotlib is a benchmark-only dependency (`pip install
matplotlib`, or the project's `bench` extra) and the app never imports it.

One figure the size of the benchmark's window holds the four panels a drag updates in the app:
queries and keys as arrows beside values and the output, the score table, the softmax weights as
bars, and the attention matrix with its numbers. Each move sets k_1 to the next point of the
same circle the app's drag follows, recomputes attention with the app's own model, clears every
axes and draws them again, then renders the figure with the Agg canvas and reads its pixels (what
an interactive backend would then put on screen). That is the usual notebook pattern: an
`ipywidgets` slider or a `FuncAnimation` callback calling `ax.clear()` and re-plotting.
"""

from __future__ import annotations

import math
import time

import numpy as np

from attn_desktop.model import Role, Scene, read

try:
    import matplotlib

    matplotlib.use("Agg")  # no window: the same for every machine, and what Jupyter's inline backend uses
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
except ImportError:  # a benchmark-only dependency: latency.py reports the baseline as missing
    Figure = None

DPI = 100
QUERY, KEY, VALUE, OUTPUT = "#1f77b4", "#d62728", "#2ca02c", "#9467bd"


def available() -> bool:
    return Figure is not None


def _arrows(ax, vectors: np.ndarray, names: list[str], color: str, weights: np.ndarray | None = None) -> None:
    for index, (x, y) in enumerate(vectors[:, :2]):
        alpha = 1.0 if weights is None else 0.25 + 0.75 * float(weights[index])
        ax.annotate("", xy=(x, y), xytext=(0, 0), arrowprops={"arrowstyle": "->", "color": color, "alpha": alpha})
        label = names[index] if weights is None else f"{names[index]} {weights[index]:.0%}"
        ax.text(x, y, label, color=color, fontsize=8)


def draw_scene(figure, axes: dict, scene: Scene) -> None:
    """Clear and redraw the four panels for the scene as it is now."""
    result, selected = read(scene).result, read(scene).selected
    weights = result.weights[selected]
    queries, keys, values = (scene.vectors(role) for role in (Role.QUERY, Role.KEY, Role.VALUE))
    output = result.output[selected]
    for ax in axes.values():
        ax.clear()

    ax = axes["qk"]
    _arrows(ax, queries, [f"q·{t}" for t in scene.tokens], QUERY)
    _arrows(ax, keys, [f"k·{t}" for t in scene.tokens], KEY, weights)
    ax.set_title("queries and keys")
    ax.set_aspect("equal", adjustable="datalim")
    ax.autoscale_view()
    ax.grid(True)

    ax = axes["v"]
    _arrows(ax, values, [f"v·{t}" for t in scene.tokens], VALUE, weights)
    ax.annotate("", xy=tuple(output[:2]), xytext=(0, 0), arrowprops={"arrowstyle": "->", "color": OUTPUT, "lw": 2})
    ax.set_title("values and the output")
    ax.set_aspect("equal", adjustable="datalim")
    ax.autoscale_view()
    ax.grid(True)

    ax = axes["table"]
    ax.axis("off")
    rows = [[t, f"{s:.2f}", f"{c:.2f}", f"{w:.1%}"]
            for t, s, c, w in zip(scene.tokens, result.scores[selected], result.scaled[selected], weights)]
    table = ax.table(cellText=rows, colLabels=["key", "q·k", "÷√d", "weight"], loc="center")
    table.auto_set_font_size(False)
    table.set_fontsize(8)
    ax.set_title(f"scores for q·{scene.tokens[selected]}")

    ax = axes["weights"]
    ax.bar(range(len(weights)), weights, color=KEY)
    ax.set_xticks(range(len(weights)), scene.tokens, rotation=90, fontsize=7)
    ax.set_ylim(0, 1)
    ax.set_title("softmax weights")

    ax = axes["matrix"]
    ax.imshow(result.weights, vmin=0, vmax=1, cmap="Blues")
    if len(weights) <= 16:  # as the app does, numbers only where they fit
        for (row, column), weight in np.ndenumerate(result.weights):
            ax.text(column, row, f"{weight:.2f}", ha="center", va="center", fontsize=7)
    ax.set_title("attention matrix")


def new_figure(width_px: int, height_px: int):
    figure = Figure(figsize=(width_px / DPI, height_px / DPI), dpi=DPI)
    FigureCanvasAgg(figure)
    grid = figure.add_gridspec(2, 3)
    axes = {
        "qk": figure.add_subplot(grid[0, 0]),
        "v": figure.add_subplot(grid[0, 1]),
        "table": figure.add_subplot(grid[0, 2]),
        "weights": figure.add_subplot(grid[1, :2]),
        "matrix": figure.add_subplot(grid[1, 2]),
    }
    return figure, axes


def timed_drag(scene: Scene, moves: int, window_size: tuple[int, int], warmup: int = 3,
               radius: float = 0.5, steps_per_turn: int = 60) -> list[float]:
    """Milliseconds per move: k_1 set, attention recomputed, the figure cleared, redrawn and rendered."""
    figure, axes = new_figure(*window_size)
    start = scene.vectors(Role.KEY)[1].copy()
    times = []
    for step in range(warmup + moves):
        angle = 2 * math.pi * step / steps_per_turn
        moved = start + radius * np.array([math.cos(angle) - 1, math.sin(angle)])
        began = time.perf_counter_ns()
        scene.set_vector(Role.KEY, 1, moved)
        draw_scene(figure, axes, scene)
        figure.canvas.draw()
        figure.canvas.buffer_rgba()  # the pixels, ready for the screen
        if step >= warmup:
            times.append((time.perf_counter_ns() - began) / 1e6)
    return times
