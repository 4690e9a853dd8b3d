"""The steps of a teacher's walk (`attn-desktop snapshot --steps`), read from one comma-separated text.

Reading needs no window: a step that cannot be read is refused, named, before anything is built. Every
number in a step goes through one of two readers: whole_number (ASCII digits only, within a stated range:
not "²" or "①", which str.isdigit takes and int refuses) and decimal_number (ASCII, finite, within a range),
both on model.ascii_numbers, which the command line's options use too.
A walk of more than MAX_WALK_STEPS steps is refused as a whole before any is read (30,000 `lab` steps would
run for an hour), and so is one whose steps cost more than a budget for the whole walk (walk_cost_problem):
counting steps alone let 1,000 steps of `train:induction:5000` through, six days before anything was written.
"""

from __future__ import annotations

from dataclasses import dataclass

from attn_desktop.model import Role
from attn_desktop.model.ascii_numbers import ascii_decimal, ascii_whole_number

MAX_TRAINING_STEPS = 5000  # a walk is a screen check, not a training run
MAX_WALK_STEPS = 1000  # the longest classroom walk has a few dozen; 2,000 `lab` steps take about 20 s
# The whole walk's budget, for its costly steps (measured on a loaded 2-core machine):
MAX_WALK_TRAINING_STEPS = 5000  # train:TASK:N, N added up: 5,000 steps of induction take about 9 minutes
MAX_WALK_RESTARTS = 50  # about 0.7 s each
MAX_WALK_MODEL_STEPS = 100  # steps that ask the real model (heads, generate, knock-out, ...): seconds each
INDEX_RANGE = (0, 9999)  # an arrow's or a guess bar's index; the walk says how many there are
HEAD_RANGE = (0, 9999)  # LAYER and HEAD of a real model's head, each from 0
DRAG_POINT_RANGE = (-1e6, 1e6)  # where on the plot an arrow's tip is dragged to, in the plot's units
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
    """Every step of TEXT, in order; StepError naming the first that cannot be read, or saying the walk is
    longer than MAX_WALK_STEPS (before any step is read, so nothing runs)."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) > MAX_WALK_STEPS:
        raise StepError(f"--steps: a walk has at most {MAX_WALK_STEPS:,} steps; found {len(parts):,}")
    if not text.strip() or any(not part for part in parts):
        raise StepError(f"--steps: expected steps separated by commas ({', '.join(STEP_FORMS)}); found {_cut(text)!r}")
    steps = [parse_step(part) for part in parts]
    problem = walk_cost_problem(steps)
    if problem:
        raise StepError(problem)
    return steps


MODEL_STEPS = ("heads", "induction", "next-token", "generate", "lens", "knock-out", "open-head", "grid-click",
               "grid-knock")


def walk_cost_problem(steps: list[Step]) -> str | None:
    """Why the walk as a whole would run too long (the budget above), or None: checked before anything runs."""
    training = sum(step.count for step in steps if step.kind == "train")
    if training > MAX_WALK_TRAINING_STEPS:
        return (f"--steps: a walk trains at most {MAX_WALK_TRAINING_STEPS:,} steps in all (about 9 minutes of "
                f"induction); found {training:,}")
    restarts = sum(step.kind == "restart" for step in steps)
    if restarts > MAX_WALK_RESTARTS:
        return f"--steps: a walk restarts the app at most {MAX_WALK_RESTARTS} times; found {restarts:,}"
    asked = sum(step.kind in MODEL_STEPS for step in steps)
    if asked > MAX_WALK_MODEL_STEPS:
        return f"--steps: a walk asks the real model at most {MAX_WALK_MODEL_STEPS} times; found {asked:,}"
    return None


def whole_number(step: str, what: str, text: str, low: int, high: int) -> int:
    """TEXT as a whole number from LOW to HIGH, written in ASCII digits; StepError naming STEP and WHAT otherwise.

    The one reader of a step's whole numbers: "²" and "①" are digits to str.isdigit but not to int, and "٣"
    is one to int but not what a walk is typed with."""
    number = ascii_whole_number(text, len(str(high)))
    if number is None or not low <= number <= high:
        raise StepError(f"step {_cut(step)!r}: expected {what} from {low} to {high}, found {_cut(text)!r}")
    return number


def decimal_number(step: str, what: str, text: str, low: float, high: float) -> float:
    """TEXT as a number from LOW to HIGH ("1.5", "-2", "1e-3"), in ASCII; StepError naming STEP and WHAT for
    anything else: "nan", "inf", "１.５" (which float() takes) or a number out of range.

    The one reader of a step's decimal numbers."""
    value = ascii_decimal(text)
    if value is None or not low <= value <= high:
        raise StepError(f"step {_cut(step)!r}: expected {what} from {low:g} to {high:g}, found {_cut(text)!r}")
    return value


