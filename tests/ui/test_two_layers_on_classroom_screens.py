"""Lesson 9's two layers of twenty tokens on a classroom projector, driven with real clicks and keys.

Its heads make vectors of sixteen numbers, which a canvas draws as a slice of two: the lesson opens with
the matrices alone (Canvas and Scores unticked, a tick away). Two 20 × 20 matrices do not both show their
numbers side by side on 1024 pixels: one head's shows at a time, in the compact form (".97"), chosen with
the heads' titles. Each layer's W_O (16 × 32) shows its shape; its numbers open in a window of their own.
"""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QApplication

from attn_desktop.model import explain
from attn_desktop.model.commands import open_contents
from attn_desktop.model.training.induction_document import induction_scene_data
from attn_desktop.model.training.induction_task import INDUCTION
from attn_desktop.model.training.training import Trainer
from attn_desktop.ui.tools.layout_audit import audit_window
from attn_desktop.ui.window.startup.app import settle

from tests.support.in_the_window import on_a_1024_by_768_screen, type_into_first_cell, wait_until_arranged

pytestmark = pytest.mark.slow  # a trained model of two layers, laid out again at each step


def open_lesson(qtbot, window, number: int):
    qtbot.keyClick(window, getattr(Qt.Key, f"Key_{number}"), Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.central_stack.currentWidget() is window.heads_view)
    wait_until_arranged(qtbot, window)
    settle(window)
    return window.heads_view.columns


def shown_matrices(window) -> list[str]:
    return [column.title_button.text() for column in window.heads_view.columns if column.matrix.isVisible()]


def test_lesson_9_shows_one_layers_matrix_at_a_time_with_its_numbers(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    first, second = open_lesson(qtbot, window, 9)
    boxes = window.heads_view.part_boxes
    assert not boxes["Canvas"].isChecked() and not boxes["Scores"].isChecked() and boxes["Matrix"].isChecked()
    assert not first.canvas.isVisible() and not second.canvas.isVisible()
    assert shown_matrices(window) == [second.title_button.text()]  # layer 2's stripe, which the lesson reads first
    font = second.matrix.cell_font()
    assert font is not None and QFontInfo(font).pixelSize() >= 10
    assert second.matrix.cell_text(14, 2) in ("1.00", "1")  # 14:D gives 2:K, right after the earlier D, all its weight
    qtbot.mouseClick(first.title_button, Qt.MouseButton.LeftButton)  # layer 1's previous-token line
    qtbot.waitUntil(first.matrix.isVisible)
    wait_until_arranged(qtbot, window)
    assert shown_matrices(window) == [first.title_button.text()]
    weight = first.matrix.reading.result.weights[1, 0]  # 1:D looks at the letter before it, 0:Q
    assert first.matrix.cell_text(1, 0) in (f"{weight:.2f}", f"{weight:.2f}"[1:])  # "0.97", or ".97" in narrow cells
    audit = audit_window(window)
    assert audit["panels_cut"] == [] and audit["matrix_numbers_shown"]
    # The canvas is a tick away, and a lesson of two-number heads opens with it again.
    qtbot.mouseClick(boxes["Canvas"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(first.canvas.isVisible)
    open_lesson(qtbot, window, 7)
    assert boxes["Canvas"].isChecked()
    columns = window.heads_view.columns
    assert len(shown_matrices(window)) == 2 and any(column.canvas.isVisible() for column in columns)


def test_a_large_w_o_shows_its_shape_and_opens_its_numbers_to_type_into(qtbot, window, monkeypatch):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    open_lesson(qtbot, window, 9)
    mixing = window.heads_view.mixing_box
    assert mixing.w_o_editors == []  # no grid clipped to its first numbers
    assert [summary.label.text() for summary in mixing.w_o_summaries] == [
        "<b>Layer 1 · W_O → output</b>&nbsp; 16 × 32", "<b>Layer 2 · W_O → output</b>&nbsp; 16 × 32"]
    qtbot.mouseClick(mixing.w_o_summaries[1].open_button, Qt.MouseButton.LeftButton)
    numbers = mixing.w_o_summaries[1].dialog
    qtbot.waitUntil(numbers.isVisible)
    assert numbers.windowTitle() == "Layer 2 · W_O (mixes the heads' outputs)"
    table = numbers.grid_editor.tables["w_o"]
    scene = window.scene
    before = scene.layers[1].w_o[0, 0]
    assert (table.rowCount(), table.columnCount()) == (16, 32)
    assert table.item(15, 31).text() == explain.short_number(scene.layers[1].w_o[15, 31], 3)  # every number
    type_into_first_cell(qtbot, table, "0.5")
    assert scene.layers[1].w_o[0, 0] == 0.5
    assert window.undo_action.isEnabled()
    window.undo_action.trigger()
    QApplication.processEvents()
    assert scene.layers[1].w_o[0, 0] == before and table.item(0, 0).text() != "0.5"
    numbers.close()


def test_any_trained_two_layer_scene_opens_as_lesson_9_does(qtbot, window, monkeypatch):
    """Not only the lesson's file: the model the app trains, at any step, is a scene of the same shape."""
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    trainer = Trainer(INDUCTION, seed=3)
    for _ in range(5):
        trainer.step()
    open_contents(window.scene, induction_scene_data(INDUCTION, trainer.snapshot(), INDUCTION.example_tokens()),
                  window.view_state)
    qtbot.waitUntil(lambda: window.central_stack.currentWidget() is window.heads_view)
    wait_until_arranged(qtbot, window)
    settle(window)
    boxes = window.heads_view.part_boxes
    assert not boxes["Canvas"].isChecked() and not boxes["Scores"].isChecked()
    assert [summary.shape for summary in window.heads_view.mixing_box.w_o_summaries] == [(16, 32), (16, 32)]
    audit = audit_window(window)
    assert audit["panels_cut"] == [] and audit["matrix_numbers_shown"]
