"""Where the panels go in presentation mode: the canvas large, the numbers a class reads around it.

Large type needs room. The matrix takes the right column with the score table under it, so both keep every
number; the output and the weights share a bottom row; a panel the teacher keeps on the left (Training, Model
heads, the √d_k lab) takes a share. On a large screen the canvas keeps about two thirds of the width.

A projector's 1024 × 768 or 1280 × 720 has no pixel to spare: three plots of 200 px need a canvas about
470 × 530. There every panel gets only the room it reads in (the matrix's numbers, the output's lines, the
Training panel's controls) and the canvas the rest.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QLayout, QMainWindow, QScrollArea, QWidget

from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.panels.matrix_view import MatrixView

LEFT, RIGHT, BOTTOM = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                       Qt.DockWidgetArea.BottomDockWidgetArea)
HORIZONTAL, VERTICAL = Qt.Orientation.Horizontal, Qt.Orientation.Vertical

RIGHT_COLUMN_SHARES = (0.24, 0.36)  # of the width, the least and the most the matrix's column takes
RIGHT_COLUMN_SLACK = (1.08, 1.15)  # room beyond the matrix's smallest numbers: on a small screen, a bigger screen
SMALL_SCREEN_LEFT_PX = 245  # the least a left panel takes on a small screen (the √d_k lab's plots read at this)
# The Positions lab's pages scroll and read at less; lesson 10's three plots beside it need those pixels.
SMALL_SCREEN_LEFT_PX_OF = {DockId.POSITIONS_LAB: 228}
BOTTOM_ROW_SHARE = 0.24  # of the height, for the output and the weights
BOTTOM_ROW_WIDTH_SHARE = 0.32  # of the width, for each of the output and the weights
LEFT_SHARE = 0.3  # of the width, for a left panel kept during a presentation
MATRIX_BOTTOM_MARGIN_PX = 8  # under the matrix's last row of cells, before the score table's title


def arrange_for_presentation(window: QMainWindow, docks: dict[DockId, QDockWidget], small_screen: bool) -> None:
    """The presentation's design for the window as it is now (SMALL_SCREEN: every panel as small as it reads)."""
    window.addDockWidget(RIGHT, docks[DockId.MATRIX])
    window.splitDockWidget(docks[DockId.MATRIX], docks[DockId.SCORE], VERTICAL)
    window.addDockWidget(BOTTOM, docks[DockId.OUTPUT])
    window.splitDockWidget(docks[DockId.OUTPUT], docks[DockId.WEIGHTS], HORIZONTAL)
    width, height = window.width(), window.height()
    _size_right_column(window, docks, small_screen)
    bottom_row = docks[DockId.OUTPUT].minimumSizeHint().height() if small_screen else int(height * BOTTOM_ROW_SHARE)
    window.resizeDocks([docks[DockId.OUTPUT]], [bottom_row], VERTICAL)
    if not docks[DockId.WEIGHTS].isHidden():
        window.resizeDocks([docks[DockId.OUTPUT], docks[DockId.WEIGHTS]],
                           [int(width * BOTTOM_ROW_WIDTH_SHARE)] * 2, HORIZONTAL)
    _grids_in_the_bottom_row(window, docks)
    # A panel the teacher keeps on the left takes a share, not the width it had in a larger everyday window
    # (on a small screen, only the width its controls need): the canvas keeps the rest.
    left = [dock for dock in docks.values()
            if dock.isVisible() and not dock.isFloating() and window.dockWidgetArea(dock) == LEFT]
    if left:
        floor = SMALL_SCREEN_LEFT_PX_OF.get(DockId(left[0].objectName()), SMALL_SCREEN_LEFT_PX)
        small = max(_least_readable_width(left[0]), floor)
        wanted = small if small_screen else int(width * LEFT_SHARE)
        window.resizeDocks(left[:1], [wanted], HORIZONTAL)
    _scores_right_under_the_matrix(window, docks)  # last: it lays the window out to measure the matrix


