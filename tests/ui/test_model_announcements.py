"""A real model's load and a knock-out's effect are said once each to a screen reader (the window's announcer,
whose log the Description panel shows), in the words the panel shows: the tiny LLaMA-style model of
tests/ui/conftest.py stands in for SmolLM2; the knock-out is made with K on the head grid, by keys alone.
Training's milestone and its knock-outs are said the same way."""

import pytest
from PySide6.QtCore import Qt

from attn_desktop.language import tr

from tests.support.model_heads_window import loaded_heads
from tests.ui.test_training_induction import choose_induction, click, make_panel, switch_knock_out

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")


def wait_for_knocked(qtbot, panel, heads):
    qtbot.waitUntil(lambda: panel.run.knocked_out == frozenset(heads), timeout=10_000)
    qtbot.wait(20)


@pytest.mark.parametrize("code", ["en", "es"])
def test_the_load_and_a_knock_out_by_k_are_each_said_once(qtbot, window, pack_is_tiny, code):
    window.switch_language(code)
    before = len(window.announcer.log)
    panel = loaded_heads(qtbot, window)
    loaded = [text for text in window.announcer.log[before:] if pack_is_tiny.stem in text]
    assert len(loaded) == 1 and loaded[0].startswith(tr("Loaded {model}: {details}").split("{")[0]), loaded

    before = len(window.announcer.log)
    panel.grid.setFocus()
    qtbot.keyClick(panel.grid, Qt.Key.Key_K)  # the current head, layer 0 head 0
    wait_for_knocked(qtbot, panel, {(0, 0)})
    qtbot.waitUntil(lambda: len(window.announcer.log) > before)
    qtbot.wait(100)  # nothing more comes
    assert window.announcer.log[before:] == [panel.knock_label.text()]
    assert "L0 H0" in panel.knock_label.text()

    before = len(window.announcer.log)
    qtbot.keyClick(panel.grid, Qt.Key.Key_K)  # on again
    wait_for_knocked(qtbot, panel, set())
    qtbot.waitUntil(lambda: len(window.announcer.log) > before)
    assert window.announcer.log[before:] == [tr("Every head restored: the model's own prediction again.")]


def said(panel):
    texts: list[str] = []
    panel.announcement.connect(texts.append)
    return texts


@pytest.mark.parametrize(("code", "words"), [("en", "The loss dropped at step {step}:"),
                                             ("es", "La pérdida cayó en el paso {step}:")])
def test_trainings_loss_drop_is_said_once_at_its_step(qtbot, speaking, code, words):
    speaking(code)
    panel = make_panel(qtbot)
    choose_induction(qtbot, panel)
    texts = said(panel)
    qtbot.keyClick(panel.pace_box, Qt.Key.Key_End)
    click(qtbot, panel.train_button)
    qtbot.waitUntil(lambda: panel.drop_marks.drop_step is not None, timeout=60_000)
    qtbot.wait(300)  # more steps after the drop: still said once
    click(qtbot, panel.pause_button)
    qtbot.waitUntil(lambda: not panel.is_running, timeout=5000)
    qtbot.wait(100)  # a step already under way reports
    assert len(texts) == 1 and texts[0].startswith(words.format(step=f"{panel.drop_marks.drop_step:.0f}")), texts


@pytest.mark.slow  # trains the model it knocks heads out of (500 steps, once per session)
def test_a_training_knock_out_says_its_accuracy_once(qtbot, trained_panel):
    panel = trained_panel
    choose_induction(qtbot, panel)
    texts = said(panel)
    switch_knock_out(qtbot, panel, 0)
    qtbot.wait(100)
    assert texts == [panel.circuit.accuracy_label.text()]
    assert texts[0].startswith("Accuracy with Layer 1 · head 1 knocked out:")


@pytest.fixture
def trained_panel(qtbot):
    from tests.support.trained_induction import trained_params, trained_trainer

    trained_params()
    return make_panel(qtbot, make_trainer=trained_trainer)
