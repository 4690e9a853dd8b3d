"""A 1024 × 768 classroom screen or projector: the canvas keeps room for both plots, text is not cut.

The window fits itself to the screen it opens on, so these tests tell it the screen is 1024 × 768
(the offscreen platform's own is 800 × 600) and build their own window rather than use the
1320 × 880 fixture.
"""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QTabBar

from attn_desktop.model import Role
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.panels.matrix_layout import cell_font

from tests.support.in_the_window import settle_layout

pytestmark = pytest.mark.slow  # every test builds the real main window


@pytest.fixture
def small_window(projector_window):
    return projector_window


def _front_tab(window, member: str) -> str:
    """The title of the tab in front, in the dock tab group that has a tab called `member`."""
    group = next(bar for bar in window.findChildren(QTabBar)
                 if member in [bar.tabText(index) for index in range(bar.count())])
    return group.tabText(group.currentIndex())


def _plot_width(plot) -> float:
    return plot.getViewBox().sceneBoundingRect().width()


def test_the_window_fits_the_screen_and_the_canvas_keeps_about_half_of_it(small_window):
    assert small_window.width() <= 1024 and small_window.height() <= 768
    assert small_window.canvas.width() >= 0.4 * small_window.width()
    # Both plots are on screen and wide enough to drag in, not pushed off the canvas's edge.
    canvas = small_window.canvas
    for plot in (canvas.qk_plot, canvas.vo_plot):
        assert _plot_width(plot) > 100
    assert canvas.viewport().rect().contains(
        canvas.mapFromScene(canvas.vo_plot.getViewBox().sceneBoundingRect().center()))


def test_the_lesson_text_wraps_inside_its_panel(qtbot, small_window):
    small_window.open_lesson("projections")  # the lesson with exercise buttons and a long formula
    qtbot.wait(50)
    scroll = small_window.lesson_panel.text_scroll
    assert scroll.widget().width() <= scroll.viewport().width()  # nothing runs off the panel's edge


def test_opening_a_lesson_brings_its_text_forward_from_the_top(qtbot, small_window):
    small_window.docks[DockId.CODE].raise_()
    small_window.open_lesson("soft-lookup")
    bar = small_window.lesson_panel.text_scroll.verticalScrollBar()
    bar.setValue(bar.maximum())
    small_window.docks[DockId.CODE].raise_()
    assert _front_tab(small_window, "Lesson") == "Code"
    small_window.open_lesson("projections")
    assert _front_tab(small_window, "Lesson") == "Lesson"
    assert bar.value() == 0


def test_presentation_mode_shows_the_canvas_and_the_numbers_large_and_gives_the_panels_back(qtbot, small_window):
    visible_before = {name for name, dock in small_window.docks.items() if dock.isVisible()}
    normal_points = QApplication.font().pointSizeF()
    qtbot.keyClick(small_window, Qt.Key.Key_F11)
    qtbot.wait(100)  # the panels are arranged once the window has its full-screen size
    docks = small_window.docks
    assert not docks[DockId.LESSON].isVisible() and not docks[DockId.SHAPES].isVisible()
    for name in (DockId.SCORE, DockId.MATRIX, DockId.OUTPUT):
        assert docks[name].isVisible(), name
    # A small screen: the score table shows the weights as bars, the chart's row goes to the plots.
    assert not docks[DockId.WEIGHTS].isVisible()
    assert small_window.canvas.width() >= 0.5 * small_window.width()
    matrix = small_window.matrix_view
    cell = matrix.cell_rect(0, 0)
    font = cell_font(matrix.font(), matrix.logicalDpiY(), cell.width())
    assert font is not None and font.pointSizeF() > normal_points  # the class can read the cells' numbers
    # The score table's rows and formula grew with the type rather than cutting it.
    table = small_window.score_panel.table
    assert table.verticalHeader().defaultSectionSize() >= table.fontMetrics().height() + 4
    qtbot.keyClick(small_window, Qt.Key.Key_F11)
    qtbot.wait(50)
    assert {name for name, dock in small_window.docks.items() if dock.isVisible()} == visible_before
    assert QApplication.font().pointSizeF() == normal_points


def test_opening_a_lesson_during_a_presentation_keeps_the_projector_layout(qtbot, small_window):
    qtbot.keyClick(small_window, Qt.Key.Key_F11)
    qtbot.wait(50)
    small_window.open_lesson("self-attention")
    assert not small_window.docks[DockId.LESSON].isVisible()
    assert small_window.scene.tokens == ["cat", "sat", "it"]
    assert small_window.canvas.arrows[Role.QUERY]


