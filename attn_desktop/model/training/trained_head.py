"""A head kept from training, as the student has edited it, and how well it still does its task.

"Keep as scene" turns a trained head into an ordinary projection scene: the
example sentence's word vectors x_i = E[t_i] + P[i] and the learned grids.
The scene carries the rest of the head (scene_types.TrainedHead), so after the
student drags a word vector or types a grid number, the head can be put back
together with those edits and tested on the task again.

Nothing here imports Qt: the accuracy label and the export both use it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.files.scene_types import ProjectedScene, TrainedHead
from attn_desktop.model.files.version2_trained_head import trained_head_fits
from attn_desktop.model.layers import GRID_NAMES, Role
from attn_desktop.model.scene import Scene
from attn_desktop.model.training.example_sentence import example_scene_data
from attn_desktop.model.training.head_maths import SCORE_DIVISOR
from attn_desktop.model.training.head_params import HeadParams
from attn_desktop.model.training.tasks import TASKS, Task
from attn_desktop.model.training.training import EVALUATION_COUNT, EVALUATION_SEED, evaluate


def edited_params(scene: Scene) -> HeadParams:
    """The kept head with the student's edits: the scene's grids and word vectors put back into it.

    The grids are the scene's w_q, w_k, w_v (the identity while the grids are
    switched off, as the scene itself computes). A word vector x_i can only
    be the sum E[t_i] + P[i], so a dragged x_i has to change one of the two;
    it changes the position embedding, P[i] := x_i - E[t_i]. Why position:
    P[i] is what every sequence shares at position i, whatever its words, so
    the edit means "this place in the sentence now looks like this", which is
    what the student sees on the canvas for the example. Changing E[t_i]
    instead would move that word everywhere it occurs, including at other
    positions of the example (the 1 of 3 1 4 1 5 twice), which the canvas
    never showed. Embeddings, W_O and b_O are the trained ones.

    Raises ValueError for a scene without a trained head that fits it.
    """
    return _edited(scene, _fitting_head(scene))


def _edited(scene: Scene, head: TrainedHead) -> HeadParams:
    embed = np.array(head.embed, dtype=np.float64)
    ids = np.array(head.token_ids, dtype=np.int64)
    x = scene.vectors(Role.EMBEDDING)
    grids = scene.head(0, 0).grids or {}
    w_q, w_k, w_v = (grids[name].copy() if scene.use_grids else np.eye(grids[name].shape[0]) for name in GRID_NAMES)
    return HeadParams(
        embed=embed, pos=x - embed[ids], w_q=w_q, w_k=w_k, w_v=w_v,
        w_o=np.array(head.w_o, dtype=np.float64), b_o=np.array(head.b_o, dtype=np.float64),
    )


def task_accuracy(scene: Scene, count: int = EVALUATION_COUNT, seed: int = EVALUATION_SEED) -> float | None:
    """The edited head's accuracy on its task, on the same COUNT fresh sequences training is judged on.

    None for a scene without a trained head (or one whose sentence has since
    gained or lost a word: it is no longer the head's example). The scene's
    switches count as edits too: with the causal mask switched the head is
    tested with that mask, and with scaling off the scores are not divided by
    sqrt(2) (W_Q is multiplied by sqrt(2), which is the same thing). About
    6 ms for 1,000 sequences of reverse: fast enough to run on every drag release.
    """
    head = _head_of(scene)
    if head is None:
        return None
    task = TASKS[head.task]
    params = _edited(scene, head)
    if not scene.scale:
        params.w_q = params.w_q * SCORE_DIVISOR  # q.k / sqrt(2) with q scaled by sqrt(2) is q.k
    if scene.causal != task.causal:
        task = dataclasses.replace(task, causal=scene.causal)
    return evaluate(task, params, count=count, seed=seed)


def task_of(scene: Scene) -> Task:
    """The task the scene's kept head was trained on. Raises ValueError without one."""
    return TASKS[_fitting_head(scene).task]


def keep_as_scene(task: Task, params: HeadParams, tokens: Sequence[int]) -> ProjectedScene:
    """The trained head on one example sentence as a projection scene that carries the whole head."""
    data = example_scene_data(task, params, tokens)
    data.title = tr("Trained head: {task}").format(task=task.name)
    data.trained_head = TrainedHead(
        task=task.name, token_ids=[int(token) for token in tokens],
        embed=params.embed.tolist(), pos=params.pos.tolist(), w_o=params.w_o.tolist(), b_o=params.b_o.tolist(),
    )
    return data


def has_trained_head(scene: Scene) -> bool:
    return _head_of(scene) is not None


def _head_of(scene: Scene) -> TrainedHead | None:
    """The scene's kept head if it still fits the scene (the same check that decides whether it is saved)."""
    data = scene.to_data()
    if isinstance(data, ProjectedScene) and trained_head_fits(data, TASKS):
        return data.trained_head
    return None


def _fitting_head(scene: Scene) -> TrainedHead:
    head = _head_of(scene)
    if head is None:
        raise ValueError("this scene carries no trained head")
    return head


__all__ = ["edited_params", "has_trained_head", "keep_as_scene", "task_accuracy", "task_of"]
