"""The worker thread the training and the model share (WorkerThread), with plain jobs: where they run,
what comes back and when, and how the thread ends."""

import threading
import time

import pytest
from PySide6.QtCore import QObject, Qt

from attn_desktop.ui.workers import PacedDelivery, WorkerThread


@pytest.fixture
def worker_thread():
    """A worker thread that is always shut down at the end, even by a failing test (a running
    thread destroyed would take the test process with it)."""
    made = WorkerThread("test", shutdown_wait_ms=5000)
    yield made
    made.shutdown()


def test_jobs_run_in_order_off_the_gui_thread_and_results_come_back_on_it(qtbot, worker_thread):
    ran_on, results = [], []

    def job(number):
        ran_on.append(threading.get_ident())
        return number

    def on_result(number):
        results.append((number, threading.get_ident()))

    for number in range(5):
        worker_thread.submit(lambda number=number: job(number), on_result)
    qtbot.waitUntil(lambda: len(results) == 5)
    gui = threading.main_thread().ident
    assert [number for number, _ in results] == [0, 1, 2, 3, 4]
    assert {thread for _, thread in results} == {gui}
    assert len(set(ran_on)) == 1 and gui not in ran_on


def test_a_failed_job_is_told_in_one_line_and_the_thread_lives_on(qtbot, worker_thread):
    failures, results = [], []

    def fail():
        raise ValueError("the file is\nnot a model")

    worker_thread.submit(fail, results.append, failures.append)
    worker_thread.submit(lambda: "still here", results.append)
    qtbot.waitUntil(lambda: bool(results))
    assert [failure.message for failure in failures] == ["the file is not a model"]
    assert isinstance(failures[0].error, ValueError)
    assert results == ["still here"] and worker_thread.is_alive


def test_a_newer_job_replaces_one_still_waiting(qtbot, worker_thread):
    started, results = threading.Event(), []

    def slow():
        started.set()
        time.sleep(0.3)
        return "slow"

    worker_thread.submit_newest(slow, results.append)
    started.wait(5)
    for count in range(20):
        worker_thread.submit_newest(lambda count=count: count, results.append)
    qtbot.waitUntil(lambda: len(results) == 2)
    qtbot.wait(200)
    assert results == ["slow", 19]


def test_progress_comes_at_the_screens_pace_and_ends_at_one(qtbot, worker_thread):
    fractions, done = [], []

    def long_job():
        report = worker_thread.progress_reporter(lambda fraction, text: fractions.append(fraction))
        for step in range(1, 2001):
            report(step / 2000, "working")
            time.sleep(0.0002)
        return True

    worker_thread.submit(long_job, done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=10_000)
    assert 2 <= len(fractions) < 200
    assert fractions == sorted(fractions) and fractions[-1] == 1.0


@pytest.mark.timing
def test_shutting_down_stops_a_long_job_at_its_next_report_and_nothing_more_comes(qtbot):
    worker_thread = WorkerThread("test", shutdown_wait_ms=5000)
    finished, told = threading.Event(), []

    def long_job():
        report = worker_thread.progress_reporter(lambda fraction, text: told.append(fraction))
        for step in range(100):  # ten seconds in all
            report(step / 100, "working")
            time.sleep(0.1)
        finished.set()

    worker_thread.submit(long_job, told.append, told.append)
    qtbot.waitUntil(lambda: bool(told))
    started = time.monotonic()
    worker_thread.shutdown()
    assert time.monotonic() - started < 1.0
    assert not worker_thread.qthread.isRunning() and not worker_thread.is_alive
    told.clear()
    worker_thread.submit(lambda: "too late", told.append)
    qtbot.wait(100)
    assert told == [] and not finished.is_set()
    worker_thread.shutdown()  # a second time does nothing


def test_a_repeated_job_runs_between_other_jobs_until_told_to_stop(qtbot, worker_thread):
    ticks, results = [], []
    worker_thread.submit(lambda: worker_thread.repeat(lambda: ticks.append(1), 5))
    qtbot.waitUntil(lambda: len(ticks) >= 5)
    worker_thread.submit(lambda: "between", results.append)
    qtbot.waitUntil(lambda: bool(results))
    worker_thread.submit(lambda: worker_thread.repeat(lambda: None, None), results.append)
    qtbot.waitUntil(lambda: len(results) == 2)
    count = len(ticks)
    qtbot.wait(100)
    assert len(ticks) == count


def test_the_thread_ends_with_its_owner(qtbot):
    owner = QObject()
    worker_thread = WorkerThread("test", shutdown_wait_ms=5000, parent=owner)
    worker_thread.submit(lambda: worker_thread.repeat(lambda: time.sleep(0.001), 1))  # busy when the owner goes
    ended = []
    # Told on the worker thread itself, as it ends: the thread object is deleted with its owner.
    worker_thread.qthread.finished.connect(lambda: ended.append(True), Qt.ConnectionType.DirectConnection)
    owner.deleteLater()
    qtbot.waitUntil(lambda: bool(ended), timeout=5000)


def test_paced_updates_are_merged_and_come_no_faster_than_asked(qtbot, worker_thread):
    updates = []
    paced = PacedDelivery(worker_thread, lambda older, newer: older + newer, updates.append, per_second=20)

    def flood():
        for number in range(1, 301):
            paced.put([number])
            time.sleep(0.002)

    started = time.monotonic()
    worker_thread.submit(flood)
    qtbot.waitUntil(lambda: sum(len(update) for update in updates) == 300, timeout=5000)
    seconds = time.monotonic() - started
    assert [number for update in updates for number in update] == list(range(1, 301))  # none lost, in order
    assert len(updates) <= 20 * seconds + 2
