"""Training a model on a task: plain Adam, a fresh batch every step, and the model's accuracy.

Two models, each with its hand-worked gradients: one attention head (head_maths.py, head_params.py) for
the tasks of tasks.py, and attention-only layers (layered_maths.py, layered_params.py) for the induction
task (induction_task.py). model_maths() picks the one a task trains; the loop is the same. Everything
random is drawn from np.random.default_rng seeded by the trainer's seed, so the same task, seed
and settings give the same weights on the same machine.

A step whose loss, gradient or update is not a finite number (a learning rate far too large) raises
TrainingDiverged and changes nothing it cannot take back: the head goes back to the last one whose
loss and gradient were finite numbers, and every later step raises the same error. The app offers learning rates
from MIN_LEARNING_RATE to MAX_LEARNING_RATE (none of the tasks diverges there); the Trainer itself
takes any positive number, and stops as above when it has to.

Nothing here imports Qt: the command line trains headless, and the Training
panel runs a Trainer in a worker thread (snapshot() hands it copies).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.training import head_maths, layered_maths
from attn_desktop.model.training.head_maths import accuracy_of, loss_of
from attn_desktop.model.training.head_params import HeadParams, init_params
from attn_desktop.model.training.induction_task import InductionTask
from attn_desktop.model.training.layered_params import LayeredParams, init_layered_params
from attn_desktop.model.training.tasks import Batch, Task

AnyTask = Task | InductionTask
Params = HeadParams | LayeredParams

OPTIMISER_NAME = "Adam"
ADAM_BETAS = (0.9, 0.999)
ADAM_EPSILON = 1e-8
EVALUATION_COUNT = 1000
EVALUATION_SEED = 20240612  # fresh sequences, never the training batches' stream
# The learning rates the command line and the Training panel offer. Every task trains from every seed
# tried right up to 1 (its loss climbs to a few thousand, then settles); far above, the weights blow up.
MIN_LEARNING_RATE = 0.0001
MAX_LEARNING_RATE = 1.0


@dataclass(frozen=True)
class ModelMaths:
    """What the training loop needs of a model: a forward pass, and the loss, gradients and forward pass."""

    forward: Callable[[Any, np.ndarray, bool], Any]
    loss_grads_and_forward: Callable[[Any, Batch, bool], tuple[float, Any, Any]]


ONE_HEAD = ModelMaths(forward=head_maths.forward,
                      loss_grads_and_forward=head_maths.loss_grads_and_forward)
LAYERED = ModelMaths(forward=layered_maths.forward,
                     loss_grads_and_forward=layered_maths.loss_grads_and_forward)


def model_maths(task: AnyTask) -> ModelMaths:
    """The model a task trains: layers of heads for induction, one head for the others."""
    return LAYERED if isinstance(task, InductionTask) else ONE_HEAD


def trainable_tasks() -> dict[str, AnyTask]:
    """Every task by name: one head's (tasks.py), then the induction task's two layers."""
    from attn_desktop.model.training.induction_task import INDUCTION
    from attn_desktop.model.training.tasks import TASKS

    return {**TASKS, INDUCTION.name: INDUCTION}


class TrainingDiverged(ArithmeticError):
    """A step's loss, gradient or update was not a finite number: training has diverged.

    STEP is the step that failed; KEPT_STEP the steps behind the head the trainer went back to
    (the last one whose loss and gradient were finite numbers). The message is one line: "the loss became NaN at step 37".
    """

    def __init__(self, what: str, step: int, kept_step: int) -> None:
        # Translators: {what} says what went wrong in training ("the loss became NaN"), {step} the step number.
        super().__init__(tr("{what} at step {step}").format(what=what, step=step))
        self.what = what
        self.step = step
        self.kept_step = kept_step


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
        task: AnyTask,
        seed: int,
        lr: float | None = None,
        batch_size: int | None = None,
        d_model: int | None = None,
        d_v: int | None = None,
    ) -> None:
        lr = task.default_lr if lr is None else float(lr)
        if not math.isfinite(lr) or lr <= 0:
            raise ValueError(tr("the learning rate must be a positive number, not {rate}").format(rate=lr))
        batch_size = task.default_batch_size if batch_size is None else int(batch_size)
        if batch_size < 1:
            raise ValueError(tr("the batch size must be at least 1, not {size}").format(size=batch_size))
        self.task = task
        self.seed = int(seed)
        self.lr = lr
        self.batch_size = batch_size
        self.optimiser = OPTIMISER_NAME
        self._lock = threading.Lock()
        self._maths = model_maths(task)
        if isinstance(task, InductionTask):
            self._params: Any = init_layered_params(task, self.seed)
        else:
            self._params = init_params(task, self.seed, d_model=d_model, d_v=d_v)
        self._live = dict(self._params.arrays())  # the arrays Adam changes in place, by name
        self._batches = np.random.default_rng([self.seed, 1])
        self._first_moment = {name: np.zeros_like(array) for name, array in self._params.arrays()}
        self._second_moment = {name: np.zeros_like(array) for name, array in self._params.arrays()}
        # The head before the last update (its loss and gradient were numbers): where a diverged run goes back to.
        self._previous = {name: array.copy() for name, array in self._params.arrays()}
        self._steps = 0
        self._diverged: TrainingDiverged | None = None

    @property
    def steps(self) -> int:
        """How many steps have been taken."""
        return self._steps

    @property
    def params(self) -> Any:
        """The current parameters (live arrays: read them in the training thread, or use snapshot())."""
        return self._params

    def snapshot(self) -> Any:
        """A copy of the current parameters, safe to read while training goes on in another thread."""
        with self._lock:
            return self._params.copy()

    @property
    def diverged(self) -> TrainingDiverged | None:
        """Why training stopped for good (a step that was not a finite number), or None."""
        return self._diverged

    def step(self) -> StepMetrics:
        """One Adam step on a fresh batch; the metrics are of that batch, before the update.

        Raises TrainingDiverged, now and for every later step, when the loss, the gradient or the
        updated weights are not finite numbers (see the module's docstring); no NumPy warning is printed.
        """
        if self._diverged is not None:
            diverged = self._diverged
            raise TrainingDiverged(diverged.what, diverged.step, diverged.kept_step)
        batch = self.task.sample(self._batches, self.batch_size)
        step = self._steps + 1
        with np.errstate(all="ignore"):  # huge weights overflow on the way; the checks below say so once
            loss, grads, result = self._maths.loss_grads_and_forward(self._params, batch, self.task.causal)
            if not math.isfinite(loss):
                self._go_back_one_step()
                self._stop(tr("the loss became NaN") if math.isnan(loss) else tr("the loss became infinite"), step)
            bad_gradient = next((grad for _name, grad in grads.arrays() if not np.isfinite(grad).all()), None)
            if bad_gradient is not None:
                self._go_back_one_step()
                became_nan = math.isnan(float(bad_gradient.sum()))
                self._stop(tr("the gradient became NaN") if became_nan else tr("the gradient became infinite"), step)
            accuracy = accuracy_of(result, batch)
            updated = self._adam_update(grads, step)
            if updated is None:
                self._stop(tr("the weights became too large to hold"), step)  # the update overflowed
        with self._lock:
            for name, (m, v, param) in updated.items():
                self._previous[name][...] = self._live[name]
                self._first_moment[name][...] = m
                self._second_moment[name][...] = v
                self._live[name][...] = param
            self._steps = step
        return StepMetrics(step=step, loss=loss, accuracy=accuracy)

    def _adam_update(self, grads: Params, step: int) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] | None:
        """Each parameter's new first and second moments and value after Adam's step STEP, or None if
        a new value is not a finite number. Nothing is changed yet."""
        beta1, beta2 = ADAM_BETAS
        correction1 = 1.0 - beta1**step
        correction2 = 1.0 - beta2**step
        updated = {}
        for name, grad in grads.arrays():
            m = beta1 * self._first_moment[name] + (1.0 - beta1) * grad
            v = beta2 * self._second_moment[name] + (1.0 - beta2) * grad * grad
            param = self._live[name] - self.lr * (m / correction1) / (np.sqrt(v / correction2) + ADAM_EPSILON)
            if not np.isfinite(param).all():
                return None
            updated[name] = (m, v, param)
        return updated

    def _go_back_one_step(self) -> None:
        """Back to the head before the last update: the current one's loss or gradient was not a finite number."""
        if self._steps == 0:
            return  # the first head is the only one there is
        with self._lock:
            for name, array in self._live.items():
                array[...] = self._previous[name]
            self._steps -= 1

    def _stop(self, what: str, step: int) -> NoReturn:
        self._diverged = TrainingDiverged(what, step, self._steps)
        raise self._diverged

    def evaluate(self, count: int = EVALUATION_COUNT, seed: int = EVALUATION_SEED) -> float:
        """Accuracy on COUNT fresh random sequences (drawn from SEED, not from the training stream)."""
        return evaluate(self.task, self.snapshot(), count=count, seed=seed)


def evaluate(task: AnyTask, params: Params, count: int = EVALUATION_COUNT, seed: int = EVALUATION_SEED) -> float:
    """The accuracy of PARAMS on COUNT random sequences of TASK drawn from SEED.

    The same count and seed give the same sequences, so an edited head
    (a key dragged by hand) is compared with the trained one on the same test.
    """
    batch = task.sample(np.random.default_rng(seed), count)
    with np.errstate(all="ignore"):  # a head with huge weights scores what it scores, without warnings
        return accuracy_of(model_maths(task).forward(params, batch.tokens, task.causal), batch)


def evaluate_loss(task: AnyTask, params: Params, count: int = EVALUATION_COUNT, seed: int = EVALUATION_SEED) -> float:
    batch = task.sample(np.random.default_rng(seed), count)
    with np.errstate(all="ignore"):
        return loss_of(model_maths(task).forward(params, batch.tokens, task.causal), batch)


def fresh_metrics(trainer: Trainer, params: Params) -> dict[str, float | int]:
    """The steps taken and PARAMS' loss and accuracy on EVALUATION_COUNT fresh sequences, as a document says them."""
    task = trainer.task
    return {"steps": trainer.steps, "loss": evaluate_loss(task, params), "accuracy": evaluate(task, params),
            "evaluated_on": EVALUATION_COUNT}


def train(
    task: AnyTask,
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
