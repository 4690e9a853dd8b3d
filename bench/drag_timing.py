"""A drag timed through the real window, for latency.py: k_1 pressed on a point only its handle reaches, moved
round a circle with real mouse events, each move timed until the panels that changed have painted."""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QPointF, QRect, QSize
from PySide6.QtWidgets import QApplication, QWidget

from attn_desktop.model import Role
from attn_desktop.ui.canvas.arrow_geometry import HANDLE_RADIUS_PX
from attn_desktop.ui.canvas.arrow_item import ArrowItem
from attn_desktop.ui.tools.synthetic_mouse import move_holding, press, release, viewport_pos_of
from attn_desktop.ui.window.main_window import MainWindow

from paint_floor import CanvasPaintTimer, canvas_image, replay_arrows_ms, same_picture
from paint_watch import FLOOR_REPEATS, PaintCounter, flush_until_painted, repaint_once_ms, widgets_a_move_paints

WARMUP_MOVES = 20
DRAG_RADIUS_PX = 50.0  # a circle 100 px across
STEPS_PER_TURN = 60  # about 5 px a step: every move lands on a new pixel


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
