"""Asking a real model "what if" in the window, with real clicks and keys: heads knocked out from the grid's
menu, by K and by Ctrl+click, and restored; the next-token bars at the temperature the slider's keys set;
tokens generated through the key-value cache and taken back; the logit lens of a chosen position; the
induction loss with heads knocked out; all on a 1024 × 768 projector, normal and presenting.

A tiny random LLaMA-style model written as a GGUF file stands in for SmolLM2 (always); the numbers the window
shows are compared with the same file loaded apart from it. The lens on SmolLM2 itself runs when the pack is
installed.
"""

import numpy as np
import pytest
from PySide6.QtCore import QRect, Qt

from tests.support.in_the_window import POPUP_WARNING, matrix_cells, right_click_and_choose

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.induction import probe_induction
from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE, LlamaModel
from attn_desktop.ui.pretrained.token_strip import percent, shown_token

LAYERS, HEADS, KV_HEADS = 2, 4, 2  # the tiny model's (tiny_model_path, conftest.py)


def open_heads(qtbot, window, timeout=10_000):
    """Lessons → Heads of a Real Model… by its key, and the default sentence's run in the panel."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    panel = window.model_heads_panel
    qtbot.waitUntil(lambda: panel.run is not None and panel.run.sentence == DEFAULT_SENTENCE, timeout=timeout)
    return panel


def click_tab(qtbot, panel, page):
    bar = panel.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(panel.tabs.indexOf(page)).center())
    assert panel.tabs.currentWidget() is page


def wait_for_knocked(qtbot, panel, heads):
    qtbot.waitUntil(lambda: panel.run.knocked_out == frozenset(heads), timeout=10_000)
    qtbot.wait(20)


def predictions(run) -> list[str]:
    """The next-token strip's chips as a student reads them: "␣and 19 %"."""
    return [f"{shown_token(token)} {percent(probability)}" for token, probability in run.next_tokens]


def softmax(logits, temperature):
    scaled = np.asarray(logits, dtype=np.float64) / temperature
    scaled = np.exp(scaled - scaled.max())
    return scaled / scaled.sum()


# ----- knocking heads out -------------------------------------------------------------------------
@pytest.mark.qt_log_ignore(POPUP_WARNING)
def test_a_head_knocked_out_from_the_grid_menu_changes_the_prediction_and_restore_all_brings_it_back(
        qtbot, window, pack_is_tiny, reference_model):
    panel = open_heads(qtbot, window)
    intact = reference_model.run(DEFAULT_SENTENCE)
    knocked = reference_model.run(DEFAULT_SENTENCE, knocked_out=frozenset({(1, 2)}))
    scene_before = window.scene.to_data(0)

    items = right_click_and_choose(qtbot, panel.grid, panel.grid.cell_rect(1, 2).center(), "Knock out layer 1, head 2")
    assert "Open layer 1, head 2" in items
    wait_for_knocked(qtbot, panel, {(1, 2)})
    assert panel.next_strip.shown == predictions(knocked) != predictions(intact)
    assert panel.grid.knocked_out == {(1, 2)}
    label = panel.knock_label.text()
    assert label.startswith("1 head knocked out (L1 H2).") and "moved most" in label
    assert panel.restore_button.isVisible()

    # The Next token tab sets each token's bar beside the intact model's: "62→18 %".
    click_tab(qtbot, panel, panel.next_scroll)
    was, now = intact.next_scores.probabilities(), knocked.next_scores.probabilities()
    expected = [(shown_token(text), f"{percent(was[token]).removesuffix(' %')}\u2192{percent(now[token])}")
                for token, text in zip(knocked.next_scores.top_ids, knocked.next_scores.top_texts)]
    qtbot.waitUntil(lambda: panel.next_view.bars.painted_rows() == expected)
    assert panel.next_view.moved_label.text().startswith("With 1 head knocked out,")

    click_tab(qtbot, panel, panel.tabs.widget(0))
    qtbot.mouseClick(panel.restore_button, Qt.MouseButton.LeftButton)
    wait_for_knocked(qtbot, panel, set())
    assert panel.next_strip.shown == predictions(intact)
    assert panel.grid.knocked_out == set() and not panel.restore_button.isVisible()
    assert np.array_equal(panel.run.next_scores.logits, intact.next_scores.logits)  # exactly the intact model
    # Knocking out is a question asked of the model, not an edit: the scene and the document are as they were.
    assert window.scene.to_data(0) == scene_before and not window.documents.modified


