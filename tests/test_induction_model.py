"""The two-layer induction model: its data, its hand-worked gradients, training from fixed seeds, the circuit's
scores, knocking a head out, and the trained model as JSON and as a scene."""

import dataclasses
import math

import numpy as np
import pytest

from attn_desktop.model.scene import Scene
from attn_desktop.model.scene_files import scene_data_from_document, scene_document
from attn_desktop.model.training.induction_circuit import (
    CIRCUIT_THRESHOLD,
    induction_scores,
    induction_targets,
    loss_drop,
    previous_token_scores,
    read_circuit,
)
from attn_desktop.model.training.induction_document import induction_document, induction_scene_data
from attn_desktop.model.training.induction_task import INDUCTION, predictable_places
from attn_desktop.model.training.layered_maths import forward, loss_grads_and_forward
from attn_desktop.model.training.layered_params import init_layered_params, layered_params_from_lists
from attn_desktop.model.training.training import Trainer

SMALL = dataclasses.replace(INDUCTION, n_heads=2, d_model=5, d_head=3)  # a gradient check touches every number


def letters(text):
    return [INDUCTION.vocab.index(letter) for letter in text]


@pytest.fixture(scope="module")
def trained():
    """Seed 0 after 600 steps: past the drop (about step 220), as the lesson shows it."""
    trainer = Trainer(INDUCTION, seed=0)
    losses = [trainer.step().loss for _ in range(600)]
    return trainer, losses


def test_a_stretch_comes_back_and_only_its_second_copy_is_scored():
    tokens = letters("QDKWNRHBTCFJPMDKWNRH")  # D K W N R H at 1..6 and again at 14..19
    scored = predictable_places(np.array(tokens))
    assert np.flatnonzero(scored).tolist() == [14, 15, 16, 17, 18]  # H at 19 is followed by nothing
    targets, scored_too = INDUCTION.targets(np.array(tokens))
    assert INDUCTION.words(targets[14:19]) == list("KWNRH") and np.array_equal(scored, scored_too)


def test_drawn_sequences_repeat_one_stretch_and_nothing_else():
    batch = INDUCTION.sample(np.random.default_rng(7), 200)
    for row, scored in zip(batch.tokens, batch.scored):
        places = np.flatnonzero(scored)
        first, last = places[0], places[-1] + 1  # the second copy, from its first letter to its last
        size = last - first + 1
        assert 4 <= size <= 8 and np.array_equal(places, np.arange(first, last))
        outside = np.delete(row, np.arange(first, last + 1))
        assert len(set(outside.tolist())) == outside.size  # every other letter once: one earlier occurrence


def test_the_key_an_induction_head_should_read_is_the_one_after_the_earlier_occurrence():
    queries, keys = induction_targets(np.array(letters("QDKWNRHBTCFJPMDKWNRH")))
    assert queries[14:19].tolist() == [14, 15, 16, 17, 18] and keys[14:19].tolist() == [2, 3, 4, 5, 6]
    assert (queries[:14] == -1).all() and (keys[:14] == -1).all()


def test_the_scores_are_mean_weights_on_the_named_keys():
    tokens = np.array(letters("QDKWNRHBTCFJPMDKWNRH"))
    params = init_layered_params(INDUCTION, 1)
    result = forward(params, tokens)
    weights = result.attention(1, 0)
    assert induction_scores(result)[1, 0] == pytest.approx(np.mean([weights[i, i - 12] for i in range(14, 19)]))
    assert previous_token_scores(result)[0, 0] == pytest.approx(np.mean([result.attention(0, 0)[i, i - 1]
                                                                        for i in range(1, 20)]))


@pytest.mark.parametrize("knocked_out", [(), [(0, 1)], [(1, 0), (1, 1)]])
def test_every_gradient_matches_central_differences(knocked_out):
    params = init_layered_params(SMALL, 3)
    batch = SMALL.sample(np.random.default_rng(1), 3)
    _loss, grads, _ = loss_grads_and_forward(params, batch, True, knocked_out)
    analytic = dict(grads.arrays())
    worst = 0.0
    for name, array in params.arrays():
        for index in np.ndindex(array.shape):
            kept = array[index]
            array[index] = kept + 1e-6
            above = loss_grads_and_forward(params, batch, True, knocked_out)[0]
            array[index] = kept - 1e-6
            below = loss_grads_and_forward(params, batch, True, knocked_out)[0]
            array[index] = kept
            worst = max(worst, abs((above - below) / 2e-6 - analytic[name][index]))
    assert worst < 1e-6


