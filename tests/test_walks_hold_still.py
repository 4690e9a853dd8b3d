"""Issue 42: the window holds still while a class uses it. The paths of the issue's items 1–6 walked with
`attn-desktop snapshot --steps` at the three classroom screens, normal and presenting, in English and Arabic:
after every step that is not a layout step (a reveal, a guess, a drag, a knock-out, …) each shown panel is
where it was a step before, within a few pixels, and every round trip (presenting and back, lesson A → B → A,
a language and back, a restart) gives back the panels it started from.

Each walk runs the app's own snapshot command in a child process (its screen is set before Qt starts). A walk
that fails because of a defect the issue names is marked xfail(strict) with that item: the fix flips it.
"""

import json

import pytest

from tests.support.snapshot_run import run_snapshot

pytestmark = pytest.mark.slow

PIXELS = 4  # "within a few pixels"
STILL_STEPS = frozenset({"reveal", "guess", "generate", "knock-out", "grid-click", "grid-knock", "train-knock", "drag",
                         "undo", "start-afresh"})
# The items 1–6 as a teacher walks them ({away} and {home}: another language and the walk's own).
WALKS = {
    "lesson 8 reveal": "lesson:predict-then-see,drag:k:1:1.5:-1,guess:1:0.6,reveal",  # item 1
    "training induction knock-out": "train:induction:60,train-knock:0.0",  # item 2
    "real model grid": "heads,open-head:23.4,grid-click:23.4,grid-knock:23.4,generate,restart",  # items 3 and 4
    "presenting and back": "lesson:why-sqrt-dk,present,unpresent,lesson:positions,present,unpresent",  # item 5
    "lessons and back": "lesson:self-attention,lesson:two-heads,lesson:self-attention,drag:k:1:1.5:0.5,"
                        "lesson:projections,lesson:self-attention,start-afresh,undo,restart",  # items 1 and 2
    "a language and back": "lesson:two-heads,lang:{away},lang:{home},lesson:self-attention,lang:{away},"
                           "lang:{home}",  # item 6
}
SCREENS = ("1024x768", "1280x720", "1920x1080")
# Every walk at every screen in English; presenting and in Arabic at the projector's 1024 × 768.
CASES = [(walk, screen, False, "en") for walk in WALKS for screen in SCREENS]
CASES += [(walk, "1024x768", True, "en") for walk in WALKS]
CASES += [(walk, "1024x768", False, "ar") for walk in WALKS]
# The walks the defects of issue 42 still fail, with the item that fixes them.
KNOWN: dict[tuple[str, str, bool, str], str] = {}


def _case_id(case) -> str:
    walk, screen, presenting, language = case
    return f"{walk.replace(' ', '-')}-{screen}{'-presenting' if presenting else ''}-{language}"


def _params() -> list:
    return [pytest.param(*case, id=_case_id(case),
                         marks=[pytest.mark.xfail(strict=True, reason=KNOWN[case])] if case in KNOWN else [])
            for case in CASES]


def steps_of(walk: str, language: str) -> list[str]:
    return WALKS[walk].format(away="en" if language == "ar" else "ar", home=language).split(",")


def round_trips(steps: list[str]) -> list[tuple[int, int]]:
    """(before, after): the step whose panels a round trip must give back, and the step that ends it. Present →
    unpresent, a language and back, lesson A → B → A (lessons only between), and a restart."""
    trips = []
    for end, step in enumerate(steps):
        kind = step.split(":")[0]
        if step == "unpresent" and "present" in steps[:end]:
            trips.append((_last(steps[:end], "present") - 1, end))
        elif kind == "lang" and end >= 2 and steps[end - 1].startswith("lang:") and step != steps[end - 1]:
            trips.append((end - 2, end))
        elif kind == "lesson":
            start = end - 1  # back over the other lessons opened since A
            while start >= 0 and steps[start].startswith("lesson:") and steps[start] != step:
                start -= 1
            if 0 <= start < end - 1 and _last(steps[:start + 1], step, lessons_only=True) >= 0:
                trips.append((start, end))
        elif step == "restart":
            trips.append((end - 1, end))
    return [(before, after) for before, after in trips if before >= 0]


def _last(steps: list[str], step: str, lessons_only: bool = False) -> int:
    """Where STEP was last taken in STEPS; with LESSONS_ONLY, -1 unless it is the last lesson opened there."""
    if lessons_only:
        opened = [other for other in steps if other.startswith("lesson:")]
        return len(opened) - 1 if opened and opened[-1] == step else -1
    return max((index for index, other in enumerate(steps) if other == step), default=-1)


def moved(before: dict, after: dict) -> list[str]:
    """The panels shown in one arrangement and not the other, or more than PIXELS apart."""
    changes = [f"{name}: {before.get(name)} → {after.get(name)}" for name in sorted(set(before) | set(after))
               if name not in before or name not in after
               or any(abs(a - b) > PIXELS for a, b in zip(before[name], after[name], strict=True))]
    return changes


def walk_audits(tmp_path, walk: str, screen: str, presenting: bool, language: str) -> tuple[list[str], list[dict]]:
    steps = steps_of(walk, language)
    options = ["--size", screen, "--lang", language, *(["--presentation"] if presenting else [])]
    done = run_snapshot(tmp_path, *options, steps=",".join(steps))
    assert done.returncode == 0, done.stderr[-2000:]
    audits = [entry["audit"] for entry in json.loads((tmp_path / "audit.json").read_text())["steps"]]
    assert len(audits) == len(steps)
    return steps, audits


@pytest.mark.parametrize("walk, screen, presenting, language", _params())
def test_the_panels_hold_still_and_round_trips_come_back(tmp_path, walk, screen, presenting, language):
    steps, audits = walk_audits(tmp_path, walk, screen, presenting, language)
    found = []
    for number, step in enumerate(steps[1:], start=1):
        still = step.split(":")[0] in STILL_STEPS
        if still and (changes := moved(audits[number - 1]["docks"], audits[number]["docks"])):
            found.append(f"{step} (after {steps[number - 1]}) moved: {changes}")
    for before, after in round_trips(steps):
        if changes := moved(audits[before]["docks"], audits[after]["docks"]):
            found.append(f"{steps[before]} … {steps[after]} did not come back: {changes}")
    assert not found, "\n".join(found)


# ----- the walks' own bookkeeping, without a window ----------------------------------------------
def test_the_round_trips_of_the_walks_are_found():
    steps = steps_of("lessons and back", "en")
    assert round_trips(steps) == [(0, 2), (3, 5), (7, 8)]  # 3 → 7 → 3, 3 (dragged) → 2 → 3, the restart
    assert round_trips(steps_of("presenting and back", "en")) == [(0, 2), (3, 5)]
    assert round_trips(steps_of("a language and back", "ar")) == [(0, 2), (3, 5)]
    assert round_trips(steps_of("real model grid", "en")) == [(4, 5)]
