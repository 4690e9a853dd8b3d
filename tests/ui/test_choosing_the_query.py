"""Choosing the query: the picker, a click on a query arrow, a click on a matrix row."""

from PySide6.QtCore import QEvent, QPoint, Qt

from attn_desktop.model import Role
from attn_desktop.ui.tools.synthetic_mouse import click

from tests.support.in_the_window import table_column, tip_on_screen


def test_picker_with_the_keyboard(qtbot, window):
    picker = window.query_picker
    picker.setFocus()
    qtbot.keyClick(picker, Qt.Key.Key_Down)
    assert window.reading().selected_token == "on"
    assert window.output_panel.query_label.text() == "on"
    assert window.matrix_view.cell_text(3, 5) == "0.74"
    assert table_column(window, 3)[5] == "74%"


def test_clicking_a_query_arrow_tip(window):
    click(window.canvas.viewport(), tip_on_screen(window, Role.QUERY, 1))
    assert window.reading().selected_token == "cat"
    assert window.query_picker.currentText() == "cat"
    assert window.output_panel.attends_label.text() == "sat, 58%"
    assert window.canvas.output_arrow.label == "out·cat"


def test_clicking_a_matrix_row(qtbot, window):
    view = window.matrix_view
    cell = view.cell_rect(5, 2).center().toPoint()
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=cell)
    assert window.reading().selected_token == "mat"
    assert window.score_panel.formula_label.text().startswith("q_mat · k_sat =")
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert window.reading().selected_token == "the"


def test_pointing_at_a_table_row_explains_it_and_highlights_the_key(qtbot, window):
    table = window.score_panel.table
    rect = table.visualRect(window.score_panel.model.index(5, 1))
    qtbot.mouseMove(table.viewport(), rect.center())
    assert window.score_panel.formula_label.text() == "q_sat · k_mat = 2.40 × 1.80 + 0.60 × (-0.90) = 3.78"
    assert window.score_panel.highlight.key == 5  # view state: the document is not touched
    assert window.canvas.arrows[Role.KEY][5]._highlighted and window.canvas.arrows[Role.VALUE][5]._highlighted
    qtbot.mouseMove(window.matrix_view, QPoint(5, 5))  # leave the table
    qtbot.wait(10)


def test_double_clicking_a_tip_types_exact_coordinates(qtbot, window, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    from attn_desktop.ui.tools.synthetic_mouse import double_click

    asked = []
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: (asked.append(k.get("text")) or ("-1.2, 0.6", True)))
    double_click(window.canvas.viewport(), tip_on_screen(window, Role.KEY, 4))
    assert asked == ["-1.4, -0.2"]  # the dialog starts from k·the's current numbers
    assert window.reading().vectors(Role.KEY)[4].tolist() == [-1.2, 0.6]
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("3", True))
    double_click(window.canvas.viewport(), tip_on_screen(window, Role.KEY, 4))
    assert window.shown_errors[-1] == ("Exact coordinates", 'k·the needs 2 numbers; "3" has 1.')
    assert window.reading().vectors(Role.KEY)[4].tolist() == [-1.2, 0.6]


def test_a_score_row_tooltip_shows_its_worked_dot_product(window):
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QApplication, QToolTip

    table = window.score_panel.table
    point = table.visualRect(window.score_panel.model.index(1, 3)).center()
    QApplication.sendEvent(table.viewport(), QHelpEvent(QEvent.Type.ToolTip, point, table.viewport().mapToGlobal(point)))
    assert QToolTip.text() == "q_sat · k_cat = 2.40 × 2.20 + 0.60 × 1.00 = 5.88"


def test_the_next_and_previous_query_from_the_keyboard(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_BracketRight, Qt.KeyboardModifier.ControlModifier)
    assert window.reading().selected_token == "on"
    qtbot.keyClick(window, Qt.Key.Key_BracketLeft, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window, Qt.Key.Key_BracketLeft, Qt.KeyboardModifier.ControlModifier)
    assert window.reading().selected_token == "cat"


def test_undo_and_redo_leave_the_chosen_query_alone(qtbot, window):
    """Choosing a query is not an edit: stepping back through drags keeps the row the class is looking at."""
    from PySide6.QtCore import QPointF

    from tests.support.in_the_window import drag_arrow

    drag_arrow(window, Role.KEY, 1, QPointF(-60, -40), steps=10)  # with sat as the query
    window.query_picker.setFocus()
    qtbot.keyClick(window.query_picker, Qt.Key.Key_End)
    assert window.reading().selected_token == "mat"
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.reading().vectors(Role.KEY)[1].tolist() == [2.2, 1.0]  # the drag is undone
    assert window.reading().selected_token == "mat" and window.query_picker.currentText() == "mat"
    assert table_column(window, 3) == ["9%", "5%", "50%", "33%", "3%", "0%"]  # mat's row, k·cat restored
    assert window.output_panel.query_label.text() == "mat"
    qtbot.keyClick(window, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert window.reading().selected_token == "mat"


def test_undoing_the_drag_of_a_query_arrow_gives_back_the_query_it_chose(qtbot, window):
    """Dragging q·mat makes mat the query; undoing that drag makes sat the query again (and redo, mat)."""
    from PySide6.QtCore import QPointF

    from tests.support.in_the_window import drag_arrow

    assert window.reading().selected_token == "sat"
    drag_arrow(window, Role.QUERY, 5, QPointF(30, 30), steps=6)
    assert window.reading().selected_token == "mat"
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.reading().selected_token == "sat" and window.query_picker.currentText() == "sat"
    assert table_column(window, 3) == ["0%", "76%", "6%", "1%", "0%", "17%"]
    qtbot.keyClick(window, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert window.reading().selected_token == "mat"
