"""The head grid alone: knocking heads out and in (menu, K, Ctrl+click), how an off head looks,
and query heads that share one key/value head shown as groups.

The grid only asks; the test plays its owner (the model's truth) by calling set_knocked_out.
"""

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QColor, QContextMenuEvent, QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from attn_desktop.ui.pretrained.pattern_thumbnails import (
    GROUP_BAND_COLOR,
    MIN_CELL,
    HeadGrid,
)

from tests.support.in_the_window import POPUP_WARNING, right_click_and_choose

LAYERS, HEADS, GROUP = 4, 9, 3  # SmolLM2's heads per layer and their sharing, in fewer layers


@pytest.fixture
def grid(qtbot):
    grid = HeadGrid()
    qtbot.addWidget(grid)
    grid.resize(420, 300)
    grid.set_attention(np.ones((LAYERS, HEADS, 3, 3)))  # every unmasked cell yellow: easy to tell from a cross
    grid.show()
    qtbot.waitExposed(grid)
    return grid


def signals(grid):
    """What the grid asked for, in order: ("open" | "toggle", layer, head) or ("restore all",)."""
    asked: list[tuple] = []
    grid.head_chosen.connect(lambda layer, head: asked.append(("open", layer, head)))
    grid.knock_out_toggled.connect(lambda layer, head: asked.append(("toggle", layer, head)))
    grid.restore_all_requested.connect(lambda: asked.append(("restore all",)))
    return asked


def pixel(grid, point: QPoint) -> QColor:
    return grid.grab().toImage().pixelColor(point * grid.devicePixelRatioF())


def is_red(colour: QColor) -> bool:
    return colour.red() > 180 and colour.green() < 80 and colour.blue() < 80


# ----- knocking out ------------------------------------------------------------------------------
@pytest.mark.qt_log_ignore(POPUP_WARNING)
def test_the_menu_of_a_head_opens_it_knocks_it_out_and_restores_all(qtbot, grid):
    asked = signals(grid)
    centre = grid.cell_rect(1, 2).center()
    items = right_click_and_choose(qtbot, grid, centre, "Knock out layer 1, head 2")
    assert items == ["Open layer 1, head 2", "Knock out layer 1, head 2"]  # nothing off yet: no Restore all
    assert asked == [("toggle", 1, 2)]
    assert grid.knocked_out == set()  # the grid asks; its owner says what the model runs without
    grid.set_knocked_out({(1, 2), (3, 8)})
    items = right_click_and_choose(qtbot, grid, centre, "Restore all heads (2)")
    assert items == ["Open layer 1, head 2", "Restore layer 1, head 2", "Restore all heads (2)"]
    assert asked[-1] == ("restore all",)
    items = right_click_and_choose(qtbot, grid, grid.cell_rect(0, 5).center(), "Open layer 0, head 5")
    assert items[1] == "Knock out layer 0, head 5" and asked[-1] == ("open", 0, 5)
    assert grid.current == (0, 5)
    right_click_and_choose(qtbot, grid, grid.cell_rect(2, 2).center(), None)  # Escape: nothing asked
    assert len(asked) == 3


@pytest.mark.qt_log_ignore(POPUP_WARNING)
def test_off_the_heads_the_menu_only_restores_all(qtbot, grid):
    asked = signals(grid)
    assert right_click_and_choose(qtbot, grid, QPoint(2, 2), None) == []  # no menu at all: nothing to do there
    grid.set_knocked_out({(0, 0)})
    assert right_click_and_choose(qtbot, grid, QPoint(2, 2), "Restore all heads (1)") == ["Restore all heads (1)"]
    assert asked == [("restore all",)]


@pytest.mark.qt_log_ignore(POPUP_WARNING)
def test_the_menu_key_opens_the_current_heads_menu(qtbot, grid):
    asked = signals(grid)
    grid.set_current(2, 4)
    seen: list[str] = []

    def knock_out_from_the_keyboard():
        menu = QApplication.activePopupWidget()
        if menu is None:
            QTimer.singleShot(10, knock_out_from_the_keyboard)
            return
        seen.extend(action.text() for action in menu.actions())
        qtbot.keyClick(menu, Qt.Key.Key_Down)
        qtbot.keyClick(menu, Qt.Key.Key_Down)
        qtbot.keyClick(menu, Qt.Key.Key_Return)

    QTimer.singleShot(0, knock_out_from_the_keyboard)
    where = grid.cell_rect(2, 4).center()  # Qt sends the Menu key (or Shift+F10) as this event
    QApplication.sendEvent(grid, QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, where, grid.mapToGlobal(where)))
    assert seen == ["Open layer 2, head 4", "Knock out layer 2, head 4"]
    assert asked == [("toggle", 2, 4)]