def test_loss_and_gradients_match_torch_autograd():
    torch = pytest.importorskip("torch")
    params = init_layered_params(SMALL, 5)
    batch = SMALL.sample(np.random.default_rng(2), 4)
    loss, grads, _ = loss_grads_and_forward(params, batch, True)
    leaves = {name: torch.tensor(array, dtype=torch.float64, requires_grad=True) for name, array in params.arrays()}
    tokens = torch.tensor(batch.tokens)
    stream = leaves["embed"][tokens] + leaves["pos"]
    hidden = ~torch.tril(torch.ones(SMALL.seq_len, SMALL.seq_len, dtype=torch.bool))
    for layer in range(SMALL.n_layers):
        x = stream[:, None]
        q, k, v = (x @ leaves[f"layers.{layer}.{name}"] for name in ("w_q", "w_k", "w_v"))
        scores = (q @ k.transpose(-1, -2) / math.sqrt(SMALL.d_head)).masked_fill(hidden, float("-inf"))
        z = torch.softmax(scores, dim=-1) @ v
        stream = stream + z.transpose(1, 2).reshape(*stream.shape[:2], -1) @ leaves[f"layers.{layer}.w_o"]
    logits = stream @ leaves["w_u"] + leaves["b_u"]
    picked = torch.log_softmax(logits, dim=-1).gather(-1, torch.tensor(batch.targets)[..., None])[..., 0]
    scored = torch.tensor(batch.scored, dtype=torch.float64)
    reference = -(picked * scored).sum() / scored.sum()
    reference.backward()
    assert loss == pytest.approx(reference.item(), abs=1e-12)
    for name, grad in grads.arrays():
        assert np.abs(grad - leaves[name].grad.numpy()).max() < 1e-6, name


def test_the_same_seed_trains_the_same_model_and_another_seed_another():
    def weights(seed):
        trainer = Trainer(INDUCTION, seed)
        for _ in range(20):
            trainer.step()
        return dict(trainer.snapshot().arrays())

    again, other = weights(4), weights(5)
    first = weights(4)
    assert all(np.array_equal(first[name], again[name]) for name in first)
    assert not np.array_equal(first["w_u"], other["w_u"])


def test_the_loss_sits_on_a_plateau_near_chance_then_drops(trained):
    _trainer, losses = trained
    plateau_end, drop = loss_drop(losses, len(INDUCTION.vocab))
    assert losses[0] == pytest.approx(math.log(24), abs=0.15)
    assert plateau_end is not None and drop is not None and 50 <= plateau_end < drop <= 400
    assert np.mean(losses[:plateau_end]) > 0.9 * math.log(24) and np.mean(losses[drop - 19:drop + 1]) < 0.5 * math.log(24)


def test_plateau_and_drop_of_a_curve_made_by_hand():
    chance = math.log(24)
    curve = [chance] * 40 + [0.1] * 40  # the mean of the last 20 leaves 0.9 of chance after index 41, half at 50
    assert loss_drop(curve, 24) == (41, 50)
    assert loss_drop([chance] * 30 + [0.1] + [chance] * 30, 24) == (None, None)  # one lucky batch is no drop
    assert loss_drop([chance] * 30, 24) == (None, None)


def test_training_forms_both_heads_and_the_induction_head_reads_through_layer_1(trained):
    trainer, _ = trained
    reading = read_circuit(INDUCTION, trainer.snapshot())
    assert reading.accuracy >= 0.85 and reading.formed
    assert reading.previous_token_head[1] >= CIRCUIT_THRESHOLD and reading.induction_head[1] >= CIRCUIT_THRESHOLD
    layer1_out = read_circuit(INDUCTION, trainer.snapshot(), knocked_out=[(0, 0)])
    assert layer1_out.accuracy < 0.4
    assert read_circuit(INDUCTION, trainer.snapshot()).accuracy == reading.accuracy  # knocking out changed nothing


def test_the_exported_example_reproduces_from_the_exported_weights(trained):
    trainer, _ = trained
    document = induction_document(trainer)
    assert {"task", "vocab", "seq_len", "causal", "model", "metrics", "example"} <= set(document)
    assert set(document["model"]) == {"embed", "pos", "layers", "w_u", "b_u"}
    assert set(document["model"]["layers"][0]) == {"heads", "w_o"}
    params = layered_params_from_lists(INDUCTION, document["model"])
    result = forward(params, document["example"]["token_ids"])
    attention = np.array(document["example"]["attention"])  # [layer][head][query][key]
    assert attention.shape == (2, 1, 20, 20)
    assert np.abs(attention - np.stack([layer.weights for layer in result.layers])).max() < 1e-9


@pytest.mark.parametrize(("change", "message"), [
    (lambda model: model.pop("w_u"), "w_u: missing"),
    (lambda model: model["layers"][1]["heads"][0].update(w_k=[[1.0] * 3] * 32), r"layers\[1\].heads\[0\].w_k: has shape"),
    (lambda model: model["layers"].clear(), "layers: expected a list"),
    (lambda model: model["pos"][3].__setitem__(0, math.nan), "pos: holds a number that is not finite"),
])
def test_a_broken_model_is_refused_with_what_is_wrong(trained, change, message):
    model = induction_document(trained[0])["model"]
    change(model)
    with pytest.raises(ValueError, match=message):
        layered_params_from_lists(INDUCTION, model)


def test_kept_as_scene_the_model_is_two_layers_showing_its_own_attention_and_reopens(trained):
    trainer, _ = trained
    tokens = INDUCTION.example_tokens()
    scene = Scene(induction_scene_data(INDUCTION, trainer.snapshot(), tokens))
    result = forward(trainer.snapshot(), tokens)
    assert [len(layer.heads) for layer in scene.layers] == [1, 1]
    for layer in range(2):
        assert np.abs(scene.head(layer, 0).attention.weights - result.attention(layer, 0)).max() < 1e-12
    reopened = Scene(scene_data_from_document(scene_document(scene)))
    assert np.array_equal(reopened.head(1, 0).attention.weights, scene.head(1, 0).attention.weights)
