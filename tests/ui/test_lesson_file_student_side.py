"""A lesson file as a student gets it: sentence editing, the Code panel and grid editing hidden (gone from the
menus and the keys, the grids read-only), the file's panels in the window and when presenting, at a projector's
1024 × 768, until another lesson opens."""

from dataclasses import replace

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit

from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.lesson_file import Panels
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file
from attn_desktop.ui.tools.layout_audit import audit_window
from attn_desktop.ui.tools.walk_audit import drawn_canvases, plots_too_small
from attn_desktop.ui.window.actions.menu_id import MenuId

from tests.support.in_the_window import (
    choose_from_menu_bar,
    on_a_1024_by_768_screen,
    type_into_first_cell,
    wait_until_arranged,
)

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support grabbing the keyboard")  # the menus, offscreen

HIDDEN = ("sentence-editing", "code-panel", "grid-editing")
WINDOW_PANELS = (DockId.LESSON, DockId.SCORE, DockId.MATRIX, DockId.OUTPUT, DockId.GRIDS)
PRESENTED_PANELS = (DockId.MATRIX, DockId.OUTPUT)


def open_from_the_menu(qtbot, window, monkeypatch, path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (str(path), ""))
    choose_from_menu_bar(qtbot, window, ["File", "Open Lesson…"])
    window.activateWindow()  # (offscreen, the closed menu stays the active window: the keys would go nowhere)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def write_lesson(tmp_path, **fields):
    path = tmp_path / "kept.attn-lesson"
    write_lesson_file(replace(builtin_lesson_file("projections"), title="Fixed grids", **fields), path)
    return path


def visible_entries(menu) -> list[str]:
    return [action.text().replace("&", "") for action in menu.actions() if action.isVisible()]


def shown_panels(window) -> set[DockId]:
    return {name for name, dock in window.docks.items() if not dock.isHidden()}


def try_to_type(qtbot, table, row: int) -> None:
    """Type a 9 into ROW's first number every way a student would: a click and a key, F2, a double-click."""
    cell = table.visualItemRect(table.item(row, 0)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    for key in (Qt.Key.Key_9, Qt.Key.Key_F2, Qt.Key.Key_9):
        qtbot.keyClick(table, key)
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    assert not [editor for editor in table.findChildren(QLineEdit) if editor.isVisible()]  # no cell opens to type
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_9)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    qtbot.wait(10)  # (Qt would commit a cell edit on the next pass of the loop)


def test_hidden_sentence_editing_code_panel_and_grid_editing_until_another_lesson(qtbot, window, monkeypatch,
                                                                                    tmp_path):
    open_from_the_menu(qtbot, window, monkeypatch, write_lesson(tmp_path, hidden_controls=HIDDEN))
    assert window.shown_errors == []
    view_menu = window.menus[MenuId.VIEW]
    sentence, code, grids = window.docks[DockId.SENTENCE], window.docks[DockId.CODE], window.docks[DockId.GRIDS]
    assert "Sentence" not in visible_entries(view_menu) and "Code" not in visible_entries(view_menu)
    assert "Grids" in visible_entries(view_menu)
    for dock in (sentence, code):
        assert dock.isHidden() and not dock.toggleViewAction().isEnabled()
        dock.toggleViewAction().trigger()  # (what its entry or a key on it would do): nothing
    assert sentence.isHidden() and code.isHidden()
    # Nothing edits the words: their only controls are out of the window and out of the accessibility tree.
    assert not window.sentence_panel.isVisible() and not window.sentence_panel.add_button.isVisible()
    tokens = list(window.scene.tokens)

    qtbot.waitUntil(grids.isVisible)
    table = window.grid_editor.tables["w_q"]
    qtbot.waitUntil(table.isVisible)
    before = window.scene.grid("w_q", 0, 0).copy()
    shown_number = table.item(0, 0).text()
    try_to_type(qtbot, table, 0)
    assert (window.scene.grid("w_q", 0, 0) == before).all()
    assert table.item(0, 0).text() == shown_number  # still read: every number in sight
    assert table.toolTip() == "These numbers are fixed in this lesson."

    for _ in range(2):  # Reset Layout and presentation mode give the lesson's design: still without them
        choose_from_menu_bar(qtbot, window, ["View", "Reset Layout"])
        assert sentence.isHidden() and code.isHidden()
        window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
        qtbot.keyClick(window, Qt.Key.Key_F11)
        wait_until_arranged(qtbot, window)
    assert sentence.isHidden() and code.isHidden() and window.scene.tokens == tokens

    window.open_lesson("projections")
    assert "Sentence" in visible_entries(view_menu) and "Code" in visible_entries(view_menu)
    assert not sentence.isHidden() and not code.isHidden()
    qtbot.waitUntil(table.isVisible)
    type_into_first_cell(qtbot, table, "9")
    assert window.scene.grid("w_q", 0, 0)[0, 0] == 9


