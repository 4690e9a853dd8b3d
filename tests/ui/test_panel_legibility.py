"""Each number panel on its own, at the room it asks for, in the normal and the presentation font:
what a student at the back of the room can read, with the usual names and with 40-character ones."""

import itertools

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QRectF
from PySide6.QtGui import QFont, QFontInfo, QFontMetricsF, QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from attn_desktop.model import HeadReading, Role, ViewState
from attn_desktop.ui.panels.matrix_view import MatrixView
from attn_desktop.ui.panels.score_table import ScoreTablePanel
from attn_desktop.ui.panels.weights_chart import WeightsChart
from attn_desktop.ui.window.startup.app import default_scene

LONG_NAME = "Pneumonoultramicroscopicsilicovolcanosis!"[:40]
PRESENTATION = 1.6  # how much presentation mode enlarges the app's font


@pytest.fixture(params=[1.0, PRESENTATION], ids=["normal", "presentation"])
def font_scale(request):
    """The app's font as the normal window or presentation mode sets it, given back afterwards."""
    app = QApplication.instance()
    normal = QFont(app.font())
    big = QFont(normal)
    big.setPointSizeF(normal.pointSizeF() * request.param)
    app.setFont(big)
    yield request.param
    app.setFont(normal)


def reading_with(tokens: int, long_name: bool = False) -> HeadReading:
    """The demo's scene (six tokens, "sat" chosen) made TOKENS long, looked at as a window would."""
    view = ViewState()
    scene = default_scene(view)
    for number in range(tokens - scene.n_tokens):
        scene.add_token(f"word{number}")
    while scene.n_tokens > tokens:
        scene.remove_token(scene.n_tokens - 1)
    if long_name:
        scene.rename_token(1, LONG_NAME)
    return HeadReading(scene, view, at=(0, 0))


def shown_at(qtbot, widget, size=None):
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    widget.resize(size or widget.minimumSizeHint())
    qtbot.wait(10)
    return widget


def tooltip_at(widget, point: QPoint) -> str:
    QToolTip.hideText()
    QApplication.sendEvent(widget, QHelpEvent(QEvent.Type.ToolTip, point, widget.mapToGlobal(point)))
    return QToolTip.text()


def overlapping_pairs(rects: list[QRectF]) -> list[tuple[int, int]]:
    return [(a, b) for a, b in itertools.combinations(range(len(rects)), 2) if rects[a].intersects(rects[b])]


# ----- score table ----------------------------------------------------------------
@pytest.mark.parametrize("tokens", [1, 6, 8])
@pytest.mark.parametrize("long_name", [False, True], ids=["usual names", "a 40-character name"])
def test_every_score_row_shows_in_the_room_the_table_asks_for(qtbot, font_scale, tokens, long_name):
    panel = shown_at(qtbot, ScoreTablePanel(reading_with(tokens, long_name and tokens > 1)))
    assert panel.visible_row_count() == tokens
    assert not panel.more_rows_note.isVisible()
    assert panel.cut_parts() == []
    header = panel.table.horizontalHeader()
    assert "…" not in panel.model.headerData(3, header.orientation())


def test_rows_are_no_taller_than_their_text_needs(qtbot, font_scale):
    panel = shown_at(qtbot, ScoreTablePanel(reading_with(6)))
    text_height = panel.table.fontMetrics().height()
    row_height = panel.table.rowHeight(0)
    assert text_height < row_height <= text_height + 8


def test_beyond_eight_keys_the_table_scrolls_and_says_how_many_are_shown(qtbot, font_scale):
    panel = shown_at(qtbot, ScoreTablePanel(reading_with(12)))
    assert panel.visible_row_count() == 8
    assert panel.more_rows_note.isVisible()
    assert panel.more_rows_note.text() == "8 of 12 keys shown — scroll for more"
    panel.resize(panel.width(), panel.height() + 4 * panel.table.rowHeight(0))
    qtbot.wait(10)
    assert panel.visible_row_count() == 12 and not panel.more_rows_note.isVisible()


