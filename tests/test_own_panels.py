"""A lesson file's own panels, declared like any activity's: in the window and presenting, as the screen allows,
less the panels its hidden controls take away."""

from attn_desktop.model.teaching.dock_id import DockId
from attn_desktop.model.teaching.panel_sets import ONE_HEAD_PANELS, Activity, OwnPanels, panels_shown

OWN = OwnPanels(window=frozenset({DockId.LESSON, DockId.MATRIX, DockId.SHAPES, DockId.CODE}),
                presenting=frozenset({DockId.MATRIX}), hidden=frozenset({DockId.CODE, DockId.SENTENCE}))


def test_a_lesson_files_panels_replace_the_design_less_the_hidden():
    assert panels_shown(Activity(own=OWN), presenting=False) == {DockId.LESSON, DockId.MATRIX, DockId.SHAPES}
    assert panels_shown(Activity(own=OWN), presenting=True) == {DockId.MATRIX}


def test_none_named_is_the_designs_choice_less_the_hidden():
    hidden_only = OwnPanels(hidden=OWN.hidden)
    designed = panels_shown(Activity(), presenting=False)
    assert panels_shown(Activity(own=hidden_only), presenting=False) == designed - OWN.hidden
    assert panels_shown(Activity(own=hidden_only), presenting=True) == panels_shown(Activity(), presenting=True)


def test_the_screen_still_has_its_say():
    with_grids = OwnPanels(window=frozenset({DockId.MATRIX, DockId.SHAPES, DockId.GRIDS}))
    small = panels_shown(Activity(own=with_grids, small_screen=True), presenting=False)
    assert small == {DockId.MATRIX, DockId.GRIDS}  # the grids say the shapes on a small screen
    assert panels_shown(Activity(own=OWN, small_screen=True), presenting=False) >= {DockId.SHAPES}  # no grids there
    assert panels_shown(Activity(own=with_grids, grids=False), presenting=False) == {DockId.MATRIX, DockId.SHAPES}
    assert not panels_shown(Activity(own=with_grids, several_heads=True), presenting=False) & set(ONE_HEAD_PANELS)
    assert DockId.WEIGHTS in panels_shown(Activity(own=OWN, predicting=True), presenting=True)  # the class guesses