def test_k_and_ctrl_click_knock_out_while_a_click_and_enter_still_open(qtbot, grid):
    asked = signals(grid)
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, grid.cell_rect(2, 7).center())
    assert asked == [("toggle", 2, 7)] and grid.current == (2, 7)
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, pos=grid.cell_rect(2, 7).center())
    assert asked[-1] == ("open", 2, 7)
    grid.setFocus()
    qtbot.waitUntil(grid.hasFocus)
    qtbot.keyClick(grid, Qt.Key.Key_Left)
    qtbot.keyClick(grid, Qt.Key.Key_K)
    assert asked[-1] == ("toggle", 2, 6)
    qtbot.keyClick(grid, Qt.Key.Key_Return)
    assert asked[-1] == ("open", 2, 6) and len(asked) == 4


def test_a_knocked_out_head_is_dimmed_and_crossed_and_says_so(qtbot, grid):
    grid.set_knocked_out([(1, 2)])
    off, on = grid.cell_rect(1, 2), grid.cell_rect(1, 3)
    assert is_red(pixel(grid, off.center())) and not is_red(pixel(grid, on.center()))
    # Beside the cross, the pattern is there but faint: 35 % of its yellow over grey.
    faint, full = pixel(grid, off.bottomLeft() + QPoint(off.width() // 2, -2)), pixel(grid, on.bottomLeft() + QPoint(2, -2))
    assert full.red() > 200 and full.blue() < 80  # yellow
    assert abs(faint.red() - faint.blue()) < 0.5 * abs(full.red() - full.blue())
    assert grid.describe(1, 2).startswith("Layer 1, head 2 (knocked out)")
    assert "knocked out" not in grid.describe(1, 3)
    grid.set_current(1, 2)
    assert "knocked out" in grid.accessibleDescription()
    grid.set_knocked_out([])
    assert not is_red(pixel(grid, off.center())) and "knocked out" not in grid.accessibleDescription()


def test_the_cross_shows_on_the_smallest_cells(qtbot, grid):
    grid.resize(grid.minimumSizeHint().width(), grid.height())
    qtbot.waitUntil(lambda: grid.cell_size() == MIN_CELL)
    grid.set_knocked_out([(0, 0), (3, 8)])
    for layer, head in [(0, 0), (3, 8)]:
        box = grid.cell_rect(layer, head)
        red = sum(is_red(pixel(grid, QPoint(box.left() + i, box.top() + i))) for i in range(box.width()))
        assert red >= box.width() // 2  # a diagonal of red, not a speck


def test_a_grid_of_scores_cannot_knock_out(qtbot, grid):
    asked = signals(grid)
    grid.set_knock_out_enabled(False)
    grid.setFocus()
    qtbot.waitUntil(grid.hasFocus)
    qtbot.keyClick(grid, Qt.Key.Key_K)
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, grid.cell_rect(1, 1).center())
    assert asked == [("open", 1, 1)]
    assert [action.text() for action in grid.head_menu((1, 1)).actions()] == ["Open layer 1, head 1"]


# ----- key/value sharing -------------------------------------------------------------------------
def gap_after(grid, head):
    return grid.cell_rect(0, head + 1).left() - grid.cell_rect(0, head).right()


def test_heads_sharing_keys_and_values_stand_in_groups_under_a_band(qtbot, grid):
    top_without_band = grid.cell_rect(0, 0).top()
    grid.set_kv_group_size(GROUP)
    assert grid.cell_rect(0, 0).top() > top_without_band  # room for the band
    assert gap_after(grid, 2) > gap_after(grid, 1) == gap_after(grid, 0)  # wider between groups
    assert gap_after(grid, 5) == gap_after(grid, 2)
    assert grid.cell_rect(0, HEADS - 1).right() < grid.width()
    # The band: one light box over each group, none over the gaps between groups.
    band_y = grid.cell_rect(0, 0).top() - grid.fontMetrics().height() - 6
    first, fourth = grid.cell_rect(0, 0), grid.cell_rect(0, 3)
    assert pixel(grid, QPoint(first.left() + 1, band_y)) == GROUP_BAND_COLOR
    assert pixel(grid, QPoint(fourth.left() - 3, band_y)) != GROUP_BAND_COLOR
    assert grid.describe(2, 4) == "Layer 2, head 4: shares keys and values with heads 3\u20135 (key/value head 1)"


def test_the_band_names_each_key_value_head(qtbot, grid):
    from attn_desktop.ui.pretrained import head_grid_geometry

    grid.set_kv_group_size(GROUP)
    assert [text for _box, text in grid.group_bands()] == ["kv 0", "kv 1", "kv 2"]
    spans = [box for box, _text in grid.group_bands()]
    assert spans[1].left() == grid.cell_rect(0, 3).left() and spans[1].right() == grid.cell_rect(0, 5).right()
    font_height = grid.fontMetrics().height()
    assert all(box.height() >= font_height for box in spans)  # the widget's own font: readable, not shrunk
    assert head_grid_geometry.GROUP_GAP >= 4


def test_pointing_clicking_and_the_keyboard_find_the_right_head_across_the_gaps(qtbot, grid):
    asked = signals(grid)
    grid.set_kv_group_size(GROUP)
    for layer in range(LAYERS):
        for head in range(HEADS):
            box = grid.cell_rect(layer, head)
            assert grid.head_at(box.center()) == grid.head_at(box.topLeft()) == grid.head_at(box.bottomRight()) == (
                layer, head)
    between = grid.cell_rect(0, 3).left() - 2
    assert grid.head_at(QPoint(between, grid.cell_rect(0, 3).center().y())) is None
    qtbot.mouseClick(grid, Qt.MouseButton.LeftButton, pos=grid.cell_rect(3, 6).center())
    assert asked == [("open", 3, 6)]
    grid.setFocus()
    qtbot.waitUntil(grid.hasFocus)
    grid.set_current(0, 2)
    qtbot.keyClick(grid, Qt.Key.Key_Right)
    assert grid.current == (0, 3)
    qtbot.keyClick(grid, Qt.Key.Key_End)
    assert grid.current == (LAYERS - 1, HEADS - 1)


def test_hovering_a_head_names_its_key_value_head(qtbot, grid):
    grid.set_kv_group_size(GROUP)
    grid.set_descriptions({(1, 7): "previous-token head (80 %)"})
    grid.set_knocked_out({(1, 7)})
    box = grid.cell_rect(1, 7)
    QApplication.sendEvent(grid, QHelpEvent(QHelpEvent.Type.ToolTip, box.center(), grid.mapToGlobal(box.center())))
    assert QToolTip.text() == ("Layer 1, head 7 (knocked out): previous-token head (80 %); "
                               "shares keys and values with heads 6\u20138 (key/value head 2)")
    QToolTip.hideText()


def test_no_sharing_means_no_band_and_even_gaps(qtbot, grid):
    top = grid.cell_rect(0, 0).top()
    grid.set_kv_group_size(GROUP)
    grid.set_kv_group_size(1)
    assert grid.cell_rect(0, 0).top() == top
    assert {gap_after(grid, head) for head in range(HEADS - 1)} == {gap_after(grid, 0)}
    assert "shares" not in grid.describe(0, 0)
    grid.set_kv_group_size(HEADS)  # one key/value head for all: nothing to tell apart
    assert grid.cell_rect(0, 0).top() == top and "shares" not in grid.describe(0, 0)


def test_the_grid_fits_its_width_with_the_gaps(qtbot, grid):
    grid.set_kv_group_size(GROUP)
    grid.resize(grid.minimumSizeHint().width(), grid.height())
    qtbot.waitUntil(lambda: grid.cell_size() == MIN_CELL)
    assert grid.cell_rect(LAYERS - 1, HEADS - 1).right() < grid.width()
    assert grid.height() >= grid.cell_rect(LAYERS - 1, HEADS - 1).bottom()


def test_hovering_repaints_only_the_cells_it_leaves_and_enters(qtbot, grid):
    from PySide6.QtCore import QEvent, QObject

    grid.set_kv_group_size(GROUP)
    grid.set_knocked_out({(1, 1), (2, 2)})
    qtbot.mouseMove(grid, grid.cell_rect(1, 1).center())
    qtbot.wait(20)
    painted: list = []

    class PaintWatcher(QObject):
        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.Paint:
                painted.append(event.region().boundingRect())
            return False

    watcher = PaintWatcher()
    grid.installEventFilter(watcher)
    qtbot.mouseMove(grid, grid.cell_rect(2, 2).center())
    qtbot.waitUntil(lambda: bool(painted))
    grid.removeEventFilter(watcher)
    cell = grid.cell_size()
    assert all(box.width() * box.height() <= 4 * (cell + 6) ** 2 for box in painted)  # two cells, not the grid
    # What the moves left on the screen is what a whole paint shows: no outline left behind.
    on_screen = grid.screen().grabWindow(grid.winId()).toImage()
    grid.repaint()
    assert grid.screen().grabWindow(grid.winId()).toImage() == on_screen


def test_a_large_font_over_small_cells_keeps_the_headings_apart(qtbot, grid):
    grid.set_kv_group_size(GROUP)
    assert grid.head_labels() == [f"H{head}" for head in range(HEADS)]
    font = grid.font()
    font.setPointSizeF(font.pointSizeF() * 1.6)  # presentation mode
    grid.setFont(font)
    grid.resize(grid.minimumSizeHint().width(), grid.height())
    qtbot.waitUntil(lambda: grid.cell_size() == MIN_CELL)
    assert grid.head_labels() == [str(head) for head in range(HEADS)]
    assert all(grid.fontMetrics().horizontalAdvance(label) < MIN_CELL for label in grid.head_labels())
    assert [text for _box, text in grid.group_bands()] == ["kv 0", "kv 1", "kv 2"]  # three cells still hold it
