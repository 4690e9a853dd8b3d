"""Issue 42: the window holds still while a class uses it. The paths of the issue's items 1–6 walked with
`attn-desktop snapshot --steps` at the three classroom screens, normal and presenting, in English and Arabic:
after every step that is not a layout step (a reveal, a guess, a drag, a knock-out, …) each shown panel is
where it was a step before, within a few pixels, and every round trip (presenting and back, lesson A → B → A,
a language and back, a restart) gives back the panels it started from.

Each walk runs the app's own snapshot command in a child process (its screen is set before Qt starts).
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
    # items 3 and 4, from lesson 10 (whose lab a restart after the real model must give back)
    "real model grid": "lesson:positions,heads,open-head:23.4,grid-click:23.4,grid-knock:23.4,generate,restart",
    "presenting and back": "lesson:why-sqrt-dk,present,unpresent,lesson:positions,present,unpresent",  # item 5
    "lessons and back": "lesson:self-attention,lesson:two-heads,lesson:self-attention,drag:k:1:1.5:0.5,"
                        "lesson:projections,lesson:self-attention,start-afresh,undo,restart",  # items 1 and 2
    "a language and back": "lesson:two-heads,lang:{away},lang:{home},lesson:self-attention,lang:{away},"
                           "lang:{home}",  # item 6
}
SCREENS = ("1024x768", "1280x720", "1920x1080")
# Every walk at every screen in English; presenting and in Arabic at the projector's 1024 × 768.
CASES = [(walk, screen, False, "en") for walk in WALKS for screen in SCREENS]
# (Presenting hides the lesson's panel, and with it Start afresh: that walk is walked in the everyday window.)
CASES += [(walk, "1024x768", True, "en") for walk in WALKS if walk != "lessons and back"]
CASES += [(walk, "1024x768", False, "ar") for walk in WALKS]
EVERYWHERE = [(screen, False, "en") for screen in SCREENS] + [("1024x768", True, "en"), ("1024x768", False, "ar")]


def _case_id(case) -> str:
    walk, screen, presenting, language = case
    return f"{walk.replace(' ', '-')}-{screen}{'-presenting' if presenting else ''}-{language}"


KNOWN: dict[tuple[str, str, bool, str], str] = {}  # round trips still open now and then, with why (none now)


def _params(known: dict[tuple[str, str, bool, str], str] | None = None) -> list:
    """Every case; those in KNOWN marked as expected to fail now and then (only where that test is named)."""
    known = known or {}
    return [pytest.param(*case, id=_case_id(case),
                         marks=[pytest.mark.xfail(strict=False, reason=known[case])] if case in known else [])
            for case in CASES]


def steps_of(walk: str, language: str, presenting: bool = False) -> list[str]:
    """The walk's steps; started presenting, its F11 round trips go the other way (unpresent, then present)."""
    steps = WALKS[walk].format(away="en" if language == "ar" else "ar", home=language).split(",")
    if presenting:
        flipped = {"present": "unpresent", "unpresent": "present"}
        steps = [flipped.get(step, step) for step in steps]
    return steps


def round_trips(steps: list[str], presenting: bool = False) -> list[tuple[int, int]]:
    """(before, after): the step whose panels a round trip must give back, and the step that ends it. F11 and F11
    again, a language and back, lesson A → B → A (lessons only between), and a restart from the everyday window
    (a restart leaves presentation mode, as quitting does).

    A restart after the real model gives back the arrangement from before its Model heads panel was opened (the
    lesson's, lesson 10's lab included), not the panel: the issue's "a restart after any activity gives back the
    arrangement the activity opened with". The app starts with the last lesson, not the model (loading it would
    cost every start seconds, and a head of it is no saved scene), so a teacher finds the lesson as it opened."""
    trips = []
    for end, step in enumerate(steps):
        kind = step.split(":")[0]
        if end >= 2 and _and_back(steps[end - 1], step):
            trips.append((end - 2, end))
        elif kind == "lesson":
            start = end - 1  # back over the other lessons opened since A
            while start >= 0 and steps[start].startswith("lesson:") and steps[start] != step:
                start -= 1
            if 0 <= start < end - 1 and _last(steps[:start + 1], step, lessons_only=True) >= 0:
                trips.append((start, end))
        elif step == "restart" and not presenting:
            trips.append((_before_the_model(steps[:end]), end))
        presenting = (presenting or step == "present") and step not in ("unpresent", "restart")
    return [(before, after) for before, after in trips if before >= 0]


