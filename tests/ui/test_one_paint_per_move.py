"""A drag move costs one pass of painting, of only what changed: no window layout, no panel painted twice.

Each move used to re-lay out the whole window (a label's new numbers asked its panel, its dock and
then the main window for a new layout) and so paint the panels two or three times; what a student
sees lagged a frame or more behind the mouse. These tests drag with real mouse events and count
what Qt does after each move.
"""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDockWidget, QLabel, QMainWindow, QVBoxLayout, QWidget

from attn_desktop.model import Role
from attn_desktop.ui.palette import ROLE_COLORS
from attn_desktop.ui.steady_label_box import SteadyLabelBox
from attn_desktop.ui.tools.synthetic_mouse import viewport_pos_of

from tests.support.in_the_window import drag_arrow


class EventCounter(QObject):
    """Counts paints per widget, and layout requests reaching the window or a dock."""

    def __init__(self, window) -> None:
        super().__init__()
        self.window = window
        self.paints: Counter = Counter()
        self.window_layouts = 0
        self.window_flushes = 0  # the window's backing store brought to the screen

    def eventFilter(self, watched, event) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Paint:
            self.paints[watched] += 1
        elif kind == QEvent.Type.LayoutRequest and (watched is self.window or isinstance(watched, QDockWidget)):
            self.window_layouts += 1
        elif kind == QEvent.Type.UpdateRequest and watched is self.window:
            self.window_flushes += 1
        return False


def watched(window) -> dict[str, QWidget]:
    return {
        "canvas": window.canvas.viewport(),
        "score table": window.score_panel.table.viewport(),
        "matrix": window.matrix_view,
        "weights chart": window.weights_chart.viewport(),
        "output vector": window.output_panel.vector_label,
        "formula": window.score_panel.formula_label,
    }


@pytest.fixture
def classroom_window(qtbot, window):
    window.resize(1024, 768)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(300)  # the first layouts settle
    return window


def test_a_drag_move_paints_each_panel_once_and_lays_nothing_out(qtbot, classroom_window):
    window = classroom_window
    panels = watched(window)
    counter = EventCounter(window)
    moves = []

    def after_each_move(step):
        qtbot.wait(30)  # whatever the move left to do, and what that asked for in turn
        moves.append((dict(counter.paints), counter.window_layouts))
        counter.paints.clear()
        counter.window_layouts = 0

    QApplication.instance().installEventFilter(counter)
    try:
        drag_arrow(window, Role.KEY, 1, QPointF(-40, 30), steps=10, after_each_move=after_each_move)
    finally:
        QApplication.instance().removeEventFilter(counter)

    # The first move of a drag starts the status line (and a challenge's note may need another line).
    later_moves = moves[1:]
    assert later_moves
    for paints, layouts in later_moves:
        assert layouts == 0, "a drag move laid out the window or a dock again"
        painted = {name: paints.get(widget, 0) for name, widget in panels.items()}
        assert painted["canvas"] == 1 and painted["score table"] == 1 and painted["matrix"] == 1, painted
        assert painted["weights chart"] == 1, painted
        twice = [f"{type(w).__name__}/{w.objectName()}" for w, count in paints.items() if count > 1]
        assert not twice, f"painted more than once for one move: {twice}"


def test_a_drag_move_reaches_the_screen_in_one_frame(qtbot, classroom_window):
    """The arrow and every panel's new numbers are brought to the screen together: one backing-store
    flush a move. (The weights chart's bars used to follow in a second flush, a frame behind the canvas.)"""
    window = classroom_window
    counter = EventCounter(window)
    flushes = []

    def after_each_move(step):
        qtbot.wait(30)
        flushes.append(counter.window_flushes)
        counter.window_flushes = 0

    QApplication.instance().installEventFilter(counter)
    try:
        drag_arrow(window, Role.KEY, 1, QPointF(-40, 30), steps=8, after_each_move=after_each_move)
    finally:
        QApplication.instance().removeEventFilter(counter)

    assert flushes[1:] and all(count == 1 for count in flushes[1:]), flushes  # the first move starts the status line


