"""The attention matrix names every column and every row it has room for (issue: lesson 7's matrix named only
the/sat/it — not "cat", the word the lesson is about — and lesson 8's only the/chased, at 1024 × 768).

Read from the painted panel, as a class reads it: over each column's centre, in the strip between the title
and the cells, some text is painted; beside each row's middle, left of the cells, too.
"""

import pytest
from PySide6.QtGui import QColor

from attn_desktop.ui.panels.matrix_view import MatrixView

from tests.support.in_the_window import on_a_1024_by_768_screen, settle_layout, wait_until_arranged

pytestmark = pytest.mark.slow  # the real main window

LESSONS = {"two-heads": "7", "predict-then-see": "8"}


def _matrices(window) -> list[MatrixView]:
    if window.showing_heads:
        return [column.matrix for column in window.heads_view.columns if column.matrix.isVisible()]
    return [window.matrix_view]


def _inked(image, x0: float, x1: float, y0: float, y1: float, background: QColor) -> bool:
    """Whether anything darker than the panel's background is painted in the box (text is)."""
    for y in range(max(0, int(y0)), min(image.height(), int(y1) + 1)):
        for x in range(max(0, int(x0)), min(image.width(), int(x1) + 1)):
            if background.lightness() - QColor(image.pixel(x, y)).lightness() > 60:
                return True
    return False


def unnamed_columns_and_rows(matrix: MatrixView) -> tuple[list[str], list[str]]:
    """The tokens whose column (or row) shows no painted name at its middle."""
    image = matrix.grab().toImage()
    ratio = image.devicePixelRatio()
    grid = matrix.grid_rect()
    background = matrix.palette().base().color()
    size = grid.width() / matrix.reading.n_tokens
    line = matrix.fontMetrics().height()
    columns = [token for column, token in enumerate(matrix.reading.tokens)
               if not _inked(image, ratio * (grid.left() + (column + 0.5) * size - 2),
                             ratio * (grid.left() + (column + 0.5) * size + 2),
                             ratio * (grid.top() - line - 2), ratio * (grid.top() - 2), background)]
    rows = [token for row, token in enumerate(matrix.reading.query_tokens)
            if not _inked(image, ratio * 2, ratio * (grid.left() - 6),
                          ratio * (grid.top() + (row + 0.5) * size - 2),
                          ratio * (grid.top() + (row + 0.5) * size + 2), background)]
    return columns, rows


@pytest.mark.parametrize("presenting", [False, True], ids=["window", "presenting"])
@pytest.mark.parametrize("lesson", list(LESSONS))
def test_every_column_and_row_of_the_matrix_is_named_where_there_is_room(projector_window, qtbot, monkeypatch,
                                                                          lesson, presenting):
    window = projector_window
    on_a_1024_by_768_screen(window, monkeypatch, presenting)
    wait_until_arranged(qtbot, window)
    window.open_lesson(lesson)
    wait_until_arranged(qtbot, window)
    settle_layout(qtbot, window)
    matrices = _matrices(window)
    assert matrices
    for matrix in matrices:
        columns, rows = unnamed_columns_and_rows(matrix)
        where = f"lesson {LESSONS[lesson]}{' presenting' if presenting else ''}, {matrix.title()}"
        assert columns == [], f"{where}: columns without a name: {columns}"
        assert rows == [], f"{where}: rows without a name: {rows}"


def test_the_check_sees_a_column_left_unnamed(projector_window, qtbot, monkeypatch):
    """The pixel check can fail: a matrix squeezed to a sliver cannot name its columns."""
    window = projector_window
    on_a_1024_by_768_screen(window, monkeypatch, False)
    window.open_lesson("predict-then-see")
    settle_layout(qtbot, window)
    matrix = MatrixView(window.scene)
    qtbot.addWidget(matrix)
    matrix.resize(120, 400)
    matrix.show()
    qtbot.waitExposed(matrix)
    columns, _ = unnamed_columns_and_rows(matrix)
    assert columns, "a 120 px wide matrix of four long names cannot name them all"
