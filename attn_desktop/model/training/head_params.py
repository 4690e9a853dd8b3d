"""The learned numbers of one attention head (see head_maths.py for what they compute): their shapes,
random first values from a seed, and nested lists (JSON) read back and checked.

Nothing here imports Qt.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.training.tasks import Task

KEY_WIDTH = 2  # queries and keys are 2-D, so the canvas draws them as arrows
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
            raise ValueError(tr("{name}: missing").format(name=name))
        try:
            array = np.array(document[name], dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(tr("{name}: expected a grid of numbers").format(name=name)) from None
        if not np.all(np.isfinite(array)):
            raise ValueError(tr("{name}: holds a number that is not finite").format(name=name))
        arrays[name] = array
    params = HeadParams(**arrays)
    expected = expected_shapes(task, params.embed.shape[1] if params.embed.ndim == 2 else 0, params.w_v.shape[-1])
    for name, array in params.arrays():
        if array.shape != expected[name]:
            raise ValueError(tr("{name}: has shape {shape}, expected {expected} for {task}").format(
                name=name, shape=array.shape, expected=expected[name], task=task.name))
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
