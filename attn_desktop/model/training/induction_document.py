"""The trained induction model as a JSON document and as a scene: the settings, the weights, how well
it does on fresh sequences, and one example sequence with every head's attention. Nothing here imports Qt."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.files.scene_types import HeadGrids, LayerGrids, ProjectedScene
from attn_desktop.model.training.induction_task import InductionTask
from attn_desktop.model.training.layered_maths import LayeredForward, forward
from attn_desktop.model.training.layered_params import HEAD_GRID_NAMES, LayeredParams
from attn_desktop.model.training.training import Trainer
from attn_desktop.model.training.training_document import training_document

INDUCTION_FORMAT = "attention-desktop-trained-layers"
INDUCTION_VERSION = 1


def induction_example(task: InductionTask, params: LayeredParams, tokens: Sequence[int]) -> LayeredForward:
    """The model on one sequence (letter indices) of TASK. Raises ValueError for one of the wrong length or letters."""
    ids = np.asarray(tokens, dtype=np.int64)
    if ids.shape != (task.seq_len,):
        raise ValueError(f"{task.name} sequences have {task.seq_len} letters; got {ids.size}")
    if ids.min() < 0 or ids.max() >= len(task.vocab):
        raise ValueError(f"letter indices must be 0 to {len(task.vocab) - 1}")
    return forward(params, ids, task.causal)


def induction_document(trainer: Trainer, tokens: Sequence[int] | None = None) -> dict[str, Any]:
    """task, vocab, seq_len, causal, the settings, model = {embed, pos, layers: [{heads: [{w_q, w_k, w_v}], w_o}],
    w_u, b_u}, metrics = {loss, accuracy, steps} on fresh sequences, and example = {tokens, attention[layer]
    [head][query][key]} for TOKENS (the task's own example by default)."""
    task, params = trainer.task, trainer.snapshot()
    if not isinstance(task, InductionTask):
        raise TypeError(f"{task.name} trains one head: see head_document.py")
    tokens = task.example_tokens() if tokens is None else list(tokens)
    with np.errstate(all="ignore"):  # huge weights: the writer refuses what is not finite
        result = induction_example(task, params, tokens)
    worked = {
        "tokens": task.words(tokens),
        "token_ids": [int(token) for token in tokens],
        "attention": [layer.weights.tolist() for layer in result.layers],
        "answers": task.words(result.predictions.tolist()),
    }
    widths = {"d_head": params.d_head}
    return training_document(trainer, params, INDUCTION_FORMAT, INDUCTION_VERSION, widths, worked)


def induction_scene_data(task: InductionTask, params: LayeredParams, tokens: Sequence[int]) -> ProjectedScene:
    """The trained model on one sequence as an ordinary projection scene of its layers.

    Word vectors are x_i = E[t_i] + P[i]; every head keeps its grids and every layer its W_O; the scene
    divides scores by sqrt(d_head) and masks causally, as the model does, and its second layer reads the
    residual stream x + layer 1's output: so it shows the model's own weights, head by head.
    """
    result = induction_example(task, params, tokens)
    layers = [
        LayerGrids(heads=[HeadGrids(**{name: getattr(layer, name)[head].tolist() for name in HEAD_GRID_NAMES},
                                    name=f"L{index + 1}H{head + 1}")
                          for head in range(layer.n_heads)],
                   w_o=layer.w_o.tolist())
        for index, layer in enumerate(params.layers)
    ]
    return ProjectedScene(
        tokens=[f"{position}:{task.vocab[int(token)]}" for position, token in enumerate(tokens)],
        scale=True, causal=task.causal, selected=0, title=tr("Trained model: {task}").format(task=task.name),
        embeddings=result.layers[0].x.tolist(), layers=layers,
    )
