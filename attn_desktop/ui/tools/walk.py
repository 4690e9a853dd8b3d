"""A teacher's walk through the real window: the steps of `attn-desktop snapshot --steps`, each taken as
a person takes it (the menu's own handlers, real mouse events for a drag, a guess bar and the Model heads
grid, a click on a panel's button), the window audited after each.

A restart quits as a person does (the window's state saved, a lesson's scene kept) and starts the app as
`attn-desktop` starts, restoring them from the snapshot's own user folder (never the user's).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPoint, QPointF, QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QMenu, QScrollArea, QWidget

from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.tools.layout_audit import _on_screen
from attn_desktop.ui.tools.walk_steps import Step, StepError

if TYPE_CHECKING:  # the window a walk is handed (the app loads only when a walk starts)
    from attn_desktop.ui.window.main_window import MainWindow

WAIT_SECONDS = {"train": 120.0, "heads": 120.0}  # a walk gives up on a step that never finishes
WAIT_SECONDS_FOR_PRESENTATION = 5.0  # presentation mode settles its screen within its own timers' few seconds
PAUSE_LANDS_WITHIN_STEPS = 150  # at full speed, Pause takes effect a few dozen steps after it is clicked


def headless(window: MainWindow) -> None:
    """No question asked where nobody can answer: unsaved changes are let go, as a quit without saving does."""
    from attn_desktop.ui.document.document_controller import SaveChanges

    # The window's own questions replaced by their answers: a walk has no one to ask.
    window.dialogs.ask_save_changes = lambda: SaveChanges.DISCARD  # type: ignore[method-assign]
    window.dialogs.ask_restore = lambda question: False  # type: ignore[method-assign]


def take_step(window: MainWindow, step: Step, settle: Callable[[MainWindow], None],
              dispose: Callable[[MainWindow], None]) -> MainWindow:
    """Take STEP in WINDOW and let it settle; the window shown afterwards (a new one after a restart, the
    old one ended by DISPOSE). StepError, naming the step, when the window cannot take it."""
    if step.kind == "restart":
        return restart(window, settle, dispose)
    if step.kind == "lesson":
        if not window.open_lesson(step.lesson):
            raise StepError(f"step {step.text!r}: the lesson did not open")
    elif step.kind in ("present", "unpresent"):
        window.presentation_action.setChecked(step.kind == "present")
    elif step.kind == "train":
        train(window, step)
    elif step.kind == "heads":
        open_model_heads(window)
    elif step.kind == "induction":
        find_induction_heads(window)
    elif step.kind in ("next-token", "generate", "lens", "knock-out"):
        heads_question(window, step)
    elif step.kind == "lab":
        window.menu_actions["scaling_lab_action"].trigger()
    elif step.kind == "positions-lab":
        window.menu_actions["positions_lab_action"].trigger()
    elif step.kind == "predict":
        if not window.predict_action.isEnabled():
            raise StepError(f"step {step.text!r}: Predict, then see works with scenes of one head")
        window.predict_action.setChecked(True)
    elif step.kind == "reset-layout":
        window.menu_actions["reset_layout_action"].trigger()
    elif step.kind == "describe":  # View → Description, as a teacher opens it (open already: left open)
        description = window.docks[DockId.DESCRIPTION]
        if description.isHidden():
            description.toggleViewAction().trigger()
    elif step.kind == "undo":
        if not window.undo_action.isEnabled():
            raise StepError(f"step {step.text!r}: nothing to undo")
        window.undo_action.trigger()
    elif step.kind == "drag":
        settle(window)  # the arrows where a person sees them before the hand moves
        drag(window, step)
    elif step.kind in MORE_STEPS:
        settle(window)  # the buttons and bars where a person sees them before the hand moves
        MORE_STEPS[step.kind](window, step)
    settle(window)
    return window


def restart(window: MainWindow, settle: Callable[[MainWindow], None],
            dispose: Callable[[MainWindow], None]) -> MainWindow:
    """Quit as a person does (the window's state saved on closing, a lesson's scene kept with the lessons,
    unsaved work of one's own let go) and start the app again as `attn-desktop [its file]` starts."""
    from PySide6.QtCore import Qt

    from attn_desktop.model import ViewState
    from attn_desktop.model.scene_files import open_scene
    from attn_desktop.ui.window.startup.app import show_as_started, start_window

    path = window.scene_path
    frameless = bool(window.windowFlags() & Qt.WindowType.FramelessWindowHint)  # a snapshot's window
    window.close()  # closeEvent: the window state saved, presentation left, workers stopped
    dispose(window)
    view = ViewState()  # the new window's, choosing the query the file had chosen
    again = start_window(open_scene(path, view) if path else None, path, view)
    headless(again)
    again.setWindowFlag(Qt.WindowType.FramelessWindowHint, frameless)
    show_as_started(again)
    again.documents.offer_to_restore()  # as a start does; after a quit there is nothing left to offer
    settle(again)
    return again


def train(window: MainWindow, step: Step) -> None:
    """Lessons → Train a Head…, the task chosen, Train at full speed to near N steps (the window shows the
    head as it learns), Pause, then Step until exactly N (unless the pause landed past N)."""
    window.menu_actions["training_action"].trigger()
    panel = window.training_panel
    if panel.task_box.currentData() != step.task:
        panel.choose_task(step.task)
        # The step count is the last task's until the new trainer reports step 0: without this wait, a walk
        # that trained another task first would pause before the window had shown this one's example.
        _wait(lambda: panel.steps_taken == 0, WAIT_SECONDS["train"])
    near = max(1, step.count - PAUSE_LANDS_WITHIN_STEPS)
    # As fast as possible to near N; for a few steps, the slowest pace, paused after the first.
    panel.pace_box.setCurrentIndex(panel.pace_box.count() - 1 if near > 1 else 0)
    panel.train_button.click()
    if not _wait(lambda: panel.steps_taken >= near, WAIT_SECONDS["train"]):
        panel.pause_button.click()
        raise StepError(f"step {step.text!r}: training took only {panel.steps_taken} steps in "
                        f"{WAIT_SECONDS['train']:g} s")
    panel.pause_button.click()
    _wait_until_steady(lambda: panel.steps_taken)
    while panel.steps_taken < step.count:
        taken = panel.steps_taken
        panel.step_button.click()
        if not _wait(_changed_from(lambda: panel.steps_taken, taken), 10.0):
            raise StepError(f"step {step.text!r}: training stopped at step {taken}")


def open_model_heads(window: MainWindow) -> None:
    """Lessons → Heads of a Real Model…: with the model pack, its heads once they are computed; without,
    the panel as it is (saying how to add the pack)."""
    window.menu_actions["model_heads_action"].trigger()
    controller, panel = window.model_heads, window.model_heads_panel
    _wait(lambda: controller.loading is None and not panel.loading and (panel.model is None or panel.run is not None),
          WAIT_SECONDS["heads"])


def find_induction_heads(window: MainWindow) -> None:
    """The model's heads, then Find heads → Induction heads, once the model has read its random tokens twice."""
    from attn_desktop.ui.pretrained.find_heads_panel import INDUCTION

    open_model_heads(window)
    panel = window.model_heads_panel
    if panel.model is None:
        return  # without the pack: the panel saying how to add it
    panel.tabs.setCurrentIndex(panel.tabs.indexOf(panel.find_scroll))
    panel.find_panel.find_box.setCurrentIndex(INDUCTION)
    induction = panel.induction_panel
    _wait(lambda: induction.is_current(induction.probe), WAIT_SECONDS["heads"])


def heads_question(window: MainWindow, step: Step) -> None:
    """The model's heads, then the Next token tab (and a most-likely token generated), the Logit lens tab once
    it is read, or a head knocked out in the grid once the model has run without it."""
    _model_heads_in_sight(window)
    panel = window.model_heads_panel
    if panel.model is None or panel.run is None:
        return  # without the pack: the panel saying how to add it
    if step.kind == "knock-out":
        _knock_out(window, step)
    elif step.kind == "lens":
        panel.tabs.setCurrentWidget(panel.lens_view)
        _wait(panel.shows_lens_of_run, WAIT_SECONDS["heads"])
    else:
        panel.tabs.setCurrentWidget(panel.next_scroll)
        if step.kind == "generate":
            length = len(panel.run.token_ids)
            panel.next_view.generate_button.click()
            _wait(lambda: len(panel.run.token_ids) == length + 1, WAIT_SECONDS["heads"])


def _model_heads_in_sight(window: MainWindow) -> None:
    """The Model heads panel with its model's run, as a person finds it: a panel in sight is used as it is
    (choosing the menu again would lay the window out again, a layout step the grid's click or Generate is not);
    otherwise Lessons → Heads of a Real Model… first."""
    if not (window.docks[DockId.MODEL_HEADS].isVisible() and window.model_heads_panel.run is not None):
        open_model_heads(window)


def _knock_out(window: MainWindow, step: Step) -> None:
    panel = window.model_heads_panel
    layers, heads = panel.run.layer_count, panel.run.head_count
    if not (step.layer < layers and step.head < heads):
        raise StepError(f"step {step.text!r}: {panel.run.model_name} has layers 0 to {layers - 1} and heads 0 to "
                        f"{heads - 1}")
    panel.tabs.setCurrentIndex(0)
    variations = window.model_heads.variations
    if (step.layer, step.head) not in variations.knocked_out:
        variations.toggle_knock_out(step.layer, step.head)
    _wait(lambda: (step.layer, step.head) in panel.run.knocked_out, WAIT_SECONDS["heads"])


def drag(window: MainWindow, step: Step) -> None:
    """Press on the arrow's tip, move with the button held to (X, Y) of its plot, release."""
    from attn_desktop.ui.tools.synthetic_mouse import drag as mouse_drag
    from attn_desktop.ui.tools.synthetic_mouse import viewport_pos_of

    canvas = window.heads_view.columns[0].canvas if window.showing_heads else window.canvas
    arrows = canvas.arrows[step.role]
    if step.index >= len(arrows):
        raise StepError(f"step {step.text!r}: the canvas has {len(arrows)} {step.role.value} arrows")
    arrow = arrows[step.index]
    if not arrow.isVisible() or arrow.scene() is None:
        raise StepError(f"step {step.text!r}: that arrow is not drawn")
    start, end = viewport_pos_of(arrow, arrow.tip), viewport_pos_of(arrow, QPointF(step.x, step.y))
    if not canvas.viewport().rect().contains(start.toPoint()):
        raise StepError(f"step {step.text!r}: the arrow's tip is out of view")
    mouse_drag(canvas.viewport(), start, end, steps=12)


# ----- Predict, then see ----------------------------------------------------------------------------
def guess(window: MainWindow, step: Step) -> None:
    """Press in the guess bar's column of the weights chart and drag its top to the weight, the button held."""
    from attn_desktop.ui.predict.prediction_controller import Phase
    from attn_desktop.ui.tools.synthetic_mouse import drag as mouse_drag

    if window.predictions.phase is not Phase.GUESSING:
        raise StepError(f"step {step.text!r}: the guess bars come after predict and a drag that changes the weights")
    chart = window.weights_chart
    bars = len(window.predictions.guess)
    if step.index >= bars:
        raise StepError(f"step {step.text!r}: the weights chart has {bars} guess bars (0 to {bars - 1})")
    if not _on_screen(chart):
        raise StepError(f"step {step.text!r}: the weights chart is not in view")
    start, end = _chart_point(chart, step.index, 0.05), _chart_point(chart, step.index, step.weight)
    if not chart.viewport().rect().contains(start.toPoint()):
        raise StepError(f"step {step.text!r}: that bar is out of the chart's view")
    mouse_drag(chart.viewport(), start, end, steps=6)


def _chart_point(chart: QWidget, x: float, y: float) -> QPointF:
    box = chart.getPlotItem().getViewBox()  # type: ignore[attr-defined]
    return QPointF(chart.mapFromScene(box.mapViewToScene(QPointF(x, y))))  # type: ignore[attr-defined]


def reveal(window: MainWindow, step: Step) -> None:
    """Reveal, under the weights chart, once a guess is being made."""
    _click(window.weights_panel.predict_bar.reveal_button, step, "Reveal shows after predict, a drag and a guess")


# ----- the lesson, Training ---------------------------------------------------------------------------
def start_afresh(window: MainWindow, step: Step) -> None:
    _click(window.lesson_panel.fresh_button, step,
           "Start afresh shows when a lesson reopens on the scene left changed in it")


def keep_as_scene(window: MainWindow, step: Step) -> None:
    _click(window.training_panel.keep_button, step, "Keep as scene is in the Training panel (train:TASK:N first)")


def train_knock(window: MainWindow, step: Step) -> None:
    """The Training panel's Knock out switch under a head's square (the two-layer induction task's)."""
    circuit = window.training_panel.circuit
    if circuit is None or not circuit.isVisible():
        raise StepError(f"step {step.text!r}: the Training panel shows knock-out switches while it trains "
                        f"induction (train:induction:N first)")
    box = circuit.knock_out_boxes.get((step.layer, step.head))
    if box is None:
        heads = ", ".join(f"{layer}.{head}" for layer, head in circuit.knock_out_boxes)
        raise StepError(f"step {step.text!r}: the Training panel's heads are {heads}")
    if box.isChecked():
        raise StepError(f"step {step.text!r}: that head is knocked out already")
    if not _reachable(box):
        raise StepError(f"step {step.text!r}: the head's switch is out of the window")
    indicator_x = 8 if box.isLeftToRight() else box.width() - 8  # the switch's box, not the room beside its text
    QTest.mouseClick(box, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(indicator_x,
                                                                                           box.height() // 2))
    if not box.isChecked():
        raise StepError(f"step {step.text!r}: the click did not switch the head off")
    _wait(lambda: circuit.reading is not None, WAIT_SECONDS["train"])


# ----- a real model's heads ---------------------------------------------------------------------------
def open_head(window: MainWindow, step: Step) -> None:
    """The Model heads grid from the keyboard: its current head moved to LAYER.HEAD, then Enter opens it."""
    grid = _model_grid(window, step)
    grid.setFocus()
    grid.set_current(step.layer, step.head)
    QTest.keyClick(grid, Qt.Key.Key_Return)
    _wait_for_opened_head(window, step)


def grid_click(window: MainWindow, step: Step) -> None:
    """The pointer moved onto the head's thumbnail, as a person aims, and clicked where it rests."""
    grid = _model_grid(window, step)
    widget, point = _point_at_head(window, grid, step)
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    _check_head_hit(grid, step)
    _wait_for_opened_head(window, step)


def grid_knock(window: MainWindow, step: Step) -> None:
    """The pointer moved onto the head's thumbnail, a right-click there, and the menu's Knock out chosen."""
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QContextMenuEvent

    from attn_desktop.language import tr

    grid = _model_grid(window, step)
    if (step.layer, step.head) in grid.knocked_out:
        raise StepError(f"step {step.text!r}: that head is knocked out already")
    widget, point = _point_at_head(window, grid, step)
    wanted = tr("Knock out layer {layer}, head {head}").format(layer=step.layer, head=step.head)
    offered: list[str] = []
    finished: list[bool] = []  # the right-click is over: no menu is coming any more

    def choose() -> None:  # the menu runs inside the right-click's event: chosen from once it is up
        if finished:
            return
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(10, choose)
            return
        offered.extend(action.text() for action in menu.actions() if not action.isSeparator())
        action = next((action for action in menu.actions() if action.text() == wanted), None)
        if action is None:
            menu.close()
        else:
            QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                             menu.actionGeometry(action).center())

    QTimer.singleShot(0, choose)
    QTest.mousePress(widget, Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier, point)
    QApplication.sendEvent(widget, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point, widget.mapToGlobal(point)))
    QTest.mouseRelease(widget, Qt.MouseButton.RightButton, Qt.KeyboardModifier.NoModifier, point)
    finished.append(True)
    if wanted not in offered:
        raise StepError(f"step {step.text!r}: the menu under the pointer offered {offered}, not {wanted!r}")
    panel = window.model_heads_panel
    _wait(lambda: (step.layer, step.head) in panel.run.knocked_out, WAIT_SECONDS["heads"])


def _model_grid(window: MainWindow, step: Step) -> Any:
    """The Model heads grid of a run of the model pack, on its tab; StepError without the pack or that head.
    """
    _model_heads_in_sight(window)
    panel = window.model_heads_panel
    if panel.model is None or panel.run is None:
        raise StepError(f"step {step.text!r}: the Model heads panel has no model (the SmolLM2 pack is not installed)")
    layers, heads = panel.run.layer_count, panel.run.head_count
    if not (step.layer < layers and step.head < heads):
        raise StepError(f"step {step.text!r}: {panel.run.model_name} has layers 0 to {layers - 1} and heads 0 to "
                        f"{heads - 1}")
    panel.tabs.setCurrentIndex(0)
    _wait(panel.grid.isVisible, 2.0)
    return panel.grid


def _point_at_head(window: MainWindow, grid: Any, step: Step) -> tuple[QWidget, QPoint]:
    """The widget under the head's thumbnail centre once the pointer rests there, and the point in it: what a
    click lands on after whatever the pointer's arrival moved."""
    from attn_desktop.ui.qt_app import gui_app

    scroll = window.model_heads_panel.grid_scroll
    for _ in range(5):  # until the grid holds still: scrolling can re-lay out the panel, and the cells with it
        cell = grid.cell_rect(step.layer, step.head)
        scroll.ensureVisible(cell.center().x(), cell.center().y(), 0, cell.height())
        gui_app().processEvents()
        _scroll_into_the_window(window, scroll, grid, grid.cell_rect(step.layer, step.head))
        _wait(lambda: False, 0.05)
        if grid.cell_rect(step.layer, step.head) == cell:
            break
    aimed = grid.mapTo(window, grid.cell_rect(step.layer, step.head).center())  # where the eye sees the head
    if not window.rect().contains(aimed):
        raise StepError(f"step {step.text!r}: that head's thumbnail cannot be scrolled into the window")
    QTest.mouseMove(grid, grid.mapFrom(window, aimed))
    _wait(lambda: False, 0.15)  # what the pointer's arrival shows (the head's name over the grid) is laid out
    widget = window.childAt(aimed)
    if widget is not grid:
        found = "nothing" if widget is None else (widget.objectName() or type(widget).__name__)
        raise StepError(f"step {step.text!r}: where the head was, the pointer rests on {found}, not on the grid")
    return widget, widget.mapFrom(window, aimed)


def _scroll_into_the_window(window: MainWindow, scroll: QScrollArea, grid: QWidget, cell: QRect) -> None:
    """Scroll the grid on until the thumbnail is in the part of its view inside the window, as a person does
    when the panel runs past the window's edge."""
    seen = window.rect()  # the viewport as far as its panel, its dock and the window let it be seen
    widget: QWidget | None = scroll.viewport()
    while widget is not None and widget is not window:
        seen &= QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
        widget = widget.parentWidget()
    centre = grid.mapTo(window, cell.center())
    bar = scroll.verticalScrollBar()
    if seen.isEmpty() or seen.top() <= centre.y() <= seen.bottom():
        return
    below = centre.y() - (seen.bottom() - cell.height())  # > 0: under the part in sight
    above = (seen.top() + cell.height()) - centre.y()
    bar.setValue(bar.value() + below if below > 0 else bar.value() - above)


def _check_head_hit(grid: Any, step: Step) -> None:
    if grid.current != (step.layer, step.head):
        layer, head = grid.current
        raise StepError(f"step {step.text!r}: the click landed on layer {layer}, head {head}")


def _wait_for_opened_head(window: MainWindow, step: Step) -> None:
    def opened() -> bool:
        taken = window.scene.taken_from
        return taken is not None and (taken.layer, taken.head) == (step.layer, step.head)

    if not _wait(opened, WAIT_SECONDS["heads"]):
        raise StepError(f"step {step.text!r}: the head did not open in the window")


# ----- the window -------------------------------------------------------------------------------------
def switch_language(window: MainWindow, step: Step) -> None:
    """View → Language → the language, from the menu as it opens."""
    from attn_desktop.ui.window.actions.menu_id import MenuId

    for entry in window.menus[MenuId.VIEW].actions():
        submenu = entry.menu()
        if not isinstance(submenu, QMenu):
            continue
        submenu.aboutToShow.emit()  # the menu fills itself as it opens
        chosen = next((action for action in submenu.actions() if action.data() == step.language), None)
        if chosen is not None:
            chosen.trigger()
            return
    raise StepError(f"step {step.text!r}: View → Language does not offer it")


def resize(window: MainWindow, step: Step) -> None:
    """The window no longer maximised or full screen (presentation mode left), and given this size."""
    if window.presentation_action.isChecked():
        window.presentation_action.setChecked(False)
        # Leaving presentation gives the window back its everyday geometry once the screen has settled: a size
        # given before then was undone by it (the window came back 800 px wide, on a busy machine).
        deadline = time.monotonic() + WAIT_SECONDS_FOR_PRESENTATION
        while window.presentation_mode.settling and time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.01)
    window.showNormal()
    window.resize(step.width, step.height)


