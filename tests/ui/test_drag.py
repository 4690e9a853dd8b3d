"""Dragging arrows with real mouse events: every panel follows every move."""

import sys

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication

from attn_desktop.model import Role, attention, explain, read
from attn_desktop.ui.tools.synthetic_mouse import move_holding, press, release

from tests.support.in_the_window import drag_arrow, matrix_cells, table_column, tip_on_screen


def expected_from_model(scene):
    """Recompute from the scene's vectors with the model, independently of the views."""
    return attention(read(scene).vectors(Role.QUERY), read(scene).vectors(Role.KEY), read(scene).vectors(Role.VALUE), scale=scene.scale)


def test_dragging_k_cat_updates_every_panel_on_every_move(window):
    scene = window.scene
    seen_keys = []
    view_range = window.canvas.qk_plot.viewRange()

    def check_panels(step):
        key = window.reading().vectors(Role.KEY)[1].copy()
        seen_keys.append(key)
        fresh = expected_from_model(scene)
        row = fresh.weights[window.reading().selected]
        assert table_column(window, 1)[1] == explain.number(2.4 * key[0] + 0.6 * key[1])
        assert table_column(window, 3) == [explain.percent(w) for w in row]
        assert matrix_cells(window)[2] == [explain.number(w) for w in row]
        assert window.output_panel.vector_label.text() == explain.vector(fresh.output[window.reading().selected])
        np.testing.assert_allclose(window.weights_chart.shown_heights(), row)
        np.testing.assert_allclose(window.canvas.output_arrow.tip.toTuple(), fresh.output[window.reading().selected])
        np.testing.assert_allclose(window.canvas.arrows[Role.KEY][1].tip.toTuple(), key)
        # The view never rescales under the cursor.
        assert window.canvas.qk_plot.viewRange() == view_range

    drag_arrow(window, Role.KEY, 1, QPointF(-90, -60), steps=8, after_each_move=check_panels)
    # Every move moved the key further: the panels followed the drag, not only the release.
    assert len({tuple(k) for k in seen_keys}) >= 7
    final = window.reading().vectors(Role.KEY)[1]
    assert final[0] < 2.2 - 0.5 and final[1] > 1.0 + 0.3  # left and up, as dragged
    assert table_column(window, 3) != ["0%", "76%", "6%", "1%", "0%", "17%"]


def test_drag_moves_the_tip_by_the_mouse_distance(window):
    before = window.reading().vectors(Role.VALUE)[5].copy()
    start_px = tip_on_screen(window, Role.VALUE, 5)
    drag_arrow(window, Role.VALUE, 5, QPointF(40, 0))
    after = window.reading().vectors(Role.VALUE)[5]
    assert after[0] > before[0] and abs(after[1] - before[1]) < 0.05
    end_px = tip_on_screen(window, Role.VALUE, 5)
    assert abs(end_px.x() - start_px.x() - 40) <= 1.5 and abs(end_px.y() - start_px.y()) <= 1.5


def test_escape_during_a_drag_puts_the_arrow_back(qtbot, window):
    viewport = window.canvas.viewport()
    start = tip_on_screen(window, Role.KEY, 1)
    press(viewport, start)
    for step in range(1, 6):
        move_holding(viewport, start + QPointF(-15 * step, 10 * step))
    QApplication.processEvents()
    assert not np.allclose(window.reading().vectors(Role.KEY)[1], [2.2, 1.0])
    qtbot.keyClick(window.canvas, Qt.Key.Key_Escape)
    assert window.reading().vectors(Role.KEY)[1].tolist() == [2.2, 1.0]
    move_holding(viewport, start + QPointF(-120, 80))  # moves after Escape are ignored
    release(viewport, start + QPointF(-120, 80))
    assert window.reading().vectors(Role.KEY)[1].tolist() == [2.2, 1.0]
    assert table_column(window, 3) == ["0%", "76%", "6%", "1%", "0%", "17%"]


def test_dragging_a_query_selects_it(window):
    drag_arrow(window, Role.QUERY, 5, QPointF(30, 30))
    assert window.reading().selected_token == "mat"
    assert window.output_panel.query_label.text() == "mat"
    assert window.query_picker.currentText() == "mat"


def test_qt_calls_that_return_nothing_keep_none_alive():
    # PySide6 6.12.0 dropped a reference to None in every call of a method
    # returning nothing; Python 3.11 then aborted after minutes of dragging.
    point = QPointF()
    before = sys.getrefcount(None)
    for _ in range(2000):
        point.setX(1.0)
    assert sys.getrefcount(None) >= before - 20