def _before_the_model(steps: list[str]) -> int:
    """The step whose arrangement a restart at the end of STEPS gives back: the last one, or, when the Model
    heads panel was opened since the last lesson, the one before it was."""
    lesson = max((index for index, step in enumerate(steps) if step.startswith("lesson:")), default=-1)
    heads = [index for index, step in enumerate(steps) if step == "heads" and index > lesson]
    return heads[0] - 1 if heads else len(steps) - 1


def _and_back(there: str, back: str) -> bool:
    """F11 and F11 again, or a language and back: two steps of one kind in a row, the second undoing the first."""
    toggles = there != back and {there, back} == {"present", "unpresent"}
    return toggles or (there != back and there.startswith("lang:") and back.startswith("lang:"))


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


def _skip_without_the_model_pack() -> None:
    """The real model's steps need the optional SmolLM2 pack (and its readers): skipped, saying why, without."""
    pytest.importorskip("gguf")
    pytest.importorskip("tokenizers")
    from attn_desktop.model.pretrained import pack

    try:
        pack.find_pack_model()
    except pack.ModelUnavailable as missing:
        pytest.skip(str(missing))


_WALKED: dict[tuple[str, str, bool, str], tuple[list[str], list[dict]]] = {}  # each walk runs once per session


def walk_audits(tmp_path_factory, walk: str, screen: str, presenting: bool, language: str) -> tuple[list[str],
                                                                                                    list[dict]]:
    """The steps of WALK and the audit after each, walked once in a child process however many tests read it."""
    case = (walk, screen, presenting, language)
    if "open-head" in WALKS[walk]:
        _skip_without_the_model_pack()
    if case not in _WALKED:
        folder = tmp_path_factory.mktemp("walk")
        steps = steps_of(walk, language, presenting)
        options = ["--size", screen, "--lang", language, *(["--presentation"] if presenting else [])]
        done = run_snapshot(folder, *options, steps=",".join(steps))
        assert done.returncode == 0, done.stderr[-2000:]
        audits = [entry["audit"] for entry in json.loads((folder / "audit.json").read_text())["steps"]]
        assert len(audits) == len(steps)
        _WALKED[case] = steps, audits
    return _WALKED[case]


@pytest.mark.parametrize("walk, screen, presenting, language", _params(KNOWN))
def test_the_panels_hold_still_and_round_trips_come_back(tmp_path_factory, walk, screen, presenting, language):
    steps, audits = walk_audits(tmp_path_factory, walk, screen, presenting, language)
    found = []
    for number, step in enumerate(steps[1:], start=1):
        still = step.split(":")[0] in STILL_STEPS
        if still and (changes := moved(audits[number - 1]["docks"], audits[number]["docks"])):
            found.append(f"{step} (after {steps[number - 1]}) moved: {changes}")
    for before, after in round_trips(steps, presenting):
        if changes := moved(audits[before]["docks"], audits[after]["docks"]):
            found.append(f"{steps[before]} … {steps[after]} did not come back: {changes}")
    assert not found, "\n".join(found)


def overlapping(docks: dict[str, list[int]]) -> list[str]:
    """Shown panels that cover part of each other (a panel Qt left at an old size under its neighbour)."""
    rectangles = sorted(docks.items())
    return [f"{one} {first} and {other} {second}" for index, (one, first) in enumerate(rectangles)
            for other, second in rectangles[index + 1:]
            if min(first[0] + first[2], second[0] + second[2]) > max(first[0], second[0])
            and min(first[1] + first[3], second[1] + second[3]) > max(first[1], second[1])]


