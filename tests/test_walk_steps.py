"""Reading the steps of `attn-desktop snapshot --steps` (no window): each step as typed, or one message naming it."""

import pytest

from attn_desktop.model import Role
from attn_desktop.ui.tools.walk_steps import MAX_TRAINING_STEPS, StepError, parse_steps


def test_every_kind_of_step_is_read_in_order():
    steps = parse_steps("lesson:two-heads, present,unpresent,restart,train:reverse:30,heads,induction,lab,"
                        "positions-lab,predict,reset-layout,drag:k:1:1.5:-2,undo")
    assert [step.kind for step in steps] == ["lesson", "present", "unpresent", "restart", "train", "heads",
                                             "induction", "lab", "positions-lab", "predict", "reset-layout", "drag",
                                             "undo"]
    assert steps[0].lesson == "two-heads"
    assert (steps[4].task, steps[4].count) == ("reverse", 30)
    assert (steps[11].role, steps[11].index, steps[11].x, steps[11].y) == (Role.KEY, 1, 1.5, -2.0)
    assert steps[1].text == "present"  # as typed, without the space


@pytest.mark.parametrize("role, expected", [("q", Role.QUERY), ("value", Role.VALUE), ("x", Role.EMBEDDING),
                                            ("K", Role.KEY)])
def test_a_drag_names_its_role_by_letter_or_word(role, expected):
    assert parse_steps(f"drag:{role}:0:0:0")[0].role is expected


@pytest.mark.parametrize("text, named", [
    ("", "--steps"),
    ("present,,undo", "--steps"),
    ("present,", "--steps"),
    ("dance", "'dance'"),
    ("present:now", "'present:now'"),
    ("lesson", "'lesson'"),
    ("lesson:transformers", "'transformers'"),
    ("train:reverse", "'train:reverse'"),
    ("train:juggling:10", "'juggling'"),
    ("train:reverse:0", "'train:reverse:0'"),
    ("train:reverse:ten", "'train:reverse:ten'"),
    (f"train:reverse:{MAX_TRAINING_STEPS + 1}", "train:reverse"),
    ("drag:w:0:1:1", "'w'"),
    ("drag:k:-1:1:1", "'drag:k:-1:1:1'"),
    ("drag:k:one:1:1", "'one'"),
    ("drag:k:0:nan:1", "'drag:k:0:nan:1'"),
    ("drag:k:0:inf:1", "'drag:k:0:inf:1'"),
    ("drag:k:0:1", "'drag:k:0:1'"),
    ("present,undo,jump", "'jump'"),
])
def test_a_bad_step_is_refused_and_named(text, named):
    with pytest.raises(StepError) as refused:
        parse_steps(text)
    message = str(refused.value)
    assert named in message
    assert "\n" not in message


def test_an_unknown_lesson_names_the_known_ones():
    with pytest.raises(StepError, match="soft-lookup"):
        parse_steps("lesson:transformers")


def test_an_unknown_task_names_the_known_ones():
    with pytest.raises(StepError, match="previous-token"):
        parse_steps("train:juggling:10")
