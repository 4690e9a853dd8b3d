"""One head of a model as a scene: the model's numbers exactly, readable tokens, and the file's "taken_from"."""

import json

import numpy as np
import pytest

from attn_desktop.model import Role, Scene, SceneFileError, read
from attn_desktop.model.files.scene_types import TakenFrom
from attn_desktop.model.pretrained.head_scene import (
    readable_tokens,
    scene_data_for_head,
    taken_from_notice,
)
from attn_desktop.model.scene_files import open_scene, read_scene_data, save_scene, scene_data_from_text, scene_document
from attn_desktop.paths import DEFAULT_SCENE, scene_path

from tests.support.random_model_run import random_model_run


@pytest.fixture(scope="module")
def run():
    return random_model_run()


@pytest.mark.parametrize("layer, head", [(0, 0), (1, 3), (2, 1)])
def test_the_scene_computes_exactly_the_heads_weights(run, layer, head):
    scene = Scene(scene_data_for_head(run, layer, head))
    np.testing.assert_allclose(read(scene).result.weights, run.attention[layer, head], rtol=0, atol=1e-9)
    assert scene.causal and scene.scale and read(scene).key_width == read(scene).value_width == 64
    np.testing.assert_array_equal(read(scene).vectors(Role.QUERY), run.queries[layer, head])
    np.testing.assert_array_equal(read(scene).vectors(Role.KEY), run.keys[layer, head])
    np.testing.assert_array_equal(read(scene).vectors(Role.VALUE), run.values[layer, head])
    # the output is the weights' blend of the values, as the model's head makes it
    np.testing.assert_allclose(read(scene).result.output, run.attention[layer, head] @ run.values[layer, head], atol=1e-9)


def test_the_last_token_is_the_query_and_the_title_names_the_head(run):
    data = scene_data_for_head(run, 1, 3)
    assert data.query_tokens[data.selected] == "tired"
    assert data.title == 'Layer 1, head 3 of TinyRandom-64: \u201cThe cat sat on the mat because it was tired\u201d'
    assert data.taken_from == TakenFrom(model="TinyRandom-64", layer=1, head=3, sentence=run.sentence)


def test_a_head_the_model_does_not_have_is_refused(run):
    with pytest.raises(ValueError, match="no layer 3, head 0"):
        scene_data_for_head(run, 3, 0)
    with pytest.raises(ValueError, match="no layer 0, head 4"):
        scene_data_for_head(run, 0, 4)


def test_heads_wider_than_a_scene_holds_are_refused_with_the_reason():
    with pytest.raises(ValueError, match="128 numbers wide; a scene holds at most 64"):
        scene_data_for_head(random_model_run(width=128, layers=1), 0, 0)


def test_tokens_read_as_words_and_every_name_is_different():
    tokens = ["The", " cat", " sat", " on", " the", " mat", ".", "\n", " ", "   ", "\t", " the", "The", " the"]
    names = readable_tokens(tokens)
    assert names == ["The", "cat", "sat", "on", "the", "mat", ".", "⏎", "␣", "␣␣␣", "⇥", "the₂", "The₂", "the₃"]
    assert len(set(names)) == len(names)


def test_odd_tokens_become_names_a_scene_file_holds():
    tokens = ["x" * 60, "x" * 60, "\x00", "\ud83d", "", " \n", "the₂", " the", " the"]
    names = readable_tokens(tokens)
    assert len(set(names)) == len(names)
    assert names[0] == "x" * 39 + "…" and names[1] == "x" * 38 + "…₂"
    assert names[2] == "\\x00" and names[3] == "\ufffd" and names[4] == "␣" and names[5] == "⏎"
    assert names[6:] == ["the₂", "the", "the₃"]  # a real "the₂" in the sentence is not taken twice
    data = scene_data_for_head(random_model_run(tokens=tokens, layers=1, heads=2), 0, 1)
    assert scene_data_from_text(json.dumps(scene_document(Scene(data)))).tokens == names  # the file takes every name


