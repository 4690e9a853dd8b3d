"""What the user looks at is the view's, not the document's: the chosen query, the shown head, the key
pointed at and the veil. Edits keep a view's chosen query on its token; a file keeps the choice."""

from __future__ import annotations

import json

import pytest

from attn_desktop.model import HeadReading, Role, Scene, ViewState, read
from attn_desktop.model import commands as c
from attn_desktop.model.scene_files import open_reading, open_scene, save_scene
from attn_desktop.paths import DEFAULT_SCENE, scene_path

SAT, MAT = 2, 5  # rows of the cat sentence: "The cat sat on the mat"


def cat_scene() -> Scene:
    return open_scene(scene_path(DEFAULT_SCENE))


def test_the_scene_keeps_no_choice_of_its_own():
    scene = cat_scene()
    assert not any(hasattr(scene, name) for name in ("selected", "select_query", "selected_token", "shown_head"))


def test_two_views_of_one_scene_choose_their_own_queries():
    scene = cat_scene()
    left, right = HeadReading(scene, ViewState()), HeadReading(scene, ViewState())
    left.select_query(1)
    right.select_query(MAT)
    assert (left.selected_token, right.selected_token) == ("cat", "mat")
    assert list(left.selected_weights) != list(right.selected_weights)


def test_choosing_a_query_that_is_not_there_is_refused_and_changes_nothing():
    reading = open_reading(scene_path(DEFAULT_SCENE))  # "sat" chosen
    with pytest.raises(IndexError, match="no query 6"):
        reading.select_query(6)
    assert reading.selected_token == "sat"


def test_removing_a_token_keeps_each_views_query_on_its_token():
    scene, view = cat_scene(), ViewState()
    view.select_query(MAT)
    removal = c.remove_token(scene, 0)
    removal.do(scene, view)
    assert scene.query_tokens[view.query] == "mat"
    removal.undo(scene, view)
    assert scene.query_tokens[view.query] == "mat" and scene.n_tokens == 6


def test_removing_the_chosen_token_passes_the_choice_to_the_one_before_it_at_the_end():
    scene, view = cat_scene(), ViewState()
    view.select_query(MAT)
    c.remove_token(scene, MAT).do(scene, view)
    assert scene.query_tokens[view.query] == "the"


def test_a_saved_scene_reopens_on_the_query_its_view_had_chosen(tmp_path):
    reading = read(cat_scene())
    reading.select_query(MAT)
    save_scene(reading.scene, tmp_path / "mine.json", reading.view)
    assert json.loads((tmp_path / "mine.json").read_text(encoding="utf-8"))["selected"] == MAT
    assert open_reading(tmp_path / "mine.json").selected_token == "mat"


def test_a_scene_saved_without_a_view_keeps_the_first_query(tmp_path):
    save_scene(cat_scene(), tmp_path / "mine.json")
    assert json.loads((tmp_path / "mine.json").read_text(encoding="utf-8"))["selected"] == 0


def test_undoing_a_move_leaves_the_choice_where_the_user_put_it():
    scene = cat_scene()
    reading = read(scene)
    move = c.move_arrow(reading, Role.KEY, 1, reading.vectors(Role.KEY)[1], after=[0.0, 0.0])
    move.do(scene, reading.view)
    reading.select_query(MAT)
    move.undo(scene, reading.view)
    assert reading.selected_token == "mat" and reading.vectors(Role.KEY)[1].tolist() == [2.2, 1.0]


def test_read_looks_through_a_view_of_its_own_and_a_file_hands_its_choice_to_the_view_given():
    scene = cat_scene()  # no view given: the file's choice ("sat") is not wanted
    first, second = read(scene), read(scene)
    first.select_query(MAT)
    assert second.selected == 0 and first.view is not second.view
    view = ViewState()
    open_scene(scene_path(DEFAULT_SCENE), view)
    assert view.query == SAT
