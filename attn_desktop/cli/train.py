"""`attn-desktop train`: train one attention head on a task, two layers on induction, or the encoder-decoder on
translate (train_translate.py), headless (the model only: no Qt is imported), saying the loss and accuracy every
tenth of the way, and write the result as JSON."""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import TYPE_CHECKING

from attn_desktop.cli.errors import EXIT_INTERRUPTED, OneLineErrorParser, cannot_write, fail, say
from attn_desktop.cli.output_checks import json_output_problem
from attn_desktop.language import tr
from attn_desktop.model.ascii_numbers import ascii_decimal, ascii_whole_number

if TYPE_CHECKING:
    from attn_desktop.model.training.training import AnyTask, Trainer
    from attn_desktop.model.training.translation_task import TranslationTask

    CommandLineTask = AnyTask | TranslationTask

MAX_TRAINING_STEPS = 1_000_000  # about half an hour on a laptop; a typo of extra zeros is refused, not run for days
MAX_SEED = 2**63 - 1


def train_main(argv: list[str]) -> int:
    """Train headless (the model only: no Qt is imported) and write the result as JSON."""
    from attn_desktop.cli.train_translate import train_translator_and_write
    from attn_desktop.model.training.translation_task import TranslationTask

    tasks = command_line_tasks()
    args = _train_parser(list(tasks)).parse_args(argv)
    settings = _training_settings(args)
    if isinstance(settings, str):
        return fail(settings)
    task_name, steps, seed, lr = settings
    task = tasks[task_name]
    if isinstance(task, TranslationTask):
        return train_translator_and_write(task, steps, seed, lr, args.output)
    return _train_and_write(task, steps, seed, lr, args.output)


def command_line_tasks() -> dict[str, CommandLineTask]:
    """Every task the Trainer trains (training.trainable_tasks), then the translator, which has its own trainer."""
    from attn_desktop.model.training.training import trainable_tasks
    from attn_desktop.model.training.translation_task import TRANSLATE

    return {**trainable_tasks(), TRANSLATE.name: TRANSLATE}


def _train_parser(task_names: list[str]) -> argparse.ArgumentParser:
    from attn_desktop.model.training.training import MAX_LEARNING_RATE, MIN_LEARNING_RATE

    parser = OneLineErrorParser(
        prog="attn-desktop train",
        description=tr("Train one attention head on a task (or, for induction, two attention-only layers) with Adam, "
        "headless, printing the loss and accuracy every 10%, and write the trained model, its accuracy on 1,000 "
        "fresh sequences and one example worked through (queries, keys, values and weights; for induction every "
        "head's attention) as JSON.") + " " + tr("The task translate trains an encoder-decoder that translates a toy "
        "Spanish-like language into English-like words, and writes its weights, its exact match on held-out "
        "sentences never trained on, and one sentence's cross-attention."),
    )
    parser.add_argument("task", help=tr("the task: {tasks}").format(tasks=", ".join(task_names)))
    parser.add_argument("--steps", metavar="N", help=tr("training steps (default: the task's own, e.g. 400)"))
    parser.add_argument("--seed", metavar="S", default="0", help=tr("the random seed, a whole number (default 0)"))
    parser.add_argument("--lr", metavar="X", help=tr("Adam's learning rate, from {low} to {high} (default: the "
                        "task's own, e.g. 0.02)").format(low=f"{MIN_LEARNING_RATE:g}", high=f"{MAX_LEARNING_RATE:g}"))
    parser.add_argument("-o", "--output", required=True, help=tr("the JSON file to write"))
    return parser


def _training_settings(args: argparse.Namespace) -> tuple[str, int, int, float | None] | str:
    """(task, steps, seed, lr) from the command line, or one line saying what is wrong with it."""
    from attn_desktop.model.files.json_reading import shown_path
    from attn_desktop.model.training.training import MAX_LEARNING_RATE, MIN_LEARNING_RATE

    tasks = command_line_tasks()
    if args.task not in tasks:
        return tr("unknown task {task}; choose one of {tasks}").format(task=repr(args.task), tasks=", ".join(tasks))
    task = tasks[args.task]
    steps = task.default_steps if args.steps is None else _whole_number(args.steps)
    if steps is None or not 1 <= steps <= MAX_TRAINING_STEPS:
        return tr("--steps: expected a whole number from 1 to {most:,}, found {found}").format(
            most=MAX_TRAINING_STEPS, found=repr(args.steps))
    seed = _whole_number(args.seed)
    if seed is None or not 0 <= seed <= MAX_SEED:
        return tr("--seed: expected a whole number from 0 to {most}, found {found}").format(
            most=MAX_SEED, found=repr(args.seed))
    lr = None
    if args.lr is not None:
        lr = _number_in(args.lr, MIN_LEARNING_RATE, MAX_LEARNING_RATE)
        if lr is None:
            return tr("--lr: expected a number from {low} to {high} such as 0.02, found {found}").format(
                low=f"{MIN_LEARNING_RATE:g}", high=f"{MAX_LEARNING_RATE:g}", found=repr(args.lr))
    problem = json_output_problem(args.output)
    if problem:
        return tr("{file}: {problem}").format(file=shown_path(args.output), problem=problem)
    return args.task, steps, seed, lr


