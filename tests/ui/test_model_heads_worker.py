"""The model's thread on its own (ModelRunner), with stand-in models: what it runs, what it drops, how it ends."""

import threading
import time
from dataclasses import dataclass

import pytest
from PySide6.QtCore import QObject, Qt

from attn_desktop.ui.pretrained.pretrained_worker import ModelRunner


@dataclass
class FakeRun:
    model_name: str
    sentence: str


class FakeModel:
    def __init__(self, name, run_pause=0.0):
        self.name, self.run_pause = name, run_pause
        self.config, self.memory_bytes = None, 1234
        self.sentences = []

    def run(self, sentence):
        self.sentences.append(sentence)
        time.sleep(self.run_pause)
        if not sentence.strip():
            raise ValueError("the sentence is empty; type a few words")
        return FakeRun(self.name, sentence)


@pytest.fixture
def make_runner():
    """Builds runners that are always shut down at the end, even by a failing test (a running thread
    destroyed would take the test process with it)."""
    made = []

    def make(load):
        runner, events = _runner(load)
        made.append(runner)
        return runner, events

    yield make
    for runner in made:
        runner.shutdown()


def _runner(load):
    runner = ModelRunner(load, describe_run=lambda run: {})
    events = {"loaded": [], "failed": [], "ran": [], "run_failed": [], "progress": []}
    runner.loaded.connect(events["loaded"].append)
    runner.load_failed.connect(events["failed"].append)
    runner.ran.connect(events["ran"].append)
    runner.run_failed.connect(events["run_failed"].append)
    runner.progress.connect(lambda fraction, text: events["progress"].append(fraction))
    return runner, events


def test_sentences_typed_while_one_runs_are_replaced_by_the_newest(qtbot, tmp_path, make_runner):
    model = FakeModel("slow", run_pause=0.3)
    runner, events = make_runner(lambda path, progress: model)
    runner.load(tmp_path / "a.gguf")
    qtbot.waitUntil(lambda: bool(events["loaded"]))
    runner.run("first")
    qtbot.waitUntil(lambda: model.sentences == ["first"])
    for count in range(20):
        runner.run(f"typed {count}")
    qtbot.waitUntil(lambda: len(events["ran"]) == 2, timeout=5000)
    qtbot.wait(500)
    assert model.sentences == ["first", "typed 19"]
    assert [result.run.sentence for result in events["ran"]] == ["first", "typed 19"]
    runner.shutdown()


def test_a_failed_load_keeps_the_model_before_it(qtbot, tmp_path, make_runner):
    def load(path, progress):
        if path.name == "bad.gguf":
            raise ValueError(f"{path.name}: not a GGUF file\n(it starts with 'hello')")
        return FakeModel(path.stem)

    runner, events = make_runner(load)
    runner.load(tmp_path / "good.gguf")
    runner.load(tmp_path / "bad.gguf")
    qtbot.waitUntil(lambda: bool(events["failed"]))
    failure = events["failed"][0]
    assert failure.message == "bad.gguf: not a GGUF file (it starts with 'hello')"  # one line
    assert not failure.unavailable
    runner.run("still here")
    qtbot.waitUntil(lambda: bool(events["ran"]))
    assert events["ran"][0].run.model_name == "good"
    runner.shutdown()


def test_a_missing_pack_is_told_apart_from_a_bad_file(qtbot, tmp_path, make_runner):
    from attn_desktop.model.pretrained.pack import ModelUnavailable

    def load(path, progress):
        raise ModelUnavailable("Reading a model needs the gguf library: pip install gguf")

    runner, events = make_runner(load)
    runner.load(tmp_path / "any.gguf")
    qtbot.waitUntil(lambda: bool(events["failed"]))
    assert events["failed"][0].unavailable
    runner.shutdown()


def test_a_sentence_the_model_refuses_comes_back_with_its_reason(qtbot, tmp_path, make_runner):
    runner, events = make_runner(lambda path, progress: FakeModel("m"))
    runner.load(tmp_path / "m.gguf")
    runner.run("  ")
    qtbot.waitUntil(lambda: bool(events["run_failed"]))
    assert events["run_failed"][0].sentence == "  " and "empty" in events["run_failed"][0].message
    runner.run("fine")  # the thread lives on
    qtbot.waitUntil(lambda: bool(events["ran"]))
    runner.shutdown()


