"""Lesson 7 in the window: two heads side by side, driven with real keys, clicks and drags."""

import json

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QImage, QScreen
from PySide6.QtWidgets import QApplication

from attn_desktop.model import Role, explain
from attn_desktop.model.scene_files import open_scene
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.panel_sets import ONE_HEAD_PANELS as ONE_HEAD_DOCKS
from attn_desktop.paths import scene_path
from attn_desktop.ui.document import handout_image
from attn_desktop.ui.document.handout_image import render_png
from attn_desktop.ui.tools.layout_audit import _labels_cut

from tests.support.in_the_window import (
    drag_on_canvas,
    on_a_1024_by_768_screen,
    settle_layout,
    type_into_first_cell,
    wait_until_arranged,
)


def open_two_heads(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_7, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.central_stack.currentWidget() is window.heads_view)
    qtbot.wait(20)
    return window.heads_view.columns


def show_head(qtbot, window, column) -> None:
    """Click the head's title, as the lesson's reader does, and wait for its canvas to be drawn."""
    qtbot.mouseClick(column.title_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: column.canvas.isVisible())
    settle_layout(qtbot, window)
    qtbot.wait(50)


def row_texts(matrix, row: int) -> list[str]:
    return [matrix.cell_text(row, column) for column in range(matrix.reading.n_tokens)]


def test_ctrl_7_shows_both_heads_where_the_canvas_was(qtbot, window):
    columns = open_two_heads(qtbot, window)
    assert window.lesson_panel.picker.currentText() == "7. Two heads, side by side"
    assert [column.title_button.text() for column in columns] == ["Head 1 · position", "Head 2 · meaning"]
    assert window.canvas.isHidden() or not window.canvas.isVisible()
    # Every head's matrix; the chosen head's canvas, and the others' too when they fit side by side.
    assert all(column.matrix.isVisible() for column in columns) and columns[0].canvas.isVisible()
    assert columns[1].canvas.isVisible() != window.heads_view.one_at_a_time
    # The panels that show one head make way; the heads show them for every head.
    assert all(window.docks[name].isHidden() for name in ONE_HEAD_DOCKS)
    scene, it = window.scene, window.scene.tokens.index("it")
    assert window.reading().selected == it and window.query_picker.currentText() == "it"
    assert row_texts(columns[0].matrix, it) == ["0.00", "0.00", "0.08", "0.83", "0.08", "—"]
    assert row_texts(columns[1].matrix, it) == ["0.01", "0.84", "0.02", "0.01", "0.12", "—"]
    # Each head draws the word vectors in the two numbers it reads.
    assert columns[0].canvas.dims == (0, 1) and columns[1].canvas.dims == (2, 3)
    assert "dimensions 3 and 4 of 4" in columns[1].canvas.drags.planes.describe(Role.EMBEDDING)
    # Under the heads: the chosen query's outputs side by side, times W_O.
    heads = [explain.vector(scene.head(0, head).attention.output[it]) for head in range(2)]
    assert window.heads_view.mixing_text() == (
        f"Output: out·it = [{heads[0]} | {heads[1]}] × W_O = {explain.vector(scene.output[it])}")
    assert window.heads_view.mixing_text().endswith("= (-0.41, 0.23, 0.86, 0.13)")


def test_a_drag_in_the_meaning_head_changes_only_its_pattern_and_undoes_in_one_step(qtbot, window):
    columns = open_two_heads(qtbot, window)
    scene = window.scene
    it, cat = scene.tokens.index("it"), scene.tokens.index("cat")
    position_before = [row_texts(columns[0].matrix, row) for row in range(scene.n_queries)]
    meaning_before = row_texts(columns[1].matrix, it)
    mixed_before = scene.output[it].copy()
    show_head(qtbot, window, columns[1])  # its canvas, if one shows at a time
    left = -0.4 * columns[1].canvas.x_plot.getViewBox().width()  # to the left, a good part of the plot
    drag_on_canvas(columns[1].canvas, Role.EMBEDDING, cat, QPointF(left, 0))
    x_cat = scene.vectors(Role.EMBEDDING)[cat]
    assert x_cat[2] < 0.5 and x_cat[:2].tolist() == [0.64, 0.77]  # moved in head 2's plane only
    assert [row_texts(columns[0].matrix, row) for row in range(scene.n_queries)] == position_before
    after = row_texts(columns[1].matrix, it)
    assert after != meaning_before and float(after[cat]) < 0.5  # "it" no longer finds "cat"
    assert not np.allclose(scene.output[it, 2:], mixed_before[2:])
    np.testing.assert_array_equal(scene.output[it, :2], mixed_before[:2])
    assert window.undo_action.text() == "&Undo Move x·cat"
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert row_texts(columns[1].matrix, it) == meaning_before
    assert scene.vectors(Role.EMBEDDING)[cat].tolist() == [0.64, 0.77, 1.0, 0.0]


