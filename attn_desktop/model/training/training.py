"""Training one attention head on a task: plain Adam, a fresh batch every step, and the head's accuracy.

The head and its hand-worked gradients are head_maths.py's, its parameters head_params.py's. Everything
random is drawn from np.random.default_rng seeded by the trainer's seed, so the same task, seed
and settings give the same weights on the same machine.

Nothing here imports Qt: the command line trains headless, and the Training
panel runs a Trainer in a worker thread (snapshot() hands it copies).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from attn_desktop.model.training.head_maths import accuracy_of, forward, loss_grads_and_forward, loss_of
from attn_desktop.model.training.head_params import HeadParams, init_params
from attn_desktop.model.training.tasks import Task

OPTIMISER_NAME = "Adam"
ADAM_BETAS = (0.9, 0.999)
ADAM_EPSILON = 1e-8
EVALUATION_COUNT = 1000
EVALUATION_SEED = 20240612  # fresh sequences, never the training batches' stream


@dataclass(frozen=True)
class StepMetrics:
    """After one step: how many steps so far, and the loss and accuracy on that step's batch."""

    step: int
    loss: float
    accuracy: float


class Trainer:
    """Adam on one task from one seed; every step draws a fresh batch.

    step() may run in a worker thread while another thread calls snapshot():
    a lock keeps the copy from catching half an update.
    """

    def __init__(
        self,
        task: Task,
        seed: int,
        lr: float | None = None,
        batch_size: int | None = None,
        d_model: int | None = None,
        d_v: int | None = None,
    ) -> None:
        lr = task.default_lr if lr is None else float(lr)
        if not math.isfinite(lr) or lr <= 0:
            raise ValueError(f"the learning rate must be a positive number, not {lr}")
        batch_size = task.default_batch_size if batch_size is None else int(batch_size)
        if batch_size < 1:
            raise ValueError(f"the batch size must be at least 1, not {batch_size}")
        self.task = task
        self.seed = int(seed)
        self.lr = lr
        self.batch_size = batch_size
        self.optimiser = OPTIMISER_NAME
        self._lock = threading.Lock()
        self._params = init_params(task, self.seed, d_model=d_model, d_v=d_v)
        self._batches = np.random.default_rng([self.seed, 1])
        self._first_moment = {name: np.zeros_like(array) for name, array in self._params.arrays()}
        self._second_moment = {name: np.zeros_like(array) for name, array in self._params.arrays()}
        self._steps = 0

    @property
    def steps(self) -> int:
        """How many steps have been taken."""
        return self._steps

    @property
    def params(self) -> HeadParams:
        """The current parameters (live arrays: read them in the training thread, or use snapshot())."""
        return self._params

    def snapshot(self) -> HeadParams:
        """A copy of the current parameters, safe to read while training goes on in another thread."""
        with self._lock:
            return self._params.copy()

    def step(self) -> StepMetrics:
        """One Adam step on a fresh batch; the metrics are of that batch, before the update."""
        batch = self.task.sample(self._batches, self.batch_size)
        loss, grads, result = loss_grads_and_forward(self._params, batch, self.task.causal)
        accuracy = accuracy_of(result, batch)
        beta1, beta2 = ADAM_BETAS
        with self._lock:
            self._steps += 1
            correction1 = 1.0 - beta1**self._steps
            correction2 = 1.0 - beta2**self._steps
            for name, grad in grads.arrays():
                m = self._first_moment[name]
                v = self._second_moment[name]
                m *= beta1
                m += (1.0 - beta1) * grad
                v *= beta2
                v += (1.0 - beta2) * grad * grad
                update = self.lr * (m / correction1) / (np.sqrt(v / correction2) + ADAM_EPSILON)
                getattr(self._params, name)[...] -= update
        return StepMetrics(step=self._steps, loss=loss, accuracy=accuracy)

    def evaluate(self, count: int = EVALUATION_COUNT, seed: int = EVALUATION_SEED) -> float:
        """Accuracy on COUNT fresh random sequences (drawn from SEED, not from the training stream)."""
        return evaluate(self.task, self.snapshot(), count=count, seed=seed)


def evaluate(task: Task, params: HeadParams, count: int = EVALUATION_COUNT, seed: int = EVALUATION_SEED) -> float:
    """The accuracy of PARAMS on COUNT random sequences of TASK drawn from SEED.

    The same count and seed give the same sequences, so an edited head
    (a key dragged by hand) is compared with the trained one on the same test.
    """
    batch = task.sample(np.random.default_rng(seed), count)
    return accuracy_of(forward(params, batch.tokens, task.causal), batch)


def evaluate_loss(task: Task, params: HeadParams, count: int = EVALUATION_COUNT, seed: int = EVALUATION_SEED) -> float:
    batch = task.sample(np.random.default_rng(seed), count)
    return loss_of(forward(params, batch.tokens, task.causal), batch)


def train(
    task: Task,
    steps: int,
    seed: int = 0,
    lr: float | None = None,
    on_step: Callable[[StepMetrics], None] | None = None,
) -> Trainer:
    """A trainer that has taken STEPS steps; ON_STEP hears of each one."""
    trainer = Trainer(task, seed, lr=lr)
    for _ in range(steps):
        metrics = trainer.step()
        if on_step is not None:
            on_step(metrics)
    return trainer
