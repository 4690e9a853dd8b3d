"""Numbers a teacher reads off the panels are shown whole: never "0....", never cut at the panel's edge.

Each test puts the real window where the number was cut (a trained head's grids, lesson 2 on a
1024 × 768 projector, lesson 4's weights presented) and measures the text against its room.
"""

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QLabel

from attn_desktop.model.teaching.dock_id import DockId

from tests.support.in_the_window import (
    on_a_1024_by_768_screen,
    settle_layout,
    type_into_first_cell,
    wait_until_arranged,
)

pytestmark = pytest.mark.slow  # every test builds the real main window


def _cells_narrower_than_their_numbers(table) -> list[str]:
    """The numbers whose cell, as shown, is narrower than the number and a little air each side."""
    metrics = table.fontMetrics()
    cut = []
    for row in range(table.rowCount()):
        for column in range(table.columnCount()):
            text = table.item(row, column).text()
            cell = table.visualItemRect(table.item(row, column))
            if metrics.horizontalAdvance(text) + 4 > cell.width():
                cut.append(text)
    return cut


def test_a_trained_heads_grids_show_every_number_whole_even_after_a_longer_number_is_typed(qtbot, window):
    window.open_lesson("trained-heads")
    window.docks[DockId.GRIDS].raise_()
    settle_layout(qtbot, window)
    tables = window.grid_editor.tables
    assert all(table.isVisible() for table in tables.values())
    assert {name: _cells_narrower_than_their_numbers(table) for name, table in tables.items()} == \
        {name: [] for name in tables}

    type_into_first_cell(qtbot, tables["w_k"], "-12.345")
    settle_layout(qtbot, window)
    assert tables["w_k"].item(0, 0).text() == "-12.345"
    assert _cells_narrower_than_their_numbers(tables["w_k"]) == []


def test_lesson_2s_output_vector_is_whole_on_a_1024_by_768_screen(qtbot, projector_window, monkeypatch):
    window = projector_window
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    window.open_lesson("projections")
    wait_until_arranged(qtbot, window)
    vector = "(0.77, 0.38)"
    shown = [label for label in window.output_panel.findChildren(QLabel)
             if vector in label.text() and label.isVisible()]
    assert shown, "the output vector is on the Output panel"
    for label in shown:
        needed = label.heightForWidth(label.width()) if label.wordWrap() else label.sizeHint().height()
        assert label.wordWrap() or label.sizeHint().width() <= label.width() + 1, label.text()
        assert needed <= label.height() + 1, label.text()


def test_presented_weights_keep_every_percentage_a_teacher_reads_and_none_touch(qtbot, projector_window, monkeypatch):
    from PySide6.QtCore import Qt

    from attn_desktop.ui.tools.layout_audit import chart_label_overlaps

    window = projector_window
    on_a_1024_by_768_screen(window, monkeypatch, presenting=True)
    window.open_lesson("scaled-attention")
    wait_until_arranged(qtbot, window)
    # The teacher narrows the Weights panel (its splitter dragged) to give the canvas more room.
    window.resizeDocks([window.docks[DockId.WEIGHTS]], [240], Qt.Orientation.Horizontal)
    qtbot.wait(100)
    chart = window.weights_chart
    chart.reading.select_query(chart.reading.tokens.index("mat"))
    qtbot.wait(50)
    shown = dict(zip(chart.reading.tokens, chart.shown_value_texts(), strict=True))
    assert shown["sat"] == "50%" and shown["on"] == "33%", (chart.width(), shown)  # what "mat" is about
    assert chart_label_overlaps(chart) == 0
    assert chart.cut_parts() == []


def test_the_status_hint_is_whole_beside_a_trained_heads_accuracy_on_a_1024_by_768_screen(
        qtbot, projector_window, monkeypatch):
    window = projector_window
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    window.open_lesson("trained-heads")
    wait_until_arranged(qtbot, window)
    bar = window.statusBar()
    accuracy = bar.findChild(QLabel, "taskAccuracyLabel")
    assert accuracy.isVisible() and "Accuracy" in accuracy.text()
    hint = next(label for label in bar.findChildren(QLabel)
                if label.isVisible() and label.text().startswith("Drag an arrow tip"))
    assert hint.fontMetrics().horizontalAdvance(hint.text()) <= hint.contentsRect().width(), hint.text()
    hint_right = hint.mapTo(window, hint.rect().topLeft()).x() + hint.width()
    assert hint_right <= accuracy.mapTo(window, accuracy.rect().topLeft()).x()
    assert "choose the query" in hint.text()  # what the shortened hint still says at this size


def test_a_grid_under_the_others_is_scrolled_to_and_its_hidden_title_overlaps_nothing(qtbot, window):
    from attn_desktop.ui.tools.walk_audit import audit_walk

    window.open_lesson("trained-heads")
    window.docks[DockId.GRIDS].raise_()
    # A Grids panel made narrow by hand: the trained numbers do not fit three grids side by side.
    window.resizeDocks([window.docks[DockId.GRIDS]], [240], Qt.Orientation.Horizontal)
    settle_layout(qtbot, window)
    flow = window.grid_editor.flow
    assert flow.per_row < 3
    assert [pair for pair in audit_walk(window)["text_overlaps"] if pair[0].startswith("Grids")] == []
    w_v = window.grid_editor.tables["w_v"]
    area = flow.parentWidget().parentWidget()
    area.ensureWidgetVisible(w_v)  # the panel's scroll bar brings it into view, whole
    qtbot.wait(10)
    top_left = w_v.mapTo(area.viewport(), w_v.rect().topLeft())
    assert area.viewport().rect().contains(top_left)
    assert _cells_narrower_than_their_numbers(w_v) == []


def test_the_challenges_are_whole_and_apart_in_a_short_dock_on_a_1024_by_768_screen(qtbot, projector_window, monkeypatch):
    window = projector_window
    on_a_1024_by_768_screen(window, monkeypatch, presenting=False)
    window.open_lesson("why-sqrt-dk")  # the √d_k lab takes the left column's lower part: the tabs are short
    wait_until_arranged(qtbot, window)
    window.docks[DockId.CHALLENGES].raise_()
    qtbot.wait(50)
    panel = window.challenges_panel
    texts = [label for row in panel.rows for label in (row.text_label, row.status_label)]
    for label in texts:  # each title and note as tall as its wrapped lines
        assert label.height() + 1 >= label.heightForWidth(label.width()), label.text()
    boxes = [(label.text(), QRect(label.mapTo(panel, label.rect().topLeft()), label.size())) for label in texts]
    for index, (text, box) in enumerate(boxes):
        for other_text, other in boxes[index + 1:]:
            assert not box.intersects(other), (text, other_text)
