"""`attn-desktop train translate`: the encoder-decoder of lesson 11 trained headless (no Qt is imported),
saying the loss and the exact match on the held-out sentences every tenth of the way, then written as JSON
(model/training/translation_document.py). train.py reads and checks the command line; this file trains."""

from __future__ import annotations

import math
import sys
import time

from attn_desktop.cli.errors import EXIT_INTERRUPTED, cannot_write, fail, say
from attn_desktop.language import tr
from attn_desktop.model.training.translation_task import TranslationTask
from attn_desktop.model.training.translation_trainer import TranslationTrainer


def train_translator_and_write(task: TranslationTask, steps: int, seed: int, lr: float | None, output: str) -> int:
    from attn_desktop.model.training.training import OPTIMISER_NAME, TrainingDiverged

    trainer = TranslationTrainer(task, seed, lr=lr)
    say(tr("training {task}: {steps:,} steps of {optimiser}, learning rate {lr}, batch {batch}, seed {seed}").format(
        task=task.name, steps=steps, optimiser=OPTIMISER_NAME, lr=f"{trainer.lr:g}", batch=trainer.batch_size,
        seed=seed))
    try:
        seconds = _train(trainer, steps)
    except KeyboardInterrupt:
        print("attn-desktop: " + tr("training stopped at step {step:,}; nothing written").format(step=trainer.steps),
              file=sys.stderr)
        return EXIT_INTERRUPTED
    except TrainingDiverged as diverged:  # a translator that blew up is of no use to anyone: nothing is written
        return fail(tr("{problem}: try a smaller --lr").format(problem=diverged))
    return _write_translator(trainer, seconds, output)


def _train(trainer: TranslationTrainer, steps: int) -> float:
    """Take STEPS steps, a tenth at a time, saying each tenth's mean loss and the held-out exact match after it;
    the seconds it took."""
    report_at = sorted({math.ceil(steps * tenth / 10) for tenth in range(1, 11)})
    started = time.perf_counter()
    for end in report_at:
        figures = trainer.step(end - trainer.steps)
        # Translators: a progress line; keep the two spaces between its parts, they line the lines up.
        say(tr("{percent:3d}%  step {step:,}/{steps:,}  loss {loss:.4f}  held-out exact match {exact_match:.1f}%").format(
            percent=100 * end // steps, step=end, steps=steps, loss=sum(figures.losses) / len(figures.losses),
            exact_match=100 * figures.held_out_exact_match))
    return time.perf_counter() - started


def _write_translator(trainer: TranslationTrainer, seconds: float, output: str) -> int:
    from attn_desktop.model.files.json_reading import shown_path
    from attn_desktop.model.files.safe_write import write_json_atomically
    from attn_desktop.model.training.translation_document import translation_document

    document = translation_document(trainer, seconds)
    try:
        write_json_atomically(output, document)
    except OSError as error:
        return fail(cannot_write(shown_path(output), error))
    except ValueError:  # JSON holds no infinity or NaN: a model whose numbers overflowed (nothing is written)
        return fail(tr("the trained model's numbers are too large to write: try a smaller --lr"))
    metrics = document["metrics"]
    say(tr("wrote {file}: exact match {exact_match:.1f}% on {count:,} held-out sentences, loss {loss:.4f}, "
           "{steps:,} steps in {seconds:.1f} s").format(
        file=shown_path(output), exact_match=100 * metrics["exact_match"], count=len(document["test_pairs"]),
        loss=metrics["loss"], steps=metrics["steps"], seconds=seconds))
    return 0
