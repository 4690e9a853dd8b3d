"""The translator as the Training panel's worker drives any trainer: step() gives (step, loss, exact match),
evaluate() the held-out exact match, snapshot() a copy; the same seed gives the same run."""

import math

import numpy as np
import pytest

from attn_desktop.model.training.training import StepMetrics, TrainingDiverged
from attn_desktop.model.training.translation_run import TRANSLATE_TASK, TranslationRun
from attn_desktop.model.training.translation_trainer import TranslationTrainer


def test_a_run_steps_as_the_translation_trainer_does_and_reports_its_figures():
    run, trainer = TranslationRun(TRANSLATE_TASK, seed=3, lr=0.005), TranslationTrainer(TRANSLATE_TASK, 3, 0.005)
    metrics = [run.step() for _ in range(5)]
    figures = trainer.step(5)
    assert all(isinstance(item, StepMetrics) for item in metrics)
    assert [item.step for item in metrics] == figures.steps == [1, 2, 3, 4, 5]
    assert [item.loss for item in metrics] == figures.losses
    assert [item.accuracy for item in metrics] == figures.exact_matches
    assert metrics[-1].held_out_exact_match == figures.held_out_exact_match == run.evaluate()
    assert run.steps == 5
    for (name, kept), (_, live) in zip(run.snapshot().arrays(), trainer.params.arrays(), strict=True):
        np.testing.assert_array_equal(kept, live, err_msg=name)


def test_a_run_reaches_the_task_exact_match_within_its_default_steps():
    run = TranslationRun(TRANSLATE_TASK, seed=0, lr=TRANSLATE_TASK.default_lr)
    while run.evaluate() < TRANSLATE_TASK.target_exact_match:
        run.step()
        assert run.steps <= TRANSLATE_TASK.default_steps
    assert run.evaluate(count=1000) == run.evaluate()  # the count is the worker's; held-out pairs are fixed


def test_a_diverged_step_is_kept_for_the_worker_to_read():
    run = TranslationRun(TRANSLATE_TASK, seed=0, lr=1e300)
    assert run.diverged is None
    with pytest.raises(TrainingDiverged):
        for _ in range(20):
            run.step()
    assert isinstance(run.diverged, TrainingDiverged) and math.isfinite(run.evaluate())


def test_the_task_has_a_title_and_a_description_for_the_list():
    assert TRANSLATE_TASK.name == TRANSLATE_TASK.title == "translate"
    assert TRANSLATE_TASK.description.strip()
