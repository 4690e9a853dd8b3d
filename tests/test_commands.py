"""Every edit as a command: it does, it undoes exactly, and it names itself — on a bare scene, no Qt."""

import gc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_desktop.model import Change, HeadReading, Role, Scene, ViewState, read
from attn_desktop.model import commands as c
from attn_desktop.model.scene_files import open_reading, open_scene, scene_document
from attn_desktop.model.teaching.exercises import ShowMe
from attn_desktop.paths import DEFAULT_SCENE, scene_path


def cat_scene() -> Scene:
    return open_scene(scene_path(DEFAULT_SCENE))  # The cat sat on the mat


def cat_reading() -> HeadReading:
    return open_reading(scene_path(DEFAULT_SCENE))  # the same, looked at with the query its file chose: "sat"


def projection_scene() -> Scene:
    return open_scene(scene_path("lessons/2_projections.json"))


def same(a: Scene, b: Scene) -> bool:
    return scene_document(a) == scene_document(b)


class Notes:
    """A subscriber that keeps what it was told."""

    def __init__(self, scene: Scene) -> None:
        self.changes: list[Change] = []
        scene.subscribe(self.heard)

    def heard(self, change: Change) -> None:
        self.changes.append(change)


def test_moving_an_arrow_names_it_and_undoes_to_the_same_numbers():
    shown, start = cat_reading(), cat_scene()
    scene = shown.scene
    before = shown.vectors(Role.KEY)[1].copy()
    command = c.move_arrow(shown, Role.KEY, 1, before, after=[1.25, -0.5])
    assert command.text == "Move k·cat"
    command.do(scene, shown.view)
    assert shown.vectors(Role.KEY)[1].tolist() == [1.25, -0.5]
    command.undo(scene, shown.view)
    assert same(scene, start)


def test_a_drag_of_a_query_arrow_chooses_it_and_its_undo_chooses_the_earlier_query_again():
    shown = cat_reading()
    scene = shown.scene
    assert shown.selected_token == "sat"
    before = shown.vectors(Role.QUERY)[1].copy()
    chosen_before = shown.selected
    shown.select_query(1)  # what pressing on q·cat does
    scene.set_vector(Role.QUERY, 1, [0.5, 0.5])  # ...and the live drag
    command = c.move_arrow(shown, Role.QUERY, 1, before, chosen_before=chosen_before)
    assert (command.chosen_before, command.chosen_after) == (2, 1)
    command.undo(scene, shown.view)
    assert shown.selected_token == "sat" and shown.vectors(Role.QUERY)[1].tolist() == before.tolist()
    command.do(scene, shown.view)
    assert shown.selected_token == "cat" and shown.vectors(Role.QUERY)[1].tolist() == [0.5, 0.5]


def test_undo_leaves_a_query_the_user_chose_since_alone():
    shown = cat_reading()
    scene = shown.scene
    before = shown.vectors(Role.QUERY)[1].copy()
    shown.select_query(1)
    scene.set_vector(Role.QUERY, 1, [0.5, 0.5])
    command = c.move_arrow(shown, Role.QUERY, 1, before, chosen_before=2)
    shown.select_query(4)  # the student looks at another query before pressing Ctrl+Z
    command.undo(scene, shown.view)
    assert shown.selected == 4


def test_a_command_that_moves_and_chooses_never_shows_a_view_half_of_it():
    shown = cat_reading()
    scene = shown.scene
    command = c.move_arrow(shown, Role.QUERY, 0, shown.vectors(Role.QUERY)[0], after=[2.0, 0.0], chosen_before=2)
    command = c.MoveArrow(**{**command.__dict__, "chosen_after": 0})
    reading, seen = shown, []
    reading.subscribe(lambda change: seen.append((change, reading.selected, reading.vectors(Role.QUERY)[0].tolist())))
    command.do(scene, shown.view)
    # The scene's change and the view's choice reach a panel as two notes at most, and the first already
    # shows both: a panel never draws the moved arrow with the query chosen before.
    assert 1 <= len(seen) <= 2 and all((query, vector) == (0, [2.0, 0.0]) for _, query, vector in seen)
    changes = Change(0)
    for change, *_ in seen:
        changes |= change
    assert changes == Change.VECTORS | Change.SELECTION


