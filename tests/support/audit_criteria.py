"""What a teacher would see wrong in one audited window (a step of `attn-desktop snapshot --steps`, or a
real window's audit): the same list for the offscreen walks and the real-window walk."""

from attn_desktop.geometry.colour_vision import GRAPHICS_CONTRAST, SEPARATION_THRESHOLD, TEXT_CONTRAST

LISTS_THAT_MUST_BE_EMPTY = ("plots_too_small", "key_labels_missing", "texts_elided", "text_overlaps", "panels_cut",
                            "untranslated_texts")
COUNTS_THAT_MUST_BE_ZERO = ("label_overlaps", "chart_label_overlaps", "labels_cut")
LABEL_LINES_FROM_THEIR_TIP = 2


def problem_kind(problem: str) -> str:
    """The audit figure a problem is about: "plots_too_small", "max_label_distance_px", …"""
    return problem.split(":")[0].split(" ")[0]


def problems_in(audit: dict) -> list[str]:
    """Each problem named with what the audit measured; an empty list for a clean window."""
    problems = [f"{figure}: {audit[figure]}" for figure in LISTS_THAT_MUST_BE_EMPTY if audit.get(figure)]
    problems += [f"{figure}: {audit[figure]}" for figure in COUNTS_THAT_MUST_BE_ZERO if audit.get(figure)]
    if audit["max_label_distance_px"] > LABEL_LINES_FROM_THEIR_TIP * audit["label_line_height_px"]:
        problems.append(f"max_label_distance_px {audit['max_label_distance_px']} > {LABEL_LINES_FROM_THEIR_TIP} × "
                        f"label_line_height_px {audit['label_line_height_px']}")
    if not audit["matrix_numbers_shown"]:
        problems.append("the matrix shows no numbers")
    if audit.get("score_rows_visible", 0) < audit.get("score_rows", 0):
        problems.append(f"score rows: {audit['score_rows_visible']} of {audit['score_rows']} in view")
    return problems + accessibility_problems(audit.get("accessibility"))


def accessibility_problems(figures: dict | None) -> list[str]:
    """An interactive widget without a name for a screen reader, a text or mark that does not stand out enough,
    colours drawn together that some eye cannot tell apart (the audit's "accessibility", issue 43)."""
    if figures is None:  # an audit from before it had them
        return []
    problems = [f"unnamed: {figures['unnamed']}"] if figures["unnamed"] else []
    for figure, least in (("contrast_min_text", TEXT_CONTRAST), ("contrast_min_graphics", GRAPHICS_CONTRAST),
                          ("cvd_min_delta_e", SEPARATION_THRESHOLD)):
        if figures[figure] < least:
            problems.append(f"{figure} {figures[figure]} < {least}")
    return problems


def unexpected_problems(found: dict[str, list[str]], known: dict[str, set[str]]) -> dict[str, list[str]]:
    """FOUND problems per step, less the KNOWN limits (the audit figures each step may still fail on); every
    known limit must still be there, so one that is fixed is noticed and its entry removed."""
    still_known = {step: {problem_kind(problem) for problem in problems} & known.get(step, set())
                   for step, problems in found.items()}
    assert {step: kinds for step, kinds in still_known.items() if kinds} == known, "a known limit was fixed: drop it"
    left = {step: [problem for problem in problems if problem_kind(problem) not in known.get(step, set())]
            for step, problems in found.items()}
    return {step: problems for step, problems in left.items() if problems}


def described(failing: dict[str, list[str]]) -> str:
    return "\n".join(f"  after {step}:\n" + "\n".join(f"      {problem}" for problem in problems)
                     for step, problems in failing.items())
