"""Presentation mode, the saved window layout and Open Recent."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from attn_desktop.model import Role
from attn_desktop.ui.app import default_scene
from attn_desktop.ui.main_window import MainWindow
from attn_desktop.ui.settings import recent_files


def test_f11_makes_everything_bigger_and_back(qtbot, window):
    normal_points = QApplication.font().pointSizeF()
    key = window.canvas.arrows[Role.KEY][1]
    normal_width = key._width
    qtbot.keyClick(window, Qt.Key.Key_F11)
    assert window.presentation_action.isChecked()
    assert QApplication.font().pointSizeF() > normal_points * 1.5
    assert key._font.pointSizeF() > 16 and key._width > normal_width * 1.5
    qtbot.keyClick(window, Qt.Key.Key_F11)
    assert QApplication.font().pointSizeF() == normal_points and key._width == normal_width


def test_the_layout_comes_back_next_time(qtbot, window):
    window.docks["weightsDock"].close()
    window.close()
    again = MainWindow(default_scene())
    qtbot.addWidget(again)
    again.show()
    again.restore_window_state()
    assert not again.docks["weightsDock"].isVisible()
    again.reset_layout()
    assert again.docks["weightsDock"].isVisible()


def test_opened_and_saved_files_appear_under_open_recent(qtbot, window, tmp_path):
    path = tmp_path / "a.json"
    default_scene().save(path)
    window.open_scene(path)
    assert recent_files()[0] == path.resolve()
    window.recent_menu.aboutToShow.emit()
    assert [action.text() for action in window.recent_menu.actions()] == ["a.json"]
    path.unlink()
    window.recent_menu.actions()[0].trigger()
    assert "no longer there" in window.shown_errors[-1][1]
    assert recent_files() == []


def test_arrowheads_by_role_for_readers_without_colour(window):
    window.shapes_action.trigger()
    assert [window.canvas.arrows[role][0].head_shape for role in (Role.QUERY, Role.KEY, Role.VALUE)] == [
        "triangle", "open", "diamond"]
    window.shapes_action.trigger()
    assert window.canvas.arrows[Role.KEY][0].head_shape == "triangle"
