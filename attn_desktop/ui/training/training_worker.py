"""Training runs on a thread of its own; the window only ever sees throttled updates.

Two objects, one on each side of the thread boundary:

- `TrainingLoop` holds the trainer; every one of its methods runs on the training thread (as a
  job of its WorkerThread, ui/workers.py). A repeated job there runs `Trainer.step()` in short
  slices (a few milliseconds each), so between slices the thread takes the window's commands:
  pause, resume, one step, reset, a new pace. It never touches a widget.
- `TrainingRunner` lives on the GUI thread. It turns method calls into jobs for the loop and
  hands the views one `TrainingUpdate` at a time.

Throttling. The loop keeps the metrics of every step, but publishes them at most
`UPDATES_PER_SECOND` times a second, through a PacedDelivery: while the window has not taken the
last update, newer steps are merged into it, and the window gets the next one only once it has
painted the last. So every step's loss and accuracy still reaches the curves, and however slow
the views are, the window keeps time for clicks and painting. While an update has waited unread
for longer than WINDOW_BEHIND_SECONDS, the loop takes no steps, leaving the processor and the
interpreter lock to the window until it catches up.

Shutting down (`TrainingRunner.shutdown()`, also when the owner is destroyed and when the
application is about to quit) stops the step loop between two steps and ends the thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from attn_desktop.language import tr
from attn_desktop.model.training.training import TrainingDiverged
from attn_desktop.ui.workers import UPDATES_PER_SECOND, PacedDelivery, ThreadRunner, Throttle, WorkerThread, one_line

SLICE_SECONDS = 0.008  # the longest the loop steps without looking at its commands
# Between slices the loop lets go of Python for this long, so the GUI thread (which shares the
# interpreter lock with it) can run a frame however fast the steps are.
BREATHER_MS = 2
WINDOW_BEHIND_SECONDS = 0.1  # an update unread this long means the window is behind: training waits
MAX_CATCH_UP_SECONDS = 0.25  # a paced run that fell further behind than this starts its clock again
SHUTDOWN_WAIT_MS = 5000
FRESH_EXAMPLES = 1000  # accuracy on this many unseen examples is measured when training pauses


@dataclass(frozen=True)
class TrainingSettings:
    """What a fresh trainer is built from; the same settings give the same run."""

    task_name: str
    seed: int
    learning_rate: float


@dataclass
class TrainingUpdate:
    """What the views get: the steps since the last update and the head after the last of them."""

    settings: TrainingSettings  # of the trainer these steps are from
    step: int  # steps taken since the trainer was built
    metrics: list[Any] = field(default_factory=list)  # StepMetrics(step, loss, accuracy), oldest first
    params: Any = None  # HeadParams after the last step (a copy the views may keep)
    running: bool = False
    restarted: bool = False  # a new trainer: the curves start again
    fresh_accuracy: float | None = None  # on unseen examples, measured when training pauses
    failure: str | None = None  # why training stopped by itself (a step or the trainer's set-up raised)

    def merged_with(self, newer: TrainingUpdate) -> TrainingUpdate:
        """One update that says what this one and a newer one said (a restart drops the older steps)."""
        if newer.restarted:
            return newer
        return TrainingUpdate(
            settings=newer.settings, step=newer.step, metrics=self.metrics + newer.metrics,
            params=newer.params, running=newer.running, restarted=self.restarted,
            fresh_accuracy=newer.fresh_accuracy, failure=newer.failure or self.failure,
        )


TrainerFactory = Callable[[TrainingSettings], Any]


def make_real_trainer(settings: TrainingSettings) -> Any:
    """The app's NumPy trainer for these settings."""
    from attn_desktop.ui.training.panel_tasks import PANEL_TASKS, trainer_for

    return trainer_for(PANEL_TASKS[settings.task_name], settings.seed, settings.learning_rate)


def stopped_because(error: Exception) -> str:
    """The status line for a step that raised: a run that diverged says at which step and what to do about it
    (its trainer kept the last head whose loss was a number, and the panel shows that one)."""
    if isinstance(error, TrainingDiverged):
        # Translators: the Training panel's status when training diverged; {reason}: "the loss became NaN at step 37".
        return tr("Paused: {reason}: try a smaller learning rate (the last good head stays)").format(reason=error)
    return tr("Training stopped: {reason}").format(reason=one_line(error))