def _whole_number(text: str) -> int | None:
    return ascii_whole_number(text.strip())  # no 1e3, 4.0, "٥", or a thousand digits to convert


def _number_in(text: str, low: float, high: float) -> float | None:
    number = ascii_decimal(text.strip())  # no "０.１", "1_0" or nan
    return number if number is not None and low <= number <= high else None


def _train_and_write(task: AnyTask, steps: int, seed: int, lr: float | None, output: str) -> int:
    from attn_desktop.model.training.training import Trainer, TrainingDiverged

    trainer = Trainer(task, seed, lr=lr)
    say(tr("training {task}: {steps:,} steps of {optimiser}, learning rate {lr}, batch {batch}, seed {seed}").format(
        task=task.name, steps=steps, optimiser=trainer.optimiser, lr=f"{trainer.lr:g}", batch=trainer.batch_size,
        seed=seed))
    try:
        seconds, drop = _train(trainer, steps)
    except KeyboardInterrupt:
        print("attn-desktop: " + tr("training stopped at step {step:,}; nothing written").format(step=trainer.steps),
              file=sys.stderr)
        return EXIT_INTERRUPTED
    except TrainingDiverged as diverged:  # a head that blew up is of no use to anyone: nothing is written
        return fail(tr("{problem}: try a smaller --lr").format(problem=diverged))
    return _write_trained_head(trainer, steps, seconds, drop, output)


def _train(trainer: Trainer, steps: int) -> tuple[float, int | None]:
    """Take STEPS steps, saying the mean loss and accuracy of each tenth of them; the seconds it took, and
    the step where the loss dropped from its plateau (induction_circuit.loss_drop), if it did."""
    from attn_desktop.model.training.induction_circuit import loss_drop

    report_at = sorted({math.ceil(steps * tenth / 10) for tenth in range(1, 11)})
    every_loss: list[float] = []
    losses: list[float] = []
    accuracies: list[float] = []
    started = time.perf_counter()
    for _ in range(steps):
        metrics = trainer.step()
        every_loss.append(metrics.loss)
        losses.append(metrics.loss)
        accuracies.append(metrics.accuracy)
        if metrics.step in report_at:
            # Translators: a progress line; keep the two spaces between its parts, they line the lines up.
            say(tr("{percent:3d}%  step {step:,}/{steps:,}  loss {loss:.4f}  accuracy {accuracy:.1f}%").format(
                percent=100 * metrics.step // steps, step=metrics.step, steps=steps, loss=sum(losses) / len(losses),
                accuracy=100 * sum(accuracies) / len(accuracies)))
            losses.clear()
            accuracies.clear()
    seconds = time.perf_counter() - started
    _plateau_end, drop = loss_drop(every_loss, len(trainer.task.vocab))
    return seconds, None if drop is None else drop + 1  # an index into the losses; steps count from 1


def _write_trained_head(trainer: Trainer, steps: int, seconds: float, drop: int | None, output: str) -> int:
    from attn_desktop.model.files.json_reading import shown_path
    from attn_desktop.model.files.safe_write import write_json_atomically
    from attn_desktop.model.training.head_document import trained_head_document
    from attn_desktop.model.training.induction_document import induction_document
    from attn_desktop.model.training.induction_task import InductionTask

    layered = isinstance(trainer.task, InductionTask)
    document = induction_document(trainer) if layered else trained_head_document(trainer)
    document["metrics"]["seconds"] = round(seconds, 3)
    if layered:
        document["metrics"]["loss_drop_step"] = drop
    try:
        write_json_atomically(output, document)
    except OSError as error:
        return fail(cannot_write(shown_path(output), error))
    except ValueError:  # JSON holds no infinity or NaN: a head whose numbers overflowed (nothing is written)
        return fail(tr("the trained model's numbers are too large to write: try a smaller --lr") if layered
                    else tr("the trained head's numbers are too large to write: try a smaller --lr"))
    metrics = document["metrics"]
    if layered:
        say(tr("the loss never left its plateau") if drop is None
            else tr("the loss dropped from its plateau at step {step:,}").format(step=drop))
    say(tr("wrote {file}: accuracy {accuracy:.1f}% on {count:,} fresh sequences, loss {loss:.4f}, {steps:,} steps in "
           "{seconds:.1f} s").format(file=shown_path(output), accuracy=100 * metrics["accuracy"],
                                     count=metrics["evaluated_on"], loss=metrics["loss"], steps=steps, seconds=seconds))
    return 0
