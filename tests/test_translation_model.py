"""The encoder-decoder of the translate task: its hand-worked gradients against central differences and torch,
padding that changes nothing, and the same numbers from the same seed."""

import dataclasses
import math

import numpy as np
import pytest

from attn_desktop.model.training.translation_maths import forward, loss_grads_and_forward
from attn_desktop.model.training.translation_params import init_translation_params
from attn_desktop.model.training.translation_task import TRANSLATE, translation_of

TINY = dataclasses.replace(TRANSLATE, d_model=4, d_head=3, n_heads=2, mlp_width=5)
SHAPES = {
    "default shape": {},
    "no MLP": {"mlp_width": 0},
    "an encoder layer": {"encoder_layers": 1},
    "two decoder layers, no MLP": {"decoder_layers": 2, "mlp_width": 0},
}
PAIRS = [translation_of(text) for text in ("el gato duerme", "un perro negro ve el pez", "el oso sigue un lobo rojo")]


def tiny(shape):
    return dataclasses.replace(TINY, **SHAPES[shape])


@pytest.mark.parametrize("knocked_out", [(), [("cross", 0, 1)]])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_gradient_matches_central_differences(shape, knocked_out):
    task = tiny(shape)
    if knocked_out and task.encoder_layers:
        knocked_out = [*knocked_out, ("encoder", 0, 0)]
    params = init_translation_params(task, 3)
    batch = task.batch(PAIRS)  # three lengths: the padding is in there too
    _loss, grads, _ = loss_grads_and_forward(params, batch, knocked_out)
    analytic = dict(grads.arrays())
    worst = 0.0
    for name, array in params.arrays():
        for index in np.ndindex(array.shape):
            kept = array[index]
            array[index] = kept + 1e-6
            above = loss_grads_and_forward(params, batch, knocked_out)[0]
            array[index] = kept - 1e-6
            below = loss_grads_and_forward(params, batch, knocked_out)[0]
            array[index] = kept
            worst = max(worst, abs((above - below) / 2e-6 - analytic[name][index]))
    assert worst < 1e-6


def test_loss_and_gradients_match_torch_autograd():
    torch = pytest.importorskip("torch")
    task = dataclasses.replace(TINY, encoder_layers=1, decoder_layers=2)
    params = init_translation_params(task, 5)
    batch = task.batch(PAIRS)
    loss, grads, _ = loss_grads_and_forward(params, batch)
    leaves = {name: torch.tensor(array, dtype=torch.float64, requires_grad=True) for name, array in params.arrays()}

    def attend(prefix, queries, keys, hidden):
        q, k, v = (keys if name != "w_q" else queries for name in ("w_q", "w_k", "w_v"))
        q, k, v = (x[:, None] @ leaves[f"{prefix}.{name}"] for x, name in ((q, "w_q"), (k, "w_k"), (v, "w_v")))
        scores = (q @ k.transpose(-1, -2) / math.sqrt(task.d_head)).masked_fill(hidden, float("-inf"))
        z = torch.softmax(scores, dim=-1) @ v
        return z.transpose(1, 2).reshape(*queries.shape[:2], -1) @ leaves[f"{prefix}.w_o"]

    def mlp(prefix, x):
        hidden = torch.relu(x @ leaves[f"{prefix}.w_in"] + leaves[f"{prefix}.b_in"])
        return hidden @ leaves[f"{prefix}.w_out"] + leaves[f"{prefix}.b_out"]

    source, target = torch.tensor(batch.source), torch.tensor(batch.decoder_input)
    padding = torch.tensor(~batch.source_visible)
    memory = leaves["encoder.embed"][source] + leaves["encoder.pos"][: source.shape[1]]
    memory = memory + attend("encoder.layers.0", memory, memory, padding)
    memory = memory + mlp("encoder.layers.0.mlp", memory)
    stream = leaves["decoder.embed"][target] + leaves["decoder.pos"][: target.shape[1]]
    future = ~torch.tril(torch.ones(target.shape[1], target.shape[1], dtype=torch.bool))
    for layer in range(2):
        stream = stream + attend(f"decoder.layers.{layer}.self", stream, stream, future)
        stream = stream + attend(f"decoder.layers.{layer}.cross", stream, memory, padding)
        stream = stream + mlp(f"decoder.layers.{layer}.mlp", stream)
    logits = stream @ leaves["w_u"] + leaves["b_u"]
    picked = torch.log_softmax(logits, dim=-1).gather(-1, torch.tensor(batch.targets)[..., None])[..., 0]
    scored = torch.tensor(batch.scored, dtype=torch.float64)
    reference = -(picked * scored).sum() / scored.sum()
    reference.backward()
    assert loss == pytest.approx(reference.item(), abs=1e-12)
    for name, grad in grads.arrays():
        assert np.abs(grad - leaves[name].grad.numpy()).max() < 1e-9, name


def test_a_sentence_padded_in_a_batch_gets_the_numbers_it_gets_alone():
    task = dataclasses.replace(TINY, encoder_layers=1)
    params = init_translation_params(task, 8)
    together = forward(params, task.batch(PAIRS))
    for row, pair in enumerate(PAIRS):
        alone = forward(params, task.batch([pair]))
        s, t = len(pair.source), len(pair.target) + 1
        np.testing.assert_allclose(together.logits[row, :t], alone.logits[0], rtol=0, atol=1e-12)
        np.testing.assert_allclose(together.cross_attention(0)[row, :, :t, :s], alone.cross_attention(0)[0],
                                   rtol=0, atol=1e-12)
        assert np.all(together.cross_attention(0)[row, :, :, s:] == 0)  # padding is never read


def test_a_head_knocked_out_writes_nothing():
    params = init_translation_params(TRANSLATE, 1)
    batch = TRANSLATE.batch(PAIRS)
    silent = forward(params, batch, knocked_out=[("cross", 0, 0)])
    layer = silent.decoder[0]
    assert np.all(layer.cross.joined == 0)
    np.testing.assert_array_equal(layer.after_cross, layer.after_self)
    assert not np.allclose(forward(params, batch).logits, silent.logits)


def test_the_same_seed_gives_the_same_first_weights_and_another_seed_others():
    first, again, other = (dict(init_translation_params(TRANSLATE, seed).arrays()) for seed in (4, 4, 5))
    assert all(np.array_equal(first[name], again[name]) for name in first)
    assert not np.array_equal(first["decoder.layers.0.cross.w_q"], other["decoder.layers.0.cross.w_q"])