def test_the_weight_header_is_shortened_rather_than_cut(qtbot):
    panel = shown_at(qtbot, ScoreTablePanel(reading_with(6)))  # its narrowest: no room for "Softmax weight"
    orientation = panel.table.horizontalHeader().orientation()
    assert panel.model.headerData(3, orientation) == "Weight"
    panel.resize(panel.width() + 200, panel.height())
    qtbot.wait(10)
    assert panel.model.headerData(3, orientation) == "Softmax weight"
    assert panel.cut_parts() == []


def test_a_long_key_name_is_elided_in_its_cell_and_whole_in_its_tooltip(qtbot, font_scale):
    panel = shown_at(qtbot, ScoreTablePanel(reading_with(6, long_name=True)))
    table = panel.table
    assert table.columnWidth(0) < table.fontMetrics().horizontalAdvance(LONG_NAME) / 2  # the numbers keep their room
    cell = table.visualRect(panel.model.index(1, 0)).center()
    assert tooltip_at(table.viewport(), cell) == LONG_NAME
    # The worked formula keeps its numbers on screen: the name is cut there too, whole in its tooltip.
    panel.table.selectRow(1)
    assert panel.formula_label.text().endswith(panel.model.formula(1).split(" = ", 1)[1])
    assert LONG_NAME not in panel.formula_label.text() and LONG_NAME in panel.formula_label.toolTip()
    assert "formula" not in panel.cut_parts()


# ----- attention matrix -----------------------------------------------------------
@pytest.mark.parametrize("tokens", [2, 6, 8])
@pytest.mark.parametrize("long_name", [False, True], ids=["usual names", "a 40-character name"])
def test_the_matrix_prints_readable_numbers_in_the_room_it_asks_for(qtbot, font_scale, tokens, long_name):
    view = shown_at(qtbot, MatrixView(reading_with(tokens, long_name)))
    font = view.cell_font()
    assert font is not None
    panel_pixels = QFontInfo(view.font()).pixelSize()
    assert QFontInfo(font).pixelSize() >= max(10, 0.8 * panel_pixels)  # bigger in presentation mode
    assert view.cut_parts() == []  # title and corner whole
    assert view.shown_note() is None
    # The row labels take at most about ten letters' room: a long name cannot eat the cells.
    assert view.grid_rect().left() <= QFontMetricsF(view.font()).averageCharWidth() * 10 + 12


def test_the_title_wraps_before_it_is_cut(qtbot, font_scale):
    view = shown_at(qtbot, MatrixView(reading_with(6)))
    view.reading.scene.set_causal(True)  # the longest formula
    view.resize(view.minimumSizeHint())
    qtbot.wait(10)
    assert view.shown_title() == ["Attention weights", "softmax(QKᵀ/√d_k + causal mask)"]
    assert view.cut_parts() == []
    view.resize(1000, view.height())
    qtbot.wait(10)
    assert view.shown_title() == ["Attention weights, softmax(QKᵀ/√d_k + causal mask)"]


def test_a_long_name_is_elided_in_the_labels_and_whole_in_their_tooltips(qtbot, font_scale):
    view = shown_at(qtbot, MatrixView(reading_with(6, long_name=True)))
    grid = view.grid_rect()
    size = grid.width() / 6
    row_label = QPoint(int(grid.left() / 2), int(grid.top() + 1.5 * size))
    column_label = QPoint(int(grid.left() + 1.5 * size), int(grid.top() - 5))
    for point in (row_label, column_label):
        qtbot.mouseMove(view, point)
        assert QToolTip.text() == LONG_NAME
    qtbot.mouseMove(view, QPoint(int(grid.left() + 1.5 * size), int(grid.top() + 2.5 * size)))
    assert QToolTip.text() == f"sat → {LONG_NAME}: 0.759 (76%)"


def test_beyond_eight_tokens_in_a_small_panel_the_cells_say_where_the_numbers_went(qtbot):
    view = shown_at(qtbot, MatrixView(reading_with(20)), size=None)
    view.resize(view.minimumSizeHint())  # room for eight tokens' numbers, not twenty
    qtbot.wait(10)
    assert view.cell_font() is None
    assert view.shown_note() == "Point at a cell to read its number"
    assert view.cut_parts() == []