def test_nudges_of_one_arrow_merge_and_other_moves_do_not():
    shown = cat_reading()
    start = tuple(shown.vectors(Role.KEY)[0])
    first = c.move_arrow(shown, Role.KEY, 0, start, after=(start[0] + 0.1, start[1]), nudge=True)
    second = c.move_arrow(shown, Role.KEY, 0, first.after, after=(start[0] + 0.2, start[1]), nudge=True)
    merged = first.merged_with(second)
    assert merged is not None and merged.before == start and merged.after == second.after
    assert merged.text == "Move k·The"
    other_arrow = c.move_arrow(shown, Role.KEY, 1, shown.vectors(Role.KEY)[1], after=(0, 0), nudge=True)
    assert first.merged_with(other_arrow) is None
    a_drag = c.move_arrow(shown, Role.KEY, 0, first.after, after=(3, 3))
    assert first.merged_with(a_drag) is None and a_drag.merged_with(first) is None
    back_again = c.move_arrow(shown, Role.KEY, 0, second.after, after=start, nudge=True)
    assert first.merged_with(back_again).changes_nothing


def test_refused_numbers_raise_and_change_nothing():
    shown, start = cat_reading(), cat_scene()
    scene = shown.scene
    for bad in ([float("nan"), 0.0], [1e300, 0.0], [1.0]):
        with pytest.raises(ValueError):
            c.move_arrow(shown, Role.KEY, 0, shown.vectors(Role.KEY)[0], after=bad).do(scene, shown.view)
    with pytest.raises(ValueError):
        c.set_grid_cell(projection_scene(), "w_q", 0, 0, float("inf")).do(scene, shown.view)
    assert same(scene, start)


def test_switches_name_themselves_and_undo_to_what_was_there():
    shown = cat_reading()
    scene = shown.scene
    assert scene.scale
    off = c.switch(scene, "scale", False)
    assert off.text == "Scaling off"
    off.do(scene, shown.view)
    assert not scene.scale
    off.undo(scene, shown.view)
    assert scene.scale
    assert c.switch(scene, "scale", True).changes_nothing
    causal = c.switch(scene, "causal", True)
    causal.do(scene, shown.view)
    assert causal.text == "Causal mask on" and shown.result.weights[0, 1] == 0
    with pytest.raises(ValueError, match="no setting"):
        c.switch(scene, "colour", True)


def test_grid_cells_and_grids_off_in_a_projection_scene():
    scene, start = projection_scene(), projection_scene()
    cell = c.set_grid_cell(scene, "w_q", 0, 1, 2.5)
    assert cell.text == "Edit W_Q"
    cell.do(scene, ViewState())
    assert read(scene).grids["w_q"][0, 1] == 2.5
    grids_off = c.switch(scene, "use_grids", False)
    assert grids_off.text == "No grids"
    grids_off.do(scene, ViewState())
    np.testing.assert_array_equal(read(scene).vectors(Role.QUERY), scene.vectors(Role.EMBEDDING))
    grids_off.undo(scene, ViewState())
    cell.undo(scene, ViewState())
    assert same(scene, start)


def test_a_removed_token_comes_back_with_its_own_vectors_and_the_chosen_query():
    shown, start = cat_reading(), cat_scene()
    scene = shown.scene
    remove = c.remove_token(scene, 2)  # "sat", the chosen query
    remove.do(scene, shown.view)
    assert remove.text == "Remove token “sat”" and "sat" not in scene.tokens
    remove.undo(scene, shown.view)
    assert same(scene, start) and shown.selected_token == "sat"


def test_an_added_token_comes_back_on_redo_with_the_vectors_it_had():
    shown = cat_reading()
    scene = shown.scene
    add = c.AddToken("  dog ")
    add.do(scene, shown.view)
    assert add.text == "Add token “dog”" and scene.tokens[-1] == "dog"
    scene_after = scene_document(scene)
    add.undo(scene, shown.view)
    assert scene.tokens == ["The", "cat", "sat", "on", "the", "mat"]
    add.do(scene, shown.view)
    assert scene_document(scene) == scene_after


def test_rename_and_reorder_undo():
    shown, start = cat_reading(), cat_scene()
    scene = shown.scene
    rename = c.rename_token(scene, 5, "rug")
    assert rename.text == "Rename “mat” to “rug”"
    rename.do(scene, shown.view)
    move = c.MoveToken(0, 3)
    move.do(scene, shown.view)
    assert scene.tokens == ["cat", "sat", "on", "The", "the", "rug"]
    move.undo(scene, shown.view)
    rename.undo(scene, shown.view)
    assert same(scene, start)
    assert c.rename_token(scene, 0, " The ").changes_nothing and c.MoveToken(2, 2).changes_nothing


