"""The walk's audit keys catch what they name: each test breaks one thing on the real window and reads it back."""

import numpy as np
import pytest
from PySide6.QtCore import Qt

from attn_desktop.geometry.label_layout import Placement
from attn_desktop.model import Role
from attn_desktop.ui.tools.label_audit import _plots
from attn_desktop.ui.tools.walk_audit import MIN_PLOT_SIDE_PX, audit_walk

from tests.support.in_the_window import settle_layout


def _heaviest_key(window) -> int:
    return int(np.argmax(window.shown.selected_weights))


def test_every_key_is_there(window):
    audit = audit_walk(window)
    assert set(audit) == {"plots_too_small", "key_labels_missing", "texts_elided", "text_overlaps",
                          "max_label_distance_px"}


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
