"""The Sentence panel, driven with real clicks and keys; every edit can be undone."""

import os
import shutil
import subprocess

import pytest
from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtWidgets import QLineEdit

from attn_desktop.model.scene_files import save_scene, scene_document, scene_from_document
from attn_desktop.model.teaching.dock_id import DockId

from tests.support.in_the_window import matrix_cells, table_column


def show_sentence_panel(qtbot, window):
    window.activateWindow()  # the window's shortcuts work in the active window; on an X server it must be made so
    qtbot.waitUntil(window.isActiveWindow)
    window.docks[DockId.SENTENCE].raise_()
    qtbot.wait(20)
    return window.sentence_panel


def test_add_a_token_by_typing_its_name(qtbot, window):
    panel = show_sentence_panel(qtbot, window)
    qtbot.keyClicks(panel.new_name, "dog")
    qtbot.keyClick(panel.new_name, Qt.Key.Key_Return)
    assert window.scene.tokens[-1] == "dog"
    assert table_column(window, 0)[-1] == "dog" and len(matrix_cells(window)) == 7
    assert window.query_picker.count() == 7
    assert window.undo_action.text() == "&Undo Add token \u201cdog\u201d"
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.scene.tokens == ["The", "cat", "sat", "on", "the", "mat"]
    assert table_column(window, 3) == ["0%", "76%", "6%", "1%", "0%", "17%"]


def test_rename_a_token_in_place(qtbot, window):
    panel = show_sentence_panel(qtbot, window)
    item = panel.list.item(5)
    qtbot.mouseClick(panel.list.viewport(), Qt.MouseButton.LeftButton, pos=panel.list.visualItemRect(item).center())
    qtbot.keyClick(panel.list, Qt.Key.Key_F2)  # the platform's "edit this item" key
    editor = panel.list.findChild(QLineEdit)
    assert editor is not None
    editor.selectAll()
    qtbot.keyClicks(editor, "rug")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.scene.tokens[5] == "rug")
    assert table_column(window, 0)[5] == "rug"


def test_remove_and_move_with_the_buttons(qtbot, window):
    panel = show_sentence_panel(qtbot, window)
    panel.list.setCurrentRow(1)  # cat
    qtbot.mouseClick(panel.down_button, Qt.MouseButton.LeftButton)
    assert window.scene.tokens[:3] == ["The", "sat", "cat"]
    assert window.output_panel.attends_label.text() == "cat, 76%"  # the numbers move with the token
    panel.list.setCurrentRow(0)
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert window.scene.tokens == ["sat", "cat", "on", "the", "mat"]
    assert "Removed" in panel.message_label.text()


def test_a_bad_name_is_refused_with_a_message(qtbot, window):
    panel = show_sentence_panel(qtbot, window)
    qtbot.keyClicks(panel.new_name, "   ")
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    assert panel.message_label.text() == "A token needs a name."
    assert len(window.scene.tokens) == 6


# ----- what the list view shows, row by row --------------------------------------------------
# A view that is not told about new rows keeps painting the old ones while its model holds the
# new: these read the rows from the view itself (where each row is laid out and what is there).


