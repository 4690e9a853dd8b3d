"""Watching a window paint, for latency.py: which widgets painted in an event-loop pass, passes run until one
paints nothing (a move timed to its last paint), and every visible widget repainted once (the floor)."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget

MAX_FLUSH_PASSES = 8  # a guard; a move needs two passes (see flush_until_painted)
FLOOR_REPEATS = 60


class PaintCounter(QObject):
    """Counts Paint events on a few widgets, so a move is timed to its last paint."""

    def __init__(self, widgets: dict[str, QWidget]) -> None:
        super().__init__()
        self.widgets = widgets
        self.names = {id(widget): name for name, widget in widgets.items()}
        self.painted: set[str] = set()
        for widget in widgets.values():
            widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.painted.add(self.names[id(watched)])
        return False

    def detach(self) -> None:
        for widget in self.widgets.values():
            widget.removeEventFilter(self)


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


class EveryPaint(QObject):
    """Records every widget that paints while installed on the application."""

    def __init__(self) -> None:
        super().__init__()
        self.widgets: dict[int, QWidget] = {}

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.widgets[id(watched)] = watched
        return False


def widgets_a_move_paints(app: QApplication, counter: PaintCounter, move: Callable[[], object]) -> list[QWidget]:
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


def visible_widgets(window: QWidget) -> list[QWidget]:
    return [window] + [widget for widget in window.findChildren(QWidget) if widget.isVisible()]


def full_repaint_ms(app: QApplication, window: QWidget) -> tuple[float, int]:
    """One event-loop pass that repaints every visible widget once; its time, and how many widgets painted."""
    widgets = visible_widgets(window)
    counter = PaintCounter({str(index): widget for index, widget in enumerate(widgets)})
    app.processEvents()  # nothing of the window's own left pending
    elapsed = repaint_once_ms(app, widgets)
    counter.detach()
    return elapsed, len(counter.painted)
