"""A trained head as a JSON document: the task and settings, the parameters, the head's scores on fresh
sequences and one example sentence worked through. Nothing here imports Qt."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from attn_desktop.model.training.example_sentence import example, position_labels
from attn_desktop.model.training.head_params import KEY_WIDTH
from attn_desktop.model.training.tasks import Task
from attn_desktop.model.training.training import Trainer
from attn_desktop.model.training.training_document import training_document

TRAINED_HEAD_FORMAT = "attention-desktop-trained-head"
TRAINED_HEAD_VERSION = 1


def trained_head_document(trainer: Trainer, tokens: Sequence[int] | None = None) -> dict[str, Any]:
    """Everything needed to check or reuse a trained head, as plain JSON values.

    The task and its settings, the parameters (nested lists), the loss and
    accuracy on EVALUATION_COUNT fresh sequences, and one example sentence
    (TOKENS, or the task's own) with its queries, keys, values and weights.
    """
    task, params = trainer.task, trainer.snapshot()
    if not isinstance(task, Task):
        raise TypeError(f"{task.name} trains layers of heads: see induction_document.py")
    tokens = task.example_tokens() if tokens is None else list(tokens)
    with np.errstate(all="ignore"):  # a head with huge weights: the writer refuses what is not finite
        result = example(task, params, tokens)
    worked = {
        "tokens": task.words(tokens),
        "token_ids": [int(token) for token in tokens],
        "labels": position_labels(task, tokens),
        "queries": result.q.tolist(),
        "keys": result.k.tolist(),
        "values": result.v.tolist(),
        "weights": result.weights.tolist(),
        "answers": task.words(result.predictions.tolist()),
    }
    widths = {"d_k": KEY_WIDTH, "d_v": params.d_v}
    return training_document(trainer, params, TRAINED_HEAD_FORMAT, TRAINED_HEAD_VERSION, widths, worked)
