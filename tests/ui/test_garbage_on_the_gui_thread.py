"""Garbage is collected on the GUI thread only, whatever thread makes it.

Python collects reference cycles in whichever thread is allocating when a threshold is passed.
In the model's or the training's thread, that destroyed Qt objects of closed windows there while
the GUI thread painted, and the window froze; so the app collects on a GUI-thread timer instead.
"""

import gc
import threading


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_cycles_made_on_another_thread_are_collected_on_the_gui_thread(qtbot, window):
    assert not gc.isenabled()  # no automatic collection, in any thread
    collecting_threads: list[int] = []

    def note_thread(phase, info):
        if phase == "start":
            collecting_threads.append(threading.get_ident())

    def make_garbage():
        for _ in range(200_000):  # far past every threshold
            Cycle()

    gc.callbacks.append(note_thread)
    try:
        worker = threading.Thread(target=make_garbage)
        worker.start()
        worker.join()
        assert collecting_threads == []  # the worker itself collected nothing
        qtbot.waitUntil(lambda: len(collecting_threads) > 0, timeout=3000)  # the GUI thread's timer did
        assert set(collecting_threads) == {threading.main_thread().ident}
    finally:
        gc.callbacks.remove(note_thread)