def _plot_on_canvas(window, plot) -> bool:
    canvas = window.canvas
    box = canvas.mapFromScene(plot.sceneBoundingRect()).boundingRect()
    return canvas.viewport().rect().contains(box)


def test_going_from_three_plots_to_two_keeps_every_plot_on_the_canvas(qtbot, small_window):
    small_window.open_lesson("projections")  # word vectors, queries and keys, values: three plots
    qtbot.wait(50)
    canvas = small_window.canvas
    assert all(_plot_on_canvas(small_window, plot) for plot in (canvas.x_plot, canvas.qk_plot, canvas.vo_plot))
    small_window.open_lesson("self-attention")  # two plots again
    qtbot.wait(50)
    assert _plot_on_canvas(small_window, canvas.qk_plot) and _plot_on_canvas(small_window, canvas.vo_plot)
    # and every arrow tip is in view
    for role in (Role.QUERY, Role.KEY, Role.VALUE):
        plot = canvas.plots.plot_for(role)
        (x0, x1), (y0, y1) = plot.getViewBox().viewRange()
        for arrow in canvas.arrows[role]:
            assert x0 <= arrow.tip.x() <= x1 and y0 <= arrow.tip.y() <= y1


def test_presentation_mode_twice_gives_back_the_same_panels_in_their_designed_shares(qtbot, small_window):
    front = (DockId.LESSON, DockId.SCORE, DockId.MATRIX, DockId.OUTPUT, DockId.WEIGHTS, DockId.SHAPES)  # not the tabs behind
    shown_before = {name for name, dock in small_window.docks.items() if dock.isVisible()}
    qtbot.keyClick(small_window, Qt.Key.Key_F11)
    qtbot.wait(100)
    qtbot.keyClick(small_window, Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: not small_window.presentation_mode.settling, timeout=3000)
    assert {name for name, dock in small_window.docks.items() if dock.isVisible()} == shown_before
    sizes = settled_sizes(qtbot, small_window, front)
    small_window.reset_layout()  # the design for this window, as it is now
    assert settled_sizes(qtbot, small_window, front) == sizes


def settled_sizes(qtbot, window, names) -> dict:
    """The docks' sizes once they stop changing (a busy machine lays the panels out a few passes late)."""
    previous = None
    for _ in range(100):
        qtbot.wait(20)
        sizes = {name: window.docks[name].size().toTuple() for name in names}
        if sizes == previous:
            break
        previous = sizes
    return sizes


@pytest.mark.parametrize("lesson", ["self-attention", "scaled-attention"])  # "÷ 1 (off)" and "÷ √2" headers
def test_the_score_table_fits_its_panel_without_sideways_scrolling(qtbot, small_window, lesson):
    small_window.open_lesson(lesson)
    qtbot.wait(50)
    table = small_window.score_panel.table
    assert table.horizontalHeader().length() <= table.viewport().width()
    assert not table.horizontalScrollBar().isVisible()


def test_the_score_table_still_fits_after_other_lessons_reset_its_columns(qtbot, window):
    """A new scene resets the table's columns; the weight column must still take what is left."""
    for lesson in ("self-attention", "soft-lookup", "scaled-attention"):
        window.open_lesson(lesson)
        qtbot.wait(30)
        table = window.score_panel.table
        assert table.horizontalHeader().length() == table.viewport().width(), lesson
        assert not table.horizontalScrollBar().isVisible(), lesson


def test_three_plots_on_a_1024_canvas_go_two_above_one_so_each_is_wide_enough(qtbot, small_window):
    """Side by side, three plots on the canvas a 1024 × 768 window leaves are ~150 px wide and cut their titles."""
    small_window.open_lesson("projections")
    settle_layout(qtbot, small_window)
    canvas = small_window.canvas
    assert canvas.plots.columns == 2
    for plot in (canvas.x_plot, canvas.qk_plot, canvas.vo_plot):
        assert _plot_on_canvas(small_window, plot)
        assert _plot_width(plot) > 140
        title = canvas.mapFromScene(plot.titleLabel.item.sceneBoundingRect()).boundingRect()
        assert canvas.viewport().rect().contains(title.adjusted(1, 1, -1, -1)), plot.titleLabel.text