def test_k_and_ctrl_click_knock_heads_out_and_a_click_still_opens_the_heads_own_pattern(
        qtbot, window, pack_is_tiny, reference_model):
    panel = open_heads(qtbot, window)
    grid = panel.grid
    grid.setFocus()
    qtbot.keyClick(grid, Qt.Key.Key_K)  # the current head, layer 0 head 0
    wait_for_knocked(qtbot, panel, {(0, 0)})
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                     grid.cell_rect(1, 1).center())
    wait_for_knocked(qtbot, panel, {(0, 0), (1, 1)})
    expected = reference_model.run(DEFAULT_SENTENCE, knocked_out=frozenset({(0, 0), (1, 1)}))
    assert panel.next_strip.shown == predictions(expected)
    assert "2 heads knocked out (L0 H0, L1 H1)." in panel.knock_label.text()

    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, pos=grid.cell_rect(1, 1).center())  # a plain click opens it
    qtbot.waitUntil(lambda: "Layer 1, head 1" in window.windowTitle())
    weights = expected.attention[1, 1]  # its weights in the run shown (layer 0's head 0 is off before it)
    shown = [[float(text) if text != "\u2014" else 0.0 for text in row] for row in matrix_cells(window)]
    np.testing.assert_allclose(shown, np.round(weights, 2), atol=0.006)
    assert panel.run.knocked_out == frozenset({(0, 0), (1, 1)})  # opening a head restores nothing

    qtbot.keyClick(grid, Qt.Key.Key_K)  # K again on the current head, now layer 1 head 1: back on
    wait_for_knocked(qtbot, panel, {(0, 0)})


def test_the_grid_groups_the_query_heads_that_share_keys_and_values(qtbot, window, pack_is_tiny):
    panel = open_heads(qtbot, window)
    assert panel.grid.kv_group_size == HEADS // KV_HEADS
    qtbot.wait(20)  # the layout takes in the run
    qtbot.mouseMove(panel.grid, panel.grid.cell_rect(1, 1).center())
    qtbot.mouseMove(panel.grid, panel.grid.cell_rect(0, 3).center())
    qtbot.waitUntil(lambda: "shares keys" in panel.head_label.text()), panel.head_label.text()
    assert panel.head_label.text().endswith("shares keys and values with heads 2\u20133 (key/value head 1)")


# ----- the prediction, generation and the cache -------------------------------------------------------
def test_the_temperature_keys_reshape_the_bars_and_generate_steps_through_the_cache_and_back(
        qtbot, window, pack_is_tiny, reference_model):
    panel = open_heads(qtbot, window)
    view = panel.next_view
    click_tab(qtbot, panel, panel.next_scroll)
    scores = panel.run.next_scores
    view.temperature_slider.setFocus()
    for _ in range(4):
        qtbot.keyClick(view.temperature_slider, Qt.Key.Key_Right)  # 0.05 a press
    assert view.temperature == pytest.approx(1.2)
    probabilities = softmax(scores.logits, 1.2)
    qtbot.waitUntil(lambda: [number for _, number in view.bars.painted_rows()]
                    == [percent(probabilities[token]) for token in scores.top_ids])

    ids = list(panel.run.token_ids)
    qtbot.mouseClick(view.generate_button, Qt.MouseButton.LeftButton)  # Most likely
    qtbot.waitUntil(lambda: len(panel.run.token_ids) == len(ids) + 1, timeout=10_000)
    run = panel.run
    assert run.token_ids == [*ids, scores.top_ids[0]] and run.reused_tokens == len(ids)
    assert panel.sentence_box.text() == run.sentence == DEFAULT_SENTENCE + scores.top_texts[0]
    # Through the cache, the very numbers of the whole longer sequence computed afresh.
    whole = reference_model.run_without_cache(run.token_ids)
    assert np.array_equal(run.next_scores.logits, whole.next_scores.logits)
    qtbot.waitUntil(view.cache_box.isVisible)
    assert view.cache_label.text().startswith(
        f"Step 1: 1 new query row; the keys and values of {len(ids)} tokens came from the cache.")
    assert view.cache_matrix.cached_rows == len(ids) and view.cache_matrix.size_in_tokens == len(ids) + 1
    assert run.multiply_adds < run.multiply_adds_without_cache

    qtbot.mouseClick(view.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(panel.run.token_ids) == len(ids) + 2, timeout=10_000)
    qtbot.waitUntil(lambda: view.cache_label.text().startswith("Step 2: 1 new query row"))
    for expected_length in (len(ids) + 1, len(ids)):
        qtbot.mouseClick(view.back_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda length=expected_length: len(panel.run.token_ids) == length, timeout=10_000)
    assert panel.sentence_box.text() == DEFAULT_SENTENCE and panel.run.token_ids == ids
    qtbot.waitUntil(lambda: not view.back_button.isEnabled())


