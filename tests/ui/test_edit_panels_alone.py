"""The panels that edit the scene, each built alone on a bare scene and an edit history.

A student's typing and clicking must reach the scene as one named, undoable step,
and what the panel shows must follow the scene when Undo takes the step back.
"""

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLineEdit

from attn_desktop.model import Change
from attn_desktop.model.scene_files import open_reading
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.document.edit_history import EditHistory
from attn_desktop.ui.panels.grid_editor import GridEditor
from attn_desktop.ui.panels.score_table import ScoreTablePanel
from attn_desktop.ui.panels.sentence_panel import SentencePanel
from attn_desktop.ui.view_state.key_highlight import KeyHighlight

CAT_SENTENCE = ["The", "cat", "sat", "on", "the", "mat"]


def shown(qtbot, widget):
    qtbot.addWidget(widget)
    widget.resize(420, 420)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def rows_shown(panel: SentencePanel) -> list[str]:
    return [panel.list.item(row).text() for row in range(panel.list.count())]


@pytest.fixture
def cat_reading():
    """The demo's scene looked at with the query its file chose ("sat"), as a window shows it."""
    return open_reading(scene_path(DEFAULT_SCENE))


@pytest.fixture
def cat_scene(cat_reading):
    return cat_reading.scene


def test_adding_a_token_by_typing_is_one_named_step(qtbot, cat_reading, cat_scene):
    history = EditHistory(cat_scene, cat_reading.view)
    panel = shown(qtbot, SentencePanel(cat_scene, history))
    qtbot.mouseClick(panel.new_name, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(panel.new_name, "dog")
    qtbot.keyClick(panel.new_name, Qt.Key.Key_Return)
    assert rows_shown(panel) == [*CAT_SENTENCE, "dog"]
    assert history.stack.undoText() == "Add token “dog”"
    assert "Added “dog”" in panel.message_label.text()
    history.stack.undo()
    assert rows_shown(panel) == CAT_SENTENCE and cat_reading.result.weights.shape == (6, 6)


def test_removing_a_token_with_the_button_and_getting_it_back(qtbot, cat_reading, cat_scene):
    history = EditHistory(cat_scene, cat_reading.view)
    panel = shown(qtbot, SentencePanel(cat_scene, history))
    keys_before = cat_scene.to_data().keys
    panel.list.setCurrentRow(1)
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert rows_shown(panel) == ["The", "sat", "on", "the", "mat"]
    assert panel.message_label.text() == "Removed “cat” (Ctrl+Z brings it back)."
    assert history.stack.undoText() == "Remove token “cat”"
    history.stack.undo()
    assert rows_shown(panel) == CAT_SENTENCE and cat_scene.to_data().keys == keys_before
    assert cat_reading.selected_token == "sat"


def test_a_refused_name_says_why_and_records_nothing(qtbot, cat_reading, cat_scene):
    history = EditHistory(cat_scene, cat_reading.view)
    panel = shown(qtbot, SentencePanel(cat_scene, history))
    qtbot.keyClicks(panel.new_name, "   ")
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    assert panel.message_label.text() == "A token needs a name."
    assert history.stack.count() == 0 and rows_shown(panel) == CAT_SENTENCE


def test_moving_a_token_down_is_a_step_named_reorder(qtbot, cat_reading, cat_scene):
    history = EditHistory(cat_scene, cat_reading.view)
    panel = shown(qtbot, SentencePanel(cat_scene, history))
    panel.list.setCurrentRow(0)
    qtbot.mouseClick(panel.down_button, Qt.MouseButton.LeftButton)
    assert rows_shown(panel)[:2] == ["cat", "The"] and history.stack.undoText() == "Reorder tokens"
    history.stack.undo()
    assert rows_shown(panel) == CAT_SENTENCE


def test_without_a_history_the_panel_still_edits_its_scene(qtbot, cat_scene):
    panel = shown(qtbot, SentencePanel(cat_scene))
    qtbot.keyClicks(panel.new_name, "dog")
    qtbot.keyClick(panel.new_name, Qt.Key.Key_Return)
    assert cat_scene.tokens[-1] == "dog"


def test_typing_a_grid_number_is_an_undoable_step(qtbot):
    reading = open_reading(scene_path("lessons/2_projections.json"))
    scene = reading.scene
    history = EditHistory(scene, reading.view)
    grids = shown(qtbot, GridEditor(reading, history))
    table = grids.tables["w_q"]
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(table.item(0, 0)).center())
    qtbot.keyClick(table, Qt.Key.Key_3)
    editor = table.findChild(QLineEdit)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: reading.grids["w_q"][0, 0] == 3.0)
    assert history.stack.undoText() == "Edit W_Q" and table.item(0, 0).text() == "3"
    history.stack.undo()
    assert reading.grids["w_q"][0, 0] == 0.0 and table.item(0, 0).text() == "0"


def test_the_no_grids_box_is_an_undoable_step(qtbot):
    reading = open_reading(scene_path("lessons/2_projections.json"))
    scene = reading.scene
    history = EditHistory(scene, reading.view)
    grids = shown(qtbot, GridEditor(reading, history))
    box = grids.no_grids_box
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))
    assert not scene.use_grids and history.stack.undoText() == "No grids"
    history.stack.undo()
    assert scene.use_grids and not box.isChecked()


def test_pointing_at_a_score_row_lights_its_key_without_telling_the_document(qtbot, cat_scene):
    highlight = KeyHighlight()
    panel = shown(qtbot, ScoreTablePanel(cat_scene, highlight))
    heard: list[Change] = []
    cat_scene.subscribe(heard.append)
    lit: list[int | None] = []
    highlight.changed.connect(lit.append)
    table = panel.table
    row_two = table.visualRect(panel.model.index(2, 1)).center()
    table.setMouseTracking(True)
    qtbot.mouseMove(table.viewport(), row_two)
    qtbot.waitUntil(lambda: highlight.key == 2)
    assert lit[-1] == 2 and heard == []  # a hover is view state: no view had to redraw
    cat_scene.add_token("dog")
    assert highlight.key is None  # the rows are new: nothing stays lit by mistake


def test_a_closed_panel_stops_following_the_scene(qtbot, cat_reading, cat_scene):
    panel = SentencePanel(cat_scene)
    followers = cat_scene.subscriber_count
    panel.deleteLater()
    qtbot.waitUntil(lambda: cat_scene.subscriber_count < followers)
    cat_scene.add_token("dog")  # must not reach the deleted panel
    assert np.isfinite(cat_reading.result.weights).all()