def test_a_drag_move_repaints_no_window_or_dock_behind_the_panels(qtbot, classroom_window):
    """The matrix and the status line paint every pixel of their own: what changes in them on a move is
    repainted there alone, not first the dock and the main window under them."""
    window = classroom_window
    counter = EventCounter(window)
    moves = []

    def after_each_move(step):
        qtbot.wait(30)
        moves.append(dict(counter.paints))
        counter.paints.clear()

    QApplication.instance().installEventFilter(counter)
    try:
        drag_arrow(window, Role.KEY, 1, QPointF(-40, 30), steps=8, after_each_move=after_each_move)
    finally:
        QApplication.instance().removeEventFilter(counter)

    behind = [window, *window.findChildren(QDockWidget)]
    for paints in moves[1:]:  # the first move starts the status line
        assert paints.get(window.matrix_view) == 1 and paints.get(window.statusBar()) == 1, "moved, not shown"
        repainted = [f"{type(w).__name__}/{w.objectName()}" for w in behind if paints.get(w)]
        assert not repainted, f"a drag move repainted what lies behind the panels: {repainted}"


def test_dragging_a_value_repaints_the_output_but_not_the_weights(qtbot, classroom_window):
    """A value changes what the query gathers, not how much it attends to each key: the matrix, the
    weights chart and the score table show what they showed, and are not painted again."""
    window = classroom_window
    counter = EventCounter(window)
    weights_panels = {"matrix": window.matrix_view, "weights chart": window.weights_chart.viewport(),
                      "score table": window.score_panel.table.viewport()}
    matrix_before = [[window.matrix_view.cell_text(r, c) for c in range(6)] for r in range(6)]
    output_before = window.output_panel.vector_label.text()
    repainted = Counter()

    def after_each_move(step):
        qtbot.wait(30)
        repainted.update({name: counter.paints.get(widget, 0) for name, widget in weights_panels.items()})
        counter.paints.clear()

    QApplication.instance().installEventFilter(counter)
    try:
        drag_arrow(window, Role.VALUE, 1, QPointF(-40, 30), steps=6, after_each_move=after_each_move)
    finally:
        QApplication.instance().removeEventFilter(counter)

    assert window.output_panel.vector_label.text() != output_before  # the drag did change the output
    assert [[window.matrix_view.cell_text(r, c) for c in range(6)] for r in range(6)] == matrix_before
    assert all(count == 0 for count in repainted.values()), repainted


