"""The attention matrix and the score table as a screen reader meets them, in the real window: tables with the
tokens as row and column headers, the matrix's painted cells named "sat → cat: 0.76" from the model's weights,
in the language's numbers, and following a drag, the mask and the veil."""

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QAccessible

from attn_desktop.model import Role
from attn_desktop.model.shown_numbers import shown_number

from tests.support.in_the_window import drag_arrow

NAME = QAccessible.Text.Name


def _table(widget):
    interface = QAccessible.queryAccessibleInterface(widget)
    return interface, [(interface.child(i).role(), interface.child(i).text(NAME)) for i in range(interface.childCount())]


def _expected_matrix(reading):
    expected = [(QAccessible.Role.ColumnHeader, token) for token in reading.tokens]
    for row, query in enumerate(reading.query_tokens):
        expected.append((QAccessible.Role.RowHeader, query))
        expected += [(QAccessible.Role.Cell, f"{query} → {key}: {shown_number(reading.result.weights[row, column])}")
                     for column, key in enumerate(reading.tokens)]
    return expected


def test_the_matrix_is_a_table_of_named_cells_that_follows_a_drag(window):
    interface, children = _table(window.matrix_view)
    assert interface.role() == QAccessible.Role.Table and interface.text(NAME) == "Attention matrix"
    assert children == _expected_matrix(window.shown)
    assert ("sat → cat: 0.76" in [name for _, name in children])  # the demo's chosen query and its top key
    drag_arrow(window, Role.KEY, 1, QPointF(-80, 40))
    assert _table(window.matrix_view)[1] == _expected_matrix(window.shown)
    cell = interface.child(len(window.shown.tokens) + 1)
    assert cell.rect().isValid() and window.matrix_view.rect().contains(window.matrix_view.mapFromGlobal(cell.rect().center()))


def test_masked_and_veiled_cells_say_so_and_never_tell_a_hidden_weight(window):
    window.scene.set_causal(True)
    names = [name for _, name in _table(window.matrix_view)[1]]
    assert "The → cat: masked (a query sees only itself and earlier tokens)" in names
    window.veil.set_on(True)  # Predict, then see: the student guesses the weights
    names = [name for _, name in _table(window.matrix_view)[1]]
    assert "sat → cat: Hidden until you reveal your guess (Predict, then see)" in names
    cells = [name for name in names if "→" in name and "masked" not in name]
    assert cells and all(name.endswith("(Predict, then see)") for name in cells)


def test_the_matrix_is_read_in_the_languages_numbers(window):
    window.switch_language("es")
    names = [name for _, name in _table(window.matrix_view)[1]]
    assert "sat → cat: 0,76" in names  # the demo's own words stay; the number has a decimal comma
    window.switch_language("en")


def test_the_matrix_focus_is_the_chosen_querys_row(window, qtbot):
    interface = QAccessible.queryAccessibleInterface(window.matrix_view)
    window.matrix_view.setFocus()
    qtbot.keyClick(window.matrix_view, Qt.Key.Key_Down)
    focused = interface.focusChild()
    assert focused.role() == QAccessible.Role.RowHeader and focused.text(NAME) == window.shown.selected_token == "on"


def test_the_score_tables_rows_are_named_by_their_keys_token(window):
    interface = QAccessible.queryAccessibleInterface(window.score_panel.table)
    assert interface.text(NAME) == "Each key's score and weight"
    row_headers = [interface.child(i).text(NAME) for i in range(interface.childCount())
                   if interface.child(i).role() == QAccessible.Role.RowHeader]
    assert row_headers == window.shown.tokens
