"""Work off the GUI thread: a worker thread per runner, jobs in, results out, stopped with its owner.

The training and the real model each run on a thread of their own, so the window never waits for
a step or a sentence. Both are thin users of `WorkerThread`, which keeps in one place what such
threads need:

- Jobs are plain callables sent from the GUI thread and run on the worker thread one at a time,
  in order. A job never touches a widget: what it has for the window it `deliver`s, and the
  window gets it on the GUI thread, in order, through a queued signal. A job's result or failure
  (one line of text: `JobFailure`) goes to the callbacks it was sent with; a failure never ends
  the thread.
- Progress is throttled to what a screen can show (`Throttle`), and `PacedDelivery` hands the
  window a stream of updates, merged in a one-slot mailbox, no faster than it can paint them.
- Shutting down raises a flag that long jobs read between steps (a progress report raises
  `JobCancelled`), then stops the thread and waits for it; nothing more reaches the window. It
  happens when the application is about to quit and when the runner's parent is destroyed,
  before Qt deletes the parent's children, the thread among them: a QThread destroyed while
  running aborts the program.

What jobs must leave alone: Python's garbage collector runs on the GUI thread only
(ui/window/startup/app.py), so a collection never destroys the window's Qt objects here; and NumPy's BLAS
threads are set once at start-up (attn_desktop/__init__.py), as changing them while a job
multiplies can hang OpenBLAS.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QCoreApplication, QObject, QThread, QTimer, Signal, Slot

T = TypeVar("T")

UPDATES_PER_SECOND = 30  # what the window is shown at most: more would only queue up unpainted


class JobCancelled(Exception):
    """Raised inside a job (by its progress report) once the thread is shutting down: the job ends
    there, and nobody is told."""


@dataclass(frozen=True)
class JobFailure:
    """Why a job failed: one line for the window, and the error itself for telling kinds apart."""

    message: str
    error: Exception


def one_line(error: Exception) -> str:
    """An error's message as one line (a message made of several lines is joined; none gives the error's name)."""
    text = " ".join(str(error).split())
    return text or type(error).__name__


class Throttle:
    """Lets through at most PER_SECOND events a second (and every forced one): progress at the
    screen's pace, not once per tensor or per step."""

    def __init__(self, per_second: float) -> None:
        self._interval = 1 / per_second
        self._last = -math.inf

    def due(self, force: bool = False) -> bool:
        """Whether to let this one through; if so, the next waits a full interval from now."""
        now = time.monotonic()
        if not force and now - self._last < self._interval:
            return False
        self._last = now
        return True


def keep_newest(_older: Any, newer: T) -> T:
    return newer


class OneSlotMailbox(Generic[T]):
    """One slot between two threads. Putting into a full slot merges (by default: the newer replaces
    the older) instead of queueing, so however fast one side puts, at most one item waits."""

    def __init__(self, merge: Callable[[T, T], T] = keep_newest) -> None:
        self._merge = merge
        self._lock = threading.Lock()
        self._waiting: T | None = None
        self._waiting_since = 0.0

    def put(self, item: T) -> bool:
        """Leave an item; True if the slot was empty (the other side must be told)."""
        with self._lock:
            if self._waiting is not None:
                self._waiting = self._merge(self._waiting, item)
                return False
            self._waiting, self._waiting_since = item, time.monotonic()
            return True

    def take(self) -> T | None:
        with self._lock:
            item, self._waiting = self._waiting, None
            return item

    def unread_for(self, now: float) -> float:
        """How long the waiting item has waited (0 when the slot is empty)."""
        with self._lock:
            return now - self._waiting_since if self._waiting is not None else 0.0


class _JobRunner(QObject):
    """Lives on the worker thread and runs what it is sent there. Only WorkerThread talks to it."""

    delivery = Signal(object, object)  # (callback, args), for the GUI thread

    def __init__(self, stop_requested: threading.Event) -> None:
        super().__init__()
        self._stop_requested = stop_requested
        self._repeat_timer: QTimer | None = None  # made on the worker thread, when first wanted
        self._repeated: Callable[[], None] | None = None

    @Slot(object)
    def run(self, job: Callable[[], None]) -> None:
        if not self._stop_requested.is_set():  # shutting down: what was asked for no longer matters
            job()

    def repeat(self, job: Callable[[], None], interval_ms: int | None) -> None:
        if interval_ms is None or self._stop_requested.is_set():
            if self._repeat_timer is not None:
                self._repeat_timer.stop()
            return
        if self._repeat_timer is None:
            self._repeat_timer = QTimer(self)  # a child: it goes back to the GUI thread with this object
            self._repeat_timer.timeout.connect(self._run_repeated)
        self._repeated = job
        if not self._repeat_timer.isActive() or self._repeat_timer.interval() != interval_ms:
            self._repeat_timer.start(interval_ms)

    @Slot()
    def _run_repeated(self) -> None:
        if self._repeated is not None:
            self.run(self._repeated)

    @Slot()
    def stop(self) -> None:
        """The last thing run on the thread: hand this object back to the GUI thread (so it is deleted
        there, once the thread has ended) and end the thread's event loop."""
        if self._repeat_timer is not None:
            self._repeat_timer.stop()  # a timer may only be stopped from its own thread
        thread = self.thread()
        app = QCoreApplication.instance()
        if app is not None:
            self.moveToThread(app.thread())
        thread.quit()


