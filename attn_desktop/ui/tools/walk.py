"""A teacher's walk through the real window: the steps of `attn-desktop snapshot --steps`, each taken as
a person takes it (the menu's own handlers, real mouse events for a drag), the window audited after each.

A restart quits as a person does (the window's state saved, a lesson's scene kept) and starts the app as
`attn-desktop` starts, restoring them from the snapshot's own user folder (never the user's).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF

from attn_desktop.ui.tools.walk_steps import Step, StepError

if TYPE_CHECKING:  # the window a walk is handed (the app loads only when a walk starts)
    from attn_desktop.ui.window.main_window import MainWindow

WAIT_SECONDS = {"train": 120.0, "heads": 120.0}  # a walk gives up on a step that never finishes
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
    elif step.kind == "undo":
        if not window.undo_action.isEnabled():
            raise StepError(f"step {step.text!r}: nothing to undo")
        window.undo_action.trigger()
    elif step.kind == "drag":
        settle(window)  # the arrows where a person sees them before the hand moves
        drag(window, step)
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
    open_model_heads(window)
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


def _wait(done: Callable[[], bool], seconds: float) -> bool:
    """Process events until DONE or SECONDS have passed; whether it was done."""
    from attn_desktop.ui.qt_app import gui_app

    app, deadline = gui_app(), time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
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
