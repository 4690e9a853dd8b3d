"""The translator as the Training panel trains any task: a task with a title and a description for its list, and a
run whose step() gives StepMetrics (the step, the loss, and the batch's exact match as the accuracy).

TranslationTrainer (translation_trainer.py) reports a batch of steps at once, as its figures; the panel's worker
thread takes one step at a time from any trainer (ui/training/training_worker.py), so TranslationRun adapts it.
Nothing here imports Qt.
"""

from __future__ import annotations

from dataclasses import dataclass

from attn_desktop.language import N_
from attn_desktop.model.training.training import StepMetrics, TrainingDiverged
from attn_desktop.model.training.translation_params import TranslationParams
from attn_desktop.model.training.translation_task import TranslationTask
from attn_desktop.model.training.translation_trainer import TranslationTrainer


@dataclass(frozen=True)
class TitledTranslationTask(TranslationTask):
    """The translate task as a list of tasks names and describes it (marked for the catalogs; shown translated)."""

    # Translators: the name of the translation task in the Training panel's list (lesson 11 says "pick translate").
    title: str = N_("translate")
    description: str = N_("Short Spanish-like sentences to English-like ones: an encoder reads the sentence, a "
                          "decoder writes it word by word, and its cross-attention head finds the word to translate "
                          "(adjective and noun change places). Scored by exact match.")


TRANSLATE_TASK = TitledTranslationTask()


@dataclass(frozen=True)
class TranslationStepMetrics(StepMetrics):
    """A step's loss and its batch's exact match (ACCURACY), and the held-out pairs' exact match after it."""

    held_out_exact_match: float


class TranslationRun:
    """One step at a time of a TranslationTrainer, in the shape the Training panel's worker expects of a trainer."""

    def __init__(self, task: TranslationTask, seed: int, lr: float) -> None:
        self.task = task
        self.trainer = TranslationTrainer(task, seed, lr)
        self._diverged: TrainingDiverged | None = None

    @property
    def steps(self) -> int:
        return self.trainer.steps

    @property
    def diverged(self) -> TrainingDiverged | None:
        """The failure of the last step that diverged (the weights stayed as they were before it), or None."""
        return self._diverged

    def snapshot(self) -> TranslationParams:
        return self.trainer.snapshot()

    def step(self) -> TranslationStepMetrics:
        try:
            figures = self.trainer.step(1)
        except TrainingDiverged as error:
            self._diverged = error
            raise
        return TranslationStepMetrics(step=figures.steps[-1], loss=figures.losses[-1],
                                      accuracy=figures.exact_matches[-1],
                                      held_out_exact_match=figures.held_out_exact_match)

    def evaluate(self, count: int | None = None) -> float:
        """The held-out pairs' exact match (COUNT is ignored: the held-out pairs are the same fixed ones)."""
        return self.trainer.held_out_exact_match()


__all__ = ["TRANSLATE_TASK", "TitledTranslationTask", "TranslationRun", "TranslationStepMetrics"]
