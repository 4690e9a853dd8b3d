"""Editing the sentence in the model: tokens added, removed, renamed and reordered with their vectors."""

import numpy as np
import pytest

from attn_desktop.model import Role, Scene, read
from attn_desktop.model import commands as c
from attn_desktop.model.scene_files import open_reading, open_scene, scene_document, scene_from_document
from attn_desktop.paths import DEFAULT_SCENE, scene_path


def scene(name=DEFAULT_SCENE) -> Scene:
    return open_scene(scene_path(name))


def test_adding_a_token_gives_it_new_vectors_and_a_row_and_column():
    s = scene()
    s.add_token("dog")
    assert s.tokens[-1] == "dog" and s.query_tokens == s.tokens
    assert read(s).result.weights.shape == (7, 7)
    new_key = read(s).vectors(Role.KEY)[-1]
    assert np.isclose(np.linalg.norm(new_key), 1.0)
    assert not any(np.allclose(new_key, other) for other in read(s).vectors(Role.KEY)[:-1])
    np.testing.assert_allclose(read(s).result.weights.sum(axis=1), 1.0, atol=1e-12)


def test_removing_a_token_keeps_the_chosen_query():
    shown = open_reading(scene_path(DEFAULT_SCENE))  # "sat" chosen
    s = shown.scene
    c.remove_token(s, 0).do(s, shown.view)  # "The", before the chosen "sat"
    assert s.tokens == ["cat", "sat", "on", "the", "mat"] and shown.selected_token == "sat"
    assert read(s).vectors(Role.KEY).shape == (5, 2)


def test_the_last_token_cannot_go():
    s = scene_from_document({"tokens": ["a"], "queries": [[1, 0]], "keys": [[1, 0]], "values": [[1]]})
    with pytest.raises(ValueError, match="at least one token"):
        s.remove_token(0)


def test_renaming_and_bad_names():
    s = scene()
    s.rename_token(5, "rug")
    assert s.tokens[5] == "rug" and s.query_tokens[5] == "rug"
    with pytest.raises(ValueError, match="needs a name"):
        s.rename_token(0, "   ")
    with pytest.raises(ValueError, match="limited to 40"):
        s.rename_token(0, "x" * 41)


def test_reordering_moves_every_vector_with_its_token():
    shown = open_reading(scene_path(DEFAULT_SCENE))  # "sat" chosen
    s = shown.scene
    cat_key = shown.vectors(Role.KEY)[1].copy()
    c.MoveToken(1, 4).do(s, shown.view)
    assert s.tokens == ["The", "sat", "on", "the", "cat", "mat"]
    assert shown.vectors(Role.KEY)[4].tolist() == cat_key.tolist()
    assert shown.selected_token == "sat"
    assert [round(w * 100) for w in shown.selected_weights] == [0, 6, 1, 0, 76, 17]


def test_sentence_edits_in_cross_attention_and_projection_scenes():
    lookup = scene("lessons/1_soft_lookup.json")
    lookup.add_token("fig")
    assert lookup.query_tokens == ["ask"] and read(lookup).vectors(Role.VALUE)[-1].tolist() == [4.0]  # the mean value
    projection = scene("lessons/2_projections.json")
    projection.add_token("dog")
    assert projection.vectors(Role.EMBEDDING).shape == (4, 2) and read(projection).vectors(Role.QUERY).shape == (4, 2)
    assert scene_document(projection)["tokens"][-1] == "dog"