class TrainingLoop:
    """A trainer and its step loop. Built on the GUI thread; every method after that runs on the
    training thread, as a job, so the trainer is only ever touched there."""

    def __init__(self, make_trainer: TrainerFactory, settings: TrainingSettings, steps_per_second: float | None,
                 worker_thread: WorkerThread, updates: PacedDelivery[TrainingUpdate]) -> None:
        self._make_trainer = make_trainer
        self._settings = settings
        self._steps_per_second = steps_per_second  # None: as fast as possible
        self._worker_thread = worker_thread
        self._updates = updates
        self._trainer: Any = None
        self._running = False
        self._unsent: list[Any] = []
        self._last_step = 0  # the step number of the last step taken, 0 for a fresh trainer
        self._publishing = Throttle(UPDATES_PER_SECOND)
        self._pace_start = 0.0
        self._steps_since_pace_start = 0

    # ----- commands ---------------------------------------------------------------------------
    def begin(self) -> None:
        """The first job: the trainer is built on the training thread."""
        self._rebuild_trainer()

    def restart(self, settings: TrainingSettings) -> None:
        """A fresh trainer from these settings, at step 0; running or paused as before."""
        self._settings = settings
        self._rebuild_trainer()

    def resume(self) -> None:
        if self._trainer is None or self._running:
            return
        self._running = True
        self._restart_pace()
        self._schedule()
        self._publish(force=True)

    def pause(self) -> None:
        if not self._running:
            return
        self._running = False
        self._schedule()
        self._publish(force=True, measure=True)

    def step_once(self) -> None:
        """Exactly one step, then paused."""
        self._running = False
        self._schedule()
        if self._trainer is not None and self._take_steps(1):
            self._publish(force=True, measure=True)

    def set_pace(self, steps_per_second: float | None) -> None:
        self._steps_per_second = steps_per_second
        self._restart_pace()
        self._schedule()

    # ----- the step loop --------------------------------------------------------------------------
    def _rebuild_trainer(self) -> None:
        self._unsent, self._last_step = [], 0
        try:
            self._trainer = self._make_trainer(self._settings)
        except Exception as error:  # noqa: BLE001 - a bad setting must not take the thread down with it
            self._trainer, self._running = None, False
            self._schedule()
            self._publish(force=True, restarted=True, failure=tr("Could not start training: {reason}").format(reason=one_line(error)))
            return
        self._restart_pace()
        self._schedule()
        self._publish(force=True, restarted=True, measure=not self._running)

    def _schedule(self) -> None:
        """Tick often enough for the pace (a slow pace needs few wake-ups), or not at all when paused."""
        if not self._running:
            self._worker_thread.repeat(self._run_slice, None)
            return
        pace = self._steps_per_second
        interval = BREATHER_MS if pace is None else int(min(max(1000 / pace, BREATHER_MS), 1000 / UPDATES_PER_SECOND))
        self._worker_thread.repeat(self._run_slice, interval)

    def _restart_pace(self) -> None:
        self._pace_start = time.monotonic()
        self._steps_since_pace_start = 0

    def _steps_due(self, now: float) -> int:
        pace = self._steps_per_second
        if pace is None:
            return 1_000_000  # the slice's time limit decides
        due = int((now - self._pace_start) * pace) - self._steps_since_pace_start
        if due > pace * MAX_CATCH_UP_SECONDS + 1:  # far behind (a slow machine): keep the pace from now on
            self._restart_pace()
            return 1
        return due

    def _run_slice(self) -> None:
        if not self._running:
            return
        start = time.monotonic()
        if self._updates.unread_for(start) > WINDOW_BEHIND_SECONDS:
            # The window has fallen behind (a big repaint, a busy machine): give it the processor
            # and the interpreter lock until it has caught up, instead of stepping on regardless.
            return
        due = self._steps_due(start)
        deadline = start + SLICE_SECONDS
        taken = 0
        while taken < due and not self._worker_thread.stopping:
            if not self._take_steps(1):
                return
            taken += 1
            # Let go of the interpreter lock for a moment: a GUI thread waiting for it gets it now,
            # not after Python's 5 ms switch interval (which, paid on every wait, makes frames late).
            time.sleep(0)
            if time.monotonic() >= deadline:
                break
        self._steps_since_pace_start += taken
        self._publish()

    def _take_steps(self, count: int) -> bool:
        try:
            for _ in range(count):
                metrics = self._trainer.step()
                self._unsent.append(metrics)
                self._last_step = int(metrics.step)
        except Exception as error:  # noqa: BLE001 - a failed step pauses training with its reason, never kills the thread
            self._running = False
            self._schedule()
            self._publish(force=True, failure=stopped_because(error))
            return False
        return True

    def _publish(self, force: bool = False, restarted: bool = False, measure: bool = False,
                 failure: str | None = None) -> None:
        """Hand the window the steps so far and a copy of the head, at most UPDATES_PER_SECOND times a second."""
        if self._trainer is None and failure is None:
            return
        if not self._publishing.due(force):
            return
        metrics, self._unsent = self._unsent, []
        self._updates.put(TrainingUpdate(
            settings=self._settings,
            step=self._last_step,
            metrics=metrics, params=self._trainer.snapshot() if self._trainer is not None else None,
            running=self._running, restarted=restarted,
            fresh_accuracy=self._fresh_accuracy() if measure else None, failure=failure,
        ))

    def _fresh_accuracy(self) -> float | None:
        try:
            return float(self._trainer.evaluate(count=FRESH_EXAMPLES))
        except Exception:  # noqa: BLE001 - a measure for the status line: never worth stopping for
            return None


class TrainingRunner(ThreadRunner):
    """The GUI thread's handle on a training thread: commands in, throttled updates out.

    Call `shutdown()` before the owner goes away; it also happens when the owner is destroyed and
    when the application is about to quit.
    """

    updated = Signal(object)  # a TrainingUpdate, at most UPDATES_PER_SECOND a second

    def __init__(self, settings: TrainingSettings, make_trainer: TrainerFactory = make_real_trainer,
                 steps_per_second: float | None = None, parent: QObject | None = None) -> None:
        super().__init__("training", SHUTDOWN_WAIT_MS, parent)
        updates = PacedDelivery(self._worker_thread, TrainingUpdate.merged_with, self.updated.emit, parent=self)
        self._loop = TrainingLoop(make_trainer, settings, steps_per_second, self._worker_thread, updates)
        self._worker_thread.submit(self._loop.begin)

    # ----- commands (each a job for the loop, in the order given) -----------------------------
    def restart(self, settings: TrainingSettings) -> None:
        self._worker_thread.submit(partial(self._loop.restart, settings))

    def resume(self) -> None:
        self._worker_thread.submit(self._loop.resume)

    def pause(self) -> None:
        self._worker_thread.submit(self._loop.pause)

    def step_once(self) -> None:
        self._worker_thread.submit(self._loop.step_once)

    def set_pace(self, steps_per_second: float | None) -> None:
        self._worker_thread.submit(partial(self._loop.set_pace, steps_per_second))

    @property
    def training_thread(self) -> QThread:
        return self._worker_thread.qthread
