"""A real language model loads and runs sentences on a thread of its own; the window never waits.

Two objects, one on each side of the thread boundary (as in training_worker.py):

- `ModelWorker` lives on the model's thread. It loads a model file (seconds for the real one)
  and runs sentences through it (a tenth of a second to half a second each). It holds the
  loaded model; nothing on the GUI thread ever touches it. It never touches a widget.
- `ModelRunner` lives on the GUI thread. It owns the thread, turns calls into queued signals,
  and hands the views what came back: load progress, the model loaded (or why not), each run.

Newer sentences supersede older ones. The runner leaves a sentence in a one-slot mailbox and
wakes the worker only if the slot was empty; a sentence typed while another waits replaces it.
So however fast someone types, at most one run is under way and one waits: the last one typed.

A model that fails to load leaves the one loaded before in place: the worker swaps models only
once the new one has loaded whole.

Shutting down. `ModelRunner.shutdown()` raises a flag, asks the worker (queued) to quit its
thread and waits for it. A load in progress reads the flag at its next progress report and
stops there, so closing the window during a long load does not wait for the load to finish.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from attn_desktop.ui.workers import join_thread, leave_thread, stop_with_app_and_parent

PROGRESS_REPORTS_PER_SECOND = 30
SHUTDOWN_WAIT_MS = 10_000

ProgressCallback = Callable[[float, str], None]
ModelLoader = Callable[[Path, ProgressCallback], Any]


def load_llama_model(path: Path, progress: ProgressCallback) -> Any:
    """The app's NumPy LLaMA reader (imported only when a model is first wanted: start-up stays quick)."""
    from attn_desktop.model.pretrained.llama import LlamaModel

    return LlamaModel.load(path, progress=progress)


@dataclass(frozen=True)
class LoadedModel:
    """What the views learn about a model that loaded; the model itself stays on its thread."""

    name: str
    path: Path
    config: Any  # LlamaConfig: layer_count, head_count, kv_head_count, head_width, ...
    memory_bytes: int
    seconds: float  # how long the load took


@dataclass(frozen=True)
class LoadFailure:
    path: Path | None
    message: str  # one line, naming the file and what was found
    unavailable: bool  # the optional pack or its libraries are missing (ModelUnavailable)


@dataclass(frozen=True)
class RunResult:
    """One sentence through the model, and what the views show of it besides the run."""

    run: Any  # ModelRun
    seconds: float
    kinds: dict[Any, list[Any]] = field(default_factory=dict)  # HeadKind -> [HeadScore], best first


@dataclass(frozen=True)
class RunFailure:
    sentence: str
    message: str


class LoadCancelled(Exception):
    """Raised inside a load's progress report when the window is closing: the load ends there."""


def find_kinds(run: Any) -> dict[Any, list[Any]]:
    """Every common kind of head the model's rules find in this run, by kind."""
    from attn_desktop.model.pretrained.head_kinds import HeadKind, heads_of_kind

    return {kind: heads_of_kind(run, kind) for kind in HeadKind}


class SentenceMailbox:
    """One slot between the threads: the GUI puts the newest sentence (replacing any waiting), the worker takes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: str | None = None

    def put(self, sentence: str) -> bool:
        """Leave a sentence; True if the slot was empty (the worker must be woken)."""
        with self._lock:
            was_empty = self._waiting is None
            self._waiting = sentence
            return was_empty

    def take(self) -> str | None:
        with self._lock:
            sentence, self._waiting = self._waiting, None
            return sentence

    def clear(self) -> None:
        self.take()


class ModelWorker(QObject):
    """Loads and runs a model on the thread it is moved to. Talk to it only through queued signals."""

    progress = Signal(float, str)
    loaded = Signal(object)  # LoadedModel
    load_failed = Signal(object)  # LoadFailure
    ran = Signal(object)  # RunResult
    run_failed = Signal(object)  # RunFailure
    busy_changed = Signal(bool)

    def __init__(self, load_model: ModelLoader, mailbox: SentenceMailbox, stop_requested: threading.Event,
                 describe_run: Callable[[Any], dict] = find_kinds) -> None:
        super().__init__()
        self._load_model = load_model
        self._describe_run = describe_run
        self._mailbox = mailbox
        self._stop_requested = stop_requested
        self._model: Any = None
        self._last_progress = 0.0

    # ----- commands (slots, run on the worker's thread) ---------------------
    @Slot(object)
    def load(self, path: Path) -> None:
        if self._stop_requested.is_set():
            return
        self.busy_changed.emit(True)
        started = time.perf_counter()
        self._last_progress = 0.0
        try:
            model = self._load_model(Path(path), self._report_progress)
        except LoadCancelled:
            return
        except Exception as error:  # noqa: BLE001 - any file can be chosen; none may take the thread down
            if self._stop_requested.is_set():
                return  # the window is closing: nobody to tell
            self.load_failed.emit(LoadFailure(Path(path), one_line(error), is_unavailable(error)))
            self.busy_changed.emit(False)
            return
        self._model = model  # only now: a failed load leaves the model before it in place
        self.loaded.emit(LoadedModel(
            name=str(getattr(model, "name", Path(path).stem)), path=Path(path), config=getattr(model, "config", None),
            memory_bytes=int(getattr(model, "memory_bytes", 0)), seconds=time.perf_counter() - started,
        ))
        self.busy_changed.emit(False)  # after the result: whoever waits for "not busy" finds it there

    @Slot()
    def run_waiting(self) -> None:
        """Run the sentence waiting in the mailbox, if any (older ones were replaced while they waited)."""
        sentence = self._mailbox.take()
        if sentence is None or self._model is None or self._stop_requested.is_set():
            return
        self.busy_changed.emit(True)
        started = time.perf_counter()
        try:
            run = self._model.run(sentence)
            kinds = self._describe_run(run)
        except Exception as error:  # noqa: BLE001 - an empty or too long sentence is said in the panel
            self.run_failed.emit(RunFailure(sentence, one_line(error)))
        else:
            self.ran.emit(RunResult(run, time.perf_counter() - started, kinds))
        self.busy_changed.emit(False)

    @Slot()
    def stop(self) -> None:
        """Let the model go and end this thread's event loop (back on the GUI thread, to be deleted there)."""
        self._model = None
        leave_thread(self)

    # ----- inside a load ------------------------------------------------------
    def _report_progress(self, fraction: float, text: str) -> None:
        if self._stop_requested.is_set():
            raise LoadCancelled
        now = time.monotonic()
        if fraction < 1.0 and now - self._last_progress < 1 / PROGRESS_REPORTS_PER_SECOND:
            return  # the bar moves at the screen's pace, not once per tensor
        self._last_progress = now
        self.progress.emit(float(fraction), str(text))


