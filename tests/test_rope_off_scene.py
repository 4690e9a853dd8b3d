"""A head opened as a scene with RoPE off: its q and k from before the turns, the scene's own attention the
pattern without them, a title and a notice that say so, and a file that reopens still off (a bad "rope": one
clear line)."""

import json

import numpy as np
import pytest

from attn_desktop.model import Role, Scene, SceneFileError, read
from attn_desktop.model.files.scene_types import TakenFrom
from attn_desktop.model.pretrained.head_scene import is_taken_from, scene_data_for_head, taken_from_notice
from attn_desktop.model.scene_files import open_scene, save_scene, scene_data_from_text, scene_document

from tests.support.random_model_run import random_model_run

LAYER, HEAD = 2, 1


@pytest.fixture(scope="module")
def run():
    return random_model_run(model_name="SmolLM2-135M-Instruct")


def test_with_rope_off_the_scene_holds_the_unturned_q_and_k_and_computes_the_pattern_without_rope(run):
    scene = Scene(scene_data_for_head(run, LAYER, HEAD, rope=False))
    reading = read(scene)
    np.testing.assert_array_equal(reading.vectors(Role.QUERY), run.unturned_queries[LAYER, HEAD])
    np.testing.assert_array_equal(reading.vectors(Role.KEY), run.unturned_keys[LAYER, HEAD])
    np.testing.assert_array_equal(reading.vectors(Role.VALUE), run.values[LAYER, HEAD])
    np.testing.assert_allclose(reading.result.weights, run.attention_without_rope(LAYER)[HEAD], rtol=0, atol=1e-12)
    assert not np.allclose(reading.result.weights, run.attention[LAYER, HEAD], atol=1e-3)
    assert scene.causal and scene.scale


def test_the_title_and_where_it_came_from_say_rope_off(run):
    off, on = scene_data_for_head(run, LAYER, HEAD, rope=False), scene_data_for_head(run, LAYER, HEAD)
    assert off.title.startswith("Layer 2, head 1 of SmolLM2-135M-Instruct (RoPE off): \u201cThe cat")
    assert "RoPE" not in on.title
    assert off.taken_from == TakenFrom("SmolLM2-135M-Instruct", LAYER, HEAD, run.sentence, rope=False)
    assert on.taken_from is not None and on.taken_from.rope


def test_the_notice_says_plainly_that_q_and_k_are_not_turned(run):
    off = taken_from_notice(TakenFrom("SmolLM2-135M-Instruct", 16, 0, "the dog", rope=False), 64)
    on = taken_from_notice(TakenFrom("SmolLM2-135M-Instruct", 16, 0, "the dog"), 64)
    assert "RoPE off: q and k as the model made them, before turning for their positions" in off
    assert "already turned" not in off and "already turned by RoPE" in on
    assert off.startswith("RoPE off") and "Causal mask on" in off and "√64" in off


def test_a_rope_off_head_saves_and_reopens_still_off(run, tmp_path):
    scene = Scene(scene_data_for_head(run, LAYER, HEAD, rope=False))
    path = tmp_path / "off.json"
    save_scene(scene, path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["taken_from"] == {"model": "SmolLM2-135M-Instruct", "layer": LAYER, "head": HEAD,
                                   "sentence": run.sentence, "rope": False}
    loaded = open_scene(path)
    assert loaded.taken_from is not None and not loaded.taken_from.rope
    assert "RoPE off" in taken_from_notice(loaded.taken_from, 64) and "(RoPE off)" in loaded.title
    np.testing.assert_allclose(read(loaded).result.weights, run.attention_without_rope(LAYER)[HEAD],
                               rtol=0, atol=1e-12)


def test_a_head_with_rope_writes_no_rope_field_and_true_reads_as_on(run):
    document = scene_document(Scene(scene_data_for_head(run, LAYER, HEAD)))
    assert "rope" not in document["taken_from"]  # files of turned heads are as they always were
    document["taken_from"]["rope"] = True
    taken_from = scene_data_from_text(json.dumps(document)).taken_from
    assert taken_from is not None and taken_from.rope


@pytest.mark.parametrize("value, found", [
    ("false", 'the text "false"'), (0, "the number 0"), (1, "the number 1"), (None, "null"), ([False], "a list"),
    ({"on": False}, "an object"),
])
def test_a_rope_that_is_not_true_or_false_is_refused_in_one_line(run, value, found):
    document = scene_document(Scene(scene_data_for_head(random_model_run(layers=1, heads=2, width=4), 0, 1)))
    document["taken_from"]["rope"] = value
    with pytest.raises(SceneFileError) as caught:
        scene_data_from_text(json.dumps(document))
    assert str(caught.value) == f"taken_from.rope: expected true or false, found {found}"


def test_rope_off_needs_a_run_that_kept_q_and_k_from_before_rope():
    import dataclasses

    bare = dataclasses.replace(random_model_run(), unturned_queries=None, unturned_keys=None)
    with pytest.raises(ValueError, match="did not keep q and k from before RoPE"):
        scene_data_for_head(bare, 0, 0, rope=False)
    assert scene_data_for_head(bare, 0, 0).taken_from is not None  # with RoPE it opens as always


def test_a_run_is_known_as_the_one_a_head_was_taken_from_by_its_model_and_sentence(run):
    taken = scene_data_for_head(run, LAYER, HEAD, rope=False).taken_from
    assert is_taken_from(run, taken)  # so the head can be opened again, with RoPE or without
    assert not is_taken_from(random_model_run(tokens=["The", " dog"], model_name="SmolLM2-135M-Instruct"), taken)
    assert not is_taken_from(random_model_run(model_name="Another-Model"), taken)
