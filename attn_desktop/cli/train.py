"""`attn-desktop train`: train one attention head on a task headless (the model only: no Qt is
imported), saying the loss and accuracy every tenth of the way, and write the trained head as JSON."""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from typing import TYPE_CHECKING

from attn_desktop.cli.errors import EXIT_INTERRUPTED, OneLineErrorParser, cannot_write, fail, say
from attn_desktop.cli.output_checks import json_output_problem

if TYPE_CHECKING:
    from attn_desktop.model.training.tasks import Task
    from attn_desktop.model.training.training import Trainer

MAX_TRAINING_STEPS = 1_000_000  # about half an hour on a laptop; a typo of extra zeros is refused, not run for days
MAX_SEED = 2**63 - 1


def train_main(argv: list[str]) -> int:
    """Train one attention head headless (the model only: no Qt is imported) and write it as JSON."""
    from attn_desktop.model.training.tasks import TASKS

    args = _train_parser(list(TASKS)).parse_args(argv)
    settings = _training_settings(args)
    if isinstance(settings, str):
        return fail(settings)
    task_name, steps, seed, lr = settings
    return _train_and_write(TASKS[task_name], steps, seed, lr, args.output)


def _train_parser(task_names: list[str]) -> argparse.ArgumentParser:
    from attn_desktop.model.training.training import MAX_LEARNING_RATE, MIN_LEARNING_RATE

    parser = OneLineErrorParser(
        prog="attn-desktop train",
        description="Train one attention head on a task with Adam, headless, printing the loss and accuracy "
        "every 10%, and write the trained head, its accuracy on 1,000 fresh sequences and one example "
        "sentence's queries, keys, values and weights as JSON.",
    )
    parser.add_argument("task", help="the task: " + ", ".join(task_names))
    parser.add_argument("--steps", metavar="N", help="training steps (default: the task's own, e.g. 400)")
    parser.add_argument("--seed", metavar="S", default="0", help="the random seed, a whole number (default 0)")
    parser.add_argument("--lr", metavar="X", help=f"Adam's learning rate, from {MIN_LEARNING_RATE:g} to "
                        f"{MAX_LEARNING_RATE:g} (default: the task's own, e.g. 0.02)")
    parser.add_argument("-o", "--output", required=True, help="the JSON file to write")
    return parser


def _training_settings(args: argparse.Namespace) -> tuple[str, int, int, float | None] | str:
    """(task, steps, seed, lr) from the command line, or one line saying what is wrong with it."""
    from attn_desktop.model.files.json_reading import shown_path
    from attn_desktop.model.training.tasks import TASKS
    from attn_desktop.model.training.training import MAX_LEARNING_RATE, MIN_LEARNING_RATE

    if args.task not in TASKS:
        return f"unknown task {args.task!r}; choose one of {', '.join(TASKS)}"
    task = TASKS[args.task]
    steps = task.default_steps if args.steps is None else _whole_number(args.steps)
    if steps is None or not 1 <= steps <= MAX_TRAINING_STEPS:
        return f"--steps: expected a whole number from 1 to {MAX_TRAINING_STEPS:,}, found {args.steps!r}"
    seed = _whole_number(args.seed)
    if seed is None or not 0 <= seed <= MAX_SEED:
        return f"--seed: expected a whole number from 0 to {MAX_SEED}, found {args.seed!r}"
    lr = None
    if args.lr is not None:
        lr = _number_in(args.lr, MIN_LEARNING_RATE, MAX_LEARNING_RATE)
        if lr is None:
            return (f"--lr: expected a number from {MIN_LEARNING_RATE:g} to {MAX_LEARNING_RATE:g} such as 0.02, "
                    f"found {args.lr!r}")
    problem = json_output_problem(args.output)
    if problem:
        return f"{shown_path(args.output)}: {problem}"
    return args.task, steps, seed, lr


def _whole_number(text: str) -> int | None:
    text = text.strip()
    if not re.fullmatch(r"[+-]?\d{1,20}", text):  # no 1e3, 4.0, or a thousand digits to convert
        return None
    return int(text)


def _number_in(text: str, low: float, high: float) -> float | None:
    try:
        number = float(text)
    except ValueError:
        return None
    return number if low <= number <= high else None  # NaN is in no range


def _train_and_write(task: Task, steps: int, seed: int, lr: float | None, output: str) -> int:
    from attn_desktop.model.training.training import Trainer, TrainingDiverged

    trainer = Trainer(task, seed, lr=lr)
    say(f"training {task.name}: {steps:,} steps of {trainer.optimiser}, learning rate {trainer.lr:g}, "
        f"batch {trainer.batch_size}, seed {seed}")
    try:
        seconds = _train(trainer, steps)
    except KeyboardInterrupt:
        print(f"attn-desktop: training stopped at step {trainer.steps:,}; nothing written", file=sys.stderr)
        return EXIT_INTERRUPTED
    except TrainingDiverged as diverged:  # a head that blew up is of no use to anyone: nothing is written
        return fail(f"{diverged}: try a smaller --lr")
    return _write_trained_head(trainer, steps, seconds, output)


def _train(trainer: Trainer, steps: int) -> float:
    """Take STEPS steps, saying the mean loss and accuracy of each tenth of them; the seconds it took."""
    report_at = sorted({math.ceil(steps * tenth / 10) for tenth in range(1, 11)})
    losses: list[float] = []
    accuracies: list[float] = []
    started = time.perf_counter()
    for _ in range(steps):
        metrics = trainer.step()
        losses.append(metrics.loss)
        accuracies.append(metrics.accuracy)
        if metrics.step in report_at:
            say(f"{100 * metrics.step // steps:3d}%  step {metrics.step:,}/{steps:,}  "
                f"loss {sum(losses) / len(losses):.4f}  accuracy {100 * sum(accuracies) / len(accuracies):.1f}%")
            losses.clear()
            accuracies.clear()
    return time.perf_counter() - started


def _write_trained_head(trainer: Trainer, steps: int, seconds: float, output: str) -> int:
    from attn_desktop.model.files.json_reading import shown_path
    from attn_desktop.model.files.safe_write import write_json_atomically
    from attn_desktop.model.training.head_document import trained_head_document

    document = trained_head_document(trainer)
    document["metrics"]["seconds"] = round(seconds, 3)
    try:
        write_json_atomically(output, document)
    except OSError as error:
        return fail(cannot_write(shown_path(output), error))
    except ValueError:  # JSON holds no infinity or NaN: a head whose numbers overflowed (nothing is written)
        return fail("the trained head's numbers are too large to write: try a smaller --lr")
    metrics = document["metrics"]
    say(f"wrote {shown_path(output)}: accuracy {100 * metrics['accuracy']:.1f}% on {metrics['evaluated_on']:,} "
        f"fresh sequences, loss {metrics['loss']:.4f}, {steps:,} steps in {seconds:.1f} s")
    return 0
