"""The steps of a teacher's walk (`attn-desktop snapshot --steps`), read from one comma-separated text.

Reading needs no window: a step that cannot be read is refused, named, before anything is built.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from attn_desktop.model import Role

MAX_TRAINING_STEPS = 5000  # a walk is a screen check, not a training run
SIMPLE_STEPS = ("present", "unpresent", "restart", "heads", "induction", "next-token", "generate", "lens", "lab",
                "positions-lab", "predict", "reset-layout", "undo")
STEP_FORMS = ("lesson:ID", *SIMPLE_STEPS[:3], "train:TASK:N", *SIMPLE_STEPS[3:5], "knock-out:LAYER.HEAD",
              *SIMPLE_STEPS[5:], "drag:ROLE:INDEX:X:Y")
ROLES = {**{role.value: role for role in Role}, **{role.symbol: role for role in Role}}


class StepError(ValueError):
    """A step that cannot be taken; its message names the step."""


@dataclass(frozen=True)
class Step:
    text: str  # as typed, for the audit and for messages
    kind: str  # "lesson", "train", "drag" or one of SIMPLE_STEPS
    lesson: str = ""
    task: str = ""
    count: int = 0
    layer: int = 0  # knock-out:LAYER.HEAD
    head: int = 0
    role: Role = Role.QUERY
    index: int = 0
    x: float = 0.0
    y: float = 0.0


def parse_steps(text: str) -> list[Step]:
    """Every step of TEXT, in order; StepError naming the first that cannot be read."""
    parts = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not part for part in parts):
        raise StepError(f"--steps: expected steps separated by commas ({', '.join(STEP_FORMS)}); found {text!r}")
    return [parse_step(part) for part in parts]


def parse_step(text: str) -> Step:
    kind, *fields = text.split(":")
    if kind in SIMPLE_STEPS and not fields:
        return Step(text, kind)
    if kind == "lesson" and len(fields) == 1:
        ids = _lesson_ids()
        if fields[0] not in ids:
            raise StepError(f"step {text!r}: no lesson called {fields[0]!r}; choose one of {', '.join(ids)}")
        return Step(text, kind, lesson=fields[0])
    if kind == "train" and len(fields) == 2:
        return _training_step(text, *fields)
    if kind == "drag" and len(fields) == 4:
        return _drag_step(text, *fields)
    if kind == "knock-out" and len(fields) == 1:
        return _knock_out_step(text, fields[0])
    raise StepError(f"step {text!r}: not a step; expected one of {', '.join(STEP_FORMS)}")


def _training_step(text: str, task: str, count: str) -> Step:
    from attn_desktop.ui.training.panel_tasks import PANEL_TASKS  # the Training panel's, induction included

    if task not in PANEL_TASKS:
        raise StepError(f"step {text!r}: no training task called {task!r}; choose one of {', '.join(PANEL_TASKS)}")
    if not count.isdigit() or not 1 <= int(count) <= MAX_TRAINING_STEPS:
        raise StepError(f"step {text!r}: expected a number of steps from 1 to {MAX_TRAINING_STEPS}, found {count!r}")
    return Step(text, "train", task=task, count=int(count))


def _knock_out_step(text: str, head: str) -> Step:
    layer_text, _, head_text = head.partition(".")
    if not (re.fullmatch(r"[0-9]{1,4}", layer_text) and re.fullmatch(r"[0-9]{1,4}", head_text)):  # not "²"
        raise StepError(f"step {text!r}: expected knock-out:LAYER.HEAD with whole numbers, e.g. knock-out:17.4")
    return Step(text, "knock-out", layer=int(layer_text), head=int(head_text))


def _drag_step(text: str, role: str, index: str, x: str, y: str) -> Step:
    if role.lower() not in ROLES:
        raise StepError(f"step {text!r}: no role called {role!r}; choose one of {', '.join(ROLES)}")
    if not index.isdigit():
        raise StepError(f"step {text!r}: expected an arrow's index (0, 1, …), found {index!r}")
    try:
        point = float(x), float(y)
    except ValueError:
        point = (math.nan, math.nan)
    if not all(math.isfinite(value) for value in point):
        raise StepError(f"step {text!r}: expected two numbers for the point to drag to, found {x!r} and {y!r}")
    return Step(text, "drag", role=ROLES[role.lower()], index=int(index), x=point[0], y=point[1])


def _lesson_ids() -> list[str]:
    from attn_desktop.model.teaching import lessons

    return [lesson.id for lesson in lessons.LESSONS]


__all__ = ["Step", "StepError", "parse_steps"]
