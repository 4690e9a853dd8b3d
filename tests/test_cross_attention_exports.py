"""A cross-attention scene's exports: the Code panel's script makes its queries from the target's word vectors y
(not the source's x) and reproduces the app's weights and output to the last digit, for one head, several heads
and several layers; the JSON export carries the target, enough to compute every number again."""

import subprocess
import sys

import numpy as np
import pytest

from attn_desktop import paths
from attn_desktop.model import Role, Scene, read
from attn_desktop.model.exports.codegen import numpy_code
from attn_desktop.model.exports.export import export_document
from attn_desktop.model.files.scene_types import HeadGrids, LayerGrids, ProjectedScene, TargetSentence
from attn_desktop.model.scene_files import open_reading

from tests.test_codegen import run


def example():
    return open_reading(paths.scene_path(paths.CROSS_SCENE))


def random_cross_scene(layers: int, heads: int, seed: int = 46, scale: bool = True) -> Scene:
    """Source of 5 words, target of 3, d_model 4: unequal lengths, so a script that mixed them up would fail."""
    rng = np.random.default_rng(seed)

    def grids():
        return HeadGrids(w_q=rng.normal(size=(4, 3)).tolist(), w_k=rng.normal(size=(4, 3)).tolist(),
                         w_v=rng.normal(size=(4, 4 // heads)).tolist())

    stack = [LayerGrids(heads=[grids() for _ in range(heads)],
                        w_o=rng.normal(size=(4 // heads * heads, 4)).tolist() if heads > 1 else None)
             for _ in range(layers)]
    return Scene(ProjectedScene(tokens=["s0", "s1", "s2", "s3", "s4"], embeddings=rng.normal(size=(5, 4)).tolist(),
                                layers=stack, scale=scale, selected=1,
                                target=TargetSentence(tokens=["t0", "t1", "t2"],
                                                      embeddings=rng.normal(size=(3, 4)).tolist())))


def test_the_one_head_script_asks_with_the_targets_y_and_prints_the_apps_numbers():
    reading = example()
    code = numpy_code(reading)
    assert "Q = Y @ Wq" in code and "K, V = X @ Wk, X @ Wv" in code
    namespace, printed = run(code)
    np.testing.assert_array_equal(namespace["weights"], reading.result.weights)  # to the last digit
    np.testing.assert_array_equal(namespace["output"], reading.result.output)
    assert printed[0] == "black attends to: el 1%, gato 7%, negro 89%, duerme 3%"
    assert printed[2] == "shapes: (4, 4) (4, 2)"


@pytest.mark.slow
def test_the_one_head_script_follows_a_dragged_target_word_in_a_fresh_python(tmp_path):
    reading = example()
    reading.scene.set_vector(Role.TARGET, 1, [0.4, 1.7])  # y·black towards gato
    done = subprocess.run([sys.executable, "-c", numpy_code(reading)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    weights = reading.result.weights[1]
    shown = ", ".join(f"{token} {weight:.0%}" for token, weight in zip(reading.tokens, weights))
    assert done.stdout.splitlines()[0] == f"black attends to: {shown}"


@pytest.mark.parametrize("scale", [True, False])
def test_unequal_lengths_one_head(scale):
    scene = random_cross_scene(layers=1, heads=1, scale=scale)
    namespace, _ = run(numpy_code(read(scene)))
    np.testing.assert_array_equal(namespace["weights"], read(scene).result.weights)
    np.testing.assert_array_equal(namespace["output"], scene.output)
    assert namespace["weights"].shape == (3, 5)


def test_several_heads_read_the_target_and_the_source():
    scene = random_cross_scene(layers=1, heads=2)
    namespace, printed = run(numpy_code(read(scene)))
    for head, weights in enumerate(namespace["weights"]):
        np.testing.assert_array_equal(weights, read(scene, 0, head).result.weights)
    np.testing.assert_array_equal(namespace["output"], scene.output)
    assert printed[0].startswith("head 1: t0 attends to s0 ")


def test_several_layers_carry_the_residual_stream_on_the_targets_side():
    scene = random_cross_scene(layers=2, heads=2)
    namespace, printed = run(numpy_code(read(scene)))
    for head, weights in enumerate(namespace["weights"]):  # the last layer's
        np.testing.assert_array_equal(weights, read(scene, 1, head).result.weights)
    np.testing.assert_array_equal(namespace["output"], scene.output)
    assert printed[0].startswith("layer 1 head 1: t0 attends to s0 ")


def test_the_json_export_holds_the_target_and_its_numbers_compute_again():
    reading = example()
    document = export_document(reading)
    assert document["query_tokens"] == ["the", "black", "cat", "sleeps"]
    assert document["tokens"] == ["el", "gato", "negro", "duerme"]
    y, x = np.array(document["query_embeddings"]), np.array(document["embeddings"])
    q, k = y @ np.array(document["w_q"]), x @ np.array(document["w_k"])
    np.testing.assert_array_equal(q, document["queries"])
    np.testing.assert_array_equal(k, document["keys"])
    scores = q @ k.T / np.sqrt(k.shape[1])
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    np.testing.assert_allclose(weights / weights.sum(axis=1, keepdims=True), document["weights"], rtol=0, atol=1e-15)
    assert np.shape(document["weights"]) == (4, 4)
