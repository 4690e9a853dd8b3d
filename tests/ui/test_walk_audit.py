"""The walk's audit keys catch what they name: each test breaks one thing on the real window and reads it back."""

import json

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QPushButton, QTabBar

from attn_desktop.geometry.label_layout import Placement
from attn_desktop.model import Role
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.pretrained.head_grid_geometry import MIN_CELL
from attn_desktop.ui.tools.label_audit import _plots
from attn_desktop.ui.tools.walk_audit import MIN_PLOT_SIDE_PX, audit_walk

from tests.support.in_the_window import settle_layout
from tests.support.model_heads_window import loaded_heads


def _heaviest_key(window) -> int:
    return int(np.argmax(window.shown.selected_weights))


def test_every_key_is_there(window):
    audit = audit_walk(window)
    assert set(audit) == {"plots_too_small", "key_labels_missing", "texts_elided", "text_overlaps",
                          "max_label_distance_px", "docks", "window_title", "focus_widget", "matrix_labels_missing",
                          "buttons_clipped", "horizontal_scroll", "head_grid_cell_px"}


def test_a_plot_squeezed_under_200_pixels_is_listed(qtbot, window):
    shown = window.canvas.plots.shown_plots()
    window.canvas.setFixedHeight(MIN_PLOT_SIDE_PX - 20)  # the plots' drawing areas are shorter still
    settle_layout(qtbot, window)
    small = audit_walk(window)["plots_too_small"]
    assert len(small) == len(shown)
    assert all(any(repr(plot.titleLabel.text) in entry for entry in small) for plot in shown)


def test_every_heads_plots_are_measured_in_the_heads_view(qtbot, window):
    window.open_lesson("two-heads")
    qtbot.waitUntil(lambda: window.showing_heads)
    window.resize(2400, 480)  # every head's canvas side by side, in too little height: the canvases give way
    qtbot.waitUntil(lambda: not window.heads_view.one_at_a_time)
    settle_layout(qtbot, window)
    qtbot.wait(50)
    small = audit_walk(window)["plots_too_small"]
    for column in window.heads_view.columns:
        head = window.scene.head_name(column.layer, column.head)
        assert any(entry.startswith(f"{head}: plot") for entry in small), head


@pytest.mark.parametrize("role", [Role.KEY, Role.VALUE])
def test_the_heaviest_keys_or_values_label_hidden_is_listed(window, role):
    arrow = window.canvas.arrows[role][_heaviest_key(window)]
    assert arrow.label not in audit_walk(window)["key_labels_missing"]
    arrow.set_label_hidden(True)  # what the canvas does to a label that finds no room
    assert arrow.label in audit_walk(window)["key_labels_missing"]


def test_a_label_moved_far_from_its_tip_raises_the_distance(window):
    before = audit_walk(window)["max_label_distance_px"]
    arrow = window.canvas.arrows[Role.KEY][_heaviest_key(window)]
    transform = next(transform for _, arrows in _plots(window.canvas, window.canvas.viewportTransform())
                     for item, transform in arrows if item is arrow)
    arrow.set_label_placement(Placement(-250.0, 150.0), transform)  # the box's corner, from the tip
    after = audit_walk(window)["max_label_distance_px"]
    assert after > max(before, 140.0)  # from the box's nearest edge: 150 px below the tip


def test_an_output_value_cut_short_is_listed(window):
    label = window.output_panel.vector_label
    assert not audit_walk(window)["texts_elided"]
    label.resize(12, label.height())  # as a too-narrow panel would leave it
    elided = audit_walk(window)["texts_elided"]
    assert any(entry.startswith("Output: ") and label.text()[:10] in entry for entry in elided), elided


def test_a_score_cell_too_narrow_for_its_number_is_listed(qtbot, window):
    table = window.score_panel.table
    column = next(column for column in range(table.model().columnCount())
                  if any(ch.isdigit() for ch in str(table.model().index(0, column).data() or "")))
    table.horizontalHeader().setSectionResizeMode(column, table.horizontalHeader().ResizeMode.Interactive)
    table.setColumnWidth(column, 8)
    qtbot.wait(10)
    number = str(table.model().index(0, column).data(Qt.ItemDataRole.DisplayRole))
    assert f"Scores: {number[:60]!r}" in audit_walk(window)["texts_elided"]


def test_two_texts_of_a_panel_on_top_of_each_other_are_listed(window):
    panel = window.output_panel
    first, second = panel.query_label, panel.attends_label
    assert not audit_walk(window)["text_overlaps"]
    second.parentWidget().move(first.parentWidget().pos())  # as a layout squeezed past its minimum leaves them
    pairs = audit_walk(window)["text_overlaps"]
    assert any(all(name.startswith("Output: ") for name in pair) for pair in pairs), pairs


def test_an_arrow_the_open_lessons_text_names_is_checked_too(qtbot, window):
    assert window.open_lesson("self-attention")  # "Drag k·it out along q·it …"
    settle_layout(qtbot, window)
    named = next(arrow for index, arrow in enumerate(window.canvas.arrows[Role.QUERY])
                 if window.shown.arrow_name(Role.QUERY, index) == "q·it")
    assert named.label not in audit_walk(window)["key_labels_missing"]
    named.set_label_hidden(True)  # q·it is not among the keys and values the weights make heavy
    assert named.label in audit_walk(window)["key_labels_missing"]