def test_a_generated_token_keeps_the_heads_knocked_out(qtbot, window, pack_is_tiny, reference_model):
    panel = open_heads(qtbot, window)
    panel.grid.setFocus()
    qtbot.keyClick(panel.grid, Qt.Key.Key_K)
    wait_for_knocked(qtbot, panel, {(0, 0)})
    click_tab(qtbot, panel, panel.next_scroll)
    ids = list(panel.run.token_ids)
    qtbot.mouseClick(panel.next_view.generate_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(panel.run.token_ids) == len(ids) + 1, timeout=10_000)
    run = panel.run
    assert run.knocked_out == frozenset({(0, 0)})
    expected = reference_model.run_without_cache(run.token_ids, knocked_out=frozenset({(0, 0)}))
    assert np.array_equal(run.next_scores.logits, expected.next_scores.logits)
    assert panel.next_view.moved_label.text().startswith("With 1 head knocked out,")  # beside the intact model


# ----- the logit lens ---------------------------------------------------------------------------------
def lens_as_shown(rows):
    return [(str(layer), shown_token(row[0][0]), percent(row[0][1])) for layer, row in enumerate(rows)]


def test_the_logit_lens_reads_every_layer_at_the_position_chosen(qtbot, window, pack_is_tiny, reference_model):
    panel = open_heads(qtbot, window)
    lens = panel.lens_view
    click_tab(qtbot, panel, lens)
    qtbot.waitUntil(panel.shows_lens_of_run, timeout=10_000)
    last = len(panel.run.token_ids) - 1
    assert lens.position == last
    assert [row[:3] for row in lens.shown_rows()] == lens_as_shown(reference_model.logit_lens(panel.run, last))

    lens.position_box.setFocus()
    qtbot.keyClick(lens.position_box, Qt.Key.Key_Up)  # the token before
    qtbot.waitUntil(lambda: lens.position == last - 1 and panel.shows_lens_of_run())
    expected = lens_as_shown(reference_model.logit_lens(panel.run, last - 1))
    qtbot.waitUntil(lambda: [row[:3] for row in lens.shown_rows()] == expected, timeout=10_000)


@pytest.mark.slow
def test_the_logit_lens_shows_where_smollm2_finds_paris(qtbot, window, smollm2_installed):
    panel = window.model_heads_panel
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: panel.run is not None, timeout=120_000)
    box = panel.sentence_box
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(box, "The capital of France is")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.run.sentence == "The capital of France is", timeout=30_000)
    click_tab(qtbot, panel, panel.lens_view)
    qtbot.waitUntil(panel.shows_lens_of_run, timeout=30_000)
    rows = panel.lens_view.shown_rows()
    assert len(rows) == 30 and rows[-1][1] == "\u2423Paris"
    assert panel.lens_view.summary.startswith("'\u2423Paris' is the top guess")
    assert panel.lens_view.highlighted_layers()[-1] == 29


# ----- the induction loss -----------------------------------------------------------------------------
@pytest.mark.qt_log_ignore(POPUP_WARNING)
def test_the_induction_loss_is_shown_with_and_without_the_heads_knocked_out_in_its_scores(
        qtbot, window, pack_is_tiny, reference_model):
    from attn_desktop.ui.pretrained.find_heads_panel import INDUCTION

    panel = open_heads(qtbot, window)
    click_tab(qtbot, panel, panel.find_scroll)
    panel.find_panel.find_box.setCurrentIndex(INDUCTION)
    induction = panel.induction_panel
    qtbot.waitUntil(lambda: induction.is_current(induction.probe), timeout=10_000)
    intact = probe_induction(reference_model, induction.length, induction.seed)
    assert induction.loss_label.text() == f"Loss on the second copy: {intact.loss:.2f} nats."

    scores = induction.score_grid
    induction.score_grid.ensurePolished()
    panel.find_scroll.ensureWidgetVisible(scores)
    right_click_and_choose(qtbot, scores, scores.cell_rect(1, 3).center(), "Knock out layer 1, head 3")
    wait_for_knocked(qtbot, panel, {(1, 3)})
    knocked = probe_induction(reference_model, induction.length, induction.seed, knocked_out=frozenset({(1, 3)}))
    qtbot.waitUntil(lambda: induction.loss_label.text() == (
        f"Loss on the second copy: {intact.loss:.2f} nats; {knocked.loss:.2f} with L1 H3 knocked out."), timeout=10_000)
    assert panel.grid.knocked_out == {(1, 3)} == scores.knocked_out  # both grids cross it out


