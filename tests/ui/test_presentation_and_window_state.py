"""Presentation mode, the saved window layout and Open Recent."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from attn_desktop.model import Role
from attn_desktop.model.scene_files import read_scene_data, save_scene
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.paths import DEFAULT_SCENE, scene_path
from attn_desktop.ui.settings import recent_files
from attn_desktop.ui.window.layout.presentation_font import presentation_font_scale
from attn_desktop.ui.window.main_window import MainWindow
from attn_desktop.ui.window.startup.app import default_scene


def test_f11_makes_everything_bigger_and_back(qtbot, window):
    normal_points = QApplication.font().pointSizeF()
    key = window.canvas.arrows[Role.KEY][1]
    normal_width = key._width
    qtbot.keyClick(window, Qt.Key.Key_F11)
    assert window.presentation_action.isChecked()
    screen_height = window.screen().size().height()
    assert QApplication.font().pointSizeF() == pytest.approx(normal_points * presentation_font_scale(screen_height))
    assert QApplication.font().pointSizeF() >= normal_points * 1.15
    assert key._font.pointSizeF() > 16 and key._width > normal_width * 1.5
    qtbot.keyClick(window, Qt.Key.Key_F11)
    assert QApplication.font().pointSizeF() == normal_points and key._width == normal_width


def test_the_layout_comes_back_next_time(qtbot, window):
    window.docks[DockId.WEIGHTS].close()
    window.close()
    again = MainWindow(default_scene())
    qtbot.addWidget(again)
    again.show()
    again.restore_window_state()
    assert not again.docks[DockId.WEIGHTS].isVisible()
    again.reset_layout()
    assert again.docks[DockId.WEIGHTS].isVisible()


def test_opened_and_saved_files_appear_under_open_recent(qtbot, window, tmp_path):
    path = tmp_path / "a.json"
    save_scene(read_scene_data(scene_path(DEFAULT_SCENE)), path)
    window.documents.open_scene(path)
    assert recent_files()[0] == path.resolve()
    window.recent_menu.aboutToShow.emit()
    assert [action.text() for action in window.recent_menu.actions()] == ["a.json"]
    path.unlink()
    window.recent_menu.actions()[0].trigger()
    assert "no longer there" in window.shown_errors[-1][1]
    assert recent_files() == []


def test_arrowheads_by_role_for_readers_without_colour(window):
    window.menu_actions["shapes_action"].trigger()
    assert [window.canvas.arrows[role][0].head_shape for role in (Role.QUERY, Role.KEY, Role.VALUE)] == [
        "triangle", "open", "diamond"]
    window.menu_actions["shapes_action"].trigger()
    assert window.canvas.arrows[Role.KEY][0].head_shape == "triangle"


@pytest.mark.parametrize(("screen_height", "scale"), [(2160, 1.6), (1080, 1.6), (900, 1.33), (768, 1.15), (720, 1.15)])
def test_presentation_type_is_as_big_on_a_low_projector_as_on_a_full_hd_one(screen_height, scale):
    """A projector throws the same picture whatever its resolution: the type's share of the screen's height
    is what the back row sees. 1.6 × at 1080 lines (a 4K laptop at 200 % has 1080 logical lines); a lower
    screen needs less for the same share (1.14 × at 768 lines), and never gets under 1.15 ×."""
    assert presentation_font_scale(screen_height) == scale


def test_each_screen_size_keeps_its_own_layout(qtbot, window, monkeypatch):
    """A session on a 1024 × 768 projector must not cramp the next one on a full-HD desktop."""
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QScreen

    screen = {"size": QSize(1024, 768)}
    monkeypatch.setattr(QScreen, "size", lambda self: screen["size"])
    window.docks[DockId.WEIGHTS].close()  # the projector session: the teacher closed the chart
    window.close()

    def reopen():
        again = MainWindow(default_scene())
        qtbot.addWidget(again)
        again.show()
        again.restore_window_state()
        return again

    screen["size"] = QSize(1920, 1080)  # back at the desk: the computed layout, every panel there
    desk = reopen()
    assert desk.docks[DockId.WEIGHTS].isVisible()
    desk.close()
    screen["size"] = QSize(1024, 768)  # at the projector again: the layout left there
    assert not reopen().docks[DockId.WEIGHTS].isVisible()
