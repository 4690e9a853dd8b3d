"""The Positions lab's numbers (no Qt): order-blind attention, positions added, RoPE's turns of one pair and of
SmolLM2's 32, lesson 5's learned positions, and the RoPE base read from a model file's header."""

import math

import numpy as np
import pytest

from attn_desktop.model import HeadReading, Role, ViewState, read
from attn_desktop.model.commands import ReorderTokens, RunNow
from attn_desktop.model.files.scene_types import DirectScene, HeadGrids, LayerGrids, ProjectedScene
from attn_desktop.model.positions import sinusoidal_encoding
from attn_desktop.model.scene import Scene
from attn_desktop.model.scene_files import new_scene
from attn_desktop.model.teaching.positions_lab import (
    clock_angles,
    compare_orders,
    encoding_dot_by_distance,
    first_pair,
    is_anti_diagonal,
    lab_head,
    learned_head,
    order_back,
    other_order,
    score_along_distance,
    score_along_m,
    shuffled_order,
    turn_pair,
)
from attn_desktop.model.teaching.rope_base import rope_base_in

WORDS = ["the", "dog", "chased", "the", "cat"]


def dog_and_cat_scene() -> Scene:
    """Lesson 10's kind of scene: 2-D word vectors, grids, no mask (the two "the"s the same word)."""
    return dog_and_cat_reading().scene


def dog_and_cat_reading() -> HeadReading:
    """The same, looked at with the query it comes with ("dog")."""
    the, dog, chased, cat = [0.2, 1.0], [1.5, 0.3], [-0.4, 1.2], [1.1, -0.8]
    grids = HeadGrids(w_q=[[1.0, 0.5], [-0.3, 1.0]], w_k=[[0.8, -0.2], [0.4, 1.1]], w_v=[[1.0, 0.0], [0.3, 0.7]])
    view = ViewState()
    return HeadReading(new_scene(ProjectedScene(tokens=list(WORDS), scale=True, causal=False, selected=1, title="dog and cat",
                                    embeddings=[the, dog, chased, the, cat], layers=[LayerGrids(heads=[grids])]), view), view)


def test_the_lesson_s_other_order_swaps_the_dog_and_the_cat():
    shown = compare_orders(lab_head(read(dog_and_cat_scene())), other_order(5))
    assert shown.second_tokens == ["the", "cat", "chased", "the", "dog"]
    assert other_order(2) == [1, 0] and other_order(1) == [0]


@pytest.mark.parametrize("seed", range(5))
def test_without_positions_every_output_is_the_same_only_reordered(seed):
    head = lab_head(read(dog_and_cat_scene()))
    order = shuffled_order(5, np.random.default_rng(seed))
    assert order != list(range(5))
    shown = compare_orders(head, order)
    np.testing.assert_allclose(shown.second.output, shown.first.output[order], rtol=0, atol=1e-12)
    np.testing.assert_allclose(shown.second.weights, shown.first.weights[np.ix_(order, order)], rtol=0, atol=1e-12)
    assert shown.outputs_only_reordered() and shown.weights_only_reordered()


@pytest.mark.parametrize("strength", [0.1, 1.0, 2.0])
def test_with_positions_added_the_two_orders_differ(strength):
    head = lab_head(read(dog_and_cat_scene()))
    shown = compare_orders(head, other_order(5), strength)
    assert not shown.outputs_only_reordered(1e-6)
    # The sentence's own order is x_i + α·PE[i] through the grids, as the lab says.
    x = np.array(dog_and_cat_scene().vectors(Role.EMBEDDING)) + strength * sinusoidal_encoding(5, 2)
    q = x @ np.array([[1.0, 0.5], [-0.3, 1.0]])
    k = x @ np.array([[0.8, -0.2], [0.4, 1.1]])
    np.testing.assert_allclose(shown.first.scores, q @ k.T, atol=1e-12)


def test_a_head_given_q_k_and_v_gets_its_positions_added_to_them():
    scene = new_scene(DirectScene(tokens=["a", "b", "c"], queries=[[1, 0], [0, 1], [1, 1]],
                                  keys=[[1, 0], [0, 1], [1, 1]], values=[[1], [2], [3]]))
    head = lab_head(read(scene))
    q, k, v = head.vectors([0, 1, 2], 1.0)
    np.testing.assert_allclose(k, np.array([[1, 0], [0, 1], [1, 1]]) + sinusoidal_encoding(3, 2))
    np.testing.assert_allclose(q, np.array([[1, 0], [0, 1], [1, 1]]) + sinusoidal_encoding(3, 2))
    np.testing.assert_allclose(v, np.array([[1], [2], [3]]) + sinusoidal_encoding(3, 1))
    assert compare_orders(head, [2, 1, 0]).outputs_only_reordered()


def test_a_cross_attention_scene_has_no_sentence_to_reorder():
    scene = new_scene(DirectScene(tokens=["apple", "pear"], query_tokens=["ask"], queries=[[1, 0]],
                                  keys=[[1, 0], [0, 1]], values=[[3], [5]]))
    assert lab_head(read(scene)) is None