class WorkerThread(QObject):
    """One worker thread, driven from the GUI thread. See the module's docstring.

    From the GUI thread: `submit`, `submit_newest`, `shutdown`, `is_alive`, `qthread`.
    From inside a job (the worker thread): `stopping`, `deliver`, `progress_reporter`, `repeat`.
    """

    _job_sent = Signal(object)
    _stop_sent = Signal()

    def __init__(self, name: str, shutdown_wait_ms: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._shutdown_wait_ms = shutdown_wait_ms
        self._stop_requested = threading.Event()
        self._shut_down = False
        self._newest: OneSlotMailbox[Callable[[], None]] = OneSlotMailbox()
        self._qthread = QThread(self)
        self._qthread.setObjectName(name)
        self._runner = _JobRunner(self._stop_requested)
        self._runner.moveToThread(self._qthread)
        self._job_sent.connect(self._runner.run)  # queued: the runner lives on the other thread
        self._stop_sent.connect(self._runner.stop)
        self._runner.delivery.connect(self._on_delivery)  # queued the other way
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)
        if parent is not None:
            parent.destroyed.connect(lambda *_: self.shutdown())
        self._qthread.start()

    # ----- from the GUI thread ----------------------------------------------------------------
    def submit(self, job: Callable[[], T], on_result: Callable[[T], None] | None = None,
               on_error: Callable[[JobFailure], None] | None = None) -> None:
        """Run JOB on the worker thread after the jobs sent before it. Its result goes to ON_RESULT and
        its failure to ON_ERROR, on the GUI thread; without ON_ERROR a failure is an uncaught error
        (a job meant to fail quietly catches its own). Ignored once shut down."""
        if not self._shut_down:
            self._job_sent.emit(self._reporting(job, on_result, on_error))

    def submit_newest(self, job: Callable[[], T], on_result: Callable[[T], None] | None = None,
                      on_error: Callable[[JobFailure], None] | None = None) -> None:
        """As `submit`, but a job sent this way that has not started yet is replaced by this one:
        however fast they come (a sentence per key typed), one runs and only the newest waits."""
        if not self._shut_down and self._newest.put(self._reporting(job, on_result, on_error)):
            self._job_sent.emit(self._run_newest)

    @property
    def qthread(self) -> QThread:
        return self._qthread

    @property
    def is_alive(self) -> bool:
        return not self._shut_down and self._qthread.isRunning()

    @property
    def is_shut_down(self) -> bool:
        return self._shut_down

    @Slot()
    def shutdown(self) -> None:
        """Stop the thread and wait for it to end; nothing more reaches the GUI. Safe to call again."""
        if self._shut_down:
            return
        self._shut_down = True
        self._stop_requested.set()  # long jobs stop at their next look; jobs still queued are skipped
        self._newest.take()
        if not self._qthread.isRunning():
            return
        self._stop_sent.emit()
        if not self._qthread.wait(self._shutdown_wait_ms):
            # Work that never looks at the flag (a step, a load that reports no progress) is ended by
            # force: better that than a thread destroyed while running.
            self._qthread.terminate()
            self._qthread.wait()

    @Slot(object, object)
    def _on_delivery(self, callback: Callable[..., None], args: tuple[Any, ...]) -> None:
        if not self._shut_down:
            callback(*args)

    # ----- from inside a job (the worker thread) ------------------------------------------------
    @property
    def stopping(self) -> bool:
        """Whether the thread is shutting down: a long job reads this between its steps and stops."""
        return self._stop_requested.is_set()

    def deliver(self, callback: Callable[..., None], *args: Any) -> None:
        """Call CALLBACK(*ARGS) on the GUI thread, after everything delivered before it."""
        self._runner.delivery.emit(callback, args)

    def progress_reporter(self, on_progress: Callable[[float, str], None],
                          per_second: float = UPDATES_PER_SECOND) -> Callable[[float, str], None]:
        """A `report(fraction, text)` for a long job: delivers to ON_PROGRESS at most PER_SECOND times
        a second (and always the end, 1.0), and raises JobCancelled once the thread is shutting down,
        so closing the window does not wait for a long load to finish."""
        throttle = Throttle(per_second)

        def report(fraction: float, text: str) -> None:
            if self.stopping:
                raise JobCancelled
            if throttle.due(force=fraction >= 1.0):
                self.deliver(on_progress, float(fraction), str(text))

        return report

    def repeat(self, job: Callable[[], None], interval_ms: int | None) -> None:
        """Run JOB on the worker thread every INTERVAL_MS from now on (None: no more), between the
        jobs sent meanwhile: a loop that keeps taking commands. One repeated job per thread."""
        self._runner.repeat(job, interval_ms)

    # ----- inside -----------------------------------------------------------------------------------
    def _reporting(self, job: Callable[[], T], on_result: Callable[[T], None] | None,
                   on_error: Callable[[JobFailure], None] | None) -> Callable[[], None]:
        """JOB, run so that its result or failure is delivered."""

        def run_and_report() -> None:
            try:
                result = job()
            except JobCancelled:
                return
            except Exception as error:
                if on_error is None:
                    raise
                self.deliver(on_error, JobFailure(one_line(error), error))
                return
            if on_result is not None:
                self.deliver(on_result, result)

        return run_and_report

    def _run_newest(self) -> None:
        job = self._newest.take()
        if job is not None:
            job()