def test_twenty_tokens_read_in_the_compact_form_where_the_cells_hold_it_and_never_smaller(qtbot, font_scale):
    view = shown_at(qtbot, MatrixView(reading_with(20)), size=None)
    view.resize(view.width_for_numbers(), view.width_for_numbers())  # too narrow for "0.87", wide enough for ".87"
    qtbot.wait(10)
    font = view.cell_font()
    assert font is not None and view.shown_note() is None
    assert QFontInfo(font).pixelSize() >= max(10, 0.8 * QFontInfo(view.font()).pixelSize())  # as "0.87" must be
    weights = view.reading.result.weights
    first_key = view.cell_text(1, 0)  # the second query's weight on the first key, without its leading 0
    assert first_key == f"{weights[1, 0]:.2f}"[1:] or (first_key == "1" and f"{weights[1, 0]:.2f}" == "1.00")
    assert len(first_key) <= 3 and QFontMetricsF(font).horizontalAdvance(".00") < view.cell_rect(0, 0).width()
    view.resize(view.width_for_numbers() - 3 * 20, view.width_for_numbers())  # three pixels a cell less: colour only
    qtbot.wait(10)
    assert view.cell_font() is None and view.shown_note() == "Point at a cell to read its number"
    view.resize(2000, 2000)  # room enough for "0.87": the usual form
    qtbot.wait(10)
    assert view.cell_text(1, 0) == f"{weights[1, 0]:.2f}"


def test_the_matrix_asks_for_more_room_in_presentation_mode(qtbot):
    view = shown_at(qtbot, MatrixView(reading_with(6)))
    normal = view.minimumSizeHint()
    app = QApplication.instance()
    font = QFont(app.font())
    big = QFont(font)
    big.setPointSizeF(font.pointSizeF() * PRESENTATION)
    app.setFont(big)
    try:
        qtbot.wait(10)
        bigger = view.minimumSizeHint()
    finally:
        app.setFont(font)
    assert bigger.width() > normal.width() and bigger.height() > normal.height()


# ----- weights chart --------------------------------------------------------------
@pytest.mark.parametrize("tokens", [6, 7, 8])
@pytest.mark.parametrize("long_name", [False, True], ids=["usual names", "a 40-character name"])
def test_chart_names_and_percentages_never_overlap(qtbot, font_scale, tokens, long_name):
    chart = shown_at(qtbot, WeightsChart(reading_with(tokens, long_name)), size=None)
    chart.resize(250, 220)
    qtbot.wait(20)
    names, values = chart.tick_label_rects(), chart.value_label_rects()
    assert len(names) == tokens  # every bar is named ...
    assert overlapping_pairs(names) == [] and overlapping_pairs(values) == []  # ... and nothing runs together
    assert chart.cut_parts() == []
    widget = QRectF(chart.rect())
    assert all(widget.contains(rect) for rect in names + values)
    assert "76%" in [label.toPlainText() for label in chart.value_labels if label.isVisible()] or tokens > 6


def test_percentages_stay_apart_while_a_key_is_dragged(qtbot, font_scale):
    reading = reading_with(8)
    scene = reading.scene
    chart = shown_at(qtbot, WeightsChart(reading), size=None)
    chart.resize(250, 220)
    qtbot.wait(20)
    start = reading.vectors(Role.KEY)[1].copy()
    for angle in np.linspace(0, 2 * np.pi, 13):
        scene.set_vector(Role.KEY, 1, start + 1.5 * np.array([np.cos(angle), np.sin(angle)]))
        qtbot.wait(1)
        assert overlapping_pairs(chart.value_label_rects()) == []
        assert chart.cut_parts() == []


def test_pointing_at_a_bar_names_it_whole(qtbot):
    chart = shown_at(qtbot, WeightsChart(reading_with(6, long_name=True)), size=None)
    chart.resize(250, 220)
    qtbot.wait(20)
    name = chart.tick_label_rects()[1]
    assert chart.tick_label_texts()[1] != LONG_NAME  # elided under the bar ...
    assert tooltip_at(chart.viewport(), name.center().toPoint()) == f"{LONG_NAME}: 76%"  # ... whole on hover