def test_locked_grids_are_read_only_too(qtbot, window, monkeypatch, tmp_path):
    open_from_the_menu(qtbot, window, monkeypatch, write_lesson(tmp_path, locked=("grids",)))
    table = window.grid_editor.tables["w_k"]
    qtbot.waitUntil(table.isVisible)
    before = window.scene.grid("w_k", 0, 0).copy()
    try_to_type(qtbot, table, 1)
    assert (window.scene.grid("w_k", 0, 0) == before).all()


def overlaps(window) -> list[tuple[str, str]]:
    """Pairs of things on screen that cover each other: the docks in sight (a tab behind another is not) and the
    canvas."""
    shown = {name.value: QRect(dock.mapTo(window, dock.rect().topLeft()), dock.size())
             for name, dock in window.docks.items() if dock.isVisible() and not dock.visibleRegion().isEmpty()}
    central = window.centralWidget()
    shown["canvas"] = QRect(central.mapTo(window, central.rect().topLeft()), central.size())
    names = sorted(shown)
    return [(first, second) for index, first in enumerate(names) for second in names[index + 1:]
            if shown[first].intersects(shown[second])]


def check_the_room(window) -> None:
    assert overlaps(window) == []
    assert window.canvas.width() >= 0.4 * window.width()  # the canvas keeps room to read and drag in
    assert audit_window(window)["panels_cut"] == [] and plots_too_small(drawn_canvases(window)) == []


def test_a_lesson_files_panels_in_the_window_and_presenting_at_1024_by_768(qtbot, window, monkeypatch, tmp_path):
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    wait_until_arranged(qtbot, window)
    path = write_lesson(tmp_path, panels=Panels(window=WINDOW_PANELS, presenting=PRESENTED_PANELS))
    open_from_the_menu(qtbot, window, monkeypatch, path)
    wait_until_arranged(qtbot, window)
    assert shown_panels(window) == set(WINDOW_PANELS)
    check_the_room(window)

    qtbot.keyClick(window, Qt.Key.Key_F11)
    assert window.presentation_action.isChecked()
    on_a_1024_by_768_screen(window, monkeypatch, presenting=True)  # (offscreen, full screen is not the projector's)
    wait_until_arranged(qtbot, window)
    assert shown_panels(window) == set(PRESENTED_PANELS)
    check_the_room(window)
    choose_from_menu_bar(qtbot, window, ["View", "Reset Layout"])
    wait_until_arranged(qtbot, window)
    assert shown_panels(window) == set(PRESENTED_PANELS)

    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.keyClick(window, Qt.Key.Key_F11)
    assert not window.presentation_action.isChecked()
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    wait_until_arranged(qtbot, window)
    assert shown_panels(window) == set(WINDOW_PANELS)
    check_the_room(window)

    window.open_lesson("projections")  # a built-in lesson: its own design again
    wait_until_arranged(qtbot, window)
    assert {DockId.SENTENCE, DockId.CODE, DockId.CHALLENGES, DockId.WEIGHTS} <= shown_panels(window)


def test_hidden_grid_editing_keeps_w_o_beside_the_heads_too(qtbot, window, monkeypatch, tmp_path):
    path = tmp_path / "heads.attn-lesson"
    write_lesson_file(replace(builtin_lesson_file("two-heads"), hidden_controls=("grid-editing",)), path)
    open_from_the_menu(qtbot, window, monkeypatch, path)
    qtbot.waitUntil(lambda: bool(window.heads_view.w_o_editors))
    table = window.heads_view.w_o_editors[0].tables["w_o"]
    qtbot.waitUntil(table.isVisible)
    before = window.scene.grid("w_o").copy()
    try_to_type(qtbot, table, 0)
    assert (window.scene.grid("w_o") == before).all() and table.item(0, 0).text() != ""

    window.open_lesson("two-heads")  # the built-in lesson: W_O typed into again
    qtbot.waitUntil(lambda: bool(window.heads_view.w_o_editors))
    table = window.heads_view.w_o_editors[0].tables["w_o"]
    qtbot.waitUntil(table.isVisible)
    type_into_first_cell(qtbot, table, "2")
    assert window.scene.grid("w_o")[0, 0] == 2.0
