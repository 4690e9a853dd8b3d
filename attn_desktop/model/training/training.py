"""Training one attention head on a task, with gradients worked out by hand in NumPy.

The model is exactly this (one head, no residual, no MLP), so anyone can check it:

    x_i      = E[t_i] + P[i]                           E: V x d_model, P: L x d_model
    q_i      = x_i W_Q,  k_i = x_i W_K                 W_Q, W_K: d_model x 2 (2-D, drawn as arrows)
    v_i      = x_i W_V                                 W_V: d_model x d_v
    w_ij     = softmax_j(q_i . k_j / sqrt(2))          with the causal mask when the task has one
    o_i      = sum_j w_ij v_j
    logits_i = o_i W_O + b_O                           W_O: d_v x V, b_O: V
    loss     = mean cross-entropy of logits_i against the target, over the scored positions

The optimiser is plain Adam. Everything random is drawn from
np.random.default_rng seeded by the trainer's seed, so the same task, seed
and settings give the same weights on the same machine.

Nothing here imports Qt: the command line trains headless, and the Training
panel runs a Trainer in a worker thread (snapshot() hands it copies).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from attn_desktop.model.attention import causal_mask, stable_softmax
from attn_desktop.model.files.scene_types import HeadGrids, LayerGrids, ProjectedScene
from attn_desktop.model.training.tasks import TASKS, Batch, Task, parse_example

KEY_WIDTH = 2  # queries and keys are 2-D, so the canvas draws them as arrows
SCORE_DIVISOR = math.sqrt(KEY_WIDTH)  # the scene's own rule: divide by sqrt(d_k)
OPTIMISER_NAME = "Adam"
ADAM_BETAS = (0.9, 0.999)
ADAM_EPSILON = 1e-8
EVALUATION_COUNT = 1000
EVALUATION_SEED = 20240612  # fresh sequences, never the training batches' stream
# Word and position vectors start small: with a spread of 1, about one run in ten of it-noun
# settled for good on a head that confused nouns (bench/training.py); 0.3 reached 99 % on every seed tried.
EMBEDDING_INIT_STD = 0.3
PARAM_NAMES = ("embed", "pos", "w_q", "w_k", "w_v", "w_o", "b_o")


@dataclass
class HeadParams:
    """The learned numbers of one head, all float64.

    embed (V, d_model), pos (L, d_model), w_q and w_k (d_model, 2),
    w_v (d_model, d_v), w_o (d_v, V), b_o (V,).
    """

    embed: np.ndarray
    pos: np.ndarray
    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    w_o: np.ndarray
    b_o: np.ndarray

    def arrays(self) -> Iterator[tuple[str, np.ndarray]]:
        for name in PARAM_NAMES:
            yield name, getattr(self, name)

    def copy(self) -> HeadParams:
        return HeadParams(**{name: array.copy() for name, array in self.arrays()})

    def to_lists(self) -> dict[str, Any]:
        """Every array as nested lists of floats, for JSON."""
        return {name: array.tolist() for name, array in self.arrays()}

    @property
    def d_model(self) -> int:
        return int(self.embed.shape[1])

    @property
    def d_v(self) -> int:
        return int(self.w_v.shape[1])


def params_from_lists(task: Task, document: Mapping[str, Any]) -> HeadParams:
    """HeadParams from nested lists (as to_lists writes them), checked against TASK's shapes.

    Raises ValueError naming the first array that is missing, not numeric,
    not finite or of the wrong shape.
    """
    arrays: dict[str, np.ndarray] = {}
    for name in PARAM_NAMES:
        if name not in document:
            raise ValueError(f"{name}: missing")
        try:
            array = np.array(document[name], dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"{name}: expected a grid of numbers") from None
        if not np.all(np.isfinite(array)):
            raise ValueError(f"{name}: holds a number that is not finite")
        arrays[name] = array
    params = HeadParams(**arrays)
    expected = expected_shapes(task, params.embed.shape[1] if params.embed.ndim == 2 else 0, params.w_v.shape[-1])
    for name, array in params.arrays():
        if array.shape != expected[name]:
            raise ValueError(f"{name}: has shape {array.shape}, expected {expected[name]} for {task.name}")
    return params


def expected_shapes(task: Task, d_model: int, d_v: int) -> dict[str, tuple[int, ...]]:
    vocab = len(task.vocab)
    return {
        "embed": (vocab, d_model), "pos": (task.seq_len, d_model),
        "w_q": (d_model, KEY_WIDTH), "w_k": (d_model, KEY_WIDTH), "w_v": (d_model, d_v),
        "w_o": (d_v, vocab), "b_o": (vocab,),
    }


def init_params(task: Task, seed: int, d_model: int | None = None, d_v: int | None = None) -> HeadParams:
    """Random weights from SEED alone: grids scaled by 1/sqrt(their input width), word and
    position vectors small (EMBEDDING_INIT_STD) so that no token starts out dominating."""
    d_model = task.d_model if d_model is None else d_model
    d_v = task.d_v if d_v is None else d_v
    rng = np.random.default_rng([seed, 0])  # stream 0: the initial weights; stream 1: the batches
    shapes = expected_shapes(task, d_model, d_v)

    def normal(name: str, std: float) -> np.ndarray:
        return rng.normal(0.0, std, size=shapes[name])

    return HeadParams(
        embed=normal("embed", EMBEDDING_INIT_STD),
        pos=normal("pos", EMBEDDING_INIT_STD),
        w_q=normal("w_q", 1.0 / math.sqrt(d_model)),
        w_k=normal("w_k", 1.0 / math.sqrt(d_model)),
        w_v=normal("w_v", 1.0 / math.sqrt(d_model)),
        w_o=normal("w_o", 1.0 / math.sqrt(d_v)),
        b_o=np.zeros(shapes["b_o"]),
    )


@dataclass(frozen=True)
class Forward:
    """Every intermediate of the head on some sequences: tokens (..., L) gives

    x (..., L, d_model), q and k (..., L, 2), v (..., L, d_v),
    scores (..., L, L) = q . k before the division by sqrt(2) (as the score table shows them),
    weights (..., L, L) after the softmax (0 where the mask hides a key),
    o (..., L, d_v), logits (..., L, V).
    """

    tokens: np.ndarray
    x: np.ndarray
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    scores: np.ndarray
    weights: np.ndarray
    o: np.ndarray
    logits: np.ndarray

    @property
    def predictions(self) -> np.ndarray:
        """The vocabulary index the head answers at each position."""
        return np.asarray(self.logits.argmax(axis=-1))


def forward(params: HeadParams, tokens: np.ndarray | Sequence[int], causal: bool) -> Forward:
    """Run the head on TOKENS: one sequence (L,) or a batch (count, L)."""
    ids = np.asarray(tokens, dtype=np.int64)
    length = ids.shape[-1]
    x = params.embed[ids] + params.pos[:length]
    q, k, v = x @ params.w_q, x @ params.w_k, x @ params.w_v
    scores = q @ np.swapaxes(k, -1, -2)
    visible = causal_mask(length, length) if causal else np.ones((length, length), dtype=bool)
    weights = stable_softmax(scores / SCORE_DIVISOR, visible)
    o = weights @ v
    logits = o @ params.w_o + params.b_o
    return Forward(tokens=ids, x=x, q=q, k=k, v=v, scores=scores, weights=weights, o=o, logits=logits)


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)
    result: np.ndarray = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return result


def loss_of(result: Forward, batch: Batch) -> float:
    """Mean cross-entropy over the scored positions."""
    picked = np.take_along_axis(_log_softmax(result.logits), batch.targets[..., None], axis=-1)[..., 0]
    return float(-(picked * batch.scored).sum() / _scored_count(batch))


def accuracy_of(result: Forward, batch: Batch) -> float:
    """The share of scored positions where the head's answer is the target."""
    right = (result.predictions == batch.targets) & batch.scored
    return float(right.sum() / _scored_count(batch))


