"""The Model heads panel in the window, driven as a teacher drives it, with the tiny model of tests/ui/conftest.py
in the pack's place (tiny_model_path, pack_is_tiny): opening it, typing a sentence, waiting for a run, and a
model that takes its time so a test can watch the window meanwhile."""

import threading
import time

from PySide6.QtCore import Qt

from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE, LlamaModel
from attn_desktop.model.teaching.dock_id import DockId

LAYERS, HEADS = 2, 4  # the tiny model's (tiny_model_path, conftest.py)


class SlowModel:
    """Counts the sentences run, and takes its time loading and running, so a test can watch the window meanwhile."""

    def __init__(self, monkeypatch, progress_pause=0.0, run_pause=0.0):
        self.sentences: list[str] = []
        self.running = threading.Event()
        real_load = LlamaModel.load.__func__

        def load(cls, path, progress=None):
            def slow_progress(fraction, text):
                time.sleep(progress_pause)
                if progress is not None:
                    progress(fraction, text)

            model = real_load(cls, path, slow_progress)
            real_run = model.run

            def run(sentence):
                self.running.set()
                self.sentences.append(sentence)
                time.sleep(run_pause)
                try:
                    return real_run(sentence)
                finally:
                    self.running.clear()

            model.run = run
            return model

        monkeypatch.setattr(LlamaModel, "load", classmethod(load))


def open_heads(qtbot, window):
    """Lessons → Heads of a Real Model… by its key."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.docks[DockId.MODEL_HEADS].isVisible())
    return window.model_heads_panel


def wait_for_run(qtbot, panel, sentence, timeout=10_000):
    qtbot.waitUntil(lambda: panel.run is not None and panel.run.sentence == sentence, timeout=timeout)
    qtbot.wait(20)  # the layout takes in the new texts


def loaded_heads(qtbot, window):
    panel = open_heads(qtbot, window)
    wait_for_run(qtbot, panel, DEFAULT_SENTENCE)
    return panel


def type_sentence(qtbot, panel, sentence):
    box = panel.sentence_box
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(box, Qt.Key.Key_Delete)
    qtbot.keyClicks(box, sentence)
