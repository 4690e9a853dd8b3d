"""The Model heads panel as the window closes and on small screens: the model's thread ends with the window,
the heads fit a 1024 × 768 projector, hovering names a head, a long sentence keeps the window on the screen."""

import time

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained import pack
from attn_desktop.model.pretrained.head_kinds import HeadKind
from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE
from attn_desktop.model.teaching.dock_id import DockId

from tests.support.model_heads_window import HEADS, SlowModel, loaded_heads, open_heads, type_sentence, wait_for_run
from tests.support.tiny_llama import write_tiny_llama


@pytest.mark.timing
def test_closing_the_window_during_a_load_ends_the_models_thread(qtbot, window, pack_is_tiny, monkeypatch):
    SlowModel(monkeypatch, progress_pause=0.5)  # a load that would take over ten seconds
    panel = open_heads(qtbot, window)
    qtbot.waitUntil(lambda: panel.progress_bar.isVisible())
    qtbot.wait(100)
    runner = window.model_heads.runner
    started = time.monotonic()
    window.close()
    assert time.monotonic() - started < 2.0
    assert not runner.model_thread.isRunning() and not runner.is_alive


@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
def test_the_heads_fit_a_1024_by_768_projector(qtbot, window, pack_is_tiny, monkeypatch, presenting):
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QScreen

    from attn_desktop.ui.pretrained.pattern_thumbnails import MIN_CELL
    from attn_desktop.ui.tools.layout_audit import _labels_cut

    monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, 1024, 768))
    panel = loaded_heads(qtbot, window)
    # Six tokens: the Scores and matrix panels of a longer scene need more than 768 lines in presentation
    # type whatever this panel does (their own limit, not this view's).
    type_sentence(qtbot, panel, "The cat sat on the mat")
    wait_for_run(qtbot, panel, "The cat sat on the mat")
    window.presentation_action.setChecked(presenting)
    window.showNormal()
    window.resize(1024, 768)
    qtbot.waitUntil(lambda: not window.presentation_mode.settling, timeout=5000)
    qtbot.wait(100)
    assert window.minimumSizeHint().height() <= 768 and window.height() == 768
    assert window.docks[DockId.MODEL_HEADS].isVisible()
    assert [cut for cut in _labels_cut(window) if cut.startswith("Model heads")] == []
    grid, scroll = panel.grid, panel.grid_scroll
    assert grid.cell_size() >= MIN_CELL and grid.width() <= scroll.viewport().width()
    corner = grid.cell_rect(0, HEADS - 1)
    assert scroll.viewport().rect().contains(grid.mapTo(scroll.viewport(), corner.bottomRight()))
    assert scroll.height() >= 100 and panel.sentence_box.isVisible()
    assert window.canvas.width() >= 0.25 * window.width()
    # A head opened from the grid keeps the window on the screen too.
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, pos=grid.cell_rect(1, 1).center())
    assert "Layer 1, head 1" in window.windowTitle()
    qtbot.wait(100)
    assert window.minimumSizeHint().height() <= 768 and window.height() == 768
    window.presentation_action.setChecked(False)


def test_hovering_names_a_head_and_its_kind(qtbot, window, pack_is_tiny):
    panel = loaded_heads(qtbot, window)
    grid = panel.grid
    kinds = panel.result.kinds
    first_token_heads = kinds[HeadKind.FIRST_TOKEN] + kinds[HeadKind.PREVIOUS_TOKEN]
    layer, head = (first_token_heads[0].layer, first_token_heads[0].head) if first_token_heads else (0, 0)
    qtbot.mouseMove(grid, grid.cell_rect(layer, head).center())
    qtbot.waitUntil(lambda: panel.head_label.text().startswith(f"Layer {layer}, head {head}"))
    if first_token_heads:
        assert "head (" in panel.head_label.text()  # "first-token head (93 %)"
    qtbot.mouseMove(grid, QPoint(1, 1))  # over the labels, not a head
    qtbot.waitUntil(lambda: not panel.head_label.text().startswith("Layer"))


def test_find_heads_starts_from_the_last_pronoun_and_the_second_token():
    from attn_desktop.ui.pretrained.find_heads_panel import default_pair

    assert default_pair(["The", " cat", " sat", " because", " it", " was"]) == (4, 1)
    assert default_pair(["The", " dog", " saw", " her"]) == (3, 1)
    assert default_pair(["Hello", " world"]) == (1, 1)  # no pronoun: the last token
    assert default_pair(["Hi"]) == (0, 0)