def test_a_head_scene_round_trips_through_a_file_with_where_it_came_from(run, tmp_path):
    scene = Scene(scene_data_for_head(run, 2, 1))
    path = tmp_path / "head.json"
    save_scene(scene, path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["version"] == 5
    assert saved["taken_from"] == {"model": "TinyRandom-64", "layer": 2, "head": 1, "sentence": run.sentence}
    loaded = open_scene(path)
    assert loaded.taken_from == scene.taken_from and loaded.tokens == scene.tokens and loaded.causal
    np.testing.assert_allclose(read(loaded).result.weights, run.attention[2, 1], rtol=0, atol=1e-9)


def test_an_edited_head_scene_keeps_saying_where_it_came_from(run):
    scene = Scene(scene_data_for_head(run, 0, 0))
    scene.set_vector(Role.KEY, 2, np.zeros(64))
    scene.add_token("extra")
    assert scene.to_data().taken_from == TakenFrom("TinyRandom-64", 0, 0, run.sentence)


def test_files_without_taken_from_are_still_written_at_the_lowest_version(tmp_path):
    scene = open_scene(scene_path(DEFAULT_SCENE))
    assert scene.taken_from is None
    assert scene_document(scene)["version"] == 5 and "taken_from" not in scene_document(scene)


@pytest.mark.parametrize("version", [1, 2])
def test_older_version_files_still_open(version):
    document = json.loads(scene_path(DEFAULT_SCENE).read_text(encoding="utf-8"))
    document["version"] = version
    data = scene_data_from_text(json.dumps(document))
    assert data.taken_from is None and data.tokens[1] == "cat"


def head_document(**changes):
    document = scene_document(Scene(scene_data_for_head(random_model_run(layers=1, heads=2, width=4), 0, 1)))
    document["taken_from"].update(changes)
    return document


def refusal(document) -> str:
    with pytest.raises(SceneFileError) as caught:
        scene_data_from_text(json.dumps(document))
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("changes, expected", [
    ({"model": 3}, "taken_from.model: expected text, found the number 3"),
    ({"model": "  "}, "taken_from.model: the name is empty"),
    ({"model": "m" * 201}, "taken_from.model: longer than 200 characters"),
    ({"layer": -1}, "taken_from.layer: -1 is not a number from 0 to 10,000"),
    ({"layer": 1.5}, "taken_from.layer: expected a whole number, found the number 1.5"),
    ({"head": True}, "taken_from.head: expected a whole number, found true"),
    ({"head": None}, "taken_from.head: expected a whole number, found null"),
    ({"sentence": ["a"]}, "taken_from.sentence: expected text, found a list"),
    ({"sentence": "a" * 10_001}, "taken_from.sentence: longer than 10,000 characters"),
])
def test_a_broken_taken_from_is_refused_in_one_line_naming_the_field(changes, expected):
    assert refusal(head_document(**changes)) == expected


def test_taken_from_needs_version_3_and_an_object_on_a_scene_of_vectors():
    document = head_document()
    assert refusal(dict(document, version=2)).startswith("taken_from: a version 2 file cannot")
    assert refusal(dict(document, taken_from="SmolLM2")) == "taken_from: expected an object, found the text \"SmolLM2\""
    projection = json.loads(scene_path("lessons/2_projections.json").read_text(encoding="utf-8"))
    message = refusal(dict(projection, version=3, taken_from=document["taken_from"]))
    assert message == "taken_from: only a scene of queries, keys and values can be taken from a model"


def test_opening_a_broken_taken_from_names_the_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(head_document(layer="four")), encoding="utf-8")
    with pytest.raises(SceneFileError, match=r"broken\.json: taken_from\.layer: expected a whole number"):
        read_scene_data(path)


def test_the_notice_says_what_the_scene_already_holds():
    text = taken_from_notice(TakenFrom("SmolLM2-135M-Instruct", 4, 7, "The cat"), 64)
    assert "causal mask on" in text and "√64" in text and "RoPE" in text and "SmolLM2-135M-Instruct" in text
    assert text.count(".") == 1  # one sentence
