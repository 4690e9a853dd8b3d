"""A click or Enter on a head of the Model heads panel opens it as the window's scene, after asking about
unsaved work; Find heads lists the heads linking two tokens, most first, names the common kinds with
their rules, and opens the head chosen."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from tests.support.in_the_window import matrix_cells

pytest.importorskip("gguf")
pytest.importorskip("tokenizers")

from attn_desktop.model.pretrained.head_kinds import HeadKind, kind_scores
from attn_desktop.model.pretrained.llama import DEFAULT_SENTENCE

from tests.support.model_heads_window import loaded_heads, type_sentence, wait_for_run


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
    texts = " ".join(label.text() for label in find.findChildren(QLabel))
    for kind in HeadKind:
        assert kind.title in texts and kind.rule in texts
        scores = kind_scores(run, kind)
        found = sorted(((layer, head) for layer, head in np.ndindex(scores.shape) if scores[layer, head] >= 0.5),
                       key=lambda lh: (-scores[lh], lh))
        listed = find.kind_lists[kind].heads()
        assert listed == found
        if not found:
            assert _listed(find.kind_lists[kind]) == ["None in this sentence"]