def _cut(text: str, most: int = 80) -> str:
    """TEXT for a one-line message: a step can be as long as the command line."""
    return text if len(text) <= most else text[: most - 1] + "…"


def parse_step(text: str) -> Step:
    kind, *fields = (field.strip() for field in text.split(":"))  # "train:reverse: 10" as "lab , present" is read
    if kind in SIMPLE_STEPS and not fields:
        return Step(text, kind)
    if kind == "lesson" and len(fields) == 1:
        ids = _lesson_ids()
        if fields[0] not in ids:
            raise StepError(f"step {_cut(text)!r}: no lesson called {_cut(fields[0])!r}; choose one of {', '.join(ids)}")
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
    raise StepError(f"step {_cut(text)!r}: not a step; expected one of {', '.join(STEP_FORMS)}")


def _training_step(text: str, task: str, count: str) -> Step:
    from attn_desktop.ui.training.panel_tasks import PANEL_TASKS  # the Training panel's, induction included

    if task not in PANEL_TASKS:
        raise StepError(f"step {_cut(text)!r}: no training task called {_cut(task)!r}; choose one of {', '.join(PANEL_TASKS)}")
    steps = whole_number(text, "a number of steps", count, 1, MAX_TRAINING_STEPS)
    return Step(text, "train", task=task, count=steps)


def _head_step(text: str, kind: str, head: str) -> Step:
    layer_text, _, head_text = head.partition(".")
    try:
        layer, head_number = (whole_number(text, "a layer", layer_text, *HEAD_RANGE),
                              whole_number(text, "a head", head_text, *HEAD_RANGE))
    except StepError:
        raise StepError(f"step {_cut(text)!r}: expected {kind}:LAYER.HEAD with whole numbers from 0, "
                        f"e.g. {kind}:17.4") from None
    return Step(text, kind, layer=layer, head=head_number)


def _guess_step(text: str, index: str, weight: str) -> Step:
    bar = whole_number(text, "a guess bar's index", index, *INDEX_RANGE)
    share = decimal_number(text, "a guess bar's weight", weight, 0.0, 1.0)
    return Step(text, "guess", index=bar, weight=share)


def _language_step(text: str, code: str) -> Step:
    from attn_desktop.language.catalog import shown_languages

    codes = shown_languages()
    if code not in codes:
        raise StepError(f"step {_cut(text)!r}: no language called {_cut(code)!r}; choose one of {', '.join(codes)}")
    return Step(text, "lang", language=code)


def _resize_step(text: str, size: str) -> Step:
    width, separator, height = size.partition("x")
    low, high = WINDOW_SIDE_RANGE
    try:
        if not separator:
            raise StepError(text)
        sides = whole_number(text, "a width", width, low, high), whole_number(text, "a height", height, low, high)
    except StepError:
        raise StepError(f"step {_cut(text)!r}: expected resize:WxH with a width and height from {low} to {high} "
                        f"pixels, e.g. resize:1024x768") from None
    return Step(text, "resize", width=sides[0], height=sides[1])


def _drag_step(text: str, role: str, index: str, x: str, y: str) -> Step:
    if role.lower() not in ROLES:
        raise StepError(f"step {_cut(text)!r}: no role called {_cut(role)!r}; choose one of {', '.join(ROLES)}")
    arrow = whole_number(text, "an arrow's index", index, *INDEX_RANGE)
    point = [decimal_number(text, f"the point's {axis} to drag to", value, *DRAG_POINT_RANGE)
             for axis, value in (("x", x), ("y", y))]
    return Step(text, "drag", role=ROLES[role.lower()], index=arrow, x=point[0], y=point[1])


def _lesson_ids() -> list[str]:
    from attn_desktop.model.teaching import lessons

    return [lesson.id for lesson in lessons.LESSONS]


__all__ = ["Step", "StepError", "parse_steps"]