def test_show_me_replaces_the_scene_as_one_step_and_undo_gives_back_the_students_work():
    from attn_desktop.model.teaching.exercises import apply_steps

    shown = cat_reading()
    scene = shown.scene
    scene.set_vector(Role.KEY, 0, [3.0, 3.0])  # the student's own work
    mine = scene.to_data()
    lesson = open_scene(scene_path("lessons/2_projections.json"))
    show_me = ShowMe("lessons/2_projections.json")
    apply_steps(lesson, ViewState(), show_me.steps)
    command = c.ReplaceContents(mine, lesson.to_data(), "Show me")
    notes = Notes(scene)
    command.do(scene, shown.view)
    assert scene.is_draggable(Role.EMBEDDING) and len(notes.changes) == 1
    command.undo(scene, shown.view)
    assert scene.to_data().keys == mine.keys and scene.tokens == mine.tokens


def test_run_now_runs_a_command_on_a_bare_scene():
    shown = cat_reading()
    scene = shown.scene
    c.RunNow(scene, shown.view).do(c.switch(scene, "scale", False))
    assert not scene.scale


def test_a_view_that_is_gone_is_no_longer_told():
    shown = cat_reading()
    scene = shown.scene
    notes = Notes(scene)
    assert scene.subscriber_count == 1
    del notes
    gc.collect()
    scene.set_scale(False)  # must not call into a view that no longer exists
    assert scene.subscriber_count == 0


def test_unsubscribing_stops_notifications_and_is_safe_twice():
    shown = cat_reading()
    scene = shown.scene
    heard = []
    unsubscribe = scene.subscribe(heard.append)
    scene.set_scale(False)
    unsubscribe()
    unsubscribe()
    scene.set_scale(True)
    assert heard == [Change.SETTINGS]


EDITS = st.one_of(
    st.tuples(st.just("move"), st.sampled_from([Role.QUERY, Role.KEY, Role.VALUE]), st.integers(0, 5),
              st.tuples(st.floats(-5, 5), st.floats(-5, 5))),
    st.tuples(st.just("switch"), st.sampled_from(["scale", "causal"]), st.booleans()),
    st.tuples(st.just("add"), st.text("abcxyz", min_size=1, max_size=4)),
    st.tuples(st.just("remove"), st.integers(0, 5)),
    st.tuples(st.just("rename"), st.integers(0, 5), st.text("mnop", min_size=1, max_size=3)),
    st.tuples(st.just("reorder"), st.integers(0, 5), st.integers(0, 5)),
)


def command_for(scene: Scene, edit: tuple) -> c.Command | None:
    kind, *args = edit
    n = scene.n_tokens
    if kind == "move":
        role, index, tip = args
        row = scene.vectors(role)[index % n]
        return c.move_arrow(read(scene), role, index % n, row, after=[*tip, *row[2:]][: len(row)])
    if kind == "switch":
        return c.switch(scene, *args)
    if kind == "add":
        return c.AddToken(args[0])
    if kind == "remove":
        return c.remove_token(scene, args[0] % n) if n > 1 else None
    if kind == "rename":
        return c.rename_token(scene, args[0] % n, args[1])
    return c.MoveToken(args[0] % n, args[1] % n)


@settings(max_examples=60, deadline=None)
@given(st.lists(EDITS, max_size=12))
def test_any_run_of_edits_undone_in_reverse_gives_back_the_exact_scene(edits):
    scene, start = cat_scene(), scene_document(cat_scene())
    done = []
    for edit in edits:
        command = command_for(scene, edit)
        if command is None:
            continue
        snapshot = scene_document(scene)
        try:
            command.do(scene, ViewState())
        except ValueError:
            assert scene_document(scene) == snapshot  # refused: nothing changed
            continue
        done.append((command, scene_document(scene)))
    for command, after in reversed(done):
        assert scene_document(scene) == after
        command.undo(scene, ViewState())
    assert {k: v for k, v in scene_document(scene).items() if k != "selected"} == {
        k: v for k, v in start.items() if k != "selected"}