def _scored_count(batch: Batch) -> int:
    count = int(np.count_nonzero(batch.scored))
    if count == 0:
        raise ValueError("the batch has no scored position")
    return count


def loss_and_grads(params: HeadParams, batch: Batch, causal: bool) -> tuple[float, HeadParams]:
    """The loss on BATCH and its gradient with respect to every parameter, by the chain rule."""
    loss, grads, _result = _loss_grads_forward(params, batch, causal)
    return loss, grads


def _loss_grads_forward(params: HeadParams, batch: Batch, causal: bool) -> tuple[float, HeadParams, Forward]:
    f = forward(params, batch.tokens, causal)
    count, length = batch.tokens.shape
    vocab, d_model = params.embed.shape
    log_probs = _log_softmax(f.logits)
    picked = np.take_along_axis(log_probs, batch.targets[..., None], axis=-1)[..., 0]
    scored_count = _scored_count(batch)
    loss = float(-(picked * batch.scored).sum() / scored_count)

    # d loss / d logits = (softmax - one-hot target) at scored positions, averaged over them.
    d_logits = np.exp(log_probs)
    np.put_along_axis(d_logits, batch.targets[..., None],
                      np.take_along_axis(d_logits, batch.targets[..., None], axis=-1) - 1.0, axis=-1)
    d_logits *= batch.scored[..., None] / scored_count

    flat = count * length
    g_w_o = f.o.reshape(flat, -1).T @ d_logits.reshape(flat, vocab)
    g_b_o = d_logits.sum(axis=(0, 1))
    d_o = d_logits @ params.w_o.T                               # (count, L, d_v)
    d_weights = d_o @ np.swapaxes(f.v, -1, -2)                  # (count, L, L)
    d_v = np.swapaxes(f.weights, -1, -2) @ d_o                  # (count, L, d_v)
    # Softmax backward, row by row: w * (dw - sum_j w_j dw_j). Hidden keys have w = 0, so get 0.
    d_scaled = f.weights * (d_weights - (d_weights * f.weights).sum(axis=-1, keepdims=True))
    d_scores = d_scaled / SCORE_DIVISOR
    d_q = d_scores @ f.k
    d_k = np.swapaxes(d_scores, -1, -2) @ f.q

    x_flat = f.x.reshape(flat, d_model)
    g_w_q = x_flat.T @ d_q.reshape(flat, -1)
    g_w_k = x_flat.T @ d_k.reshape(flat, -1)
    g_w_v = x_flat.T @ d_v.reshape(flat, -1)
    d_x = d_q @ params.w_q.T + d_k @ params.w_k.T + d_v @ params.w_v.T  # (count, L, d_model)
    g_pos = d_x.sum(axis=0)
    one_hot = np.zeros((flat, vocab))
    one_hot[np.arange(flat), batch.tokens.reshape(flat)] = 1.0
    g_embed = one_hot.T @ d_x.reshape(flat, d_model)  # each token's rows of d_x, added up
    grads = HeadParams(embed=g_embed, pos=g_pos, w_q=g_w_q, w_k=g_w_k, w_v=g_w_v, w_o=g_w_o, b_o=g_b_o)
    return loss, grads, f


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
        loss, grads, result = _loss_grads_forward(self._params, batch, self.task.causal)
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


