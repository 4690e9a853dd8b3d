"""Docks that close and come back, and files that open (or are refused) in the GUI."""

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from attn_desktop.model.scene_files import scene_document
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.window.actions.menu_id import MenuId

from tests.support.in_the_window import matrix_cells, table_column

DOCKS = {DockId.SCORE: "Scores", DockId.OUTPUT: "Output", DockId.WEIGHTS: "Weights",
         DockId.MATRIX: "Attention matrix", DockId.SHAPES: "Shapes", DockId.LESSON: "Lesson", DockId.GRIDS: "Grids",
         DockId.CHALLENGES: "Challenges", DockId.CODE: "Code", DockId.SENTENCE: "Sentence", DockId.TRAINING: "Training",
         DockId.MODEL_HEADS: "Model heads", DockId.SCALING_LAB: "√d_k lab", DockId.POSITIONS_LAB: "Positions lab",
         DockId.DESCRIPTION: "Description"}


def test_every_panel_is_a_named_dock(window):
    assert {name: dock.windowTitle() for name, dock in window.docks.items()} == DOCKS
    for name, dock in window.docks.items():
        assert dock.objectName() == name
        # The Grids panel only shows for a scene whose vectors are made by grids; Training, Model heads,
        # the √d_k lab and the Description panel when asked for.
        assert dock.isVisible() == (name not in (DockId.GRIDS, DockId.TRAINING, DockId.MODEL_HEADS, DockId.SCALING_LAB,
                                                 DockId.POSITIONS_LAB, DockId.DESCRIPTION))
    # Challenges, Code and Sentence are tabs behind the Lesson panel, which is in front.
    tabs = {d.objectName() for d in window.tabifiedDockWidgets(window.docks[DockId.LESSON])}
    assert tabs == {DockId.CHALLENGES, DockId.CODE, DockId.SENTENCE}
    assert not window.lesson_panel.visibleRegion().isEmpty()
    assert window.code_panel.visibleRegion().isEmpty()


def test_closing_a_dock_and_reopening_it_from_the_view_menu(qtbot, window):
    dock = window.docks[DockId.MATRIX]
    dock.close()
    assert not dock.isVisible()
    view_menu = window.menus[MenuId.VIEW]
    toggle = next(a for a in view_menu.actions() if a.text() == "Attention matrix")
    toggle.trigger()
    assert dock.isVisible()
    window.docks[DockId.SHAPES].close()
    window.reset_layout()
    # Every panel of the design is back; the activities' own panels (Training, Model heads, the lab) wait
    # in the Lessons menu, the Description panel in the View menu.
    companions = (DockId.TRAINING, DockId.MODEL_HEADS, DockId.SCALING_LAB, DockId.POSITIONS_LAB, DockId.DESCRIPTION)
    assert all(not dock.isHidden() for name, dock in window.docks.items() if name not in (*companions, DockId.GRIDS))
    assert all(window.docks[name].isHidden() for name in companions)
    assert window.docks[DockId.SHAPES].isVisible() and not window.docks[DockId.GRIDS].isVisible()  # no grids here


def write(path, document):
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_opening_a_scene_from_the_file_menu_redraws_everything(qtbot, window, tmp_path, monkeypatch):
    path = write(tmp_path / "lookup.json", {
        "title": "Soft lookup", "tokens": ["apple", "pear", "plum"], "query_tokens": ["ask"],
        "queries": [[2, 0]], "keys": [[1, 0], [0, 1], [0.7, 0.7]], "values": [[3], [5], [4]], "scale": False,
    })
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    qtbot.keyClick(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    assert window.windowTitle() == "lookup.json — Attention Desktop"
    assert table_column(window, 0) == ["apple", "pear", "plum"]
    assert table_column(window, 3) == ["59%", "8%", "33%"]
    assert matrix_cells(window) == [["0.59", "0.08", "0.33"]]
    assert window.output_panel.vector_label.text() == "(3.49)"
    assert window.shapes_panel.text().startswith("Q is 1 × 2, K is 3 × 2, V is 3 × 1.")
    assert window.query_picker.count() == 1 and window.query_picker.currentText() == "ask"
    assert not window.causal_action.isEnabled()  # a causal mask needs one query per token
    assert window.scale_action.isChecked() is False


def test_a_broken_file_gets_one_message_and_changes_nothing(window, tmp_path):
    before = scene_document(window.scene, window.view_state)
    path = tmp_path / "broken.json"
    path.write_text('{"tokens": ["a", "b"], "queries": [[1, 0], [0, "x"]], "keys": [[1, 0], [0, 1]], "values": [[1], [2]]}')
    assert window.documents.open_scene(path) is False
    assert len(window.shown_errors) == 1
    title, message = window.shown_errors[0]
    assert title == "Cannot open scene"
    assert "broken.json" in message and 'queries[1][1]: expected a number, found the text "x"' in message
    assert scene_document(window.scene, window.view_state) == before
    assert table_column(window, 3) == ["0%", "76%", "6%", "1%", "0%", "17%"]
    assert window.windowTitle() == "The cat sat on the mat — Attention Desktop"


def test_save_as_writes_a_file_that_reopens(qtbot, window, tmp_path, monkeypatch):
    target = tmp_path / "mine.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.reading().select_query(0)
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    saved = json.loads(target.read_text(encoding="utf-8"))
    assert saved["selected"] == 0 and saved["tokens"][2] == "sat" and saved["format"] == "attention-desktop-scene"
    assert window.windowTitle() == "mine.json — Attention Desktop"


def test_save_as_suggests_a_name_from_the_scene(qtbot, window, tmp_path, monkeypatch):
    offered = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda parent, caption, start, *a, **k: offered.append(start)
                        or ("", ""))
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    window.open_lesson("self-attention")
    qtbot.keyClick(window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    window.menu_actions["export_action"].trigger()
    assert [Path(start).name for start in offered] == [
        "the-cat-sat-on-the-mat.json", "every-word-looks-at-every-word.json", "every-word-looks-at-every-word-results.json",
    ]
    assert all(Path(start).parent.is_dir() for start in offered)  # Documents, or home where there is none


def test_reset_layout_gives_every_panel_its_share_of_the_window_again(qtbot, window):
    from tests.support.in_the_window import settle_layout

    window.resizeDocks([window.docks[DockId.OUTPUT]], [60], Qt.Orientation.Horizontal)  # squeezed by hand
    window.docks[DockId.WEIGHTS].close()
    window.reset_layout()
    settle_layout(qtbot, window)
    width = window.width()
    assert window.docks[DockId.WEIGHTS].isVisible()
    # The bottom row is shared out as output 22 : weights 27 : shapes 15.
    assert abs(window.docks[DockId.OUTPUT].width() / window.docks[DockId.WEIGHTS].width() - 22 / 27) < 0.08
    assert abs(window.docks[DockId.LESSON].width() - 0.20 * width) <= 20
    assert abs(window.docks[DockId.SCORE].width() - 0.30 * width) <= 20
    assert window.canvas.width() >= 0.45 * width


def test_the_code_tab_catches_up_when_brought_to_the_front(window):
    from attn_desktop.model import Role

    window.scene.set_vector(Role.KEY, 1, [0.5, 0.25])  # the Code tab is behind the Lesson tab
    window.docks[DockId.CODE].raise_()
    assert "[0.5, 0.25]" in window.code_panel.editor.toPlainText()
