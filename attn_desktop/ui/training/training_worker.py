"""Training runs on a thread of its own; the window only ever sees throttled updates.

Two objects, one on each side of the thread boundary:

- `TrainingWorker` lives on the training thread. A timer there runs `Trainer.step()` in short
  slices (a few milliseconds each), so between slices the thread's event loop delivers the
  window's commands: pause, resume, one step, reset, a new pace, stop. It never touches a widget.
- `TrainingRunner` lives on the GUI thread. It owns the thread, turns method calls into queued
  signals to the worker, and hands the views one `TrainingUpdate` at a time.

Throttling. The worker keeps the metrics of every step, but publishes them at most
`UPDATES_PER_SECOND` times a second, and through a one-slot mailbox: while the GUI has not taken
the last update, newer steps are merged into it instead of queueing another event. So however
fast the steps run and however slow a frame is, the GUI thread has at most one update waiting,
and every step's loss and accuracy still reaches the curves.

The window's own time comes first. The runner hands on the next update no sooner than
1/UPDATES_PER_SECOND after the last one began, and no sooner after the window settled from it
(its handlers ran and the repaint they asked for was done) than that took: however slow the
views are (a scene rebuilt on every update), at least half of the GUI thread's time is left for
clicks, menus, timers and painting. And while an update has waited
unread for longer than WINDOW_BEHIND_SECONDS, the worker takes no steps, leaving the processor
and the interpreter lock to the window until it catches up.

Shutting down. `TrainingRunner.shutdown()` raises a flag the step loop reads between steps, asks
the worker (queued) to stop its timer, hand itself back to the GUI thread and quit its thread,
then waits for the thread to finish. It is called when the owner closes, when the owner is
destroyed and when the application is about to quit, and does nothing the second time.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from attn_desktop.ui.workers import join_thread, leave_thread, stop_with_app_and_parent

UPDATES_PER_SECOND = 30
SLICE_SECONDS = 0.008  # the longest the worker steps without looking at its commands
# Between slices the worker lets go of Python for this long, so the GUI thread (which shares the
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
    from attn_desktop.model.training.tasks import TASKS
    from attn_desktop.model.training.training import Trainer

    return Trainer(TASKS[settings.task_name], seed=settings.seed, lr=settings.learning_rate)


class UpdateMailbox:
    """One slot between the threads: the worker puts (merging), the GUI takes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: TrainingUpdate | None = None
        self._waiting_since = 0.0

    def put(self, update: TrainingUpdate) -> bool:
        """Leave an update; True if the slot was empty (the reader must be told)."""
        with self._lock:
            if self._waiting is not None:
                self._waiting = self._waiting.merged_with(update)
                return False
            self._waiting, self._waiting_since = update, time.monotonic()
            return True

    def take(self) -> TrainingUpdate | None:
        with self._lock:
            update, self._waiting = self._waiting, None
            return update

    def unread_for(self, now: float) -> float:
        """How long the waiting update has waited for the reader (0 when the slot is empty)."""
        with self._lock:
            return now - self._waiting_since if self._waiting is not None else 0.0