# ----- a 1024 × 768 projector -----------------------------------------------------------------------
@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
def test_every_tab_fits_a_1024_by_768_projector(qtbot, window, pack_is_tiny, monkeypatch, presenting):
    from PySide6.QtGui import QScreen

    from attn_desktop.ui.tools.layout_audit import _labels_cut

    monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, 1024, 768))
    panel = open_heads(qtbot, window)
    panel.grid.setFocus()
    qtbot.keyClick(panel.grid, Qt.Key.Key_K)
    wait_for_knocked(qtbot, panel, {(0, 0)})
    window.presentation_action.setChecked(presenting)
    window.showNormal()
    window.resize(1024, 768)
    qtbot.waitUntil(lambda: not window.presentation_mode.settling, timeout=5000)
    bar = panel.tabs.tabBar()
    for page in (panel.tabs.widget(0), panel.find_scroll, panel.next_scroll, panel.lens_view):
        click_tab(qtbot, panel, page)
        if page is panel.next_scroll and not panel.next_view.cache_box.isVisible():
            qtbot.mouseClick(panel.next_view.generate_button, Qt.MouseButton.LeftButton)
            qtbot.waitUntil(panel.next_view.cache_box.isVisible, timeout=10_000)
        if page is panel.lens_view:
            qtbot.waitUntil(panel.shows_lens_of_run, timeout=10_000)
        qtbot.wait(50)
        assert window.height() == 768 and window.minimumSizeHint().height() <= 768
        assert [cut for cut in _labels_cut(window) if cut.startswith("Model heads")] == [], page
        # Every tab's name whole in the bar: none behind scroll arrows.
        assert bar.tabRect(bar.count() - 1).right() <= bar.width()
        assert all(bar.tabRect(index).width() > bar.fontMetrics().horizontalAdvance(bar.tabText(index))
                   for index in range(bar.count()))
    assert window.canvas.width() >= 0.25 * window.width()
    window.presentation_action.setChecked(False)


# ----- steps that meet other requests -------------------------------------------------------------------
@pytest.fixture
def slow_steps(monkeypatch):
    """Each generation step takes half a second on the model's thread: time for the student to do something else."""
    import time

    real_extend = LlamaModel.extend

    def slow_extend(self, run, token_id):
        time.sleep(0.5)
        return real_extend(self, run, token_id)

    monkeypatch.setattr(LlamaModel, "extend", slow_extend)


def test_a_sentence_typed_while_a_step_runs_is_the_one_shown(qtbot, window, pack_is_tiny, slow_steps):
    panel = open_heads(qtbot, window)
    click_tab(qtbot, panel, panel.next_scroll)
    qtbot.mouseClick(panel.next_view.generate_button, Qt.MouseButton.LeftButton)
    box = panel.sentence_box
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    qtbot.keyClick(box, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(box, "Hello world")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.run.sentence == "Hello world", timeout=10_000)
    qtbot.wait(700)  # the step's answer has come by now, and was dropped
    assert box.text() == panel.run.sentence == "Hello world"
    assert not panel.next_view.cache_box.isVisible() and not panel.next_view.back_button.isEnabled()


def test_a_head_knocked_out_while_a_step_runs_applies_to_the_step(qtbot, window, pack_is_tiny, slow_steps,
                                                                  reference_model):
    panel = open_heads(qtbot, window)
    ids = list(panel.run.token_ids)
    click_tab(qtbot, panel, panel.next_scroll)
    qtbot.mouseClick(panel.next_view.generate_button, Qt.MouseButton.LeftButton)
    panel.grid.setFocus()
    qtbot.keyClick(panel.grid, Qt.Key.Key_K)  # layer 0 head 0, before the step has come
    qtbot.waitUntil(lambda: len(panel.run.token_ids) == len(ids) + 1 and panel.run.knocked_out == {(0, 0)},
                    timeout=10_000)
    expected = reference_model.run_without_cache(panel.run.token_ids, knocked_out=frozenset({(0, 0)}))
    assert np.array_equal(panel.run.next_scores.logits, expected.next_scores.logits)
    assert panel.generated_count == 1


def test_another_model_loaded_forgets_the_heads_knocked_out(qtbot, window, pack_is_tiny):
    panel = open_heads(qtbot, window)
    panel.grid.setFocus()
    qtbot.keyClick(panel.grid, Qt.Key.Key_K)
    wait_for_knocked(qtbot, panel, {(0, 0)})
    first_run = panel.run
    window.model_heads.open_model(pack_is_tiny)  # as File → Open Model… does once a file is chosen
    qtbot.waitUntil(lambda: panel.run is not first_run and panel.run.knocked_out == frozenset(), timeout=10_000)
    assert panel.grid.knocked_out == set() and not panel.restore_button.isVisible()
    assert window.model_heads.variations.knocked_out == frozenset()
