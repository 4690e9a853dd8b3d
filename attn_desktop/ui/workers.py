"""The life of a worker's thread, shared by the training and the model runners.

A runner owns a QThread with a worker moved onto it. The thread must be stopped and joined
before Qt deletes it (a QThread destroyed while running aborts the program), so the runner
stops it when the app is about to quit and when its parent is destroyed — which happens before
Qt deletes the parent's children, the runner and its thread among them.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, QThread


def stop_with_app_and_parent(stop: Callable[[], None], parent: QObject | None) -> None:
    """Call STOP when the application is about to quit and when PARENT is destroyed."""
    app = QCoreApplication.instance()
    if app is not None:
        app.aboutToQuit.connect(stop)
    if parent is not None:
        parent.destroyed.connect(lambda *_: stop())


def join_thread(thread: QThread, ask_worker_to_stop: Callable[[], None], wait_ms: int) -> None:
    """Ask the worker to stop and wait for its thread to end.

    Work that never returns (a step, a load that reports no progress) is ended by force after
    WAIT_MS: better that than a thread destroyed while running.
    """
    if not thread.isRunning():
        return
    ask_worker_to_stop()
    if not thread.wait(wait_ms):
        thread.terminate()
        thread.wait()


def leave_thread(worker: QObject) -> None:
    """From inside WORKER's thread: hand the worker back to the GUI thread (so it is deleted there,
    once this thread has ended) and end this thread's event loop."""
    thread = worker.thread()
    app = QCoreApplication.instance()
    if app is not None:
        worker.moveToThread(app.thread())
    thread.quit()
