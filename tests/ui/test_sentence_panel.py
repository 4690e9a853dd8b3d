"""The Sentence panel, driven with real clicks and keys; every edit can be undone."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from helpers import matrix_cells, table_column


def show_sentence_panel(qtbot, window):
    window.docks["sentenceDock"].raise_()
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
