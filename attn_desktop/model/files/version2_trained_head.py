"""Version 2: a one-head projection scene may carry the head it was kept from training.

    "trained_head": {"task": "reverse", "d_model": 4, "token_ids": […], "embed": …, "pos": …,
                     "w_o": …, "b_o": …}

The section is checked against the scene that shows it and against its task's vocabulary and
sentence length. The tasks themselves belong to training: the reader is handed them
(`TaskShapes`), so the file format never imports the training code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.files.scene_types import ProjectedScene, SceneData, TrainedHead
from attn_desktop.model.files.values import SceneFileError, describe, matrix_at, number, rows, shown_number, whole

TRAINED_HEAD_VERSION = 2
TRAINED_KEY_WIDTH = 2  # training's KEY_WIDTH: trained queries and keys are 2-D


class TaskShape(Protocol):
    """What the file needs to know of a training task: its words and its sentence length."""

    @property
    def vocab(self) -> Sequence[str]: ...

    @property
    def seq_len(self) -> int: ...


TaskShapes = Mapping[str, TaskShape]


def read_trained_head(section: Any, version: int, data: SceneData, tasks: TaskShapes) -> TrainedHead:
    """The "trained_head" section, checked against its task and against the scene that shows it."""
    head = data.only_head if isinstance(data, ProjectedScene) else None
    if head is None or not isinstance(data, ProjectedScene):
        raise SceneFileError(
            tr("trained_head: only a projection scene with one head (embeddings and grids) can carry a trained head")
        )
    if version < TRAINED_HEAD_VERSION:
        raise SceneFileError(
            tr("trained_head: a version {version} file cannot hold a trained head; it needs version "
               "{trained_head_version}").format(version=version, trained_head_version=TRAINED_HEAD_VERSION)
        )
    if not isinstance(section, dict):
        raise SceneFileError(tr("trained_head: expected an object, found {found}").format(
            found=describe(section)))
    name = section.get("task")
    if not isinstance(name, str) or name not in tasks:
        raise SceneFileError(tr("trained_head.task: expected one of {join}, found {found}").format(
            join=', '.join(tasks), found=describe(name)))
    task = tasks[name]
    vocab, length = len(task.vocab), task.seq_len
    d_model = whole(section.get("d_model"), "trained_head.d_model")
    width = len(data.embeddings[0])
    if d_model != width:
        raise SceneFileError(tr("trained_head.d_model: {d_model}, but the word vectors have {width} numbers").format(
            d_model=d_model, width=width))
    if len(data.tokens) != length:
        raise SceneFileError(tr("trained_head: {name} sentences have {length} tokens but the scene has "
                                "{tokens_count}").format(name=name, length=length, tokens_count=len(data.tokens)))
    if head.key_width != TRAINED_KEY_WIDTH:
        raise SceneFileError(
            tr("trained_head: a trained head makes queries and keys of {trained_key_width} numbers, but w_q makes "
               "{key_width}").format(trained_key_width=TRAINED_KEY_WIDTH, key_width=head.key_width)
        )
    token_ids = _token_ids(section.get("token_ids"), length, vocab)
    shapes = {"embed": (vocab, d_model), "pos": (length, d_model), "w_o": (head.value_width, vocab)}
    arrays = {}
    for part, shape in shapes.items():
        where = f"trained_head.{part}"
        arrays[part] = matrix_at(section.get(part), where)
        if np.shape(arrays[part]) != shape:
            raise SceneFileError(
                tr("{where}: has {rows} rows of {columns} numbers; the {name} head needs {rows_needed} rows of "
                   "{columns_needed}").format(
                    where=where, rows=len(arrays[part]), columns=len(arrays[part][0]), name=name, rows_needed=shape[0],
                    columns_needed=shape[1])
            )
    b_o = section.get("b_o")
    if not isinstance(b_o, list) or len(b_o) != vocab:
        raise SceneFileError(tr("trained_head.b_o: expected a list of {vocab} numbers, one per word of {name}").format(
            vocab=vocab, name=name))
    biases = [number(item, f"trained_head.b_o[{index}]") for index, item in enumerate(b_o)]
    return TrainedHead(task=name, token_ids=token_ids, embed=arrays["embed"], pos=arrays["pos"],
                       w_o=arrays["w_o"], b_o=biases)


def _token_ids(value: Any, length: int, vocab: int) -> list[int]:
    where = "trained_head.token_ids"
    if not isinstance(value, list) or len(value) != length:
        raise SceneFileError(tr("{where}: expected a list of {length} token ids, one per position of the example").format(
            where=where, length=length))
    for index, item in enumerate(value):
        token = whole(item, f"{where}[{index}]")
        if not 0 <= token < vocab:
            raise SceneFileError(tr("{where}[{index}]: {shown_number} is not a token id (0 to {last})").format(
                where=where, index=index, shown_number=shown_number(token), last=vocab - 1))
    return list(value)


def trained_head_fits(data: SceneData, tasks: TaskShapes) -> bool:
    """True when DATA's trained head still belongs to its scene: the same number of tokens
    (adding or removing a word makes it another sentence) and the same widths."""
    if not isinstance(data, ProjectedScene) or data.trained_head is None:
        return False
    try:
        read_trained_head(trained_head_to_dict(data.trained_head), TRAINED_HEAD_VERSION, data, tasks)
    except SceneFileError:
        return False
    return True


def trained_head_to_dict(head: TrainedHead) -> dict[str, Any]:
    return {
        "task": head.task, "d_model": head.d_model, "token_ids": [int(token) for token in head.token_ids],
        "embed": rows(head.embed), "pos": rows(head.pos), "w_o": rows(head.w_o),
        "b_o": [float(item) for item in head.b_o],
    }
