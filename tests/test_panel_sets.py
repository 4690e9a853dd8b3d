"""The panels the window shows are declared for each activity, in and out of presentation mode."""

from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.panel_sets import (
    COMPANION_PANELS,
    ONE_HEAD_PANELS,
    READING_PANELS,
    Activity,
    panels_shown,
)


def test_a_one_head_scene_shows_the_reading_and_every_one_head_panel():
    assert panels_shown(Activity(), presenting=False) == frozenset(READING_PANELS + ONE_HEAD_PANELS)


def test_several_heads_show_no_one_head_panel_and_presenting_them_shows_no_panel_at_all():
    assert not panels_shown(Activity(several_heads=True), presenting=False) & set(ONE_HEAD_PANELS)
    assert panels_shown(Activity(several_heads=True), presenting=True) == frozenset()


def test_presenting_shows_the_numbers_and_hides_the_reading():
    shown = panels_shown(Activity(), presenting=True)
    assert {DockId.SCORE, DockId.MATRIX, DockId.OUTPUT, DockId.WEIGHTS} <= shown
    assert not shown & set(READING_PANELS) and DockId.SHAPES not in shown


def test_only_the_activitys_own_companion_is_shown():
    for companion in COMPANION_PANELS:
        for presenting in (False, True):
            shown = panels_shown(Activity(companion=companion), presenting)
            assert companion in shown and not shown & (set(COMPANION_PANELS) - {companion})
    assert not panels_shown(Activity(), presenting=True) & set(COMPANION_PANELS)


def test_presenting_shows_the_panels_of_the_lessons_subject_where_they_apply():
    about_grids = Activity(subject=frozenset({DockId.GRIDS}), small_screen=True)
    assert DockId.GRIDS in panels_shown(about_grids, presenting=True)  # lesson 2's W_Q, W_K, W_V
    assert DockId.GRIDS not in panels_shown(Activity(small_screen=True), presenting=True)
    no_grids = Activity(subject=frozenset({DockId.GRIDS}), grids=False)  # "No grids" ticked: nothing to show
    assert DockId.GRIDS not in panels_shown(no_grids, presenting=True)
    several = Activity(subject=frozenset({DockId.GRIDS}), several_heads=True)  # the heads view shows the heads
    assert DockId.GRIDS not in panels_shown(several, presenting=True)
    assert lessons.lesson("projections").presents == (DockId.GRIDS,)


def test_training_on_a_projector_gives_the_grids_row_to_the_plots():
    """Training rewrites W_Q, W_K and W_V at every step; on a 1024 × 768 screen their row cost the three plots
    their 200 px (the classroom walk "training induction" found 145-px plots once a reverse head was shown)."""
    training = Activity(companion=DockId.TRAINING, grids=True, small_screen=True)
    assert DockId.GRIDS not in panels_shown(training, presenting=False)
    assert DockId.GRIDS in panels_shown(Activity(companion=DockId.TRAINING, grids=True), presenting=False)