class TrainingWorker(QObject):
    """Runs a trainer on the thread it is moved to. Talk to it only through queued signals."""

    update_ready = Signal()  # an update waits in the mailbox

    def __init__(self, make_trainer: TrainerFactory, settings: TrainingSettings, mailbox: UpdateMailbox,
                 stop_requested: threading.Event) -> None:
        super().__init__()
        self._make_trainer = make_trainer
        self._settings = settings
        self._mailbox = mailbox
        self._stop_requested = stop_requested
        self._trainer: Any = None
        self._timer: QTimer | None = None  # made on the worker's thread, in begin()
        self._steps_per_second: float | None = None  # None: as fast as possible
        self._running = False
        self._unsent: list[Any] = []
        self._last_step = 0  # the step number of the last step taken, 0 for a fresh trainer
        self._last_publish = -math.inf
        self._pace_start = 0.0
        self._steps_since_pace_start = 0

    # ----- commands (slots, run on the worker's thread) -------------------
    @Slot()
    def begin(self) -> None:
        """The thread has started: build the timer here, so it belongs to this thread."""
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._run_slice)
        self._rebuild_trainer()

    @Slot(object)
    def restart(self, settings: TrainingSettings) -> None:
        """A fresh trainer from these settings, at step 0; running or paused as before."""
        self._settings = settings
        self._rebuild_trainer()

    @Slot()
    def resume(self) -> None:
        if self._trainer is None or self._running:
            return
        self._running = True
        self._restart_pace()
        self._schedule()
        self._publish(force=True)

    @Slot()
    def pause(self) -> None:
        if not self._running:
            return
        self._running = False
        self._schedule()
        self._publish(force=True, measure=True)

    @Slot()
    def step_once(self) -> None:
        """Exactly one step, then paused."""
        self._running = False
        self._schedule()
        if self._trainer is not None and self._take_steps(1):
            self._publish(force=True, measure=True)

    @Slot(object)
    def set_pace(self, steps_per_second: float | None) -> None:
        self._steps_per_second = steps_per_second
        self._restart_pace()
        self._schedule()

    @Slot()
    def stop(self) -> None:
        """Stop the timer, go back to the GUI thread and end this thread's event loop."""
        self._running = False
        if self._timer is not None:
            self._timer.stop()
        leave_thread(self)

    # ----- the step loop --------------------------------------------------
    def _rebuild_trainer(self) -> None:
        self._unsent, self._last_step = [], 0
        try:
            self._trainer = self._make_trainer(self._settings)
        except Exception as error:  # noqa: BLE001 - a bad setting must not take the thread down with it
            self._trainer, self._running = None, False
            self._schedule()
            self._publish(force=True, restarted=True, failure=f"Could not start training: {error}")
            return
        self._restart_pace()
        self._schedule()
        self._publish(force=True, restarted=True, measure=not self._running)

    def _schedule(self) -> None:
        """Tick often enough for the pace (a slow pace needs few wake-ups), or not at all when paused."""
        if self._timer is None:
            return
        if not self._running or self._stop_requested.is_set():
            self._timer.stop()
            return
        pace = self._steps_per_second
        interval = BREATHER_MS if pace is None else int(min(max(1000 / pace, BREATHER_MS), 1000 / UPDATES_PER_SECOND))
        if not self._timer.isActive() or self._timer.interval() != interval:
            self._timer.start(interval)

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

    @Slot()
    def _run_slice(self) -> None:
        if not self._running:
            return
        start = time.monotonic()
        if self._mailbox.unread_for(start) > WINDOW_BEHIND_SECONDS:
            # The window has fallen behind (a big repaint, a busy machine): give it the processor
            # and the interpreter lock until it has caught up, instead of stepping on regardless.
            return
        due = self._steps_due(start)
        deadline = start + SLICE_SECONDS
        taken = 0
        while taken < due and not self._stop_requested.is_set():
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
            self._publish(force=True, failure=f"Training stopped: {error}")
            return False
        return True

    def _publish(self, force: bool = False, restarted: bool = False, measure: bool = False,
                 failure: str | None = None) -> None:
        """Hand the GUI the steps so far and a copy of the head, at most UPDATES_PER_SECOND times a second."""
        now = time.monotonic()
        if not force and now - self._last_publish < 1 / UPDATES_PER_SECOND:
            return
        if self._trainer is None and failure is None:
            return
        self._last_publish = now
        metrics, self._unsent = self._unsent, []
        update = TrainingUpdate(
            settings=self._settings,
            step=self._last_step,
            metrics=metrics, params=self._trainer.snapshot() if self._trainer is not None else None,
            running=self._running, restarted=restarted,
            fresh_accuracy=self._fresh_accuracy() if measure else None, failure=failure,
        )
        if self._mailbox.put(update):
            self.update_ready.emit()

    def _fresh_accuracy(self) -> float | None:
        try:
            return float(self._trainer.evaluate(count=FRESH_EXAMPLES))
        except Exception:  # noqa: BLE001 - a measure for the status line: never worth stopping for
            return None