def _grids_in_the_bottom_row(window: QMainWindow, docks: dict[DockId, QDockWidget]) -> None:
    """A lesson about the grids (W_Q, W_K, W_V) presents them too: in the bottom row, out of the tab they share
    with Shapes in the everyday design, as wide and as high as they read. The output goes under the score table
    (a short table leaves the column room): beside the grids it was narrow, wrapped to many lines, and made the
    bottom row so high that a projector's plots shrank under a readable size."""
    grids = docks[DockId.GRIDS]
    if grids.isHidden():
        return
    output, weights, scores = docks[DockId.OUTPUT], docks[DockId.WEIGHTS], docks[DockId.SCORE]
    if weights.isHidden():
        window.splitDockWidget(scores, output, VERTICAL)
        window.addDockWidget(BOTTOM, grids)
    else:
        window.splitDockWidget(weights, grids, HORIZONTAL)
    window.resizeDocks([grids], [grids.minimumSizeHint().width()], HORIZONTAL)
    window.resizeDocks([grids], [grids.minimumSizeHint().height()], VERTICAL)
    if weights.isHidden():
        window.resizeDocks([scores, output], [scores.minimumSizeHint().height(), output.minimumSizeHint().height()],
                           VERTICAL)


def lay_out_now(window: QMainWindow) -> None:
    """The docks placed where the sizes just asked put them, now rather than at the next event loop pass."""
    layout = window.layout()
    if layout is not None:
        layout.activate()


def bring_layouts_up_to_date(widget: QWidget) -> None:
    """Every layout inside WIDGET brought up to date now, the deepest first, so its minimum size is what its
    contents need now. A widget whose minimum changes (the head grid, once the model's first run gives it its
    heads) tells its parent, and the parent its own, one level per event loop pass: a design that measured
    the Model heads panel in the same pass (a busy machine, the run just in) took its old minimum, 219 px, and
    the window widened it to 332 a moment later, under a pointer aimed at a head."""
    layouts: list[tuple[int, QLayout]] = []
    for inner_widget in (*widget.findChildren(QWidget), widget):
        inner = inner_widget.layout()
        if inner is not None:
            layouts.append((_depth(inner_widget), inner))
    layouts.sort(key=lambda depth_and_layout: depth_and_layout[0], reverse=True)
    for _, inner in layouts:
        inner.activate()


def _depth(widget: QWidget) -> int:
    """How many parents a widget has."""
    depth, parent = 0, widget.parentWidget()
    while parent is not None:
        depth, parent = depth + 1, parent.parentWidget()
    return depth


def _least_readable_width(dock: QDockWidget) -> int:
    """The width a panel's controls need. A panel that scrolls reports almost none (its scroll area's
    minimum): the panel inside it, and its scroll bar, say what it needs."""
    bring_layouts_up_to_date(dock)
    content = dock.widget()
    panel = content.widget() if isinstance(content, QScrollArea) else None
    if isinstance(content, QScrollArea) and panel is not None:
        scroll_bar = content.verticalScrollBar().sizeHint().width()
        return panel.minimumSizeHint().width() + scroll_bar + 2 * content.frameWidth()
    return dock.minimumSizeHint().width()


def _size_right_column(window: QMainWindow, docks: dict[DockId, QDockWidget], small_screen: bool) -> None:
    """As wide as the matrix and the score table need, within RIGHT_COLUMN_SHARES of the width (on a small
    screen about what they need); the score table as high as its rows, the matrix the rest."""
    width, height = window.width(), window.height()
    needed = max(docks[DockId.MATRIX].minimumSizeHint().width(), docks[DockId.SCORE].minimumSizeHint().width())
    least, most = RIGHT_COLUMN_SHARES
    if small_screen:  # numbers a size larger than the smallest the matrix allows, the canvas the rest
        column = int(needed * RIGHT_COLUMN_SLACK[0])
    else:
        column = min(int(width * most), max(int(width * least), int(needed * RIGHT_COLUMN_SLACK[1])))
    window.resizeDocks([docks[DockId.MATRIX]], [column], HORIZONTAL)
    score_height = docks[DockId.SCORE].minimumSizeHint().height()
    window.resizeDocks([docks[DockId.MATRIX], docks[DockId.SCORE]], [height, score_height], VERTICAL)


def _scores_right_under_the_matrix(window: QMainWindow, docks: dict[DockId, QDockWidget]) -> None:
    """The matrix's cells are square, so in a column wider than the matrix is tall its grid ends above the panel's
    bottom: the height it leaves goes to the score table under it, not to an empty gap between the two."""
    matrix, scores = docks[DockId.MATRIX], docks[DockId.SCORE]
    view = matrix.widget()
    if not isinstance(view, MatrixView) or matrix.isHidden() or scores.isHidden():
        return
    lay_out_now(window)  # the column as just sized: the matrix lays its grid out in it
    spare = view.height() - int(view.grid_rect().bottom()) - MATRIX_BOTTOM_MARGIN_PX
    if spare > 0:
        window.resizeDocks([matrix, scores], [matrix.height() - spare, scores.height() + spare], VERTICAL)
