"""What the README and the teachers' guide say about the window is what the window does: Reset Layout's place
in the View menu, what F11 shows and what F11 again gives back, and how the window shows induction's two
layers while they train (one at a time on a 1024 × 768 projector, side by side on a full-HD screen; the guide
said "both layers' matrices large" whatever the screen)."""

import re

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QScreen
from PySide6.QtWidgets import QToolBar

from attn_desktop.model.teaching.dock_id import DockId

from tests.support.in_the_window import on_a_1024_by_768_screen, wait_until_arranged
from tests.support.project_root import ROOT

pytestmark = pytest.mark.slow


def paragraph(path: str, start: str) -> str:
    """The paragraph (or list item) of the file that starts with START, on one line."""
    text = (ROOT / path).read_text(encoding="utf-8")
    at = text.index(start)
    end = text.find("\n\n", at)
    return re.sub(r"\s+", " ", text[at:end if end >= 0 else None])


def view_menu(window) -> list[str]:
    menu = next(action.menu() for action in window.menuBar().actions() if action.text().replace("&", "") == "View")
    return [action.text().replace("&", "") for action in menu.actions() if not action.isSeparator()]


def large_matrices_shown(window) -> int:
    view = window.heads_view
    return sum(column.matrix.isVisibleTo(view) for column in view.columns)


def test_the_readme_says_where_reset_layout_is_and_what_f11_does(qtbot, window, monkeypatch):
    says = paragraph("README.md", "5. If the panels ever look wrong")
    assert "at the foot of the *View* menu, just above *Language*" in says
    assert view_menu(window)[-2:] == ["Reset Layout", "Language"]

    f11 = paragraph("README.md", "3. Press **F11**")
    assert "the lesson text and the other reading panels put away; the menus and the toolbar stay" in f11
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    window.open_lesson("soft-lookup")
    wait_until_arranged(qtbot, window)
    qtbot.keyClick(window, Qt.Key.Key_F11)
    wait_until_arranged(qtbot, window)
    assert window.presentation_action.isChecked()
    assert window.docks[DockId.LESSON].isHidden() and window.menuBar().isVisible()
    assert all(bar.isVisible() for bar in window.findChildren(QToolBar))
    qtbot.keyClick(window, Qt.Key.Key_F11)
    wait_until_arranged(qtbot, window)
    assert not window.presentation_action.isChecked()


@pytest.mark.parametrize(("size", "shown", "words"), [((1024, 768), 1, "one at a time"),
                                                      ((1920, 1080), 2, "side by side")])
def test_the_guide_says_how_the_window_shows_induction_training(qtbot, window, monkeypatch, size, shown, words):
    says = paragraph("docs/teachers.md", "The window follows the run")
    assert words in says
    monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, *size))
    window.showNormal()
    window.resize(*size)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)  # Lessons → Train a Head
    panel = window.training_panel
    panel.choose_task("induction")
    qtbot.mouseClick(panel.train_button, Qt.MouseButton.LeftButton)  # the window shows what trains
    qtbot.waitUntil(lambda: window.showing_heads and panel.steps_taken >= 5, timeout=10_000)
    qtbot.mouseClick(panel.pause_button, Qt.MouseButton.LeftButton)
    wait_until_arranged(qtbot, window)
    assert large_matrices_shown(window) == shown
