"""Your lessons: Lessons → Choose Your Lessons Folder…, then the folder's lesson files in the Lessons menu after
the built-in ten, by title, each opening by the menu; a broken file left out with its reason, a folder gone (a USB
stick taken out) one greyed entry, never an error."""

import shutil
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from attn_desktop.language import tr
from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file
from attn_desktop.ui.settings import lessons_folder
from attn_desktop.ui.window.actions.menu_id import MenuId

from tests.support.in_the_window import choose_from_menu_bar

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support grabbing the keyboard")  # the menus, offscreen


def entries(menu) -> list[str]:
    return [action.text().replace("&&", "\0").replace("&", "").replace("\0", "&") for action in menu.actions()
            if action.isVisible() and not action.isSeparator()]


def open_and_read_the_lessons_menu(qtbot, window) -> list[str]:
    """The Lessons menu as it shows when opened from the menu bar (then closed again)."""
    menu = window.menus[MenuId.LESSONS]
    bar = window.menuBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.actionGeometry(menu.menuAction()).center())
    qtbot.waitUntil(menu.isVisible)
    shown = entries(menu)
    menu.close()
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None)
    return shown


def test_the_folders_lessons_are_listed_by_title_and_open_from_the_menu(qtbot, window, monkeypatch, tmp_path):
    folder = tmp_path / "stick" / "lessons"
    folder.mkdir(parents=True)
    write_lesson_file(replace(builtin_lesson_file("self-attention"), title="Pronouns: who is it?"),
                      folder / "b.attn-lesson")
    write_lesson_file(replace(builtin_lesson_file("projections"), title="Queries & keys"), folder / "a.attn-lesson")
    long_title = "Zero in on it:\n" + "a title that goes on " * 8  # 183 characters, over two lines
    write_lesson_file(replace(builtin_lesson_file("soft-lookup"), title=long_title), folder / "c.attn-lesson")
    (folder / "broken.attn-lesson").write_text("{not json", encoding="utf-8")
    (folder / "notes.txt").write_text("not a lesson", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args, **kwargs: str(folder))
    choose_from_menu_bar(qtbot, window, ["Lessons", "Choose Your Lessons Folder…"])
    assert lessons_folder() == folder  # kept with the app's other settings

    shown = open_and_read_the_lessons_menu(qtbot, window)
    chosen = shown.index("Choose Your Lessons Folder…")
    assert shown[chosen - 1] == tr(lessons.LESSONS[-1].title).replace("&", "")  # right after the built-in ten
    # By title, not by file name (a.attn-lesson holds the queries); the broken file left out, saying so.
    assert shown[chosen + 1:chosen + 3] == ["Pronouns: who is it?", "Queries & keys"]
    assert shown[chosen + 3].startswith("Zero in on it: a title that goes on") and shown[chosen + 3].endswith("…")
    assert len(shown[chosen + 3]) < 80  # one line, cut: the whole title is in its tooltip
    assert shown[chosen + 4] == "1 lesson file left out: it cannot be read"
    left_out = next(action for action in window.menus[MenuId.LESSONS].actions()
                    if action.text().startswith("1 lesson file left out"))
    assert not left_out.isEnabled() and "broken.attn-lesson" in left_out.toolTip()

    choose_from_menu_bar(qtbot, window, ["Lessons", "Pronouns: who is it?"])
    assert window.shown_errors == []
    assert window.scene.title == "Pronouns: who is it?" and window.scene.tokens == ["cat", "sat", "it"]
    assert window.lesson_files.lesson is not None

    shutil.rmtree(folder.parent)  # the USB stick taken out
    shown = open_and_read_the_lessons_menu(qtbot, window)
    assert f"Your lessons folder is not there: {folder}" in shown
    assert "Pronouns: who is it?" not in shown and window.shown_errors == []