def test_clicking_a_row_of_one_heads_matrix_chooses_the_query_in_both(qtbot, window):
    columns = open_two_heads(qtbot, window)
    matrix = columns[0].matrix
    grid = matrix.grid_rect()
    sat = window.scene.tokens.index("sat")
    row_height = grid.height() / window.scene.n_queries
    qtbot.mouseClick(matrix, Qt.MouseButton.LeftButton,
                     pos=QPointF(grid.left() + 5, grid.top() + (sat + 0.5) * row_height).toPoint())
    assert window.reading().selected == sat and window.query_picker.currentText() == "sat"
    assert columns[1].reading.selected == sat
    assert columns[1].scores.model.index(1, 0).data() == "cat"  # the tables follow: sat's row of head 2
    assert window.heads_view.mixing_text().startswith("Output: out·sat = ")


def test_a_number_typed_into_w_o_changes_the_mix_and_undoes(qtbot, window):
    open_two_heads(qtbot, window)
    scene = window.scene
    it = scene.tokens.index("it")
    head_1 = scene.head(0, 0).attention.output[it]
    table = window.heads_view.w_o_editors[0].tables["w_o"]
    type_into_first_cell(qtbot, table, "2")
    assert scene.grid("w_o")[0, 0] == 2.0 and table.item(0, 0).text() == "2"
    assert window.heads_view.mixing_text().endswith(f"× W_O = ({explain.number(2 * head_1[0])}, 0.23, 0.86, 0.13)")
    assert window.undo_action.text() == "&Undo Edit W_O"
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert scene.grid("w_o")[0, 0] == 0.5 and table.item(0, 0).text() == "0.5"
    # Not a number: one message under W_O, the grid unchanged.
    type_into_first_cell(qtbot, table, "half")
    message = window.heads_view.w_o_editors[0].message_label
    assert message.isVisible() and message.text().startswith("“half” is not a number, so W_O keeps 0.5")
    assert scene.grid("w_o")[0, 0] == 0.5 and table.item(0, 0).text() == "0.5"


def test_a_heads_title_shows_it_in_the_one_head_panels(qtbot, window):
    columns = open_two_heads(qtbot, window)
    window.docks[DockId.SCORE].show()  # from the View menu
    assert columns[0].title_button.isChecked() and not columns[1].title_button.isChecked()
    qtbot.mouseClick(columns[1].title_button, Qt.MouseButton.LeftButton)
    assert (window.view_state.layer, window.view_state.head) == (0, 1) and window.shown.head == 1
    assert columns[1].title_button.isChecked() and not columns[0].title_button.isChecked()
    it = window.scene.tokens.index("it")
    shown = [window.score_panel.model.index(row, 3).data() for row in range(window.scene.n_tokens)]
    assert shown[window.scene.tokens.index("cat")] == "84%" and shown[it] == "12%"
    window.docks[DockId.GRIDS].show()  # the Grids panel, opened from the View menu, shows head 2's grids
    window.docks[DockId.GRIDS].raise_()
    qtbot.waitUntil(lambda: "Head 2 · meaning" in window.grid_editor.head_label.text())


def test_the_scores_box_shows_every_heads_table(qtbot, window):
    columns = open_two_heads(qtbot, window)
    box = window.heads_view.part_boxes["Scores"]
    if box.isChecked():
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    assert not any(column.scores.isVisible() for column in columns)
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    assert all(column.scores.isVisible() for column in columns)
    weights = [[column.scores.model.index(row, 3).data() for row in range(6)] for column in columns]
    assert weights == [["0%", "0%", "8%", "83%", "8%", "masked"], ["1%", "84%", "2%", "1%", "12%", "masked"]]
    qtbot.mouseClick(window.heads_view.part_boxes["Canvas"], Qt.MouseButton.LeftButton)
    assert not any(column.canvas.isVisible() for column in columns)


