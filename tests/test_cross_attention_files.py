"""Cross-attention scene files (version 6): the target's words and vectors stored beside the source's; every
older file reads as it did; a broken cross-attention file is refused in one line naming the place."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_desktop.model import Scene, SceneFileError
from attn_desktop.model.files.scene_types import same_contents
from attn_desktop.model.scene_files import open_scene, save_scene, scene_data_from_text, scene_document

ROOT = Path(__file__).parent.parent
BEFORE = json.loads((Path(__file__).parent / "support" / "scene_files_before_cross.json").read_text(encoding="utf-8"))

CROSS = {
    "format": "attention-desktop-scene", "version": 6, "title": "Reading one sentence while writing another",
    "tokens": ["el", "gato", "negro"], "embeddings": [[1, 0], [0, 1], [1, 1]],
    "query_tokens": ["the", "cat"], "query_embeddings": [[1, 0], [0, 1]],
    "layers": [{"heads": [{"w_q": [[1, 0], [0, 1]], "w_k": [[1, 0], [0, 1]], "w_v": [[1, 0], [0, 1]]}]}],
    "scale": True, "causal": False, "selected": 1,
}


def refusal(document) -> str:
    with pytest.raises(SceneFileError) as caught:
        scene_data_from_text(json.dumps(document))
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300, message
    return message


def test_a_cross_attention_scene_survives_a_save_and_a_reopen(tmp_path):
    path = tmp_path / "cross.json"
    path.write_text(json.dumps(CROSS), encoding="utf-8")
    scene = open_scene(path)
    assert scene.query_tokens == ["the", "cat"] and scene.tokens == ["el", "gato", "negro"]
    assert scene.head(0, 0).attention.weights.shape == (2, 3)
    save_scene(scene, tmp_path / "again.json")
    written = json.loads((tmp_path / "again.json").read_text(encoding="utf-8"))
    assert written["version"] == 6
    assert written["query_tokens"] == CROSS["query_tokens"] and written["query_embeddings"] == [[1.0, 0.0], [0.0, 1.0]]
    again = open_scene(tmp_path / "again.json")
    assert same_contents(again.to_data(), scene.to_data())
    np.testing.assert_array_equal(again.output, scene.output)


def test_a_scene_without_a_target_is_still_written_as_version_5_for_the_release_before():
    scene = open_scene(ROOT / "resources" / "scenes" / "lessons" / "2_projections.json")
    document = scene_document(scene)
    assert document["version"] == 5 and "query_embeddings" not in document


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_every_older_scene_file_reads_as_it_did_before_cross_attention(name):
    scene = open_scene(ROOT / name)
    document = json.dumps(scene_document(scene), sort_keys=True, ensure_ascii=False)
    assert hashlib.sha256(document.encode("utf-8")).hexdigest() == BEFORE[name]["document_sha256"]
    weights = [head.attention.weights for _, _, head in scene.all_heads()]
    assert len(weights) == len(BEFORE[name]["weights"])
    for ours, before in zip(weights, BEFORE[name]["weights"]):
        np.testing.assert_allclose(ours, before, rtol=0, atol=1e-12)
    np.testing.assert_allclose(scene.output, BEFORE[name]["output"], rtol=0, atol=1e-12)


HOSTILE = [
    ({"version": 5}, "query_embeddings: a version 5 file cannot hold a target sentence; it needs version 6"),
    ({"query_embeddings": [[1, 0]]}, "query_embeddings: 1 word vectors for 2 query_tokens"),
    ({"query_embeddings": [[1, 0, 0], [0, 1, 0]]}, "query_embeddings: the target's word vectors have 3 numbers"),
    ({"query_embeddings": [[1, 0], [0, float("nan")]]}, "NaN"),
    ({"query_embeddings": [[1, 0]] * 300, "query_tokens": ["w"] * 300}, "scenes are limited to 256"),
    ({"query_embeddings": [[1e300, 0], [0, 1]]}, "query_embeddings[0][0]"),
    ({"query_tokens": None}, "query_tokens: missing; the target's word vectors need their words"),
    ({"causal": True}, "causal: a causal mask hides later words of the same sentence"),
    ({"trained_head": {"task": "reverse"}}, "trained_head: a cross-attention scene cannot carry a trained head"),
]


@pytest.mark.parametrize("changes, expected", HOSTILE)
def test_a_broken_cross_attention_file_is_refused_in_one_line(changes, expected):
    document = {key: value for key, value in {**CROSS, **changes}.items() if value is not None}
    assert expected in refusal(document)


def test_a_target_sentence_in_a_scene_of_given_queries_is_refused():
    document = {"version": 6, "tokens": ["a", "b"], "queries": [[1, 0]], "keys": [[1, 0], [0, 1]],
                "values": [[1], [2]], "query_tokens": ["q"], "query_embeddings": [[1, 0]]}
    assert "query_embeddings: only a projection scene" in refusal(document)


hostile_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(10**400), 10**400),
              st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=4),
              st.sampled_from(["\ud800", "", "x" * 41])),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=3),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(field=st.sampled_from(["tokens", "embeddings", "query_tokens", "query_embeddings", "causal", "layers",
                              "version"]),
       value=hostile_values, row=st.integers(0, 2))
def test_a_hostile_value_in_a_cross_attention_file_raises_only_scene_file_error(field, value, row):
    document = json.loads(json.dumps(CROSS))
    if row < 2 and isinstance(document[field], list) and row < len(document[field]):
        document[field][row] = value  # sometimes inside a row or a name
    else:
        document[field] = value
    try:
        data = scene_data_from_text(json.dumps(document))
    except SceneFileError as error:
        assert "\n" not in str(error)
    else:  # what is read is a scene that computes
        assert Scene(data).output.shape[0] == len(data.query_tokens)


def test_a_file_without_a_version_that_holds_a_target_is_read_as_version_6():
    document = {key: value for key, value in CROSS.items() if key != "version"}
    data = scene_data_from_text(json.dumps(document))
    assert data.query_tokens == ["the", "cat"] and Scene(data).head(0, 0).attention.weights.shape == (2, 3)
