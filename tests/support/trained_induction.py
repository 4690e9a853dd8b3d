"""A model trained on induction, once per test session, and a trainer that starts from it.

Tests that need a trained induction model (knock-outs, Keep as scene) use it instead of waiting for a run
of their own: 500 steps of INDUCTION from seed 0, where every seed has formed both heads.
"""

from __future__ import annotations

import functools

from attn_desktop.model.training.induction_task import INDUCTION
from attn_desktop.model.training.training import StepMetrics, Trainer, evaluate
from attn_desktop.ui.training.training_worker import make_real_trainer

TRAINED_STEPS = 500


@functools.lru_cache(maxsize=1)
def trained_params():
    trainer = Trainer(INDUCTION, seed=0)
    for _ in range(TRAINED_STEPS):
        trainer.step()
    return trainer.snapshot()


def trained_trainer(settings):
    """For induction, a trainer that starts from the trained model; the app's own for the other tasks."""
    if settings.task_name == "induction":
        return TrainedTrainer()
    return make_real_trainer(settings)


class TrainedTrainer:
    """Starts from the trained model and keeps it (its steps report what the trained model would)."""

    def __init__(self):
        self.params = trained_params().copy()
        self.steps = 0

    def step(self):
        self.steps += 1
        return StepMetrics(self.steps, 0.01, 1.0)

    def snapshot(self):
        return self.params.copy()

    def evaluate(self, count=1000):
        return evaluate(INDUCTION, self.params, count=count)