def test_back_to_a_one_head_lesson_brings_the_canvas_and_its_panels_back(qtbot, window):
    open_two_heads(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.central_stack.currentWidget() is window.canvas)
    assert window.heads_view.columns == []
    assert all(not window.docks[name].isHidden() for name in (DockId.SCORE, DockId.MATRIX, DockId.WEIGHTS, DockId.OUTPUT))
    assert window.docks[DockId.GRIDS].isVisible()  # a projection scene's grids


def test_start_afresh_gives_the_keys_to_a_heads_canvas(qtbot, window):
    columns = open_two_heads(qtbot, window)
    show_head(qtbot, window, columns[1])
    drag_on_canvas(columns[1].canvas, Role.EMBEDDING, window.scene.tokens.index("cat"), QPointF(-40, 0))
    qtbot.keyClick(window, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)  # left, then opened again
    columns = open_two_heads(qtbot, window)
    qtbot.mouseClick(window.lesson_panel.fresh_button, Qt.MouseButton.LeftButton)
    assert not window.windowTitle().startswith("*")
    assert QApplication.focusWidget() in [column.canvas for column in window.heads_view.columns]
    before = window.scene.vectors(Role.EMBEDDING).copy()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)  # an arrow chosen...
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Right)  # ...and moved by the key
    assert (window.scene.vectors(Role.EMBEDDING) != before).any() and window.windowTitle().startswith("*")


def test_a_multi_head_scene_saved_from_the_window_reopens_with_both_heads(qtbot, window, tmp_path, monkeypatch):
    open_two_heads(qtbot, window)
    target = tmp_path / "my heads.json"
    monkeypatch.setattr(window.dialogs, "ask_save_path", lambda suggested: target)
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    document = json.loads(target.read_text(encoding="utf-8"))
    [layer] = document["layers"]
    assert document["version"] == 5 and [head["name"] for head in layer["heads"]] == ["position", "meaning"]
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)  # another lesson first
    qtbot.waitUntil(lambda: window.heads_view.columns == [])
    monkeypatch.setattr(window.dialogs, "ask_open_path", lambda folder: target)
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: len(window.heads_view.columns) == 2)
    reopened = open_scene(target)
    np.testing.assert_array_equal(window.scene.output, reopened.output)
    original = open_scene(scene_path("lessons/7_two_heads.json"))
    np.testing.assert_array_equal(reopened.output, original.output)


@pytest.mark.parametrize("presenting", [False, True], ids=["normal", "presenting"])
def test_two_heads_fit_a_1024_by_768_projector(qtbot, window, monkeypatch, presenting):
    on_a_1024_by_768_screen(window, monkeypatch, presenting)
    columns = open_two_heads(qtbot, window)
    wait_until_arranged(qtbot, window)
    assert window.minimumSizeHint().height() <= 768 and window.height() == 768
    for column in columns:
        canvas = column.canvas
        assert not canvas.isVisible() or (canvas.height() >= 150 and canvas.width() >= 300)
        assert column.matrix.height() >= 150
        assert not column.matrix.visibleRegion().isEmpty()
    mixing = window.heads_view.mixing_label
    assert not mixing.visibleRegion().isEmpty() and mixing.heightForWidth(mixing.width()) <= mixing.height()
    w_o = window.heads_view.w_o_editors[0].tables["w_o"]
    assert w_o.verticalScrollBar().isHidden() or not w_o.verticalScrollBar().isVisible()  # all four rows in view
    assert [cut for cut in _labels_cut(window) if "W_O" in cut or "Head" in cut or "Output" in cut] == []
    window.presentation_action.setChecked(False)


