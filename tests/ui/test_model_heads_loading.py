"""Lessons → Heads of a Real Model… loads the pack's model (here the tiny one, found in its place), shows the
progress, then every head's weights as a thumbnail."""

import numpy as np
import pytest

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE
from attn_desktop.ui.pretrained.token_strip import shown_token

from tests.support.model_heads_window import HEADS, LAYERS, SlowModel, loaded_heads, open_heads, wait_for_run


def test_loading_shows_its_progress_then_every_head(qtbot, window, pack_is_tiny, reference_model, monkeypatch):
    SlowModel(monkeypatch, progress_pause=0.03)
    panel = open_heads(qtbot, window)
    seen = []
    qtbot.waitUntil(lambda: seen.append(panel.progress_bar.value()) or 0 < seen[-1] < 1000
                    and panel.progress_bar.isVisible(), timeout=10_000)
    assert panel.model_label.text().startswith("<b>Loading tiny-llama.gguf")
    assert not panel.grid.isEnabled()  # nothing to click yet
    wait_for_run(qtbot, panel, DEFAULT_SENTENCE)
    assert not panel.progress_bar.isVisible()
    assert "tiny-llama" in panel.model_label.text() and f"{LAYERS} layers" in panel.model_label.text()
    assert panel.grid.shape == (LAYERS, HEADS) and panel.grid.isVisible()
    assert panel.token_strip.shown == [shown_token(token) for token in reference_model.tokenize(DEFAULT_SENTENCE)]
    expected_next = reference_model.run(DEFAULT_SENTENCE).next_tokens
    assert [text.rsplit(" ", 2)[0] for text in panel.next_strip.shown] == [shown_token(t) for t, _ in expected_next]
    assert window.shown_errors == []


def test_the_thumbnails_show_each_heads_weights(qtbot, window, pack_is_tiny, reference_model):
    panel = loaded_heads(qtbot, window)
    attention = reference_model.run(DEFAULT_SENTENCE).attention
    n = attention.shape[-1]
    for layer, head in ((0, 0), (1, 3)):
        image = panel.grid.image_of(layer, head)
        assert (image.width(), image.height()) == (n, n)
        row = n - 1
        brightest = int(np.argmax(attention[layer, head, row]))
        shown = [image.pixelIndex(column, row) for column in range(n)]
        assert int(np.argmax(shown)) == brightest
        assert image.pixelIndex(n - 1, 0) == 255  # a future key: masked
