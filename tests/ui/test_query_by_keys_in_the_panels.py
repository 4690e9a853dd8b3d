"""The matrix and the score table choose the query by keys alone (issue 43, item 1): reached with Tab, the matrix
takes ↑/↓ and rings its chosen row while it has the keys; the score table walks its keys' rows with ↑/↓ and
chooses the query with ←/→."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from tests.ui.test_focus_ring import MIN_CONTRAST, MIN_WIDTH_PX, contrast_ratio


def tab_to(qtbot, window, widget, presses: int = 200) -> None:
    """Tab from the canvas until WIDGET has the keys, as a student without a mouse reaches it."""
    window.canvas.setFocus()
    for _ in range(presses):
        if QApplication.focusWidget() is widget:
            return
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {type(widget).__name__}")


def ring_over_row(view) -> tuple[float, float]:
    """The line over the chosen row's top edge, at the grid's middle: how many pixels of it are in the ring's
    colour (the text's), and that colour's contrast with the bright band just inside the row."""
    image = view.grab().toImage()
    ratio = image.devicePixelRatio()
    grid = view._current_layout().grid
    size = grid.width() / view.reading.n_tokens
    top = grid.top() + view.reading.selected * size
    x = round(grid.center().x() * ratio)
    ring = view.palette().text().color()
    band = QColor(image.pixel(x, round((top + 1.5) * ratio)))
    wide = sum(1 for y in range(round((top - 6) * ratio), round((top + 1) * ratio))
               if contrast_ratio(QColor(image.pixel(x, y)), ring) < 1.1) / ratio
    return wide, contrast_ratio(ring, band)


def test_the_matrix_chooses_the_query_with_up_and_down_and_rings_it_while_it_has_the_keys(qtbot, window):
    view = window.matrix_view
    reading = view.reading
    thin, _ = ring_over_row(view)
    tab_to(qtbot, window, view)
    assert view.hasFocus()
    qtbot.wait(10)
    wide, contrast = ring_over_row(view)
    assert wide >= MIN_WIDTH_PX > thin and contrast >= MIN_CONTRAST
    start = reading.selected
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert reading.selected == start - 1
    qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert reading.selected == min(start + 1, reading.n_queries - 1)


def test_the_score_table_walks_its_keys_with_up_and_down_and_chooses_the_query_with_left_and_right(qtbot, window):
    panel = window.score_panel
    table = panel.table
    reading = panel.reading
    tab_to(qtbot, window, table)
    start = reading.selected
    qtbot.keyClick(table, Qt.Key.Key_Left)
    assert reading.selected == start - 1
    qtbot.keyClick(table, Qt.Key.Key_Right)
    qtbot.keyClick(table, Qt.Key.Key_Right)
    assert reading.selected == start + 1
    first = table.currentIndex().row()
    qtbot.keyClick(table, Qt.Key.Key_Down)
    row = table.currentIndex().row()
    assert row == first + 1 and table.selectionModel().isRowSelected(row)  # the row the keys are on, lit up
    assert panel.formula_label.text() == panel.model.formula(row) or reading.tokens[row] in panel.formula_label.text()
    assert reading.selected == start + 1  # walking the keys leaves the query alone