def test_tips_at_one_point_take_turns_so_the_one_underneath_can_be_dragged(qtbot, window):
    """Lesson 3's scene puts k·cat exactly under q·sat at (2, 0): a student who goes for k·cat still reaches it."""
    window.open_lesson("self-attention")
    qtbot.wait(50)
    assert window.reading().vectors(Role.QUERY)[1].tolist() == window.reading().vectors(Role.KEY)[0].tolist() == [2.0, 0.0]
    messages = []
    window.canvas.drag_moved.connect(messages.append)
    drag_arrow(window, Role.QUERY, 1, QPointF(0, -50))  # the press lands on both tips; q·sat is drawn on top
    assert window.reading().vectors(Role.QUERY)[1].tolist() != [2.0, 0.0] and window.reading().vectors(Role.KEY)[0].tolist() == [2.0, 0.0]
    assert "k·cat stayed: undo, then drag from there again to move it instead" in messages[-1]
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.reading().vectors(Role.QUERY)[1].tolist() == [2.0, 0.0]
    drag_arrow(window, Role.KEY, 0, QPointF(0, -50))  # the same press point again
    assert window.reading().vectors(Role.QUERY)[1].tolist() == [2.0, 0.0]
    assert window.reading().vectors(Role.KEY)[0].tolist() != [2.0, 0.0]
    assert window.undo_action.text() == "&Undo Move k·cat"


def _shown_labels(window):
    """Per plot: its area and (text, box in view pixels) of every label drawn there (two tokens may be
    spelled alike: "the" and "The", or two "the"s)."""
    canvas = window.canvas
    to_view = canvas.viewportTransform()
    plots = {}
    for item in [*(arrow for items in canvas.arrows.values() for arrow in items), canvas.output_arrow]:
        box = item.shown_label_box(item.deviceTransform(to_view)) if item.scene() is not None else None
        if box is not None:
            area = to_view.mapRect(item.getViewBox().sceneBoundingRect())
            plots.setdefault(id(item.getViewBox()), (area, []))[1].append((item.label, box))
    return list(plots.values())


def _assert_labels_readable(window):
    for area, labels in _shown_labels(window):
        for index, (text, box) in enumerate(labels):
            assert area.contains(box), f"{text} runs off its plot"
            for other, other_box in labels[:index]:
                assert not box.intersects(other_box), f"{text} covers {other}"


def test_labels_neither_cover_each_other_nor_leave_their_plot_while_dragging(qtbot, window):
    _assert_labels_readable(window)
    shown = {text for _, labels in _shown_labels(window) for text, _ in labels}
    assert {"q·sat", "k·cat 76%", "v·cat 76%", "out·sat"} <= shown  # the ones the lesson talks about
    # Drag k·cat onto the crowd near the origin, then to the right edge of its plot.
    drag_arrow(window, Role.KEY, 1, QPointF(-70, 10), after_each_move=lambda step: _assert_labels_readable(window))
    canvas = window.canvas
    right_edge = canvas.qk_plot.getViewBox().viewRange()[0][1]
    from tests.support.in_the_window import drag_arrow_to

    drag_arrow_to(window, Role.KEY, 1, right_edge - 0.1, 1.0)
    _assert_labels_readable(window)


def test_three_tips_at_one_point_each_get_a_turn(qtbot, window):
    scene = window.scene
    for role, index in ((Role.QUERY, 2), (Role.KEY, 3), (Role.KEY, 4)):  # q·sat, k·on, k·the
        scene.set_vector(role, index, [1.0, 1.0])
    window.history.reset()
    moved = []
    for _ in range(3):
        drag_arrow(window, Role.KEY, 3, QPointF(0, -40))  # always from the shared point
        moved.append(next(f"{role.symbol}·{index}" for role, index in ((Role.QUERY, 2), (Role.KEY, 3), (Role.KEY, 4))
                          if scene.vectors(role)[index].tolist() != [1.0, 1.0]))
        qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert sorted(moved) == ["k·3", "k·4", "q·2"]


def test_an_arrow_dropped_on_another_tip_is_the_one_a_new_drag_takes(qtbot, window):
    """Turns start only from a shared point: drop q·sat exactly on k·cat, then drag from there again."""
    from tests.support.in_the_window import drag_arrow_to

    window.snap_action.setChecked(True)  # so the drop lands exactly on (2.2, 1.0)
    drag_arrow_to(window, Role.QUERY, 2, 2.2, 1.0)
    assert window.reading().vectors(Role.QUERY)[2].tolist() == window.reading().vectors(Role.KEY)[1].tolist() == [2.2, 1.0]
    drag_arrow(window, Role.KEY, 1, QPointF(0, -40))
    assert window.reading().vectors(Role.QUERY)[2].tolist() != [2.2, 1.0]  # q·sat, the arrow just placed, moved on
    assert window.reading().vectors(Role.KEY)[1].tolist() == [2.2, 1.0]