def press_drag_release(widget, start: QPoint, end: QPoint) -> None:
    """Select as a hand does: press, move with the button held, release."""
    def send(kind, pos, button, buttons):
        event = QMouseEvent(kind, QPointF(pos), QPointF(widget.mapToGlobal(pos)), button, buttons,
                            Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(widget, event)

    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    send(QEvent.Type.MouseButtonPress, start, left, left)
    for x in range(start.x(), end.x(), 8):
        send(QEvent.Type.MouseMove, QPoint(x, start.y()), none, left)
    send(QEvent.Type.MouseButtonRelease, end, left, none)


def test_the_output_numbers_can_still_be_selected_and_copied(qtbot, classroom_window):
    window = classroom_window
    label = window.output_panel.vector_label
    selectable = Qt.TextInteractionFlag.TextSelectableByMouse
    assert label.text() == "(1.54, 0.48)"
    assert not label.textInteractionFlags() & selectable  # plain while nobody points at it: cheap to repaint
    QTest.mouseMove(window, QPoint(5, 5))
    QTest.mouseMove(label, label.rect().center())
    qtbot.waitUntil(lambda: bool(label.textInteractionFlags() & selectable))
    middle = label.height() // 2
    press_drag_release(label, QPoint(1, middle), QPoint(label.width() - 2, middle))
    assert label.selectedText() == "(1.54, 0.48)"
    QTest.keyClick(label, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == "(1.54, 0.48)"

    # Off to the canvas to drag: the new numbers drop the selection, and the label is plain again.
    QTest.mouseMove(window.canvas.viewport(), window.canvas.viewport().rect().center())
    drag_arrow(window, Role.KEY, 1, QPointF(-30, 20), steps=3)
    assert label.text() != "(1.54, 0.48)"
    assert not label.textInteractionFlags() & selectable


# ----- the box on its own --------------------------------------------------------------------------
class Panel(QWidget):
    """A panel with one word-wrapped label in a steady box, as the app's panels have them."""

    def __init__(self) -> None:
        super().__init__()
        self.label = QLabel("Each key needs 16.7%.")
        self.label.setWordWrap(True)
        self.box = SteadyLabelBox(self.label, self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.box)
        layout.addStretch(1)
        self.layouts = 0

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self.layouts += 1
        return super().event(event)


@pytest.fixture
def panel(qtbot):
    window = QMainWindow()
    panel = Panel()
    window.setCentralWidget(panel)
    qtbot.addWidget(window)
    window.resize(260, 300)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(20)
    panel.layouts = 0
    yield panel
    window.close()


def test_new_text_of_the_same_shape_lays_nothing_out(qtbot, panel):
    height = panel.box.height()
    for percent in ("16.2%", "17.2%", "9.9%", "16.7%"):
        panel.box.set_text(f"Each key needs {percent}.")
        qtbot.wait(5)
    assert panel.layouts == 0
    assert panel.box.height() == height and panel.label.text() == "Each key needs 16.7%."


def test_new_text_is_measured_once_not_again_when_the_label_asks(qtbot, panel, monkeypatch):
    """The box measures new text as it is set; the layout request the label then posts would measure
    the same text again in the next pass of the event loop (four labels a drag move)."""
    measured = []
    real = SteadyLabelBox._room_needed
    monkeypatch.setattr(SteadyLabelBox, "_room_needed", lambda box: measured.append(1) or real(box))
    for percent in ("16.2%", "17.2%", "9.9%"):
        panel.box.set_text(f"Each key needs {percent}.")
        qtbot.wait(5)
    assert len(measured) == 3 and panel.label.text() == "Each key needs 9.9%."


def test_text_that_needs_another_line_gets_it(qtbot, panel):
    one_line = panel.box.height()
    panel.box.set_text("Each key needs 16.7%, give or take half a point (16.2% to 17.2%). Further keys share the rest.")
    qtbot.waitUntil(lambda: panel.box.height() > one_line)
    assert panel.label.height() == panel.box.height()  # the label fills its box: nothing cut
    assert panel.label.heightForWidth(panel.label.width()) <= panel.box.height()
    panel.box.set_text("Done.")
    qtbot.waitUntil(lambda: panel.box.height() == one_line)


def test_the_box_hides_and_shows_with_its_label(qtbot, panel):
    panel.label.hide()
    assert not panel.box.isVisible()
    panel.label.show()
    assert panel.box.isVisible() and panel.label.isVisible()


# ----- what is painted is what moved ---------------------------------------------------------------
def colour_on_canvas(window, role: Role, index: int, fraction: float = 0.5) -> tuple[int, int, int]:
    """The canvas's colour, as on screen, part-way along an arrow's shaft."""
    arrow = window.canvas.arrows[role][index]
    point = viewport_pos_of(arrow, arrow.tip * fraction).toPoint()
    colour = window.canvas.viewport().grab().toImage().pixelColor(point)
    return colour.red(), colour.green(), colour.blue()


def near(colour: tuple[int, int, int] | QColor, target: QColor, tolerance: int = 40) -> bool:
    if isinstance(colour, QColor):
        colour = (colour.red(), colour.green(), colour.blue())
    return all(abs(a - b) <= tolerance for a, b in zip(colour, (target.red(), target.green(), target.blue())))


def test_the_arrows_drawn_in_one_layer_are_on_screen_where_their_vectors_are(qtbot, classroom_window):
    window = classroom_window
    cat = window.canvas.arrows[Role.KEY][1]
    assert cat.emphasis > 0.7  # 76 %: drawn in (nearly) the full key colour
    assert near(ROLE_COLORS[Role.KEY], cat._color, tolerance=80)
    before = colour_on_canvas(window, Role.KEY, 1)
    assert near(before, cat._color), before
    old_middle = viewport_pos_of(cat, cat.tip * 0.5).toPoint()

    drag_arrow(window, Role.KEY, 1, QPointF(-60, -70), steps=6)  # up and to the left, away from the others
    qtbot.wait(30)
    image = window.canvas.viewport().grab().toImage()
    assert not near(image.pixelColor(old_middle), cat._color)  # nothing left behind where it was
    assert near(colour_on_canvas(window, Role.KEY, 1), cat._color)