@pytest.mark.parametrize("walk, screen, presenting, language", _params())
def test_no_two_panels_cover_each_other(tmp_path_factory, walk, screen, presenting, language):
    steps, audits = walk_audits(tmp_path_factory, walk, screen, presenting, language)
    found = {f"{number}. {step}": covered for number, (step, audit) in enumerate(zip(steps, audits, strict=True), 1)
             if (covered := overlapping(audit["docks"]))}
    assert not found


@pytest.mark.parametrize("walk, screen, presenting, language", _params())
def test_no_button_or_tab_is_cut(tmp_path_factory, walk, screen, presenting, language):
    """Every button, switch and tab on screen shows its whole text after every step (at 1024 × 768 the lesson
    column's tabs scrolled "Sentence" out of sight)."""
    steps, audits = walk_audits(tmp_path_factory, walk, screen, presenting, language)
    cut = {f"{number}. {step}": audit["buttons_clipped"] for number, (step, audit)
           in enumerate(zip(steps, audits, strict=True), 1) if audit["buttons_clipped"]}
    assert not cut


REAL_MODEL_CASES = [case for case in CASES if case[0] == "real model grid"]
LANGUAGE_CASES = [case for case in CASES if case[0] == "a language and back"]
def _params_of(cases: list) -> list:
    return [pytest.param(*case, id=_case_id(case)) for case in cases]


@pytest.mark.parametrize("walk, screen, presenting, language", _params_of(REAL_MODEL_CASES))
def test_the_real_models_grid_is_readable_and_an_opened_heads_labels_whole(tmp_path_factory, walk, screen,
                                                                           presenting, language):
    steps, audits = walk_audits(tmp_path_factory, walk, screen, presenting, language)
    opened = audits[steps.index("open-head:23.4")]
    assert opened["head_grid_cell_px"] is not None and opened["head_grid_cell_px"] >= 24, opened["head_grid_cell_px"]
    assert opened["matrix_labels_missing"] == []


@pytest.mark.parametrize("walk, screen, presenting, language", _params_of(LANGUAGE_CASES))
def test_a_language_switch_reaches_everything(tmp_path_factory, walk, screen, presenting, language):
    steps, audits = walk_audits(tmp_path_factory, walk, screen, presenting, language)
    left = {f"{number}. {step}": audit["untranslated_texts"] for number, (step, audit)
            in enumerate(zip(steps, audits, strict=True), 1) if audit["untranslated_texts"]}
    assert not left


# ----- the walks' own bookkeeping, without a window ----------------------------------------------
def test_the_round_trips_of_the_walks_are_found():
    steps = steps_of("lessons and back", "en")
    assert round_trips(steps) == [(0, 2), (3, 5), (7, 8)]  # 3 → 7 → 3, 3 (dragged) → 2 → 3, the restart
    assert round_trips(steps_of("presenting and back", "en")) == [(0, 2), (3, 5)]
    assert round_trips(steps_of("a language and back", "ar")) == [(0, 2), (3, 5)]
    assert round_trips(steps_of("real model grid", "en")) == [(0, 6)]  # lesson 10 as it opened, after the model
    presented = steps_of("presenting and back", "en", presenting=True)
    assert presented[1:3] == ["unpresent", "present"] and round_trips(presented, presenting=True) == [(0, 2), (3, 5)]
    assert round_trips(steps_of("real model grid", "en", presenting=True), presenting=True) == []


def test_panels_side_by_side_do_not_cover_each_other_and_a_panel_left_too_tall_does():
    scores, matrix = [1344, 51, 576, 196], [1344, 253, 576, 805]
    assert overlapping({"scoreDock": scores, "matrixDock": matrix}) == []
    assert overlapping({"scoreDock": [1344, 51, 576, 216], "matrixDock": matrix}) == [
        "matrixDock [1344, 253, 576, 805] and scoreDock [1344, 51, 576, 216]"]