# ----- one example sentence, for the canvas and the scene ---------------


def example(task: Task, params: HeadParams, tokens: Sequence[int]) -> Forward:
    """The head on one sentence (token indices) of TASK."""
    ids = np.asarray(tokens, dtype=np.int64)
    if ids.shape != (task.seq_len,):
        raise ValueError(f"{task.name} sentences have {task.seq_len} tokens; got {ids.size}")
    if ids.size and (ids.min() < 0 or ids.max() >= len(task.vocab)):
        raise ValueError(f"token indices must be 0 to {len(task.vocab) - 1}")
    return forward(params, ids, task.causal)


def position_labels(task: Task, tokens: Sequence[int]) -> list[str]:
    """Each token named with its position, "0:3", "1:1": unique even where a word repeats."""
    return [f"{position}:{task.vocab[int(token)]}" for position, token in enumerate(tokens)]


def example_scene_data(task: Task, params: HeadParams, tokens: Sequence[int]) -> ProjectedScene:
    """The trained head on one sentence as an ordinary projection scene.

    Word vectors are x_i = E[t_i] + P[i] and the grids are the learned W_Q,
    W_K, W_V; the scene divides scores by sqrt(d_k) = sqrt(2), as the head
    does, and masks as the task does, so it shows the head's own weights.
    """
    result = example(task, params, tokens)
    head = HeadGrids(w_q=params.w_q.tolist(), w_k=params.w_k.tolist(), w_v=params.w_v.tolist())
    return ProjectedScene(
        tokens=position_labels(task, tokens), scale=True, causal=task.causal, selected=0,
        title=f"Trained head: {task.name}", embeddings=result.x.tolist(), layers=[LayerGrids(heads=[head])],
    )




