"""Reading what the panels show, the way a student reads them."""

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QLineEdit

from attn_desktop.model import Role
from attn_desktop.ui.tools.synthetic_mouse import move_holding, press, release, viewport_pos_of

POPUP_WARNING = "This plugin does not support grabbing the keyboard"  # a menu, offscreen


def table_column(window, column: int) -> list[str]:
    model = window.score_panel.model
    return [model.index(row, column).data() for row in range(model.rowCount())]


def table_header(window, column: int) -> str:
    return window.score_panel.model.headerData(column, window.score_panel.table.horizontalHeader().orientation())


def matrix_cells(window) -> list[list[str]]:
    """Each cell's number as the matrix writes it, read in full: a narrow matrix's compact ".47" is 0.47, its
    "1" is 1.00 (the compact form itself is tested in test_panel_legibility.py)."""
    scene = window.scene
    return [[in_full(window.matrix_view.cell_text(r, c)) for c in range(scene.n_tokens)] for r in range(scene.n_queries)]


def in_full(cell: str) -> str:
    """A matrix cell's text with the compact form read out: ".47" → "0.47", "1" → "1.00"; others as they are."""
    if cell.startswith("."):
        return "0" + cell
    return "1.00" if cell == "1" else cell


def tip_on_canvas(canvas, role: Role, index: int) -> QPointF:
    arrow = canvas.arrows[role][index]
    return viewport_pos_of(arrow, arrow.tip)


def tip_on_screen(window, role: Role, index: int) -> QPointF:
    return tip_on_canvas(window.canvas, role, index)


def drag_on_canvas(canvas, role: Role, index: int, offset: QPointF, steps: int = 8, after_each_move=None) -> None:
    """Press on an arrow's tip, move with the button held, release: a real drag (after_each_move gets the step)."""
    viewport = canvas.viewport()
    start = tip_on_canvas(canvas, role, index)
    press(viewport, start)
    for step in range(1, steps + 1):
        move_holding(viewport, start + offset * (step / steps))
        QApplication.processEvents()
        if after_each_move:
            after_each_move(step)
    release(viewport, start + offset)
    QApplication.processEvents()


def type_into_first_cell(qtbot, table, text):
    """Click a grid's first number and type, as in a spreadsheet: the first key opens the cell's editor."""
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualItemRect(table.item(0, 0)).center())
    qtbot.keyClicks(table, text[0])
    editor = next(child for child in table.findChildren(QLineEdit) if child.isVisible())
    qtbot.keyClicks(editor, text[1:])
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.wait(10)  # Qt commits a cell edit on the next pass of the loop


def drag_arrow(window, role: Role, index: int, offset: QPointF, steps: int = 8, after_each_move=None) -> None:
    drag_on_canvas(window.canvas, role, index, offset, steps, after_each_move)


def drag_arrow_to(window, role: Role, index: int, x: float, y: float, steps: int = 12) -> None:
    """Drag an arrow's tip to the point (x, y) of its plot, with real mouse events."""
    arrow = window.canvas.arrows[role][index]
    target = viewport_pos_of(arrow, QPointF(x, y))
    drag_arrow(window, role, index, target - tip_on_screen(window, role, index), steps=steps)


def settle_layout(qtbot, window) -> None:
    """Wait until the canvas stops changing size and framing its plots: a drag test measures pixels on it. Every
    plot's range counts (a value's drag is measured on its own plot), and a refit still waiting for the event
    loop (canvas.arranging) is not settled, however still the last two looks were."""
    canvas = window.canvas
    previous = None
    for _ in range(50):
        qtbot.wait(10)
        size = (canvas.size(), *(plot.viewRange() for plot in (canvas.x_plot, canvas.qk_plot, canvas.vo_plot)))
        if size == previous and not canvas.arranging:
            return
        previous = size


def on_a_1024_by_768_screen(window, monkeypatch, presenting: bool) -> None:
    """The window on a classroom projector's screen (1024 × 768), in presentation mode or not: call it
    before opening the lesson, then wait_until_arranged()."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QScreen

    monkeypatch.setattr(QScreen, "availableGeometry", lambda screen: QRect(0, 0, 1024, 768))
    window.presentation_action.setChecked(presenting)
    window.showNormal()
    window.resize(1024, 768)


def wait_until_arranged(qtbot, window) -> None:
    """Presentation mode arranges the panels again for a moment after each resize: wait it out."""
    qtbot.waitUntil(lambda: not window.presentation_mode.settling, timeout=5000)
    qtbot.wait(100)


class EventCounter(QObject):
    """Counts the events of one type that the objects it watches receive (install it as their event filter)."""

    def __init__(self, event_type: QEvent.Type) -> None:
        super().__init__()
        self.event_type = event_type
        self.count = 0

    def eventFilter(self, watched, event) -> bool:
        if event.type() == self.event_type:
            self.count += 1
        return False


def right_click_and_choose(qtbot, grid, pos: QPoint, choice: str | None) -> list[str]:
    """Right-click at pos (the press, then the context-menu event the window system sends with it), read the
    menu, and click the item saying `choice` (None: Escape). Returns the menu's items."""
    seen: list[str] = []
    finished = []  # the menu (if any) has closed: stop looking for it

    def act_on_menu():
        menu = QApplication.activePopupWidget()
        if finished:
            return
        if menu is None:
            QTimer.singleShot(10, act_on_menu)
            return
        seen.extend(action.text() for action in menu.actions() if not action.isSeparator())
        if choice is None:
            qtbot.keyClick(menu, Qt.Key.Key_Escape)
            return
        action = next(action for action in menu.actions() if action.text() == choice)
        qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())

    QTimer.singleShot(0, act_on_menu)
    qtbot.mousePress(grid, Qt.MouseButton.RightButton, pos=pos)
    QApplication.sendEvent(grid, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, grid.mapToGlobal(pos)))
    finished.append(True)  # a menu runs until chosen from, inside the event
    qtbot.mouseRelease(grid, Qt.MouseButton.RightButton, pos=pos)
    return seen


def choose_from_menu_bar(qtbot, window, path: list[str]) -> None:
    """Click through the menu bar as a person does: PATH names the menu, its submenus and the entry, without
    their & ("View", "Language", "Español")."""
    def named(actions, name):
        return next(action for action in actions if action.text().replace("&", "") == name)

    bar = window.menuBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.actionGeometry(named(bar.actions(), path[0])).center())
    for name in path[1:]:
        qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None)
        menu = QApplication.activePopupWidget()
        action = named(menu.actions(), name)
        qtbot.mouseClick(menu, Qt.MouseButton.LeftButton, pos=menu.actionGeometry(action).center())
        submenu = action.menu()
        if submenu is not None:
            qtbot.waitUntil(submenu.isVisible)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None)