def test_a_picture_of_a_multi_head_scene_shows_every_head(qtbot, window, tmp_path):
    columns = open_two_heads(qtbot, window)
    render_png(window, tmp_path / "heads.png", scale=1)
    image = QImage(str(tmp_path / "heads.png"))
    area = window.heads_view.columns_area
    assert (image.width(), image.height()) == (area.width(), handout_image.title_height(window) + area.height())
    # Both heads' matrices are in it: each outlines the chosen row ("it") with a white band, over its cells.
    rgb = image.convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(rgb.constBits(), dtype=np.uint32, count=rgb.bytesPerLine() * rgb.height() // 4)
    pixels = pixels.reshape(rgb.height(), -1)[:, : rgb.width()]
    top = handout_image.title_height(window)
    in_each = []
    for column in columns:
        grid = column.matrix.grid_rect().toRect().translated(column.matrix.mapTo(area, QPoint(0, 0)))
        cells = pixels[top + grid.top(): top + grid.bottom(), grid.left(): grid.right()]
        in_each.append(np.count_nonzero((cells & 0xFFFFFF) == 0xFFFFFF))  # white only where the band is
    assert min(in_each) > 100


def test_a_word_added_in_the_sentence_panel_joins_every_head(qtbot, window):
    columns = open_two_heads(qtbot, window)
    panel = window.sentence_panel
    qtbot.keyClicks(panel.new_name, "loudly")
    qtbot.keyClick(panel.new_name, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.scene.n_tokens == 7)
    columns = window.heads_view.columns
    assert len(columns) == 2
    for column in columns:
        assert column.reading.n_tokens == 7 and len(column.canvas.arrows[Role.EMBEDDING]) == 7
        assert column.matrix.cell_text(6, 6) != "—" and column.matrix.cell_text(5, 6) == "—"  # causal: sees itself
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.scene.n_tokens == 6)
    assert [len(column.canvas.arrows[Role.EMBEDDING]) for column in window.heads_view.columns] == [6, 6]


def test_predict_then_see_waits_for_a_scene_of_one_head(qtbot, window):
    open_two_heads(qtbot, window)
    assert not window.predict_action.isEnabled()
    qtbot.keyClick(window, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert not window.predict_action.isChecked()
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.central_stack.currentWidget() is window.canvas)
    assert window.predict_action.isEnabled()


def test_the_lessons_exercises_are_answered_from_what_the_heads_show(qtbot, window, private_data_dir):
    columns = open_two_heads(qtbot, window)
    widgets = {widget.exercise.id: widget for widget in window.lesson_panel.exercise_widgets}
    assert set(widgets) == {"two-heads-it-cat", "two-heads-width", "two-heads-w-o"}
    # Which head gives "cat" most of the weight of "it": read off each head's matrix row.
    it, cat = window.scene.tokens.index("it"), window.scene.tokens.index("cat")
    strongest = max(range(2), key=lambda head: float(columns[head].matrix.cell_text(it, cat)))
    which = widgets["two-heads-it-cat"]
    qtbot.mouseClick(which.choice_buttons[strongest], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(which.check_button, Qt.MouseButton.LeftButton)
    assert which.result_label.text().startswith("✓")
    # The numbers side by side: count them in the output line's brackets.
    joined = window.heads_view.mixing_text().split("[", 1)[1].split("]", 1)[0]
    width = widgets["two-heads-width"]
    qtbot.keyClicks(width.answer_edit, str(joined.count(",") + joined.count("|") + 1))
    qtbot.keyClick(width.answer_edit, Qt.Key.Key_Return)
    assert width.result_label.text().startswith("✓")
    # W_O's factor for head 1: its first number.
    factor = widgets["two-heads-w-o"]
    qtbot.keyClicks(factor.answer_edit, window.heads_view.w_o_editors[0].tables["w_o"].item(0, 0).text())
    qtbot.keyClick(factor.answer_edit, Qt.Key.Key_Return)
    assert factor.result_label.text().startswith("✓")
    assert "3 of 3 answered" in window.lesson_panel.progress_label.text()


def test_every_plot_of_each_head_stays_on_its_canvas_in_a_window_smaller_than_the_screen(qtbot, window, monkeypatch):
    """Not maximised on a 1024 × 768 screen the window opens at 970 × 705 (95 % × 92 %): a head's column is
    then too narrow for three plots in a row, so they go two above one instead of running past its edge."""
    monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, 1024, 768))
    window.showNormal()
    window.resize(970, 705)
    columns = open_two_heads(qtbot, window)
    qtbot.wait(100)
    for column in columns:
        canvas = column.canvas
        if not canvas.isVisible():  # (one head's canvas at a time)
            continue
        viewport = canvas.viewport().rect()
        for plot in (canvas.x_plot, canvas.qk_plot, canvas.vo_plot):
            box = canvas.mapFromScene(plot.sceneBoundingRect()).boundingRect()
            assert viewport.contains(box), (column.head, plot.titleLabel.text, box, viewport)