def test_progress_reaches_the_window_at_the_screens_pace_and_ends_at_one(qtbot, tmp_path, make_runner):
    def load(path, progress):
        for step in range(1, 2001):  # far more reports than a screen can show
            progress(step / 2000, f"{step} of 2000")
            time.sleep(0.0002)
        return FakeModel("m")

    runner, events = make_runner(load)
    runner.load(tmp_path / "m.gguf")
    qtbot.waitUntil(lambda: bool(events["loaded"]), timeout=10_000)
    assert 2 <= len(events["progress"]) < 200
    assert events["progress"] == sorted(events["progress"]) and events["progress"][-1] == 1.0
    runner.shutdown()


@pytest.mark.timing
def test_shutting_down_during_a_long_load_stops_it_at_its_next_report(qtbot, tmp_path, make_runner):
    finished = threading.Event()

    def load(path, progress):
        for step in range(100):  # ten seconds in all
            progress(step / 100, "reading")
            time.sleep(0.1)
        finished.set()
        return FakeModel("m")

    runner, events = make_runner(load)
    runner.load(tmp_path / "m.gguf")
    qtbot.waitUntil(lambda: bool(events["progress"]))
    started = time.monotonic()
    runner.shutdown()
    assert time.monotonic() - started < 1.0
    assert not runner.model_thread.isRunning() and not finished.is_set()
    qtbot.wait(100)
    assert events["loaded"] == [] and events["failed"] == []  # nobody is told of a load given up
    runner.shutdown()  # a second time does nothing


def test_the_thread_ends_with_its_owner(qtbot, tmp_path):
    owner = QObject()
    runner = ModelRunner(lambda path, progress: FakeModel("m"), parent=owner, describe_run=lambda run: {})
    thread = runner.model_thread
    assert thread.isRunning()
    finished = []
    # Told on the model's thread itself, as it ends: the thread object is deleted with its owner.
    thread.finished.connect(lambda: finished.append(True), Qt.ConnectionType.DirectConnection)
    owner.deleteLater()
    qtbot.waitUntil(lambda: bool(finished), timeout=5000)


@pytest.mark.parametrize("text", ["", "a"])
def test_requests_after_shutdown_are_ignored(qtbot, tmp_path, make_runner, text):
    runner, events = make_runner(lambda path, progress: FakeModel("m"))
    runner.shutdown()
    runner.load(tmp_path / "m.gguf")
    runner.run(text)
    qtbot.wait(100)
    assert not any(events.values())


def test_the_induction_probe_runs_on_the_models_thread_and_a_bad_length_comes_back_with_its_reason(
        qtbot, tmp_path, make_runner):
    pytest.importorskip("gguf")
    pytest.importorskip("tokenizers")
    from attn_desktop.model.pretrained.llama import LlamaModel

    from tests.support.tiny_llama import write_tiny_llama

    write_tiny_llama(tmp_path / "tiny.gguf")
    threads = []

    def load(path, progress):
        model = LlamaModel.load(path, progress)
        real_run = model.run_token_ids
        model.run_token_ids = lambda ids: threads.append(threading.current_thread()) or real_run(ids)
        return model

    runner, events = make_runner(load)
    probes, failures = [], []
    runner.induction_ran.connect(probes.append)
    runner.induction_failed.connect(failures.append)
    runner.load(tmp_path / "tiny.gguf")
    qtbot.waitUntil(lambda: bool(events["loaded"]))
    assert events["loaded"][0].longest_probe == 128
    runner.probe_induction(6, 3)
    runner.probe_induction(500, 0)
    qtbot.waitUntil(lambda: bool(probes and failures), timeout=5000)
    assert (probes[0].length, probes[0].seed, len(probes[0].token_ids)) == (6, 3, 12)
    assert threads and threads[0] is not threading.main_thread()
    assert (failures[0].length, failures[0].seed) == (500, 0) and "from 2 to 128" in failures[0].message
