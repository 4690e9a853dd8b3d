"""Cross-attention scenes: the queries come from one sentence (the target, being written), the keys and values
from another (the source, being read), of a different length. The numbers a student would check by hand, and
PyTorch's scaled_dot_product_attention given the same queries, keys and values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attn_desktop.model import Role, Scene, read
from attn_desktop.model.exports.torch_check import check_against_torch
from attn_desktop.model.files.scene_types import HeadGrids, LayerGrids, ProjectedScene, TargetSentence, same_contents

SOURCE = ["el", "gato"]
TARGET = ["the", "black", "cat"]
X = [[1.0, 0.0], [0.0, 1.0]]  # the source's word vectors: make the keys and values
Y = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]  # the target's: make the queries
W_Q = [[2.0, 0.0], [0.0, 1.0]]
W_K = [[1.0, 0.0], [0.0, 1.0]]
W_V = [[0.0, 1.0], [1.0, 0.0]]  # swaps the two numbers: a value shows which word it came from, reversed


def cross_data(scale: bool = False, layers: list[LayerGrids] | None = None) -> ProjectedScene:
    layers = layers or [LayerGrids(heads=[HeadGrids(w_q=W_Q, w_k=W_K, w_v=W_V)])]
    return ProjectedScene(tokens=list(SOURCE), embeddings=X, layers=layers, scale=scale,
                          target=TargetSentence(tokens=list(TARGET), embeddings=Y))


def test_the_score_matrix_is_target_rows_by_source_columns_as_computed_by_hand():
    head = Scene(cross_data()).head(0, 0)
    # q = y W_Q = [[2, 0], [0, 1], [2, 1]]; k = x W_K = x; scores = q kᵀ.
    np.testing.assert_array_equal(head.attention.scores, [[2, 0], [0, 1], [2, 1]])
    e2 = math.e ** 2
    by_hand = [[e2 / (e2 + 1), 1 / (e2 + 1)],
               [1 / (1 + math.e), math.e / (1 + math.e)],
               [math.e / (math.e + 1), 1 / (math.e + 1)]]
    np.testing.assert_allclose(head.attention.weights, by_hand, rtol=0, atol=1e-15)
    # v = x W_V = [[0, 1], [1, 0]]: each output row is its weights, reversed.
    np.testing.assert_allclose(head.attention.output, np.array(by_hand)[:, ::-1], rtol=0, atol=1e-15)


def test_scaling_divides_by_the_square_root_of_the_key_width():
    head = Scene(cross_data(scale=True)).head(0, 0)
    first = 1 / (1 + math.exp(-2 / math.sqrt(2)))  # softmax(2/√2, 0)[0]
    assert head.attention.divisor == pytest.approx(math.sqrt(2))
    assert head.attention.weights[0, 0] == pytest.approx(first, abs=1e-15)


def test_the_queries_are_named_by_the_target_and_the_keys_by_the_source():
    scene = Scene(cross_data())
    assert (scene.n_queries, scene.n_tokens) == (3, 2)
    assert scene.labels(Role.QUERY) == TARGET and scene.labels(Role.KEY) == SOURCE
    assert scene.arrow_name(Role.QUERY, 1) == "q·black" and scene.arrow_name(Role.VALUE, 1) == "v·gato"
    assert scene.is_cross_attention and not scene.is_self_attention


def test_a_causal_mask_is_refused_even_when_the_sentences_have_the_same_length():
    data = cross_data()
    same_length = ProjectedScene(tokens=["el", "gato", "negro"], embeddings=[*X, [1.0, 1.0]], layers=data.layers,
                                 target=TargetSentence(tokens=list(TARGET), embeddings=Y))
    for scene in (Scene(data), Scene(same_length)):
        with pytest.raises(ValueError, match="cross-attention"):
            scene.set_causal(True)
        assert scene.causal is False


def test_moving_a_target_word_moves_its_query_only():
    scene = Scene(cross_data())
    keys_before = scene.head(0, 0).vectors[Role.KEY].copy()
    scene.set_target_vector(0, [0.0, 3.0])
    head = scene.head(0, 0)
    np.testing.assert_array_equal(head.vectors[Role.QUERY][0], [0.0, 3.0])
    np.testing.assert_array_equal(head.vectors[Role.KEY], keys_before)
    with pytest.raises(ValueError):
        scene.set_target_vector(0, [math.nan, 0.0])


def test_editing_the_source_sentence_leaves_the_target_alone_even_with_the_same_words():
    same_words = ProjectedScene(tokens=list(TARGET), embeddings=Y, layers=cross_data().layers,
                                target=TargetSentence(tokens=list(TARGET), embeddings=Y))
    scene = Scene(same_words)
    assert scene.is_cross_attention and not scene.is_self_attention
    scene.add_token("sleeps")
    scene.rename_token(0, "a")
    assert scene.tokens == ["a", "black", "cat", "sleeps"] and scene.query_tokens == TARGET
    assert scene.head(0, 0).attention.weights.shape == (3, 4)


def test_a_second_layer_reads_the_targets_residual_stream_and_the_same_source():
    one = LayerGrids(heads=[HeadGrids(w_q=W_Q, w_k=W_K, w_v=W_V)])
    scene = Scene(cross_data(layers=[one, one]))
    first, second = scene.head(0, 0), scene.head(1, 0)
    stream = np.array(Y) + first.attention.output
    np.testing.assert_allclose(second.vectors[Role.QUERY], stream @ np.array(W_Q), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(second.vectors[Role.KEY], np.array(X) @ np.array(W_K))
    np.testing.assert_allclose(scene.output, second.attention.output)


def test_the_contents_come_back_as_they_went_in_and_an_undo_restores_them():
    data = cross_data()
    scene = Scene(data)
    assert same_contents(scene.to_data(), data)
    scene.set_target_vector(2, [5.0, -1.0])
    assert not same_contents(scene.to_data(), data)
    scene.restore(data)
    assert same_contents(scene.to_data(), data)
    np.testing.assert_array_equal(scene.head(0, 0).vectors[Role.QUERY][2], [2.0, 1.0])


@pytest.mark.parametrize("scale", [True, False])
def test_pytorch_sdpa_gives_the_same_output_with_unequal_lengths(scale):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(46)
    source_length, target_length, d_model, d_k = 7, 4, 5, 3
    grids = HeadGrids(w_q=rng.normal(size=(d_model, d_k)).tolist(), w_k=rng.normal(size=(d_model, d_k)).tolist(),
                      w_v=rng.normal(size=(d_model, 2)).tolist())
    data = ProjectedScene(tokens=[f"s{i}" for i in range(source_length)],
                          embeddings=rng.normal(size=(source_length, d_model)).tolist(),
                          layers=[LayerGrids(heads=[grids])], scale=scale,
                          target=TargetSentence(tokens=[f"t{i}" for i in range(target_length)],
                                                embeddings=rng.normal(size=(target_length, d_model)).tolist()))
    head = Scene(data).head(0, 0)
    q, k, v = (torch.tensor(head.vectors[role], dtype=torch.float64) for role in (Role.QUERY, Role.KEY, Role.VALUE))
    expected = torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=None if scale else 1.0)
    assert head.attention.weights.shape == (target_length, source_length)
    np.testing.assert_allclose(head.attention.output, expected.numpy(), rtol=0, atol=1e-12)


def test_the_apps_pytorch_check_agrees_on_a_cross_attention_scene_of_two_layers():
    pytest.importorskip("torch")
    one = LayerGrids(heads=[HeadGrids(w_q=W_Q, w_k=W_K, w_v=W_V)])
    check = check_against_torch(Scene(cross_data(scale=True, layers=[one, one])))
    assert check.installed and check.largest_difference is not None and check.largest_difference < 1e-12


def test_a_reading_of_a_cross_attention_head_gives_the_target_stream_its_queries_came_from():
    one = LayerGrids(heads=[HeadGrids(w_q=W_Q, w_k=W_K, w_v=W_V)])
    scene = Scene(cross_data(layers=[one, one]))
    np.testing.assert_array_equal(read(scene).target_stream, Y)
    np.testing.assert_allclose(read(scene, layer=1).target_stream, np.array(Y) + scene.head(0, 0).attention.output)
    assert read(Scene(ProjectedScene(tokens=list(SOURCE), embeddings=X, layers=[one]))).target_stream is None


def test_without_grids_the_target_asks_with_its_word_vectors_and_the_source_answers_with_its_own():
    scene = Scene(cross_data())
    scene.set_use_grids(False)
    head = scene.head(0, 0)
    np.testing.assert_array_equal(head.vectors[Role.QUERY], Y)
    np.testing.assert_array_equal(head.vectors[Role.KEY], X)
    np.testing.assert_array_equal(head.attention.scores, np.array(Y) @ np.array(X).T)


def test_the_target_words_are_vectors_of_their_own_role_y_that_a_user_drags():
    """Every view draws one plane per role: the target's word vectors are role y, named by the target's words,
    dragged like x (their queries follow), and drawn by the first layer's heads only as the target's stream."""
    one = LayerGrids(heads=[HeadGrids(w_q=W_Q, w_k=W_K, w_v=W_V)])
    scene = Scene(cross_data(layers=[one, one]))
    assert Role.TARGET.symbol == "y"
    assert scene.roles == (Role.EMBEDDING, Role.TARGET, Role.QUERY, Role.KEY, Role.VALUE)
    assert scene.is_draggable(Role.TARGET) and scene.labels(Role.TARGET) == TARGET
    assert scene.arrow_name(Role.TARGET, 1) == "y·black" and scene.arrow_name(Role.EMBEDDING, 1) == "x·gato"
    np.testing.assert_array_equal(scene.vectors(Role.TARGET), Y)
    reading = read(scene)
    assert reading.roles == (Role.EMBEDDING, Role.TARGET, Role.QUERY, Role.KEY, Role.VALUE)
    assert reading.is_draggable(Role.TARGET) and not read(scene, layer=1).is_draggable(Role.TARGET)
    scene.set_vector(Role.TARGET, 2, [0.0, 2.0])
    np.testing.assert_array_equal(reading.vectors(Role.QUERY)[2], [0.0, 2.0])
    np.testing.assert_array_equal(reading.vectors(Role.TARGET)[2], [0.0, 2.0])
    self_attention = Scene(ProjectedScene(tokens=list(SOURCE), embeddings=X, layers=[one]))
    assert Role.TARGET not in self_attention.roles and Role.TARGET not in read(self_attention).roles
    assert not self_attention.is_draggable(Role.TARGET)


def test_a_target_word_is_renamed_without_touching_the_source_or_the_numbers():
    scene = Scene(cross_data())
    weights = scene.head(0, 0).attention.weights.copy()
    scene.rename_target_word(1, "  dark ")
    assert scene.query_tokens == ["the", "dark", "cat"] and scene.tokens == SOURCE
    assert scene.arrow_name(Role.TARGET, 1) == "y·dark" and scene.arrow_name(Role.QUERY, 1) == "q·dark"
    np.testing.assert_array_equal(scene.head(0, 0).attention.weights, weights)
    with pytest.raises(ValueError):
        scene.rename_target_word(0, "   ")
    with pytest.raises(ValueError, match="target sentence"):
        Scene(ProjectedScene(tokens=list(SOURCE), embeddings=X, layers=cross_data().layers)).rename_target_word(0, "a")
