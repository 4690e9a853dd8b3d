"""The induction probe's loss: how well the model guesses the second copy of the random tokens (mean
cross-entropy, nats). SmolLM2 copies: its loss is far below the first copy's, and knocking out its strongest
induction heads raises it by several nats."""

import math

import numpy as np
import pytest

from attn_desktop.model.pretrained.induction import DEFAULT_LENGTH, probe_induction, second_copy_loss

STRONGEST_INDUCTION_HEADS = {(17, 3), (17, 4), (17, 5), (18, 6)}  # test_induction.py: every seed tried


def test_the_loss_is_the_mean_of_minus_log_the_probability_of_each_token():
    logits = np.array([[0.0, 0.0], [math.log(3), 0.0]])  # p = 1/2, 1/2; then 3/4, 1/4
    assert second_copy_loss(logits, [0, 0]) == pytest.approx((math.log(2) + math.log(4 / 3)) / 2)
    assert second_copy_loss(logits, [1, 1]) == pytest.approx((math.log(2) + math.log(4)) / 2)


def first_copy_loss(model, probe):
    """The same loss on the first copy's tokens: random, so nothing predicts them."""
    ids, start, length = probe.token_ids, probe.start, probe.length
    logits = model.position_logits(probe.run, list(range(start, start + length - 1)))
    return second_copy_loss(logits, ids[start + 1 : start + length])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_smollm2_guesses_the_second_copy_and_loses_it_without_its_induction_heads(smollm2, seed):
    probe = probe_induction(smollm2, DEFAULT_LENGTH, seed)
    knocked = probe_induction(smollm2, DEFAULT_LENGTH, seed, STRONGEST_INDUCTION_HEADS)
    assert probe.knocked_out == frozenset() and knocked.knocked_out == STRONGEST_INDUCTION_HEADS
    assert knocked.token_ids == probe.token_ids
    assert probe.loss < 3.0  # measured 1.3, 2.0 and 2.7
    assert first_copy_loss(smollm2, probe) > 9.0  # about 13: no better than chance (ln 10,000 = 9.2)
    assert knocked.loss > probe.loss + 3.0  # measured 6.2 to 6.5
    # the heads knocked out no longer add anything, but their own weights are still computed and shown
    assert knocked.scores[18, 6] > 0.5
