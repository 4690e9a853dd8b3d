"""The numbers painted in the matrix's cells are the ones it says it shows (cell_text, which the other tests
read), in the language's decimal mark, after a language switch and after a drag moved every weight."""

import pytest
from PySide6.QtGui import QPainter

from attn_desktop.model import Role
from attn_desktop.ui.panels.matrix_view import MatrixView

from tests.support.panel_alone import shown_alone


@pytest.fixture
def matrix(qtbot):
    return shown_alone(qtbot, MatrixView, 420, 360)


def painted_numbers(view, monkeypatch):
    """The texts the cells' numbers are drawn with, row by row, as a repaint draws them."""
    drawn = []
    draw = QPainter.drawStaticText

    def recording(painter, *args):
        drawn.append(args[-1].text())
        return draw(painter, *args)

    with monkeypatch.context() as patch:
        patch.setattr(QPainter, "drawStaticText", recording)
        view.grab()
    scene = view.reading
    return [drawn[row * scene.n_tokens:(row + 1) * scene.n_tokens] for row in range(scene.n_queries)]


def said(view):
    scene = view.reading
    return [[view.cell_text(row, column) for column in range(scene.n_tokens)] for row in range(scene.n_queries)]


def test_the_painted_numbers_are_the_cells_texts_in_every_language_and_after_a_drag(matrix, monkeypatch, speaking):
    assert painted_numbers(matrix, monkeypatch) == said(matrix)
    assert painted_numbers(matrix, monkeypatch)[2][1] == "0.76"  # sat gives cat 76% of its attention

    speaking("es")  # a decimal comma
    spanish = painted_numbers(matrix, monkeypatch)
    assert spanish == said(matrix)
    assert any("," in text for row in spanish for text in row)

    speaking("ar")  # numbers kept left to right inside right-to-left text
    assert painted_numbers(matrix, monkeypatch) == said(matrix)

    speaking("en")
    scene = matrix.reading.scene
    scene.set_vector(Role.KEY, 1, [-1.5, 0.25])  # every weight of every row moves
    assert painted_numbers(matrix, monkeypatch) == said(matrix)


def on_screen(view):
    """The panel as the screen shows it: what its paints so far left in the window, not a fresh paint."""
    return view.screen().grabWindow(view.winId()).toImage().copy(view.rect())


def test_a_drag_move_leaves_the_panel_as_a_whole_repaint_would_paint_it(matrix, qtbot):
    """A drag move repaints only the cells and the entropies (and, for another chosen query, the outline round
    its row): nothing that changed may be left as it was, nothing that did not be painted over wrongly."""
    matrix.set_show_entropy(True)
    matrix.reading.scene.set_causal(True)  # masked cells, hatched
    matrix.setFocus()  # the chosen row's ring, wider than its outline
    qtbot.waitUntil(matrix.hasFocus)
    scene, reading = matrix.reading.scene, matrix.reading
    moves = [[-1.5, 0.25], [-1.4, 0.3], [2.0, 1.0], [0.1, -2.2], [0.2, -2.1]]
    for step, vector in enumerate(moves):
        scene.set_vector(Role.KEY, 1, vector)
        if step == 2:
            reading.select_query(4)  # the outline moves too
        qtbot.wait(20)
        shown, whole = on_screen(matrix), matrix.grab().toImage()
        assert shown.convertToFormat(whole.format()) == whole, step
