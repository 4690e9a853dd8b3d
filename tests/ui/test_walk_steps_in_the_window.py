"""The steps of a walk taken in the real window: what each leaves behind."""

import numpy as np

from attn_desktop.model import Role
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.tools.walk import headless, take_step
from attn_desktop.ui.tools.walk_steps import parse_steps

from tests.support.in_the_window import settle_layout


def walk(qtbot, window, steps: str):
    headless(window)
    for step in parse_steps(steps):
        window = take_step(window, step, lambda shown: settle_layout(qtbot, shown), lambda gone: None)
    return window


def test_a_drag_moves_the_tip_with_real_mouse_events_and_undo_takes_it_back(qtbot, window):
    before = window.scene.vectors(Role.KEY)[1].copy()
    walk(qtbot, window, "drag:k:1:1.5:-1")
    assert np.allclose(window.scene.vectors(Role.KEY)[1], [1.5, -1.0], atol=0.1)
    assert window.history.stack.count() == 1  # one drag, one undo step
    walk(qtbot, window, "undo")
    assert np.allclose(window.scene.vectors(Role.KEY)[1], before)


def test_training_takes_exactly_the_steps_asked_and_the_window_shows_the_head(qtbot, window):
    walk(qtbot, window, "train:reverse:30")
    assert window.training_panel.steps_taken == 30
    assert window.training.showing and not window.training_panel.is_running


def test_presenting_and_back_and_the_lab_and_predict(qtbot, window):
    walk(qtbot, window, "present")
    assert window.presentation_action.isChecked()
    walk(qtbot, window, "unpresent,lab")
    assert not window.presentation_action.isChecked()
    assert window.docks[DockId.SCALING_LAB].isVisible()
    walk(qtbot, window, "positions-lab")  # one lab at a time: the other makes way
    assert window.docks[DockId.POSITIONS_LAB].isVisible() and not window.docks[DockId.SCALING_LAB].isVisible()
    walk(qtbot, window, "predict,reset-layout")
    assert window.predict_action.isChecked()