def _click(button: QAbstractButton, step: Step, why_not: str) -> None:
    """A click in the middle of BUTTON, as a person's; StepError saying WHY_NOT when it is not there to click."""
    if not button.isEnabled() or not _reachable(button):
        raise StepError(f"step {step.text!r}: {why_not}")
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def _reachable(widget: QWidget) -> bool:
    """Shown, and in the window once its panel is scrolled to it, as a person scrolls to a button below the fold."""
    if not widget.isVisible():
        return False
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea):
            parent.ensureWidgetVisible(widget)
            break
        parent = parent.parentWidget()
    return _on_screen(widget)


MORE_STEPS: dict[str, Callable[[MainWindow, Step], None]] = {
    "guess": guess, "reveal": reveal, "start-afresh": start_afresh, "keep-as-scene": keep_as_scene,
    "train-knock": train_knock, "open-head": open_head, "grid-click": grid_click, "grid-knock": grid_knock,
    "lang": switch_language, "resize": resize,
}


def _wait(done: Callable[[], bool], seconds: float) -> bool:
    """Process events until DONE or SECONDS have passed; whether it was done."""
    from attn_desktop.ui.qt_app import gui_app
    from attn_desktop.ui.tools.interruption import interrupted

    app, deadline = gui_app(), time.monotonic() + seconds
    while not done() and time.monotonic() < deadline and not interrupted():  # Ctrl+C: the walk stops soon
        app.processEvents()
        time.sleep(0.002)
    return done()


def _wait_until_steady(value: Callable[[], object], quiet_seconds: float = 0.2) -> None:
    """Until VALUE stops changing for QUIET_SECONDS (a worker's last updates arrive after a pause)."""
    last = value()
    while _wait(_changed_from(value, last), quiet_seconds):
        last = value()


def _changed_from(value: Callable[[], object], before: object) -> Callable[[], bool]:
    return lambda: value() != before


__all__ = ["headless", "take_step"]
