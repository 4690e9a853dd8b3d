"""A learning rate far too large: the trainer stops with one clear reason and keeps the last good head.

Hypothesis drives the Trainer over any positive rate and a few dozen steps: nothing escapes but
TrainingDiverged, no NumPy warning is printed, and every loss reported is a finite number.
"""

import dataclasses
import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attn_desktop.model.training import training
from attn_desktop.model.training.tasks import TASKS
from attn_desktop.model.training.training import (
    MAX_LEARNING_RATE,
    MIN_LEARNING_RATE,
    Trainer,
    TrainingDiverged,
    evaluate_loss,
)


def all_finite(params) -> bool:
    return all(np.isfinite(array).all() for _name, array in params.arrays())


def same_head(a, b) -> bool:
    return all(np.array_equal(x, y) for (_n, x), (_m, y) in zip(a.arrays(), b.arrays()))


@pytest.fixture(autouse=True)
def warnings_are_errors():
    """A RuntimeWarning (overflow in matmul, invalid value in subtract) fails the test where it is printed."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


@pytest.mark.parametrize("name", list(TASKS))
@pytest.mark.parametrize("lr", [1e120, 1e200, 1e308])
def test_a_huge_rate_stops_at_step_2_with_one_line_and_the_first_head_kept(name, lr):
    trainer = Trainer(TASKS[name], seed=0, lr=lr)
    first = trainer.snapshot()
    assert math.isfinite(trainer.step().loss)  # step 1 measures the first head, then blows it up
    with pytest.raises(TrainingDiverged) as raised:
        trainer.step()
    assert str(raised.value) in ("the loss became NaN at step 2", "the gradient became NaN at step 2")
    assert raised.value.step == 2 and raised.value.kept_step == 0
    # Back to the last head whose loss was a number: the first one, which still scores as it did.
    assert same_head(trainer.snapshot(), first) and trainer.steps == 0
    assert math.isfinite(evaluate_loss(TASKS[name], trainer.snapshot()))
    assert trainer.diverged is not None


def test_every_step_after_a_divergence_says_the_same_and_changes_nothing():
    trainer = Trainer(TASKS["reverse"], seed=0, lr=1e200)
    trainer.step()
    with pytest.raises(TrainingDiverged):
        trainer.step()
    kept = trainer.snapshot()
    for _ in range(3):
        with pytest.raises(TrainingDiverged, match="^the loss became NaN at step 2$"):
            trainer.step()
    assert same_head(trainer.snapshot(), kept)


def test_a_loss_that_becomes_nan_later_goes_back_to_the_head_before_the_last_update(monkeypatch):
    """Step 5's loss is NaN: the head measured at step 4 (after 3 updates) is the last good one."""
    real = training.ONE_HEAD.loss_grads_and_forward
    calls = []

    def nan_at_step_5(params, batch, causal):
        calls.append(True)
        loss, grads, result = real(params, batch, causal)
        return (math.nan if len(calls) == 5 else loss), grads, result

    monkeypatch.setattr(training, "ONE_HEAD", dataclasses.replace(training.ONE_HEAD, loss_grads_and_forward=nan_at_step_5))
    trainer = Trainer(TASKS["it-noun"], seed=4)
    for _ in range(4):
        trainer.step()
    with pytest.raises(TrainingDiverged, match="^the loss became NaN at step 5$"):
        trainer.step()
    monkeypatch.setattr(training, "ONE_HEAD", dataclasses.replace(training.ONE_HEAD, loss_grads_and_forward=real))
    three_steps = Trainer(TASKS["it-noun"], seed=4)
    for _ in range(3):
        three_steps.step()
    assert trainer.steps == 3 and same_head(trainer.snapshot(), three_steps.snapshot())


def test_an_update_that_overflows_the_weights_is_refused_and_the_head_left_as_it_was():
    trainer = Trainer(TASKS["reverse"], seed=0, lr=1e308)
    trainer.params.b_o[...] = -1e308  # one step of 1e308 against the gradient takes some of these past -inf
    before = trainer.snapshot()
    with pytest.raises(TrainingDiverged, match="^the weights became too large to hold at step 1$"):
        trainer.step()
    assert same_head(trainer.snapshot(), before) and trainer.steps == 0


def test_the_rates_the_app_offers_never_diverge_on_any_task():
    for name, task in TASKS.items():
        for lr in (MIN_LEARNING_RATE, MAX_LEARNING_RATE):
            trainer = Trainer(task, seed=1, lr=lr)
            losses = [trainer.step().loss for _ in range(150)]
            assert all(map(math.isfinite, losses)), (name, lr)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(list(TASKS)),
    seed=st.integers(0, 2**32),
    lr=st.one_of(
        st.floats(min_value=5e-324, max_value=1.7976931348623157e308, allow_nan=False, allow_infinity=False),
        st.sampled_from([1e10, 1e30, 1e100, 1e120, 1e200, 1e308]),
    ),
    steps=st.integers(1, 25),
)
def test_any_rate_and_any_number_of_steps_either_trains_on_numbers_or_says_it_diverged(name, seed, lr, steps):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        trainer = Trainer(TASKS[name], seed=seed, lr=lr)
        for _ in range(steps):
            try:
                metrics = trainer.step()
            except TrainingDiverged as diverged:
                assert diverged.kept_step == trainer.steps and diverged.step > trainer.steps
                assert "at step" in str(diverged) and "\n" not in str(diverged)
                break
            assert math.isfinite(metrics.loss) and 0.0 <= metrics.accuracy <= 1.0
        assert all_finite(trainer.snapshot())
        trainer.evaluate(count=50)  # measuring whatever head is left prints no warning either