class TrainingRunner(QObject):
    """The GUI thread's handle on a training thread: commands in, throttled updates out.

    Call `shutdown()` before the owner goes away; it is also called when `parent` is destroyed
    and when the application is about to quit.
    """

    updated = Signal(object)  # a TrainingUpdate, at most UPDATES_PER_SECOND a second

    _restart_requested = Signal(object)
    _resume_requested = Signal()
    _pause_requested = Signal()
    _step_requested = Signal()
    _pace_requested = Signal(object)
    _stop_requested_signal = Signal()

    def __init__(self, settings: TrainingSettings, make_trainer: TrainerFactory = make_real_trainer,
                 steps_per_second: float | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._mailbox = UpdateMailbox()
        self._stop_flag = threading.Event()
        self._thread = QThread(self)
        self._thread.setObjectName("training")
        self._worker = TrainingWorker(make_trainer, settings, self._mailbox, self._stop_flag)
        self._worker.set_pace(steps_per_second)  # before the move: no timer yet, nothing to schedule
        self._worker.moveToThread(self._thread)
        self._thread.started.connect(self._worker.begin)
        self._worker.update_ready.connect(self._deliver)
        self._delivery_timer = QTimer(self)
        self._delivery_timer.setSingleShot(True)
        self._delivery_timer.timeout.connect(self._deliver)
        self._settle_timer = QTimer(self)  # fires once the window has handled and painted an update
        self._settle_timer.setSingleShot(True)
        self._settle_timer.timeout.connect(self._settled)
        self._next_delivery = 0.0  # time.monotonic() before which no update is handed on
        self._delivery_started = 0.0
        for request, slot in (
            (self._restart_requested, self._worker.restart), (self._resume_requested, self._worker.resume),
            (self._pause_requested, self._worker.pause), (self._step_requested, self._worker.step_once),
            (self._pace_requested, self._worker.set_pace), (self._stop_requested_signal, self._worker.stop),
        ):
            request.connect(slot)  # queued: the worker lives on the other thread
        self._shut_down = False
        stop_with_app_and_parent(self.shutdown, parent)
        self._thread.start()

    # ----- commands --------------------------------------------------------
    def restart(self, settings: TrainingSettings) -> None:
        if not self._shut_down:
            self._restart_requested.emit(settings)

    def resume(self) -> None:
        if not self._shut_down:
            self._resume_requested.emit()

    def pause(self) -> None:
        if not self._shut_down:
            self._pause_requested.emit()

    def step_once(self) -> None:
        if not self._shut_down:
            self._step_requested.emit()

    def set_pace(self, steps_per_second: float | None) -> None:
        if not self._shut_down:
            self._pace_requested.emit(steps_per_second)

    @property
    def training_thread(self) -> QThread:
        return self._thread

    @property
    def is_alive(self) -> bool:
        return not self._shut_down and self._thread.isRunning()

    @Slot()
    def shutdown(self) -> None:
        """Stop training and wait for the thread to end; safe to call more than once."""
        if self._shut_down:
            return
        self._shut_down = True
        self._stop_flag.set()  # the step loop stops between two steps
        join_thread(self._thread, self._stop_requested_signal.emit, SHUTDOWN_WAIT_MS)
        self._delivery_timer.stop()
        self._mailbox.take()  # nothing more reaches the views

    # ----- updates ----------------------------------------------------------
    @Slot()
    def _deliver(self) -> None:
        """Hand on the waiting update, or come back when the window has had its share of time."""
        if self._shut_down:
            return
        wait = self._next_delivery - time.monotonic()
        if wait > 0:
            # Not settled yet (_settled will call again), or not its turn yet: come back then.
            if math.isfinite(wait) and not self._delivery_timer.isActive():
                self._delivery_timer.start(math.ceil(wait * 1000))
            return
        update = self._mailbox.take()
        if update is None:
            return
        self._delivery_started = time.monotonic()
        self._next_delivery = math.inf  # none before this one has settled
        self.updated.emit(update)
        # A zero timer fires once the events queued meanwhile are done, the repaints among them.
        self._settle_timer.start(0)

    @Slot()
    def _settled(self) -> None:
        now = time.monotonic()
        busy = now - self._delivery_started
        self._next_delivery = max(self._delivery_started + 1 / UPDATES_PER_SECOND, now + busy)
        self._deliver()  # an update that came meanwhile waits for its turn