def test_the_encodings_dot_product_depends_on_the_distance_only():
    for width in (2, 8, 64):
        encoding = sinusoidal_encoding(40, width)
        gram = encoding @ encoding.T
        for distance in range(-10, 11):
            along = np.diagonal(gram, offset=distance)
            np.testing.assert_allclose(along, along[0], atol=1e-12)
        distances, dots = encoding_dot_by_distance(width, reach=10)
        np.testing.assert_allclose(dots, [gram[20, 20 - d] for d in distances], atol=1e-12)
    distances, dots = encoding_dot_by_distance(2, reach=3)
    np.testing.assert_allclose(dots, np.cos(distances), atol=1e-12)  # one pair: sin·sin + cos·cos = cos(i − j)


def test_lesson_5_s_head_reverses_with_its_positions_and_cannot_without_them():
    head = learned_head()
    assert head.tokens == ["0:3", "1:1", "2:4", "3:1", "4:5"] and head.pos.shape[1] == 16
    with_positions = head.weights(1.0)
    assert is_anti_diagonal(with_positions) and with_positions[0, 4] > 0.9
    without = head.weights(0.0)
    assert not is_anti_diagonal(without)
    np.testing.assert_allclose(without[1], without[3], atol=1e-12)  # the two 1s: the same digit, the same row
    np.testing.assert_allclose(without[:, 1], without[:, 3], atol=1e-12)


@pytest.mark.parametrize("shift", [1, 5, 13])
def test_a_turned_pair_s_score_depends_on_m_minus_n_only(shift):
    q, k = np.array([1.2, -0.4]), np.array([0.3, 0.9])
    for m, n in ((4, 0), (7, 3), (2, 9)):
        assert turn_pair(q, k, m + shift, n + shift).score == pytest.approx(turn_pair(q, k, m, n).score, abs=1e-12)
    shown = turn_pair(q, k, 4, 0)
    assert shown.score == pytest.approx(
        np.linalg.norm(q) * np.linalg.norm(k) * math.cos(shown.angle), abs=1e-12)
    np.testing.assert_allclose(shown.q, [1.2 * math.cos(4) + 0.4 * math.sin(4), 1.2 * math.sin(4) - 0.4 * math.cos(4)])
    np.testing.assert_allclose(shown.k, k)  # n = 0: not turned


def test_q_k_against_m_with_the_distance_held_is_flat_and_against_the_distance_a_cosine():
    q, k = np.array([1.2, -0.4]), np.array([0.3, 0.9])
    ms, along_m = score_along_m(q, k, distance=4)
    assert ms.tolist() == list(range(21))
    np.testing.assert_allclose(along_m, along_m[0], atol=1e-12)
    distances, along_distance = score_along_distance(q, k)
    phase = math.atan2(q[1], q[0]) - math.atan2(k[1], k[0])
    np.testing.assert_allclose(along_distance, np.linalg.norm(q) * np.linalg.norm(k) * np.cos(distances + phase),
                               atol=1e-12)
    assert np.ptp(along_distance) > 1


def test_smollm2_s_fast_pairs_spin_and_its_slow_ones_hardly_move():
    angles = clock_angles(5, 100000.0)
    assert angles.shape == (32,) and angles[0] == pytest.approx(5.0)
    assert angles[-1] < 0.001
    assert clock_angles(0, 100000.0).tolist() == [0.0] * 32


def test_a_vector_s_first_pair():
    assert first_pair(np.array([3.0])).tolist() == [3.0, 0.0]
    assert first_pair(np.array([1.0, 2.0, 3.0])).tolist() == [1.0, 2.0]


def test_the_order_back_to_the_first_matches_equal_words_in_turn():
    assert order_back(["a", "b", "a"], ["b", "a", "a"]) == [1, 0, 2]
    assert order_back(["a", "b"], ["a", "c"]) is None
    assert order_back(["a"], ["a", "a"]) is None


def test_reordering_the_scene_moves_every_vector_with_its_word_and_undoes():
    shown = dog_and_cat_reading()
    scene = shown.scene
    before = scene.vectors(Role.EMBEDDING).copy()
    view_choice = shown.selected  # "dog"
    command = ReorderTokens((4, 1, 2, 3, 0))
    command.do(scene, shown.view)
    assert scene.tokens == ["cat", "dog", "chased", "the", "the"]
    np.testing.assert_array_equal(scene.vectors(Role.EMBEDDING), before[[4, 1, 2, 3, 0]])
    assert shown.selected_token == "dog" and view_choice == 1
    command.undo(scene, shown.view)
    assert scene.tokens == WORDS and np.array_equal(scene.vectors(Role.EMBEDDING), before)
    RunNow(scene, shown.view).do(ReorderTokens((1, 0, 2, 3, 4)))
    assert scene.tokens[:2] == ["dog", "the"] and shown.selected_token == "dog"
    with pytest.raises(ValueError, match="not an ordering"):
        scene.reorder_tokens([0, 0, 1, 2, 3])


def test_the_rope_base_is_read_from_a_model_file_s_header(tmp_path):
    pytest.importorskip("gguf")
    from tests.support.tiny_llama import write_tiny_llama

    path = tmp_path / "tiny.gguf"
    write_tiny_llama(path, rope_base=100000.0)
    assert rope_base_in(path) == 100000.0
    (tmp_path / "not.gguf").write_bytes(b"GGML and then nothing")
    assert rope_base_in(tmp_path / "not.gguf") is None
    assert rope_base_in(tmp_path / "missing.gguf") is None
    truncated = tmp_path / "truncated.gguf"
    truncated.write_bytes(path.read_bytes()[:40])
    assert rope_base_in(truncated) is None
