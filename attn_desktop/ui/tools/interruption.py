"""Ctrl+C in a headless command that builds the real window (snapshot, export's pictures).

Python's own Ctrl+C raises KeyboardInterrupt wherever the interpreter is, which is often inside a Qt
callback in the middle of building or closing a window: the exception unwinds through Qt, and Qt's
objects are left half made (a crash, or a traceback naming a deleted C++ object). Here Ctrl+C only
notes that it came; the command stops at the next safe point (stop_if_interrupted, between steps, in
plain Python with no Qt call under it), the window closes as usual, and the command line reports one
line and exit code 130. Waits end early once it has come, so the safe point comes soon.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

_interrupted = False


@contextmanager
def interrupt_at_safe_points() -> Iterator[None]:
    """While inside, Ctrl+C (SIGINT) is noted rather than raised; stop_if_interrupted raises it.
    A Ctrl+C that the shell told the process to ignore (a background job) stays ignored."""
    global _interrupted
    _interrupted = False
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN:
        yield
        return

    def note_interrupt(_signal: int, _frame: FrameType | None) -> None:
        global _interrupted
        _interrupted = True

    signal.signal(signal.SIGINT, note_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def interrupted() -> bool:
    """Whether Ctrl+C came while interrupt_at_safe_points was in force (waits end early when it has)."""
    return _interrupted


def stop_if_interrupted() -> None:
    """KeyboardInterrupt if Ctrl+C has come: call only where no Qt call is under Python's frames."""
    if _interrupted:
        raise KeyboardInterrupt


__all__ = ["interrupt_at_safe_points", "interrupted", "stop_if_interrupted"]
