"""Scene files: what loads, what is refused and how the refusal reads."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attn_desktop.model import ProjectedScene, Role, Scene, SceneFileError, ViewState, read
from attn_desktop.model.files.values import MAX_ABS_COORDINATE
from attn_desktop.model.scene_files import (
    load_into,
    new_scene,
    open_reading,
    open_scene,
    read_scene_data,
    save_scene,
    scene_data_from_bytes,
    scene_data_from_text,
    scene_document,
    scene_from_document,
)
from attn_desktop.paths import DEFAULT_SCENE, scene_path

from tests.support.seed_numbers import KEYS, QUERIES, TOKENS, VALUES


def minimal(**changes):
    document = {"tokens": ["a", "b"], "queries": [[1, 0], [0, 1]], "keys": [[1, 0], [0, 1]], "values": [[1], [2]]}
    document.update(changes)
    return json.dumps(document)


def refusal(text) -> str:
    with pytest.raises(SceneFileError) as caught:
        scene_data_from_text(text) if isinstance(text, str) else scene_data_from_bytes(text)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_default_scene_is_the_seed():
    data = read_scene_data(scene_path(DEFAULT_SCENE))
    assert data.tokens == TOKENS and data.queries == QUERIES and data.keys == KEYS and data.values == VALUES
    assert data.scale is True and data.causal is False and data.query_tokens[data.selected] == "sat"


def test_defaults_for_optional_fields():
    data = scene_data_from_text(minimal())
    assert data.query_tokens == ["a", "b"] and data.scale and not data.causal and data.selected == 0


def test_cross_attention_with_named_queries():
    data = scene_data_from_text(minimal(queries=[[1, 1]], query_tokens=["ask"]))
    scene = new_scene(data)
    assert read(scene).result.weights.shape == (1, 2) and read(scene).result.output.shape == (1, 1)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "top level must be a JSON object"),
        (minimal(tokens=[]), "tokens: the list is empty"),
        (minimal(tokens=None), "tokens: missing"),
        (minimal(tokens=["a", 3]), "tokens[1]: expected a name (text), found the number 3"),
        (minimal(keys=[[1, 0], [0, "x"]]), 'keys[1][1]: expected a number, found the text "x"'),
        (minimal(keys=[[1, 0], [0, True]]), "keys[1][1]: expected a number, found true"),
        (minimal(keys=[[1, 0], [0]]), "keys[1]: has 1 numbers but keys[0] has 2"),
        (minimal(keys=[[1, 0]]), "2 tokens but 1 keys"),
        (minimal(values=[[1], [2], [3]]), "2 tokens but 3 values"),
        (minimal(queries=[[1, 0, 0], [0, 1, 0]]), "queries have 3 numbers each but keys have 2"),
        (minimal(queries=[[1, 0]]), "2 tokens but 1 queries"),
        (minimal(selected=2), "selected: 2 is out of range; there are 2 queries"),
        (minimal(selected=-1), "selected: -1 is out of range"),
        (minimal(selected="1"), "selected: expected the index of a query"),
        (minimal(scale="yes"), "scale: expected true or false"),
        (minimal(causal=1), "causal: expected true or false"),
        (minimal(queries=[[1, 1]], query_tokens=["q"], causal=True), "causal mask needs exactly one query per token"),
        (minimal(query_tokens=["only one"]), "query_tokens: 1 names for 2 queries"),
        (minimal(version=99), "made by a newer Attention Desktop"),
        (minimal(format="something-else"), "format: expected"),
        (minimal(keys=[[1e300, 0], [0, 1]]), "keys[0][0]: 1e+300 is too large"),
        (minimal(tokens=["a"] * 300), "scenes are limited to 256"),
        ('{"tokens": ["a"], "queries": [[NaN]], "keys": [[1]], "values": [[1]]}', "NaN is not a number a scene can hold"),
        ('{"tokens": ["a"], "queries": [[Infinity]], "keys": [[1]], "values": [[1]]}', "Infinity is not a number"),
        ('{"tokens": ["a"], "queries": [[1e999]], "keys": [[1]], "values": [[1]]}', "queries[0][0]: inf is not a finite number"),
        ("[" * 100000 + "]" * 100000, "nested too deeply"),
    ],
)
def test_bad_input_is_refused_with_one_clear_line(text, expected):
    assert expected in refusal(text)


def test_json_syntax_error_names_line_and_column():
    assert "at line 3 column" in refusal('{\n"tokens": ["a"],\n"queries": [[1,]]}')


def test_not_utf8_is_refused():
    assert "not UTF-8 text (byte 0xff at offset 1)" in refusal(b"{\xff}")


def test_absurdly_large_file_is_refused_before_reading(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (5 * 1024 * 1024))
    with pytest.raises(SceneFileError, match=r"big.json: the file is 5,242,880 bytes"):
        read_scene_data(big)


def test_missing_file_names_the_path(tmp_path):
    with pytest.raises(SceneFileError, match="nothing.json: cannot read the file"):
        read_scene_data(tmp_path / "nothing.json")


def test_save_and_reopen_round_trips(tmp_path):
    shown = open_reading(scene_path(DEFAULT_SCENE))
    scene = shown.scene
    scene.set_vector(Role.KEY, 1, [0.125, -3.5])
    scene.set_causal(True)
    shown.select_query(4)
    path = tmp_path / "mine.json"
    save_scene(scene, path, shown.view)
    again = open_reading(path)
    assert scene_document(again.scene, again.view) == scene_document(scene, shown.view)
    assert again.vectors(Role.KEY)[1].tolist() == [0.125, -3.5] and again.causal and again.selected_token == "the"
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "attention-desktop-scene"


def test_failed_save_keeps_the_previous_file(tmp_path, monkeypatch):
    scene = open_scene(scene_path(DEFAULT_SCENE))
    path = tmp_path / "mine.json"
    save_scene(scene, path)
    before = path.read_bytes()
    scene.set_vector(Role.KEY, 0, [9, 9])

    def crash(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", crash)
    with pytest.raises(OSError):
        save_scene(scene, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["mine.json"]  # no temporary file left behind


def test_a_failed_load_leaves_the_scene_untouched(tmp_path):
    scene = open_scene(scene_path(DEFAULT_SCENE))
    before = scene_document(scene)
    bad = tmp_path / "bad.json"
    bad.write_text(minimal(keys=[[1, 0], [0, "x"]]), encoding="utf-8")
    with pytest.raises(SceneFileError):
        load_into(scene, bad, ViewState())
    assert scene_document(scene) == before


def test_scene_refuses_non_finite_vectors():
    scene = open_scene(scene_path(DEFAULT_SCENE))
    for refused in ([np.nan, 1.0], [1.0, -np.inf], [1.0, 2.0 * MAX_ABS_COORDINATE], [1.0, 2.0, 3.0]):
        with pytest.raises(ValueError):
            scene.set_vector(Role.QUERY, 0, refused)
    scene.set_vector(Role.QUERY, 0, [-MAX_ABS_COORDINATE, MAX_ABS_COORDINATE])  # the limits themselves are allowed
    assert read(scene).vectors(Role.QUERY)[0].tolist() == [-MAX_ABS_COORDINATE, MAX_ABS_COORDINATE]
    scene.set_vector(Role.QUERY, 0, QUERIES[0])
    assert read(scene).vectors(Role.QUERY)[0].tolist() == QUERIES[0]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(json_values.map(lambda v: json.dumps(v)), st.text(max_size=60), st.binary(max_size=60)))
def test_loader_only_ever_raises_its_own_error(document):
    try:
        (scene_data_from_text if isinstance(document, str) else scene_data_from_bytes)(document)
    except SceneFileError:
        pass


SEED_TEXT = scene_path(DEFAULT_SCENE).read_text(encoding="utf-8")


@settings(max_examples=200, deadline=None)
@given(st.integers(0, len(SEED_TEXT.rstrip()) - 1))
def test_truncated_scene_files_are_refused_cleanly(cut):
    # Every cut before the closing brace leaves broken JSON: it must be refused in one line that says where.
    message = refusal(SEED_TEXT[:cut])
    assert message.startswith("not valid JSON: ") and " at line " in message


# ----- a head kept from training (format version 2) -------------------------------------------

# A projection scene exactly as the version before trained heads saved it (version 1).
SAVED_BEFORE_TRAINED_HEADS = {
    "format": "attention-desktop-scene", "version": 1, "title": "Three vectors from one word",
    "tokens": ["cat", "sat", "it"], "embeddings": [[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]],
    "w_q": [[0.0, 2.0], [2.0, 0.0]], "w_k": [[2.0, 0.0], [0.0, 2.0]], "w_v": [[1.0, 0.0], [0.0, 1.0]],
    "use_grids": True, "scale": True, "causal": False, "selected": 2,
}


def kept_document(**head_changes):
    """A saved kept head of reverse (untrained weights: the file does not care how good they are)."""
    from attn_desktop.model.training.head_params import init_params
    from attn_desktop.model.training.tasks import TASKS
    from attn_desktop.model.training.trained_head import keep_as_scene

    task = TASKS["reverse"]
    document = scene_document(Scene(keep_as_scene(task, init_params(task, seed=5), task.example_tokens())))
    document["trained_head"].update(head_changes)
    return as_version_2(document)


def as_version_2(document: dict) -> dict:
    """A one-head projection scene as the releases before layers wrote it: its grids at the top level."""
    [layer] = document.pop("layers")
    [head] = layer["heads"]
    return dict(document, version=2, w_q=head["w_q"], w_k=head["w_k"], w_v=head["w_v"], use_grids=True)


def test_version_1_files_still_open(tmp_path):
    lesson = read_scene_data(scene_path("lessons/2_projections.json"))
    assert isinstance(lesson, ProjectedScene) and lesson.trained_head is None
    path = tmp_path / "old.json"
    path.write_text(json.dumps(SAVED_BEFORE_TRAINED_HEADS), encoding="utf-8")
    scene = open_scene(path)
    assert scene.vectors(Role.EMBEDDING).tolist() == SAVED_BEFORE_TRAINED_HEADS["embeddings"]
    saved = scene_document(scene)  # saved again: version 5, the same scene in one layer of one head
    assert saved["version"] == 5 and saved["layers"] == [{"heads": [
        {name: SAVED_BEFORE_TRAINED_HEADS[name] for name in ("w_q", "w_k", "w_v")}]}]
    assert as_version_2(dict(saved))["w_q"] == SAVED_BEFORE_TRAINED_HEADS["w_q"]
    np.testing.assert_array_equal(read(scene_from_document(saved)).result.weights, read(scene).result.weights)


def test_a_kept_head_round_trips_through_a_file(tmp_path):
    from attn_desktop.model.training.example_sentence import example_scene_data
    from attn_desktop.model.training.head_maths import forward
    from attn_desktop.model.training.head_params import init_params
    from attn_desktop.model.training.tasks import TASKS
    from attn_desktop.model.training.trained_head import keep_as_scene

    task, params = TASKS["it-noun"], init_params(TASKS["it-noun"], seed=7)
    tokens = task.example_tokens()
    path = tmp_path / "kept.json"
    save_scene(keep_as_scene(task, params, tokens), path)
    assert json.loads(path.read_text(encoding="utf-8"))["version"] == 5
    loaded = read_scene_data(path)
    head = loaded.trained_head
    assert head.task == "it-noun" and head.token_ids == tokens
    for name in ("embed", "pos", "w_o", "b_o"):
        assert np.array_equal(getattr(head, name), getattr(params, name)), name
    plain = example_scene_data(task, params, tokens)
    assert loaded.embeddings == plain.embeddings and loaded.layers == plain.layers
    weights = read(Scene(loaded)).result.weights
    np.testing.assert_allclose(weights, forward(params, tokens, task.causal).weights, rtol=0, atol=1e-12)


def test_a_newer_version_is_refused_in_one_line():
    message = refusal(json.dumps(dict(SAVED_BEFORE_TRAINED_HEADS, version=7)))
    assert message == "version: the file is version 7, made by a newer Attention Desktop; this one reads up to version 6"


@pytest.mark.parametrize(
    "changes, expected",
    [
        ({"task": "sort"}, "trained_head.task: expected one of reverse, previous-token, it-noun"),
        ({"d_model": 8}, "trained_head.d_model: 8, but the word vectors have 16 numbers"),
        ({"d_model": "16"}, "trained_head.d_model: expected a whole number"),
        ({"token_ids": [3, 1, 4]}, "trained_head.token_ids: expected a list of 5 token ids"),
        ({"token_ids": [3, 1, 4, 1, 10]}, "trained_head.token_ids[4]: 10 is not a token id (0 to 9)"),
        ({"token_ids": [3, 1, 4, 1, True]}, "trained_head.token_ids[4]: expected a whole number"),
        ({"embed": [[0.0] * 16] * 9}, "trained_head.embed: has 9 rows of 16 numbers; the reverse head needs 10 rows of 16"),
        ({"pos": [[0.0] * 15] * 5}, "trained_head.pos: has 5 rows of 15 numbers; the reverse head needs 5 rows of 16"),
        ({"w_o": [[0.0] * 10] * 3}, "trained_head.w_o: has 3 rows of 10 numbers; the reverse head needs 2 rows of 10"),
        ({"pos": None}, "trained_head.pos: missing"),
        ({"b_o": [0.0] * 9}, "trained_head.b_o: expected a list of 10 numbers"),
        ({"b_o": [0.0] * 9 + ["x"]}, 'trained_head.b_o[9]: expected a number, found the text "x"'),
        ({"b_o": [0.0] * 9 + [1e300]}, "trained_head.b_o[9]: 1e+300 is too large"),
    ],
)
def test_a_broken_trained_head_is_refused_in_one_line(changes, expected):
    message = refusal(json.dumps(kept_document(**changes)))
    assert expected in message


def test_a_trained_head_must_fit_its_scene():
    document = kept_document()
    assert "needs version 2" in refusal(json.dumps(dict(document, version=1)))
    vectors_scene = dict(json.loads(minimal()), version=2, trained_head=document["trained_head"])
    assert "only a projection scene" in refusal(json.dumps(vectors_scene))
    assert "expected an object" in refusal(json.dumps(dict(document, trained_head=[1])))
    shorter = dict(document, tokens=document["tokens"][:4], embeddings=document["embeddings"][:4])
    assert "reverse sentences have 5 tokens but the scene has 4" in refusal(json.dumps(shorter))
    narrow = dict(document, w_q=[row + [0.0] for row in document["w_q"]], w_k=[row + [0.0] for row in document["w_k"]])
    assert "makes queries and keys of 2 numbers, but w_q makes 3" in refusal(json.dumps(narrow))
    text = json.dumps(dict(document, trained_head=dict(document["trained_head"], pos=[[float("nan")] * 16] * 5)))
    assert "NaN is not a number" in refusal(text)


def test_opening_a_broken_trained_head_changes_nothing(tmp_path):
    scene = new_scene(read_scene_data(scene_path("lessons/2_projections.json")))
    before = scene_document(scene)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(kept_document(task="sort")), encoding="utf-8")
    with pytest.raises(SceneFileError, match=r"^.*broken\.json: trained_head\.task"):
        load_into(scene, path, ViewState())
    assert scene_document(scene) == before


def test_a_scene_whose_sentence_changed_is_saved_without_the_head(tmp_path):
    scene = scene_from_document(kept_document())
    scene.add_token("extra")
    path = tmp_path / "longer.json"
    save_scene(scene, path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert "trained_head" not in saved and saved["version"] == 5
    assert read_scene_data(path).tokens[-1] == "extra"


KEPT = kept_document()


@settings(max_examples=300, deadline=None)
@given(field=st.sampled_from(["task", "d_model", "token_ids", "embed", "pos", "w_o", "b_o"]), value=json_values,
       row=st.integers(0, 3))
def test_any_value_in_a_trained_head_raises_only_scene_file_error(field, value, row):
    document = json.loads(json.dumps(KEPT))
    head = document["trained_head"]
    if isinstance(head[field], list) and row < len(head[field]) and row % 2:
        head[field][row] = value  # sometimes inside a row
    else:
        head[field] = value
    try:
        scene_data_from_text(json.dumps(document))
    except SceneFileError as error:
        assert "\n" not in str(error)