def test_a_long_sentence_keeps_the_window_on_a_1024_by_768_screen(qtbot, window, pack_is_tiny, monkeypatch):
    """A sentence of 200 tokens shows its first chips and a count, not 200 chips: the panel, and so the
    window, once grew past the screen and stayed there."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QScreen

    from attn_desktop.ui.pretrained.token_strip import MAX_CHIPS

    monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, 1024, 768))
    panel = loaded_heads(qtbot, window)
    window.showNormal()
    window.resize(1024, 768)
    long_sentence = "the " * 100  # 200 tokens in the tiny vocabulary ("the" and a space)
    type_sentence(qtbot, panel, long_sentence)
    wait_for_run(qtbot, panel, long_sentence, timeout=20_000)
    tokens = panel.run.tokens
    assert len(tokens) > MAX_CHIPS
    assert f"and {len(tokens) - MAX_CHIPS} more" in panel.token_strip.text()
    assert len(panel.token_strip.toolTip().split()) == len(tokens)  # every token, on hover
    qtbot.wait(100)
    assert window.minimumSizeHint().height() <= 768 and window.height() == 768


def test_a_refused_sentence_greys_the_last_results(qtbot, window, pack_is_tiny):
    """The tokens, predictions and heads still on view belong to the last sentence that ran: greyed, so
    nobody reads them as the empty sentence's; the next sentence that runs brings them back."""
    panel = loaded_heads(qtbot, window)
    assert panel.token_strip.isEnabled() and panel.tabs.isEnabled()
    type_sentence(qtbot, panel, "   ")
    qtbot.waitUntil(lambda: panel.message_label.isVisible(), timeout=5000)
    assert not panel.token_strip.isEnabled() and not panel.next_strip.isEnabled() and not panel.tabs.isEnabled()
    type_sentence(qtbot, panel, "The cat")
    wait_for_run(qtbot, panel, "The cat")
    assert panel.token_strip.isEnabled() and panel.next_strip.isEnabled() and panel.tabs.isEnabled()
    assert not panel.message_label.isVisible()



def test_a_loaded_model_keeps_the_window_on_the_screen_and_its_progress_moves(qtbot, monkeypatch, tmp_path):
    """SmolLM2's shape (30 layers of 9 heads), on a screen just tall enough for the window before the panel
    opens (a real desktop's larger type squeezes a 1024 × 768 screen the same way): once the tokens, the
    predictions and the heads are in, the window still fits the screen, and the bar moved while the
    file's weights were read (its vocabulary and layout are read in a moment, then the weights take the bar on
    from a tenth of the reading)."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QScreen
    from PySide6.QtWidgets import QMessageBox

    from attn_desktop.ui.window.startup.app import build_window, configure_pyqtgraph

    from tests.support.in_the_window import settle_layout

    configure_pyqtgraph()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    screen = QRect(0, 0, 1024, 620)
    monkeypatch.setattr(QScreen, "availableGeometry", lambda _screen: screen)
    path = tmp_path / "SmolLM2-135M-Instruct.gguf"
    write_tiny_llama(path, layer_count=30, head_count=9, kv_head_count=3, width=36, name="SmolLM2-135M-Instruct")
    monkeypatch.setattr(pack, "find_pack_model", lambda: path)
    SlowModel(monkeypatch, progress_pause=0.005)
    window = build_window()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    settle_layout(qtbot, window)
    panel = open_heads(qtbot, window)
    seen: list[tuple[int, str]] = []
    timer = QTimer(interval=5)
    timer.timeout.connect(lambda: panel.loading and seen.append((panel.progress_bar.value(), panel.progress_label.text())))
    timer.start()
    wait_for_run(qtbot, panel, DEFAULT_SENTENCE)
    timer.stop()
    settle_layout(qtbot, window)
    assert screen.contains(window.geometry()), (window.geometry(), screen)
    assert panel.grid.shape == (30, 9)
    while_reading_the_weights = {value for value, text in seen if text.startswith("Reading weights")}
    assert len(while_reading_the_weights) >= 5, seen
    assert min(while_reading_the_weights) <= 300 and max(while_reading_the_weights) >= 800, seen
    window.history.reset()