# ----- the keys issue 42 added ----------------------------------------------------------------------
def test_docks_gives_each_shown_panels_place_in_the_window_by_its_name(qtbot, window):
    docks = audit_walk(window)["docks"]
    matrix = window.docks[DockId.MATRIX]
    corner = matrix.mapTo(window, QPoint(0, 0))
    assert docks[matrix.objectName()] == [corner.x(), corner.y(), matrix.width(), matrix.height()]
    assert window.docks[DockId.TRAINING].objectName() not in docks  # not shown
    assert json.loads(json.dumps(docks)) == docks  # written as it is read
    matrix.hide()
    settle_layout(qtbot, window)
    after = audit_walk(window)["docks"]
    assert matrix.objectName() not in after
    moved = [name for name in after if after[name] != docks[name]]
    assert moved, "the panels beside the matrix took its room"


def test_the_window_title_and_the_focused_widget_are_reported(qtbot, window):
    box = window.sentence_panel.findChild(QLineEdit)
    box.setObjectName("sentenceBox")
    window.activateWindow()
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    audit = audit_walk(window)
    assert audit["window_title"] == window.windowTitle() and "Attention Desktop" in audit["window_title"]
    assert audit["focus_widget"] == "sentenceBox"
    box.clearFocus()
    window.setFocus()
    window.clearFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is None)
    assert audit_walk(window)["focus_widget"] is None


def test_matrix_rows_and_columns_without_a_label_are_listed(qtbot, window):
    assert audit_walk(window)["matrix_labels_missing"] == []
    window.matrix_view.setFixedHeight(90)  # too short a panel: rows share a label line, and are thinned
    settle_layout(qtbot, window)
    missing = audit_walk(window)["matrix_labels_missing"]
    assert any(entry.startswith("row ") for entry in missing), missing


def test_a_matrix_cut_at_the_panels_edge_loses_its_labels(qtbot, window):
    matrix = window.matrix_view
    matrix.move(matrix.x(), matrix.y() - matrix.height() // 2)  # its top half above the panel: column names gone
    missing = audit_walk(window)["matrix_labels_missing"]
    tokens = window.scene.tokens
    assert all(f"column {index}: {token}" in missing for index, token in enumerate(tokens)), missing


def test_a_button_too_narrow_for_its_text_is_listed(qtbot, window):
    window.open_lesson("soft-lookup")  # its exercises' Show me and Check
    settle_layout(qtbot, window)
    button = next(b for b in window.lesson_panel.findChildren(QPushButton) if b.isVisible() and b.text())
    entry = f"{window.docks[DockId.LESSON].windowTitle()}: {button.text().replace('&', '')}"
    assert entry not in audit_walk(window)["buttons_clipped"]
    button.setFixedWidth(24)  # as a narrow lesson column leaves "Show me" reading "ow m"
    settle_layout(qtbot, window)
    assert entry in audit_walk(window)["buttons_clipped"]


def test_a_tab_cut_short_is_listed(qtbot, window):
    bar = QTabBar(window.lesson_panel)  # a panel's tabs, as the Training and Model heads panels have
    bar.addTab("Curves and heads")
    bar.addTab("Examples")
    bar.setElideMode(Qt.TextElideMode.ElideRight)
    bar.setGeometry(0, 0, 400, bar.sizeHint().height())
    bar.show()
    qtbot.wait(10)
    lesson = window.docks[DockId.LESSON].windowTitle()
    assert not any(entry.startswith(f"{lesson}: ") for entry in audit_walk(window)["buttons_clipped"])
    bar.setUsesScrollButtons(False)
    bar.resize(90, bar.height())  # room for "Cu…" and "Ex…"
    qtbot.wait(10)
    clipped = audit_walk(window)["buttons_clipped"]
    assert f"{lesson}: Curves and heads" in clipped and f"{lesson}: Examples" in clipped


def test_a_panel_that_needs_sideways_scrolling_is_listed(qtbot, window):
    assert audit_walk(window)["horizontal_scroll"] == []
    panel = window.lesson_panel
    panel.text_scroll.widget().setMinimumWidth(panel.width() + 200)  # as a word too long to wrap would
    settle_layout(qtbot, window)
    assert window.docks[DockId.LESSON].objectName() in audit_walk(window)["horizontal_scroll"]


def test_the_head_grids_thumbnail_side_is_reported_when_shown(qtbot, window, pack_is_tiny):
    assert audit_walk(window)["head_grid_cell_px"] is None
    panel = loaded_heads(qtbot, window)
    grid = panel.grid
    settle_layout(qtbot, window)
    side = audit_walk(window)["head_grid_cell_px"]
    assert side == min(grid.cell_rect(0, 0).width(), grid.cell_rect(0, 0).height()) and side >= MIN_CELL
    grid.parentWidget().setFixedWidth(120)  # a narrow panel: smaller thumbnails
    qtbot.wait(20)
    assert audit_walk(window)["head_grid_cell_px"] < side