def one_line(error: Exception) -> str:
    """An error's message as one line (the model's errors already are; anything else is made so)."""
    text = " ".join(str(error).split())
    return text or type(error).__name__


def is_unavailable(error: Exception) -> bool:
    """Whether the error says the optional pack or libraries are missing (rather than a bad file)."""
    try:
        from attn_desktop.model.pretrained.pack import ModelUnavailable
    except ImportError:
        return False
    return isinstance(error, ModelUnavailable)


class ModelRunner(QObject):
    """The GUI thread's handle on the model's thread: requests in, results out.

    Call `shutdown()` before the owner goes away; it is also called when `parent` is destroyed
    and when the application is about to quit.
    """

    progress = Signal(float, str)
    loaded = Signal(object)  # LoadedModel
    load_failed = Signal(object)  # LoadFailure
    ran = Signal(object)  # RunResult
    run_failed = Signal(object)  # RunFailure
    busy_changed = Signal(bool)

    _load_requested = Signal(object)
    _run_requested = Signal()
    _stop_requested_signal = Signal()

    def __init__(self, load_model: ModelLoader = load_llama_model, parent: QObject | None = None,
                 describe_run: Callable[[Any], dict] = find_kinds) -> None:
        super().__init__(parent)
        self._mailbox = SentenceMailbox()
        self._stop_flag = threading.Event()
        self._thread = QThread(self)
        self._thread.setObjectName("model")
        self._worker = ModelWorker(load_model, self._mailbox, self._stop_flag, describe_run)
        self._worker.moveToThread(self._thread)
        for theirs, ours in ((self._worker.progress, self.progress), (self._worker.loaded, self.loaded),
                             (self._worker.load_failed, self.load_failed), (self._worker.ran, self.ran),
                             (self._worker.run_failed, self.run_failed),
                             (self._worker.busy_changed, self.busy_changed)):
            theirs.connect(ours)  # queued: they arrive on the GUI thread
        self._load_requested.connect(self._worker.load)
        self._run_requested.connect(self._worker.run_waiting)
        self._stop_requested_signal.connect(self._worker.stop)
        self._shut_down = False
        stop_with_app_and_parent(self.shutdown, parent)
        self._thread.start()

    # ----- requests -----------------------------------------------------------------
    def load(self, path: Path) -> None:
        """Load a model file; `loaded` or `load_failed` says how it went. Sentences asked for meanwhile wait."""
        if not self._shut_down:
            self._load_requested.emit(Path(path))

    def run(self, sentence: str) -> None:
        """Run a sentence once the worker is free, replacing any sentence still waiting."""
        if not self._shut_down and self._mailbox.put(sentence):
            self._run_requested.emit()

    @property
    def model_thread(self) -> QThread:
        return self._thread

    @property
    def is_alive(self) -> bool:
        return not self._shut_down and self._thread.isRunning()

    @Slot()
    def shutdown(self) -> None:
        """Stop the thread and wait for it to end; safe to call more than once."""
        if self._shut_down:
            return
        self._shut_down = True
        self._stop_flag.set()  # a load stops at its next progress report, a waiting sentence is dropped
        self._mailbox.clear()
        join_thread(self._thread, self._stop_requested_signal.emit, SHUTDOWN_WAIT_MS)
