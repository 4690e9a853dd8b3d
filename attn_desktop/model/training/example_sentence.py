"""A head on one example sentence, for the canvas and the scene: its intermediates, and the sentence
as an ordinary projection scene. Nothing here imports Qt."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.files.scene_types import HeadGrids, LayerGrids, ProjectedScene
from attn_desktop.model.training.head_maths import Forward, forward
from attn_desktop.model.training.head_params import HeadParams
from attn_desktop.model.training.tasks import Task


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
        title=tr("Trained head: {task}").format(task=task.name), embeddings=result.x.tolist(), layers=[LayerGrids(heads=[head])],
    )
