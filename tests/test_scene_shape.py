"""One shape for every scene: layers of heads. Old files give the numbers they always gave, and a scene
of two layers is computed, edited, undone, saved and reopened by the same code as a scene of one head."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from attn_desktop.model import HeadReading, Role, Scene, SceneFileError, ViewState, read
from attn_desktop.model.commands import RunNow, move_arrow, set_grid_cell
from attn_desktop.model.exports.codegen import numpy_code
from attn_desktop.model.exports.export import export_document
from attn_desktop.model.exports.torch_check import check_against_torch
from attn_desktop.model.scene_files import (
    open_scene,
    reading_from_document,
    save_scene,
    scene_document,
    scene_from_document,
)

from tests.support.two_layers_scene import TWO_LAYERS, X

PREVIOUS_RELEASE = Path(__file__).parent / "previous_release"
NUMBERS = json.loads((PREVIOUS_RELEASE / "numbers.json").read_text(encoding="utf-8"))


# ----- files written by the release before layers ------------------------------------------------
@pytest.mark.parametrize("name", sorted(NUMBERS))
def test_a_file_the_previous_release_wrote_opens_with_the_same_numbers(name):
    """Each file was saved by the previous release (versions 1 to 4) after a student's drag, with the
    weights and output that release exported beside it."""
    expected = NUMBERS[name]
    document = json.loads((PREVIOUS_RELEASE / f"{name}.json").read_text(encoding="utf-8"))
    assert document["version"] == expected["version"]
    scene = open_scene(PREVIOUS_RELEASE / f"{name}.json")
    weights = [head.attention.weights for _, _, head in scene.all_heads()]
    assert len(weights) == len(expected["weights"])
    for ours, theirs in zip(weights, expected["weights"]):
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    np.testing.assert_allclose(scene.output, expected["output"], rtol=0, atol=1e-12)


def test_every_version_is_read_and_version_5_is_written():
    versions = {NUMBERS[name]["version"] for name in NUMBERS}
    assert versions == {1, 2, 3, 4}
    for name in NUMBERS:
        assert scene_document(open_scene(PREVIOUS_RELEASE / f"{name}.json"))["version"] == 5


# ----- a scene of two layers ---------------------------------------------------------------------

def softmax_rows(scores: np.ndarray) -> np.ndarray:
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def by_hand(document: dict) -> tuple[list[np.ndarray], np.ndarray]:
    """Every head's weights and the scene's output, from the file alone: the residual stream layer by layer."""
    x = np.array(document["embeddings"], dtype=float)
    n = len(x)
    hidden = np.triu(np.ones((n, n), dtype=bool), k=1)
    weights, output = [], None
    for index, layer in enumerate(document["layers"]):
        outputs = []
        for head in layer["heads"]:
            q, k, v = (x @ np.array(head[name], dtype=float) for name in ("w_q", "w_k", "w_v"))
            scores = q @ k.T / np.sqrt(k.shape[1])
            scores[hidden] = -np.inf
            w = softmax_rows(scores)
            weights.append(w)
            outputs.append(w @ v)
        joined = np.hstack(outputs)
        output = joined @ np.array(layer["w_o"], dtype=float) if "w_o" in layer else joined
        if index + 1 < len(document["layers"]):
            x = x + output
    return weights, output


def two_layers() -> Scene:
    return scene_from_document(json.loads(json.dumps(TWO_LAYERS)))


def two_layers_reading() -> HeadReading:
    """The same, looked at with the query its document chose."""
    return reading_from_document(json.loads(json.dumps(TWO_LAYERS)))


def all_weights(scene: Scene) -> list[np.ndarray]:
    return [head.attention.weights.copy() for _, _, head in scene.all_heads()]


def test_two_layers_compute_the_residual_stream_as_by_hand():
    scene = two_layers()
    weights, output = by_hand(TWO_LAYERS)
    assert [len(layer.heads) for layer in scene.layers] == [2, 1] and scene.n_heads == 3
    assert scene.head_name(1, 0) == "Layer 2 · head 1 · reads the stream"
    for ours, theirs in zip(all_weights(scene), weights):
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-12)
    np.testing.assert_allclose(scene.output, output, rtol=0, atol=1e-12)
    reading = read(scene, 1, 0)  # layer 2 reads x plus layer 1's output, not the word vectors
    np.testing.assert_allclose(reading.vectors(Role.EMBEDDING), np.array(X) + scene.layers[0].output, atol=1e-12)
    assert reading.is_draggable(Role.EMBEDDING) is False and read(scene, 0, 0).is_draggable(Role.EMBEDDING)


def test_a_drag_in_layer_1_reaches_layer_2_and_undoes_in_one_step():
    scene = two_layers()
    shown = read(scene)
    before, output_before = all_weights(scene), scene.output.copy()
    editor = RunNow(scene, shown.view)
    start = scene.vectors(Role.EMBEDDING)[0].copy()
    command = move_arrow(shown, Role.EMBEDDING, 0, start, after=[0.2, 1.5, 0.5])
    editor.do(command)
    assert command.text == "Move x·a"
    assert not np.allclose(scene.head(1, 0).attention.weights, before[2])  # through the residual stream
    command.undo(scene, shown.view)
    for ours, theirs in zip(all_weights(scene), before):
        np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(scene.output, output_before)


def test_grid_cells_of_any_layer_and_head_and_w_o_undo_where_they_were_typed():
    scene = two_layers()
    before = all_weights(scene)
    typed = set_grid_cell(scene, "w_v", 2, 1, 3.0, layer=1, head=0)
    typed.do(scene, ViewState())
    np.testing.assert_array_equal(scene.head(0, 0).attention.weights, before[0])  # layer 1 is untouched
    mix = set_grid_cell(scene, "w_o", 0, 0, 2.0, layer=0)
    mix.do(scene, ViewState())
    assert not np.allclose(scene.head(1, 0).attention.weights, before[2])  # layer 2 reads the new mix
    mix.undo(scene, ViewState())
    typed.undo(scene, ViewState())
    assert scene_document(scene) == scene_document(two_layers())
    with pytest.raises(KeyError, match="W_O"):
        scene.grid("w_o", layer=1)  # one head: no W_O to type into


def test_two_layers_save_and_reopen_with_the_same_numbers(tmp_path):
    scene = two_layers()
    scene.set_vector(Role.EMBEDDING, 2, [0.1, 0.9, 0.3])
    path = tmp_path / "two-layers.json"
    save_scene(scene, path)
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["version"] == 5 and [len(layer["heads"]) for layer in written["layers"]] == [2, 1]
    assert "w_o" not in written["layers"][1]
    reopened = open_scene(path)
    for ours, theirs in zip(all_weights(reopened), all_weights(scene)):
        np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(reopened.output, scene.output)


def test_a_word_added_joins_every_layer_and_undoes():
    scene = two_layers()
    scene.add_token("d")
    assert [head.attention.weights.shape for _, _, head in scene.all_heads()] == [(5, 5)] * 3
    scene.remove_token(4)
    assert scene_document(scene) == scene_document(two_layers())


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["layers"][0].pop("w_o"), "layers[0].w_o: missing; a layer with several heads needs W_O"),
    (lambda d: d["layers"][0].update(w_o=[[1, 0]] * 4),
     "layers[0]: its output has 2 numbers but the word vectors have 3"),
    (lambda d: d.update(layers=[]), "layers: expected a list of 1 to 4 layers"),
    (lambda d: d.update(layers=[d["layers"][1]] * 5), "layers: 5 layers; scenes are limited to 4"),
    (lambda d: d["layers"][1].pop("heads"), "layers[1].heads: missing"),
    (lambda d: d.update(version=4), "layers: a version 4 file cannot hold layers; it needs version 5"),
    (lambda d: d.update(w_q=[[1, 0]] * 3), "w_q: a version 5 scene gives its grids inside \"layers\""),
])
def test_a_broken_layered_file_is_refused_in_one_line(change, expected):
    document = json.loads(json.dumps(TWO_LAYERS))
    change(document)
    with pytest.raises(SceneFileError) as error:
        scene_from_document(document)
    assert str(error.value).startswith(expected), str(error.value)


@pytest.mark.slow
def test_export_and_the_script_give_every_layer(tmp_path):
    shown = two_layers_reading()
    scene = shown.scene
    document = export_document(shown)
    assert document["kind"] == "layers" and [len(layer["heads"]) for layer in document["layers"]] == [2, 1]
    np.testing.assert_allclose(document["output"], scene.output, atol=1e-12)
    script = tmp_path / "layers.py"
    script.write_text(numpy_code(shown), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    shown = np.round(scene.output[shown.selected], 2)
    assert done.stdout.splitlines()[-1] == f"output for c: {shown}"
    assert "layer 2 head 1: c attends to" in done.stdout


def test_pytorch_agrees_with_two_layers():
    pytest.importorskip("torch")
    check = check_against_torch(two_layers())
    assert check.agrees, check.message
    assert check.largest_difference is not None and check.largest_difference < 1e-12