def rows_shown(list_widget) -> list[str]:
    """The token names the list view shows, top to bottom, found by looking at its viewport."""
    viewport = list_widget.viewport()
    shown = []
    for y in range(0, viewport.height(), 2):
        index = list_widget.indexAt(QPoint(viewport.width() // 2, y))
        if index.isValid() and (not shown or shown[-1][0] != index.row()):
            shown.append((index.row(), index.data()))
    return [name for _, name in shown]


def assert_view_shows_the_scene(qtbot, window):
    panel = window.sentence_panel
    qtbot.wait(20)  # let the view lay out its rows, as it would before painting
    tokens = window.scene.tokens
    viewport_rect = panel.list.viewport().rect()
    for row, token in enumerate(tokens):
        item = panel.list.item(row)
        rect = panel.list.visualItemRect(item)
        assert rect.isValid() and viewport_rect.contains(rect), f"row {row} ({token}) is not laid out in view"
        assert panel.list.itemAt(rect.center()) is item
        assert item.text() == token
    assert rows_shown(panel.list) == tokens


def test_a_new_token_shows_as_a_new_row(qtbot, window):
    panel = show_sentence_panel(qtbot, window)
    qtbot.keyClicks(panel.new_name, "dog")
    qtbot.keyClick(panel.new_name, Qt.Key.Key_Return)
    assert_view_shows_the_scene(qtbot, window)
    assert rows_shown(panel.list)[-1] == "dog"


def test_after_new_scene_the_rows_are_the_new_scenes(qtbot, window):
    panel = show_sentence_panel(qtbot, window)
    panel.list.setCurrentRow(0)
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    qtbot.keyClick(window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)  # changes discarded
    show_sentence_panel(qtbot, window)
    qtbot.keyClicks(panel.new_name, "dog")
    qtbot.keyClick(panel.new_name, Qt.Key.Key_Return)
    assert rows_shown(panel.list) == ["The", "cat", "sat", "on", "the", "mat", "dog"]
    assert_view_shows_the_scene(qtbot, window)


def test_remove_rename_and_move_show_in_the_rows(qtbot, window):
    panel = show_sentence_panel(qtbot, window)
    panel.list.setCurrentRow(1)
    qtbot.mouseClick(panel.down_button, Qt.MouseButton.LeftButton)
    assert rows_shown(panel.list) == ["The", "sat", "cat", "on", "the", "mat"]
    qtbot.mouseClick(panel.up_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.up_button, Qt.MouseButton.LeftButton)
    assert rows_shown(panel.list) == ["cat", "The", "sat", "on", "the", "mat"]
    panel.list.setCurrentRow(4)
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert rows_shown(panel.list) == ["cat", "The", "sat", "on", "mat"]
    panel.list.setCurrentRow(4)
    qtbot.keyClick(panel.list, Qt.Key.Key_F2)
    editor = panel.list.findChild(QLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, "rug")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.scene.tokens[4] == "rug")
    assert rows_shown(panel.list) == ["cat", "The", "sat", "on", "rug"]
    assert_view_shows_the_scene(qtbot, window)


def test_a_dropped_row_and_the_scene_agree(qtbot, window):
    """An internal drop in a QListWidget is a moveRow on its model (what Qt's drop does).

    The offscreen platform ends a QDrag at once, so the drop is made the way Qt makes it.
    """
    panel = show_sentence_panel(qtbot, window)
    assert panel.list.model().moveRow(QModelIndex(), 1, QModelIndex(), 5)  # cat dropped before mat
    assert window.scene.tokens == ["The", "sat", "on", "the", "cat", "mat"]
    assert rows_shown(panel.list) == window.scene.tokens
    assert panel.list.model().moveRow(QModelIndex(), 5, QModelIndex(), 0)  # mat dropped on top
    assert rows_shown(panel.list) == ["mat", "The", "sat", "on", "the", "cat"]
    assert_view_shows_the_scene(qtbot, window)
    assert window.undo_action.text() == "&Undo Reorder tokens"


def test_undo_and_redo_show_in_the_rows(qtbot, window):
    panel = show_sentence_panel(qtbot, window)
    qtbot.keyClicks(panel.new_name, "dog")
    qtbot.keyClick(panel.new_name, Qt.Key.Key_Return)
    panel.list.setCurrentRow(0)
    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert rows_shown(panel.list) == ["cat", "sat", "on", "the", "mat", "dog"]
    window.undo_action.trigger()
    assert rows_shown(panel.list) == ["The", "cat", "sat", "on", "the", "mat", "dog"]
    window.undo_action.trigger()
    assert rows_shown(panel.list) == ["The", "cat", "sat", "on", "the", "mat"]
    window.redo_action.trigger()
    assert rows_shown(panel.list) == ["The", "cat", "sat", "on", "the", "mat", "dog"]
    assert_view_shows_the_scene(qtbot, window)


def test_opening_a_file_or_a_lesson_shows_its_tokens(qtbot, window, tmp_path):

    one_token = scene_from_document(scene_document(window.scene, window.view_state))
    for _ in range(5):
        one_token.remove_token(1)
    save_scene(one_token, tmp_path / "one.json")
    panel = show_sentence_panel(qtbot, window)
    assert window.documents.open_scene(tmp_path / "one.json")
    assert rows_shown(panel.list) == ["The"]
    assert_view_shows_the_scene(qtbot, window)
    assert window.open_lesson("soft-lookup")
    show_sentence_panel(qtbot, window)
    assert rows_shown(panel.list) == window.scene.tokens and len(window.scene.tokens) > 1
    assert_view_shows_the_scene(qtbot, window)


def test_a_real_drag_on_an_x_server_reorders_the_rows(qtbot, window):
    """The mouse dragged by the X server itself (xdotool): Qt's own drag and drop, start to drop.

    Runs where the tests run on an X server (tests/test_on_a_real_x_server.py starts one).
    """
    if os.environ.get("QT_QPA_PLATFORM") != "xcb" or shutil.which("xdotool") is None:
        pytest.skip("needs an X server and xdotool")
    panel = show_sentence_panel(qtbot, window)
    viewport = panel.list.viewport()
    start = viewport.mapToGlobal(panel.list.visualItemRect(panel.list.item(1)).center())  # cat
    end = viewport.mapToGlobal(panel.list.visualItemRect(panel.list.item(4)).bottomLeft()) + QPoint(20, -2)  # under "the"
    moves = " ".join(f"mousemove {start.x()} {start.y() + (end.y() - start.y()) * k // 10} sleep 0.05" for k in range(1, 11))
    # xdotool runs beside the event loop: Qt's drag runs a loop of its own until the button comes up.
    drag = subprocess.Popen(f"xdotool mousemove {start.x()} {start.y()} sleep 0.1 mousedown 1 sleep 0.1 {moves} "
                            "sleep 0.2 mouseup 1".split())
    qtbot.waitUntil(lambda: drag.poll() is not None, timeout=10000)
    qtbot.waitUntil(lambda: window.scene.tokens != ["The", "cat", "sat", "on", "the", "mat"])
    assert window.scene.tokens == ["The", "sat", "on", "the", "cat", "mat"]
    assert_view_shows_the_scene(qtbot, window)
    assert window.undo_action.text() == "&Undo Reorder tokens"
