"""Reading the induction circuit off the GUI thread: each head's scores and the accuracy, heads knocked out or not.

One reading runs the model on the evaluation's 1,000 fresh sequences (about a tenth of a second), too long
for a frame, so it is a job for a thread of its own (ui/workers.py). While training runs, the panel asks
for a reading on every update; at most READINGS_PER_SECOND of them are read (the newest, and always the
last one asked for), so reading never takes the processor from training for long. A knock-out switch asks
at once. A reading of a model the panel has since left (another task, a reset) is dropped; the view drops
one of heads knocked out that are no longer.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from attn_desktop.model.training.induction_circuit import CircuitReading, read_circuit
from attn_desktop.model.training.induction_task import InductionTask
from attn_desktop.model.training.layered_maths import HeadAt
from attn_desktop.ui.workers import WorkerThread

READINGS_PER_SECOND = 3
SHUTDOWN_WAIT_MS = 2000


@dataclass(frozen=True)
class CircuitRequest:
    task: InductionTask
    params: Any  # LayeredParams (a copy nobody changes)
    knocked_out: frozenset[HeadAt]
    run: int  # which model run it is of: readings of an earlier run are dropped


class CircuitReader(QObject):
    """Readings of the circuit, asked for from the GUI thread and delivered to it (`read`)."""

    read = Signal(object, object)  # CircuitReading, and the frozenset of heads knocked out for it

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker_thread = WorkerThread("circuit", SHUTDOWN_WAIT_MS, parent=self)
        self._run = 0
        self._waiting: CircuitRequest | None = None  # asked for while the last reading is too recent
        self._pace = QTimer(self)
        self._pace.setSingleShot(True)
        self._pace.setInterval(int(1000 / READINGS_PER_SECOND))
        self._pace.timeout.connect(self._send_waiting)

    def ask(self, task: InductionTask, params: Any, knocked_out: Collection[HeadAt], at_once: bool = False) -> None:
        """A reading of PARAMS with KNOCKED_OUT heads writing nothing; AT_ONCE skips the pace (a click)."""
        request = CircuitRequest(task, params, frozenset(knocked_out), self._run)
        if at_once or not self._pace.isActive():
            self._waiting = None
            self._send(request)
        else:
            self._waiting = request

    def forget(self) -> None:
        """Drop every reading asked for so far (the model run they are of is gone)."""
        self._run += 1
        self._waiting = None

    def shutdown(self) -> None:
        self._pace.stop()
        self._worker_thread.shutdown()

    def _send_waiting(self) -> None:
        if self._waiting is not None:
            request, self._waiting = self._waiting, None
            self._send(request)

    def _send(self, request: CircuitRequest) -> None:
        self._pace.start()
        job = partial(read_circuit, request.task, request.params, request.knocked_out)
        self._worker_thread.submit_newest(job, partial(self._on_read, request), lambda _failure: None)

    def _on_read(self, request: CircuitRequest, reading: CircuitReading) -> None:
        if request.run == self._run:  # (jobs run in order: a reading never overtakes a newer one)
            self.read.emit(reading, request.knocked_out)
