"""The Training panel's tasks and what differs between the one-head tasks, induction's two layers and translate.

The one-head tasks (model/training/tasks.py) type words and show one head as a scene; induction
(model/training/induction_task.py) types letters and shows its two layers as a scene; translate
(model/training/translation_run.py) has no example of the panel's kind: its own view (TranslationView) shows a
sentence and its cross-attention. The panel asks here instead of asking which kind of task it has.
The panel's list is its own: the command line's tasks (training.trainable_tasks) are registered there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from attn_desktop.language import ntr
from attn_desktop.model.files.scene_types import ProjectedScene
from attn_desktop.model.training import training
from attn_desktop.model.training.example_sentence import example_scene_data
from attn_desktop.model.training.induction_document import induction_scene_data
from attn_desktop.model.training.induction_task import INDUCTION, InductionTask, parse_letters
from attn_desktop.model.training.tasks import TASKS, parse_example
from attn_desktop.model.training.training import AnyTask, model_maths
from attn_desktop.model.training.translation_run import TRANSLATE_TASK, TitledTranslationTask, TranslationRun
from attn_desktop.model.training.translation_task import TranslationTask

PanelTask = AnyTask | TitledTranslationTask
PANEL_TASKS: dict[str, PanelTask] = {**TASKS, INDUCTION.name: INDUCTION, TRANSLATE_TASK.name: TRANSLATE_TASK}


def is_layered(task: PanelTask) -> bool:
    return isinstance(task, InductionTask)


def is_translation(task: PanelTask) -> bool:
    return isinstance(task, TranslationTask)


def trainer_for(task: PanelTask, seed: int, lr: float) -> Any:
    """A trainer of TASK from SEED at rate LR, in the shape the panel's worker drives (see training_worker.py)."""
    if isinstance(task, TranslationTask):
        return TranslationRun(task, seed, lr)
    return training.Trainer(task, seed=seed, lr=lr)  # (looked up now: a test may stand another trainer in)


def first_example(task: PanelTask) -> list[int]:
    """The example the task starts on (none for translate: its view chooses its own sentence)."""
    return [] if isinstance(task, TranslationTask) else task.example_tokens()


def example_scene(task: AnyTask, params: Any, tokens: Sequence[int]) -> ProjectedScene:
    """The example under the model as it is now, as a projection scene (one head, or every layer)."""
    if isinstance(task, InductionTask):
        return induction_scene_data(task, params, tokens)
    return example_scene_data(task, params, tokens)


def parse_typed_example(task: AnyTask, text: str) -> list[int]:
    """The tokens of an example typed by the student. Raises ValueError with one sentence saying what is wrong."""
    if isinstance(task, InductionTask):
        return parse_letters(task, text)
    return parse_example(task, text)


def example_text(task: AnyTask, tokens: Sequence[int]) -> str:
    """The example as the box shows it: words with spaces, letters side by side (20 of them fit the box)."""
    return ("" if isinstance(task, InductionTask) else " ").join(task.words(list(tokens)))


def typing_hint(task: AnyTask) -> str:
    if isinstance(task, InductionTask):
        return ntr("Type {count} letter from {first} to {last}; press Enter",
                   "Type {count} letters from {first} to {last}; press Enter", task.seq_len).format(
            count=task.seq_len, first=task.vocab[0], last=task.vocab[-1])
    return ntr("Type {count} word from: {words}; press Enter", "Type {count} words from: {words}; press Enter",
               task.seq_len).format(count=task.seq_len, words=" ".join(task.vocab))


def all_numbers(task: PanelTask, params: Any, tokens: Sequence[int]) -> bool:
    """Whether the model and what it computes for the example are finite numbers (a model blown up by a
    rate far too large is finite, but its scores overflow; the translator's own steps refuse such weights)."""
    if not all(np.isfinite(array).all() for _name, array in params.arrays()):
        return False
    if isinstance(task, TranslationTask):
        return True
    with np.errstate(all="ignore"):
        result = model_maths(task).forward(params, np.asarray(tokens), task.causal)
    if is_layered(task):
        arrays = [layer.weights for layer in result.layers] + [result.logits]
    else:
        arrays = [result.q, result.k, result.v, result.weights, result.logits]
    return all(np.isfinite(array).all() for array in arrays)