class ThreadRunner(QObject):
    """The GUI thread's handle on one worker thread (the training's, the model's): the runner sends its jobs to
    `_worker_thread`, and the thread ends with `shutdown()`, when the runner's parent is destroyed and when the
    application is about to quit."""

    def __init__(self, thread_name: str, shutdown_wait_ms: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker_thread = WorkerThread(thread_name, shutdown_wait_ms, parent=self)

    @property
    def is_alive(self) -> bool:
        return self._worker_thread.is_alive

    @Slot()
    def shutdown(self) -> None:
        """Stop the thread and wait for it to end; safe to call more than once."""
        self._worker_thread.shutdown()


class PacedDelivery(QObject, Generic[T]):
    """Updates from a worker thread, handed to the window no faster than it can take them.

    The worker `put`s every update; they wait in a one-slot mailbox, merged, so however fast they
    come and however slow a frame is, at most one waits and nothing in them is lost. The next is
    handed on no sooner than 1/PER_SECOND after the last one began, and no sooner after the window
    settled from it (its handlers ran and the repaint they asked for was done) than that took:
    however slow the views are, at least half of the GUI thread's time is left for clicks, menus,
    timers and painting.
    """

    def __init__(self, worker_thread: WorkerThread, merge: Callable[[T, T], T], on_update: Callable[[T], None],
                 per_second: float = UPDATES_PER_SECOND, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker_thread = worker_thread
        self._on_update = on_update
        self._interval = 1 / per_second
        self._mailbox: OneSlotMailbox[T] = OneSlotMailbox(merge)
        self._delivery_timer = QTimer(self, singleShot=True)
        self._delivery_timer.timeout.connect(self._deliver)
        self._settle_timer = QTimer(self, singleShot=True)  # fires once the window has handled and painted an update
        self._settle_timer.timeout.connect(self._settled)
        self._next_delivery = 0.0  # time.monotonic() before which no update is handed on
        self._delivery_started = 0.0

    def put(self, update: T) -> None:
        """From the worker thread: leave an update for the window (merged into any still waiting)."""
        if self._mailbox.put(update):
            self._worker_thread.deliver(self._deliver)

    def unread_for(self, now: float) -> float:
        """How long the waiting update has waited for the window: long means the window is behind."""
        return self._mailbox.unread_for(now)

    @Slot()
    def _deliver(self) -> None:
        """Hand on the waiting update, or come back when the window has had its share of time."""
        if self._worker_thread.is_shut_down:
            self._mailbox.take()  # nothing more reaches the views
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
        self._on_update(update)
        # A zero timer fires once the events queued meanwhile are done, the repaints among them.
        self._settle_timer.start(0)

    @Slot()
    def _settled(self) -> None:
        now = time.monotonic()
        busy = now - self._delivery_started
        self._next_delivery = max(self._delivery_started + self._interval, now + busy)
        self._deliver()  # an update that came meanwhile waits for its turn
