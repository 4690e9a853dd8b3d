"""The steps of a teacher's walk (`attn-desktop snapshot --steps`), read from one comma-separated text.

Reading needs no window: a step that cannot be read is refused, named, before anything is built.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from attn_desktop.model import Role

MAX_TRAINING_STEPS = 5000  # a walk is a screen check, not a training run
WINDOW_SIDE_RANGE = (200, 8192)  # resize:WxH, in logical pixels
SIMPLE_STEPS = ("present", "unpresent", "restart", "heads", "induction", "next-token", "generate", "lens", "lab",
                "positions-lab", "predict", "reset-layout", "undo", "reveal", "start-afresh", "keep-as-scene",
                "describe")  # describe: View → Description, the panel of what a screen reader says
HEAD_STEPS = ("knock-out", "open-head", "grid-click", "grid-knock", "train-knock")  # KIND:LAYER.HEAD
STEP_FORMS = ("lesson:ID", *SIMPLE_STEPS[:3], "train:TASK:N", "train-knock:LAYER.HEAD", "keep-as-scene",
              *SIMPLE_STEPS[3:5], "knock-out:LAYER.HEAD", "open-head:LAYER.HEAD", "grid-click:LAYER.HEAD",
              "grid-knock:LAYER.HEAD", *SIMPLE_STEPS[5:13], "guess:INDEX:WEIGHT", "reveal", "drag:ROLE:INDEX:X:Y",
              "start-afresh", "lang:CODE", "resize:WxH", "describe")
ROLES = {**{role.value: role for role in Role}, **{role.symbol: role for role in Role}}


class StepError(ValueError):
    """A step that cannot be taken; its message names the step."""


@dataclass(frozen=True)
class Step:
    text: str  # as typed, for the audit and for messages
    kind: str  # "lesson", "train", "drag", "guess", "lang", "resize", one of HEAD_STEPS or of SIMPLE_STEPS
    lesson: str = ""
    task: str = ""
    count: int = 0
    layer: int = 0  # knock-out, open-head, grid-click, grid-knock, train-knock: LAYER.HEAD, each from 0
    head: int = 0
    role: Role = Role.QUERY
    index: int = 0  # drag's arrow, guess's bar
    x: float = 0.0
    y: float = 0.0
    weight: float = 0.0  # guess:INDEX:WEIGHT, a share from 0 to 1
    language: str = ""  # lang:CODE
    width: int = 0  # resize:WxH
    height: int = 0


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
    if kind in HEAD_STEPS and len(fields) == 1:
        return _head_step(text, kind, fields[0])
    if kind == "guess" and len(fields) == 2:
        return _guess_step(text, *fields)
    if kind == "lang" and len(fields) == 1:
        return _language_step(text, fields[0])
    if kind == "resize" and len(fields) == 1:
        return _resize_step(text, fields[0])
    raise StepError(f"step {text!r}: not a step; expected one of {', '.join(STEP_FORMS)}")


def _training_step(text: str, task: str, count: str) -> Step:
    from attn_desktop.ui.training.panel_tasks import PANEL_TASKS  # the Training panel's, induction included

    if task not in PANEL_TASKS:
        raise StepError(f"step {text!r}: no training task called {task!r}; choose one of {', '.join(PANEL_TASKS)}")
    if not count.isdigit() or not 1 <= int(count) <= MAX_TRAINING_STEPS:
        raise StepError(f"step {text!r}: expected a number of steps from 1 to {MAX_TRAINING_STEPS}, found {count!r}")
    return Step(text, "train", task=task, count=int(count))


def _head_step(text: str, kind: str, head: str) -> Step:
    layer_text, _, head_text = head.partition(".")
    if not (re.fullmatch(r"[0-9]{1,4}", layer_text) and re.fullmatch(r"[0-9]{1,4}", head_text)):  # not "²"
        raise StepError(f"step {text!r}: expected {kind}:LAYER.HEAD with whole numbers from 0, e.g. {kind}:17.4")
    return Step(text, kind, layer=int(layer_text), head=int(head_text))


def _guess_step(text: str, index: str, weight: str) -> Step:
    if not re.fullmatch(r"[0-9]{1,4}", index):
        raise StepError(f"step {text!r}: expected a guess bar's index (0, 1, …), found {index!r}")
    try:
        share = float(weight)
    except ValueError:
        share = math.nan
    if not 0.0 <= share <= 1.0:  # NaN fails too
        raise StepError(f"step {text!r}: expected a weight from 0 to 1 for the guess bar, found {weight!r}")
    return Step(text, "guess", index=int(index), weight=share)


def _language_step(text: str, code: str) -> Step:
    from attn_desktop.language.catalog import shown_languages

    codes = shown_languages()
    if code not in codes:
        raise StepError(f"step {text!r}: no language called {code!r}; choose one of {', '.join(codes)}")
    return Step(text, "lang", language=code)


def _resize_step(text: str, size: str) -> Step:
    match = re.fullmatch(r"([0-9]{1,5})x([0-9]{1,5})", size)
    low, high = WINDOW_SIDE_RANGE
    if not match or not all(low <= int(side) <= high for side in match.groups()):
        raise StepError(f"step {text!r}: expected resize:WxH with a width and height from {low} to {high} pixels, "
                        f"e.g. resize:1024x768")
    return Step(text, "resize", width=int(match[1]), height=int(match[2]))


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
