"""Scenes with several heads: the numbers, the file format, export, the code and PyTorch."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import numpy as np
import pytest

from attn_desktop.model import Role, Scene, SceneFileError, ViewState, explain, read
from attn_desktop.model.commands import move_arrow, set_grid_cell
from attn_desktop.model.exports.codegen import numpy_code
from attn_desktop.model.exports.export import export_document
from attn_desktop.model.exports.torch_check import check_against_torch
from attn_desktop.model.head_reading import HeadReading, input_plane
from attn_desktop.model.scene_files import open_reading, open_scene, save_scene, scene_document, scene_from_document
from attn_desktop.model.teaching.exercises import exercises_for
from attn_desktop.model.teaching.lessons import lesson
from attn_desktop.paths import scene_path

TWO_HEADS = "lessons/7_two_heads.json"


def lesson_scene() -> Scene:
    return open_scene(scene_path(TWO_HEADS))


def lesson_document() -> dict:
    return json.loads(scene_path(TWO_HEADS).read_text(encoding="utf-8"))


def softmax_rows(scores: np.ndarray) -> np.ndarray:
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def by_hand(document: dict) -> tuple[list[np.ndarray], np.ndarray]:
    """Each head's weights and the mixed output, computed here from the file's numbers alone."""
    x = np.array(document["embeddings"])
    n = len(x)
    later = np.triu(np.ones((n, n), dtype=bool), k=1)
    weights, outputs = [], []
    for head in document["heads"]:
        q, k, v = (x @ np.array(head[name]) for name in ("w_q", "w_k", "w_v"))
        scores = q @ k.T / np.sqrt(k.shape[1])
        if document["causal"]:
            scores = np.where(later, -np.inf, scores)
        w = softmax_rows(scores)
        weights.append(w)
        outputs.append(w @ v)
    return weights, np.hstack(outputs) @ np.array(document["w_o"])


# ----- the lesson's scene --------------------------------------------------
def test_the_position_head_looks_at_the_previous_word_and_the_meaning_head_links_it_to_cat():
    scene = lesson_scene()
    assert len(scene.layers) == 1 and len(scene.layers[0].heads) == 2 and not scene.is_one_head
    assert [scene.head_name(0, h) for h in range(2)] == ["Head 1 · position", "Head 2 · meaning"]
    position, meaning = (scene.head(0, h).attention.weights for h in range(2))
    it, cat, because = (scene.tokens.index(word) for word in ("it", "cat", "because"))
    for query in range(1, scene.n_tokens):  # every word but the first: most weight on the word before it
        assert np.argmax(position[query]) == query - 1
        assert position[query, query - 1] > 0.8
    assert np.argmax(meaning[it]) == cat and meaning[it, cat] == pytest.approx(0.84, abs=0.005)
    assert position[it, because] == pytest.approx(0.83, abs=0.005)


def test_every_number_equals_a_computation_from_the_file_alone():
    scene, document = lesson_scene(), lesson_document()
    weights, output = by_hand(document)
    for head in range(2):
        np.testing.assert_allclose(scene.head(0, head).attention.weights, weights[head], atol=1e-12)
    np.testing.assert_allclose(scene.output, output, atol=1e-12)
    assert scene.layers[0].joined_output.shape == (6, 4)  # two heads of two numbers, side by side
    np.testing.assert_allclose(scene.layers[0].joined_output[:, :2], scene.head(0, 0).attention.output)


def test_each_head_is_drawn_in_the_two_numbers_it_reads():
    scene = lesson_scene()
    assert input_plane(scene, 0, 0) == (0, 1) and input_plane(scene, 0, 1) == (2, 3)


def test_the_shown_head_is_view_state_that_a_reading_follows():
    scene = lesson_scene()
    view = ViewState()
    shown = HeadReading(scene, view)
    np.testing.assert_array_equal(shown.result.weights, scene.head(0, 0).attention.weights)
    seen = []
    shown.subscribe(seen.append)
    view.show_head(0, 1)
    assert seen and shown.location == (0, 1)
    np.testing.assert_array_equal(shown.result.weights, scene.head(0, 1).attention.weights)
    np.testing.assert_array_equal(shown.vectors(Role.QUERY), scene.head(0, 1).vectors[Role.QUERY])
    assert shown.grids is scene.head(0, 1).grids
    assert scene_document(scene) == scene_document(lesson_scene())  # the document never heard of it
    view.show_head(0, 5)  # a head the scene does not have: the last one is read
    assert shown.location == (0, 1)


def test_the_lessons_exercises_quote_the_scenes_own_numbers():
    scene = lesson_scene()
    exercises = {exercise.id: exercise for exercise in exercises_for("two-heads")}
    assert set(exercises) == {"two-heads-it-cat", "two-heads-width", "two-heads-w-o"}
    assert exercises["two-heads-width"].answer == (scene.layers[0].joined_output.shape[1],)
    w_o = scene.grid("w_o")
    assert exercises["two-heads-w-o"].answer == (w_o[0, 0],) and w_o[1, 1] == w_o[0, 0]
    assert w_o[2, 2] == w_o[3, 3] == 2 * w_o[0, 0]  # "counts head 2 twice as much"
    assert np.count_nonzero(w_o - np.diag(np.diag(w_o))) == 0
    text = lesson("two-heads").explanation + " ".join(lesson("two-heads").steps)
    it = scene.tokens.index("it")
    for head, word in ((0, "because"), (1, "cat")):
        share = explain.percent(scene.head(0, head).attention.weights[it, scene.tokens.index(word)])
        assert f"{share} to \"{word}\"" in text or f"{share} of its weight to \"{word}\"" in text


# ----- edits ----------------------------------------------------------------
def test_moving_a_word_in_the_position_plane_changes_only_the_position_head():
    scene = lesson_scene()
    before = [scene.head(0, h).attention.weights.copy() for h in range(2)]
    mixed_before = scene.output.copy()
    it = scene.tokens.index("it")
    x = scene.vectors(Role.EMBEDDING)[it].copy()
    x[:2] = [0.9, 0.4]  # the numbers head 1 reads
    scene.set_vector(Role.EMBEDDING, it, x)
    assert not np.allclose(scene.head(0, 0).attention.weights, before[0])
    np.testing.assert_array_equal(scene.head(0, 1).attention.weights, before[1])
    assert not np.allclose(scene.output, mixed_before)


def test_a_grid_number_typed_for_one_head_undoes_on_that_head_even_after_the_other_is_shown():
    scene = lesson_scene()
    command = set_grid_cell(scene, "w_q", 3, 0, 4.0, layer=0, head=1)
    command.do(scene, ViewState())
    assert scene.grid("w_q", 0, 1)[3, 0] == 4.0 and scene.grid("w_q", 0, 0)[3, 0] == 0.0
    command.undo(scene, ViewState())
    assert scene.grid("w_q", 0, 1)[3, 0] == 2.0
    np.testing.assert_allclose(scene.head(0, 1).attention.weights, by_hand(lesson_document())[0][1], atol=1e-12)


def test_w_o_changes_the_mix_and_nothing_else():
    scene = lesson_scene()
    weights = [scene.head(0, h).attention.weights.copy() for h in range(2)]
    scene.set_grid_cell("w_o", 0, 0, 2.0)
    np.testing.assert_array_equal(scene.head(0, 0).attention.weights, weights[0])
    np.testing.assert_allclose(scene.output[:, 0], 2.0 * scene.head(0, 0).attention.output[:, 0])
    with pytest.raises(ValueError, match="finite"):
        scene.set_grid_cell("w_o", 0, 0, float("nan"))


def test_a_word_added_removed_or_renamed_keeps_both_heads():
    scene = lesson_scene()
    scene.add_token("again")
    assert scene.n_heads == 2 and scene.head(0, 1).attention.weights.shape == (7, 7)
    scene.rename_token(6, "too")
    scene.remove_token(0)
    document = scene_document(scene)
    assert [head["name"] for head in document["layers"][0]["heads"]] == ["position", "meaning"]
    reopened = scene_from_document(document)
    np.testing.assert_allclose(reopened.output, scene.output, atol=1e-12)


def test_the_grids_cannot_be_switched_off_with_heads_narrower_than_the_words():
    with pytest.raises(ValueError, match="square"):
        lesson_scene().set_use_grids(False)


# ----- a head seen alone -------------------------------------------------------
def test_a_reading_of_one_head_reads_it_and_edits_go_to_the_scene():
    scene = lesson_scene()
    reading = read(scene, 0, 1)
    heard = []
    reading.subscribe(heard.append)
    assert scene.head_name(*reading.location) == "Head 2 · meaning" and reading.roles[0] is Role.EMBEDDING
    assert not scene.is_one_head
    np.testing.assert_array_equal(reading.result.weights, scene.head(0, 1).attention.weights)
    reading.select_query(2)  # chosen in the view, so in every head it shows
    assert HeadReading(scene, reading.view, at=(0, 0)).selected == 2 and reading.selected == 2 and heard
    it = scene.tokens.index("it")
    moved = scene.vectors(Role.EMBEDDING)[it].copy()
    moved[2:] = [1.0, 0.2]
    move_arrow(reading, Role.EMBEDDING, it, scene.vectors(Role.EMBEDDING)[it], moved).do(reading.scene, reading.view)
    np.testing.assert_array_equal(reading.vectors(Role.EMBEDDING)[it], moved)
    np.testing.assert_array_equal(reading.result.weights, scene.head(0, 1).attention.weights)
    assert not hasattr(reading, "add_token") and not hasattr(reading, "set_vector")  # it only reads


def test_a_reading_knows_when_its_head_is_gone():
    scene = lesson_scene()
    reading = read(scene, 0, 1)
    assert reading.exists
    scene.replace(open_scene(scene_path("lessons/2_projections.json")).to_data())
    assert not reading.exists and scene.is_one_head and scene.n_heads == 1


# ----- the file -----------------------------------------------------------------
def test_a_multi_head_scene_saves_as_version_5_layers_and_reopens_the_same(tmp_path):
    scene = lesson_scene()
    save_scene(scene, tmp_path / "two.json")
    document = json.loads((tmp_path / "two.json").read_text(encoding="utf-8"))
    assert document["version"] == 5 and "w_q" not in document and "heads" not in document
    [layer] = document["layers"]
    assert len(layer["heads"]) == 2 and layer["heads"][0]["name"] == "position" and len(layer["w_o"]) == 4
    reopened = open_scene(tmp_path / "two.json")
    np.testing.assert_array_equal(reopened.output, scene.output)
    assert scene_document(reopened) == scene_document(scene)


def test_older_files_still_open_and_one_head_is_written_as_one_layer_of_one_head(tmp_path):
    scene = open_scene(scene_path("lessons/2_projections.json"))
    assert scene.is_one_head and scene.n_heads == 1
    document = scene_document(scene)
    assert document["version"] == 5 and "w_q" not in document
    assert list(document["layers"][0]) == ["heads"]  # one head: no W_O to write


def refusal(document: dict) -> str:
    with pytest.raises(SceneFileError) as error:
        scene_from_document(document)
    return str(error.value)


def changed(**changes) -> dict:
    document = copy.deepcopy(lesson_document())
    for key, value in changes.items():
        if value is None:
            del document[key]
        else:
            document[key] = value
    return document


@pytest.mark.parametrize("document, expected", [
    (changed(version=3), "heads: a version 3 file cannot hold several heads; it needs version 4"),
    (changed(w_q=[[1, 0]] * 4), "w_q: a scene with \"heads\" gives each head's w_q inside its entry"),
    (changed(w_o=None), "w_o: missing; a scene with heads needs W_O"),
    (changed(w_o=[[1, 0]] * 3), "w_o: has 3 rows but the 2 heads' outputs side by side have 4 numbers"),
    (changed(heads=[]), "heads: expected a list of 1 to 8 heads, found an empty list"),
    (changed(heads="two"), "heads: expected a list of 1 to 8 heads, found the text \"two\""),
    (changed(heads=[{"w_q": [[1, 0]] * 4, "w_k": [[1, 0]] * 4, "w_v": [[1]] * 4}] * 9), "heads: 9 heads; scenes are limited to 8"),
    (changed(heads=[7]), "heads[0]: expected an object with w_q, w_k and w_v, found the number 7"),
    (changed(heads=[{"w_q": [[1, 0]] * 4, "w_k": [[1, 0]] * 4}]), "heads[0].w_v: missing; every head needs w_q, w_k and w_v"),
    (changed(heads=[{"w_q": [[1, 0]] * 3, "w_k": [[1, 0]] * 4, "w_v": [[1, 0]] * 4}]),
     "heads[0].w_q: has 3 rows but the word vectors have 4 numbers"),
    (changed(heads=[{"w_q": [[1, 0]] * 4, "w_k": [[1, 0, 0]] * 4, "w_v": [[1, 0]] * 4}]),
     "heads[0]: w_q makes queries of 2 numbers but w_k makes keys of 3"),
    (changed(heads=[{"w_q": [[1, 0]] * 4, "w_k": [[1, 0]] * 4, "w_v": [[1, 0]] * 4},
                    {"w_q": [[1, 0, 0]] * 4, "w_k": [[1, 0, 0]] * 4, "w_v": [[1, 0]] * 4}]),
     "heads[1].w_q: makes 3 numbers but heads[0].w_q makes 2; every head of a layer has the same widths"),
    (changed(heads=[{"w_q": [[float("nan"), 0]] * 4, "w_k": [[1, 0]] * 4, "w_v": [[1, 0]] * 4}]),
     "heads[0].w_q[0][0]: nan is not a finite number"),
    (changed(use_grids=False), "use_grids: a scene with several heads always makes its vectors with their grids"),
    (changed(heads=None), "w_o: only a scene with \"heads\" mixes their outputs with W_O"),
])
def test_a_broken_multi_head_file_is_refused_in_one_line(document, expected):
    if "heads" not in document and "w_q" not in document:  # a scene that gives neither: add one head's grids
        document.update(w_q=[[1, 0]] * 4, w_k=[[1, 0]] * 4, w_v=[[1, 0]] * 4)
    message = refusal(document)
    assert message.startswith(expected), message
    assert "\n" not in message


def test_a_trained_head_cannot_ride_on_a_multi_head_scene():
    trained = json.loads(scene_path("lessons/5_trained_reverse.json").read_text(encoding="utf-8"))["trained_head"]
    assert refusal(changed(trained_head=trained)).startswith("trained_head: only a projection scene with one head")


# ----- export, code, PyTorch ---------------------------------------------------------
def test_export_gives_every_head_and_the_mixed_output():
    scene = lesson_scene()
    document = export_document(read(scene))
    weights, output = by_hand(lesson_document())
    assert document["kind"] == "multi-head" and len(document["heads"]) == 2
    for head, entry in enumerate(document["heads"]):
        np.testing.assert_allclose(entry["weights"], weights[head], atol=1e-12)
        assert np.shape(entry["output"]) == (6, 2)
        assert entry["scaled_scores"][0][1] is None  # masked: after the first word
    np.testing.assert_allclose(document["output"], output, atol=1e-12)
    np.testing.assert_allclose(document["joined_output"], scene.layers[0].joined_output)
    assert document["w_o"] == lesson_document()["w_o"]
    json.dumps(document, allow_nan=False)


@pytest.mark.slow
def test_the_export_command_writes_a_multi_head_scene(tmp_path):
    target = tmp_path / "out.json"
    done = subprocess.run([sys.executable, "-m", "attn_desktop", "export", str(scene_path(TWO_HEADS)), "-o", str(target)],
                          check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    written = json.loads(target.read_text(encoding="utf-8"))
    np.testing.assert_allclose(written["output"], lesson_scene().output, atol=1e-12)


@pytest.mark.slow
def test_the_code_panels_script_prints_what_the_app_shows(tmp_path):
    shown = open_reading(scene_path(TWO_HEADS))  # with the query the lesson's file chose: "it"
    script = tmp_path / "heads.py"
    script.write_text(numpy_code(shown), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "head 1: it attends to the 0%, cat 0%, sat 8%, because 83%, it 8%, purred 0%"
    assert lines[1].startswith("head 2: it attends to the 1%, cat 84%")
    output = np.round(shown.scene.output[shown.selected], 2)
    assert lines[2] == f"output for it: {output}"
    assert lines[3] == "shapes: (6, 4) (6, 4)"


def multi_head_attention_in_torch(scene: Scene):
    """torch.nn.MultiheadAttention with the scene's weights: W_Q, W_K, W_V of the heads side by side
    (PyTorch's in_proj, transposed: it multiplies from the left), W_O as out_proj, no biases."""
    torch = pytest.importorskip("torch")
    d_model = scene.vectors(Role.EMBEDDING).shape[1]
    layer = torch.nn.MultiheadAttention(d_model, scene.n_heads, bias=False, batch_first=True, dtype=torch.float64)
    joined = {name: np.hstack([scene.grid(name, 0, head) for head in range(scene.n_heads)]) for name in ("w_q", "w_k", "w_v")}
    with torch.no_grad():
        layer.in_proj_weight.copy_(torch.tensor(np.vstack([joined[name].T for name in ("w_q", "w_k", "w_v")])))
        layer.out_proj.weight.copy_(torch.tensor(scene.grid("w_o").T))
    x = torch.tensor(scene.vectors(Role.EMBEDDING)[None])
    n = scene.n_tokens
    mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1) if scene.causal else None
    output, weights = layer(x, x, x, attn_mask=mask, need_weights=True, average_attn_weights=False)
    return output[0].detach().numpy(), weights[0].detach().numpy()


def test_pytorch_multi_head_attention_with_the_same_weights_gives_the_same_numbers():
    scene = lesson_scene()
    output, weights = multi_head_attention_in_torch(scene)
    np.testing.assert_allclose(output, scene.output, atol=1e-9, rtol=0)
    for head in range(2):
        np.testing.assert_allclose(weights[head], scene.head(0, head).attention.weights, atol=1e-9, rtol=0)


def test_pytorch_agrees_after_edits_and_without_the_mask():
    scene = lesson_scene()
    scene.set_causal(False)
    scene.set_grid_cell("w_o", 2, 0, -0.7)
    scene.set_vector(Role.EMBEDDING, 1, [0.3, -1.2, 0.4, 2.0])
    output, _ = multi_head_attention_in_torch(scene)
    np.testing.assert_allclose(output, scene.output, atol=1e-9, rtol=0)


def test_the_apps_pytorch_check_compares_the_mixed_output():
    pytest.importorskip("torch")
    scene = lesson_scene()
    check = check_against_torch(scene)
    assert check.agrees and "then W_O" in check.message
    scene.set_scale(False)  # nn.MultiheadAttention always divides; the app's check passes scale=1.0 per head
    assert check_against_torch(scene).agrees
