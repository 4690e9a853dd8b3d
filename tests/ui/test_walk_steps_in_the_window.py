"""The steps of a walk taken in the real window: what each leaves behind."""

import numpy as np
import pytest

from attn_desktop.model import Role
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.ui.tools.walk import headless, take_step
from attn_desktop.ui.tools.walk_steps import StepError, parse_steps
from attn_desktop.ui.window.actions.menu_id import MenuId

from tests.support.in_the_window import POPUP_WARNING, settle_layout


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


# ----- the steps issue 42 added ---------------------------------------------------------------------
def test_a_guess_bar_dragged_with_the_mouse_then_reveal_scores_the_round(qtbot, window):
    from attn_desktop.ui.predict.prediction_controller import Phase

    with pytest.raises(StepError, match="'guess:1:0.6'"):
        walk(qtbot, window, "predict,guess:1:0.6")  # no drag yet: nothing to guess
    with pytest.raises(StepError, match="'reveal'"):
        walk(qtbot, window, "reveal")
    walk(qtbot, window, "drag:k:1:1.5:-1,guess:1:0.6")
    predictions = window.predictions
    assert predictions.phase is Phase.GUESSING
    assert predictions.guess[1] == pytest.approx(0.6, abs=0.06)  # where the mouse let go of the bar
    with pytest.raises(StepError, match="guess bars"):
        walk(qtbot, window, f"guess:{len(predictions.guess)}:0.5")
    walk(qtbot, window, "reveal")
    assert predictions.phase is Phase.REVEALED and predictions.last is not None


def test_start_afresh_brings_back_the_lessons_scene_left_changed(qtbot, window):
    with pytest.raises(StepError, match="'start-afresh'"):
        walk(qtbot, window, "lesson:scaled-attention,start-afresh")  # the lesson as it comes: nothing to undo
    as_it_comes = window.scene.vectors(Role.KEY).copy()
    walk(qtbot, window, "drag:k:1:1.5:0.5,lesson:projections,lesson:scaled-attention")
    assert not np.allclose(window.scene.vectors(Role.KEY), as_it_comes)
    walk(qtbot, window, "start-afresh")
    assert np.allclose(window.scene.vectors(Role.KEY), as_it_comes)
    assert not window.lesson_panel.kept_bar.isVisible()


def test_keep_as_scene_opens_the_trained_head_as_a_scene_of_its_own(qtbot, window):
    with pytest.raises(StepError, match="'keep-as-scene'"):
        walk(qtbot, window, "keep-as-scene")  # no Training panel yet
    walk(qtbot, window, "train:reverse:20")
    assert window.training.showing
    walk(qtbot, window, "keep-as-scene")
    assert not window.training.showing and not window.training_panel.is_running


def test_train_knock_switches_a_head_off_in_the_training_panel(qtbot, window):
    with pytest.raises(StepError, match="train:induction"):
        walk(qtbot, window, "train-knock:0.0")
    walk(qtbot, window, "train:induction:5,train-knock:1.0")
    circuit = window.training_panel.circuit
    assert circuit.knocked_out == {(1, 0)}
    with pytest.raises(StepError, match="already"):
        walk(qtbot, window, "train-knock:1.0")
    with pytest.raises(StepError, match="0.0, 1.0"):
        walk(qtbot, window, "train-knock:2.0")


def test_the_language_switches_live_from_the_view_menu_and_back(qtbot, window):
    from attn_desktop.language import current_language

    walk(qtbot, window, "lang:es")
    assert current_language() == "es" and window.menus[MenuId.VIEW].title().replace("&", "") == "Ver"
    walk(qtbot, window, "lang:en")
    assert current_language() == "en" and window.menus[MenuId.VIEW].title().replace("&", "") == "View"


def test_resize_gives_the_window_that_size_and_leaves_presentation(qtbot, window):
    walk(qtbot, window, "present,resize:1024x768")
    assert not window.presentation_action.isChecked()
    assert (window.width(), window.height()) == (1024, 768)


# ----- the Model heads grid, with the tiny model in the pack's place ------------------------------
@pytest.mark.qt_log_ignore(POPUP_WARNING)
def test_open_head_grid_click_and_grid_knock_act_on_exactly_that_head(qtbot, window, pack_is_tiny):
    walk(qtbot, window, "open-head:1.2")
    assert (window.scene.taken_from.layer, window.scene.taken_from.head) == (1, 2)
    walk(qtbot, window, "grid-click:0.3")
    assert (window.scene.taken_from.layer, window.scene.taken_from.head) == (0, 3)
    assert window.model_heads_panel.grid.current == (0, 3)
    walk(qtbot, window, "grid-knock:1.1")
    assert window.model_heads_panel.run.knocked_out == frozenset({(1, 1)})
    with pytest.raises(StepError, match="already"):
        walk(qtbot, window, "grid-knock:1.1")
    with pytest.raises(StepError, match="layers 0 to 1 and heads 0 to 3"):
        walk(qtbot, window, "grid-click:2.0")


@pytest.mark.qt_log_ignore(POPUP_WARNING)
def test_the_model_steps_use_the_panel_in_sight_as_a_person_does(qtbot, window, pack_is_tiny):
    """Once the Model heads panel shows its model, a click on the grid, a knock-out there and Generate use it as
    it is: choosing Lessons → Heads of a Real Model… again lays the window out again, a layout step of its own
    (it moved the bottom row in the real model's walk from lesson 10)."""
    walk(qtbot, window, "heads")
    chosen = []
    window.menu_actions["model_heads_action"].triggered.connect(lambda: chosen.append(True))
    walk(qtbot, window, "open-head:1.2,grid-click:0.3,grid-knock:1.1,generate,knock-out:0.1")
    assert chosen == []
    window.docks[DockId.MODEL_HEADS].close()  # closed by the teacher: the menu brings it back
    walk(qtbot, window, "grid-click:0.2")
    assert chosen == [True] and (window.scene.taken_from.layer, window.scene.taken_from.head) == (0, 2)


def test_the_grid_steps_need_a_model(qtbot, window, monkeypatch):
    from attn_desktop.model.pretrained import pack

    def missing():
        raise pack.ModelUnavailable("no pack here")

    monkeypatch.setattr(pack, "find_pack_model", missing)
    with pytest.raises(StepError, match="'open-head:0.0'.*no model"):
        walk(qtbot, window, "open-head:0.0")
