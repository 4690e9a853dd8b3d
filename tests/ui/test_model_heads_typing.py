"""Typing a sentence in the Model heads panel reruns it without blocking the window; newer sentences replace
older ones waiting; a sentence the model refuses is said in the panel."""

import numpy as np
import pytest
from PySide6.QtCore import QElapsedTimer, Qt, QTimer

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.ui.pretrained.token_strip import shown_token

from tests.support.model_heads_window import SlowModel, loaded_heads, type_sentence, wait_for_run


@pytest.mark.timing
def test_typing_reruns_the_sentence_while_the_window_keeps_answering(qtbot, window, pack_is_tiny, reference_model,
                                                                       monkeypatch):
    slow = SlowModel(monkeypatch, run_pause=0.4)
    panel = loaded_heads(qtbot, window)
    before = panel.grid.image_of(0, 0).copy()
    ticks, clock = [], QElapsedTimer()
    clock.start()
    timer = QTimer(interval=10)
    timer.timeout.connect(lambda: ticks.append((clock.elapsed(), slow.running.is_set())))
    timer.start()
    runs_before = len(slow.sentences)
    type_sentence(qtbot, panel, "A dog ran")
    wait_for_run(qtbot, panel, "A dog ran")
    timer.stop()
    # Nine keys typed at once make one run (or two), never one per key.
    assert 1 <= len(slow.sentences) - runs_before <= 2
    # While the model ran, the window's timer kept firing.
    during = [at for at, running in ticks if running]
    assert len(during) >= 10 and max(np.diff(during)) < 150
    tokens = reference_model.tokenize("A dog ran")
    assert panel.token_strip.shown == [shown_token(token) for token in tokens]
    assert len(panel.next_strip.shown) == 5
    after = panel.grid.image_of(0, 0)
    assert after.width() == len(tokens) and after != before


def test_newer_sentences_replace_older_ones_waiting(qtbot, window, pack_is_tiny, monkeypatch):
    slow = SlowModel(monkeypatch, run_pause=0.3)
    panel = loaded_heads(qtbot, window)
    qtbot.waitUntil(lambda: not slow.running.is_set())
    count = len(slow.sentences)
    type_sentence(qtbot, panel, "The cat")
    qtbot.keyClick(panel.sentence_box, Qt.Key.Key_Return)  # Enter: runs at once, without the typing pause
    qtbot.waitUntil(slow.running.is_set)
    for more in (" sat", " on", " the", " mat"):  # typed while "The cat" runs
        qtbot.keyClicks(panel.sentence_box, more)
        qtbot.keyClick(panel.sentence_box, Qt.Key.Key_Return)
    wait_for_run(qtbot, panel, "The cat sat on the mat")
    qtbot.wait(400)
    # The first ran at once; the three typed while it ran were replaced by the last one.
    assert slow.sentences[count:] == ["The cat", "The cat sat on the mat"]


def test_a_sentence_the_model_refuses_is_said_in_the_panel(qtbot, window, pack_is_tiny):
    panel = loaded_heads(qtbot, window)
    type_sentence(qtbot, panel, "   ")
    qtbot.waitUntil(lambda: panel.message_label.isVisible(), timeout=5000)
    assert "empty" in panel.message_label.text()
    assert window.shown_errors == []
