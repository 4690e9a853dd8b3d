"""The attention matrix and the score table as a screen reader meets them, in the real window: tables with the
tokens as row and column headers, the matrix's painted cells named "sat → cat: 0.76" from the model's weights,
in the language's numbers, and following a drag, the mask and the veil."""

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QAccessible

from attn_desktop.model import Role
from attn_desktop.model.shown_numbers import percent, shown_number

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


def _score_cells(window):
    interface = QAccessible.queryAccessibleInterface(window.score_panel.table)
    return [interface.child(i).text(NAME) for i in range(interface.childCount())
            if interface.child(i).role() == QAccessible.Role.Cell]


def _listening(monkeypatch):
    """A screen reader listening, as Orca is when it runs (Qt tells the panels by QAccessible.isActive)."""
    monkeypatch.setattr(QAccessible, "isActive", staticmethod(lambda: True))


def test_the_score_tables_cells_name_the_query_the_key_and_what_the_number_is(window, monkeypatch):
    _listening(monkeypatch)
    window.score_panel.table.setFocus()  # the panel names its cells when a listening reader's user arrives
    reading = window.shown
    assert reading.selected_token == "sat"
    row = reading.tokens.index("cat")
    expected = ["cat",
                f"sat → cat: score {shown_number(reading.result.scores[reading.selected, row])}",
                f"sat → cat: scaled score {shown_number(reading.result.scaled[reading.selected, row])}",
                f"sat → cat: weight {round(100 * reading.result.weights[reading.selected, row])}%"]
    cells = _score_cells(window)
    assert cells[4 * row: 4 * row + 4] == expected and expected[3] == "sat → cat: weight 76%"
    drag_arrow(window, Role.KEY, row, QPointF(-80, 40))  # the names follow the numbers
    moved = _score_cells(window)[4 * row + 3]
    assert moved == f"sat → cat: weight {round(100 * window.shown.result.weights[reading.selected, row])}%" != expected[3]


def test_the_score_tables_masked_and_veiled_cells_say_so(window, monkeypatch):
    _listening(monkeypatch)
    window.scene.set_causal(True)
    assert "sat → on: masked (a query sees only itself and earlier tokens)" in _score_cells(window)
    window.veil.set_on(True)
    veiled = [name for name in _score_cells(window) if "→" in name and "masked" not in name]
    assert veiled and all(name.endswith(": Hidden until you reveal your guess (Predict, then see)") for name in veiled)


def test_without_a_screen_reader_a_drag_writes_no_cell_names(window):
    drag_arrow(window, Role.KEY, 1, QPointF(-80, 40))
    assert not any("→" in name for name in _score_cells(window))  # the drag paid nothing for names nobody hears


def test_the_score_tables_cells_are_named_in_the_students_language(window, monkeypatch):
    _listening(monkeypatch)
    window.switch_language("es")
    try:
        row = window.shown.tokens.index("cat")
        assert _score_cells(window)[4 * row + 3] == f"sat → cat: peso {percent(0.76)}"
    finally:
        window.switch_language("en")