# ----- a trained head as a JSON document ------------------------------------

TRAINED_HEAD_FORMAT = "attention-desktop-trained-head"
TRAINED_HEAD_VERSION = 1


def trained_head_document(trainer: Trainer, tokens: Sequence[int] | None = None) -> dict[str, Any]:
    """Everything needed to check or reuse a trained head, as plain JSON values.

    The task and its settings, the parameters (nested lists), the loss and
    accuracy on EVALUATION_COUNT fresh sequences, and one example sentence
    (TOKENS, or the task's own) with its queries, keys, values and weights.
    """
    task, params = trainer.task, trainer.snapshot()
    tokens = task.example_tokens() if tokens is None else list(tokens)
    result = example(task, params, tokens)
    return {
        "format": TRAINED_HEAD_FORMAT,
        "version": TRAINED_HEAD_VERSION,
        "task": task.name,
        "vocab": list(task.vocab),
        "seq_len": task.seq_len,
        "causal": task.causal,
        "d_model": params.d_model,
        "d_k": KEY_WIDTH,
        "d_v": params.d_v,
        "optimiser": trainer.optimiser,
        "seed": trainer.seed,
        "lr": trainer.lr,
        "batch_size": trainer.batch_size,
        "model": params.to_lists(),
        "metrics": {
            "steps": trainer.steps,
            "loss": evaluate_loss(task, params),
            "accuracy": evaluate(task, params),
            "evaluated_on": EVALUATION_COUNT,
        },
        "example": {
            "tokens": task.words(tokens),
            "token_ids": [int(token) for token in tokens],
            "labels": position_labels(task, tokens),
            "queries": result.q.tolist(),
            "keys": result.k.tolist(),
            "values": result.v.tolist(),
            "weights": result.weights.tolist(),
            "answers": task.words(result.predictions.tolist()),
        },
    }


__all__ = [
    "EVALUATION_COUNT", "EVALUATION_SEED", "KEY_WIDTH", "OPTIMISER_NAME", "PARAM_NAMES", "SCORE_DIVISOR", "TASKS",
    "TRAINED_HEAD_FORMAT", "TRAINED_HEAD_VERSION",
    "Batch", "Forward", "HeadParams", "StepMetrics", "Task", "Trainer",
    "accuracy_of", "evaluate", "evaluate_loss", "example", "example_scene_data", "expected_shapes", "forward",
    "init_params", "loss_and_grads", "loss_of", "params_from_lists", "parse_example",
    "position_labels", "train", "trained_head_document",
]
