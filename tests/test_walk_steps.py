"""Reading the steps of `attn-desktop snapshot --steps` (no window): each step as typed, or one message naming it."""

import pytest

from attn_desktop.model import Role
from attn_desktop.ui.tools.walk_steps import MAX_TRAINING_STEPS, MAX_WALK_STEPS, StepError, parse_steps


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


def test_describe_opens_the_description_panel_in_a_walk():
    assert [step.kind for step in parse_steps("lesson:self-attention,describe,present")] == [
        "lesson", "describe", "present"]


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


def test_the_steps_of_predicting_training_real_heads_languages_and_sizes_are_read():
    steps = parse_steps("guess:2:0.75,reveal,open-head:23.4,grid-click:0.8,grid-knock:17.4,train-knock:1.0,"
                        "lang:ar,start-afresh,keep-as-scene,resize:1024x768")
    assert [step.kind for step in steps] == ["guess", "reveal", "open-head", "grid-click", "grid-knock",
                                             "train-knock", "lang", "start-afresh", "keep-as-scene", "resize"]
    assert (steps[0].index, steps[0].weight) == (2, 0.75)
    assert [(step.layer, step.head) for step in steps[2:6]] == [(23, 4), (0, 8), (17, 4), (1, 0)]  # from 0
    assert steps[6].language == "ar"
    assert (steps[9].width, steps[9].height) == (1024, 768)


@pytest.mark.parametrize("text, named", [
    ("guess:1", "'guess:1'"),
    ("guess:x:0.5", "'guess:x:0.5'"),
    ("guess:-1:0.5", "'guess:-1:0.5'"),
    ("guess:1:1.5", "weight from 0 to 1"),
    ("guess:1:nan", "weight from 0 to 1"),
    ("guess:1:half", "'half'"),
    ("reveal:now", "'reveal:now'"),
    ("open-head:23", "open-head:LAYER.HEAD"),
    ("open-head:23.-4", "'open-head:23.-4'"),
    ("grid-click:a.b", "grid-click:LAYER.HEAD"),
    ("grid-knock:1.²", "grid-knock:LAYER.HEAD"),
    ("train-knock:", "train-knock:LAYER.HEAD"),
    ("lang:klingon", "'klingon'"),
    ("lang", "'lang'"),
    ("start-afresh:1", "'start-afresh:1'"),
    ("keep-as-scene:x", "'keep-as-scene:x'"),
    ("resize:1024", "resize:WxH"),
    ("resize:10x10", "from 200 to 8192"),
    ("resize:99999x768", "from 200 to 8192"),
    ("resize:wide", "'resize:wide'"),
])
def test_a_bad_new_step_is_refused_in_one_line_naming_it(text, named):
    with pytest.raises(StepError) as refused:
        parse_steps(text)
    message = str(refused.value)
    assert named in message, message
    assert "\n" not in message


def test_an_unknown_language_names_the_known_ones():
    with pytest.raises(StepError, match="zh_CN"):
        parse_steps("lang:fr")


# ----- hostile numbers and long walks (issue 44) ---------------------------------------------------------

@pytest.mark.parametrize("text, named", [
    ("train:reverse:²", "'train:reverse:²'"),  # str.isdigit takes it, int refuses it
    ("train:reverse:①", "'train:reverse:①'"),
    ("train:reverse:٣", "'train:reverse:٣'"),  # int takes it: still not a walk's number
    ("train:reverse:１０", "'train:reverse:１０'"),
    ("train:reverse:+5", "'train:reverse:+5'"),
    ("train:reverse:5 5", "'train:reverse:5 5'"),  # spaces around a field go, not inside a number
    ("train:reverse:" + "9" * 5000, "a number of steps from 1 to"),  # no 5,000-digit int is made
    ("drag:q:²:1:1", "'drag:q:²:1:1'"),
    ("drag:q:①:1:1", "'drag:q:①:1:1'"),
    ("drag:q:10000:1:1", "an arrow's index from 0 to 9999"),
    ("drag:q:0:１:1", "'drag:q:0:１:1'"),  # float() takes a full-width digit
    ("drag:q:0:1:٣", "'drag:q:0:1:٣'"),
    ("drag:q:0:1_0:1", "'drag:q:0:1_0:1'"),  # float() takes an underscore
    ("drag:q:0:Infinity:1", "'drag:q:0:Infinity:1'"),
    ("drag:q:0:1e999:1", "'drag:q:0:1e999:1'"),
    ("drag:q:0:1e7:1", "to drag to from -1e+06 to 1e+06"),
    ("drag:q:0:1:-NaN", "'drag:q:0:1:-NaN'"),
    ("guess:²:0.5", "'guess:²:0.5'"),
    ("guess:1:０.5", "'guess:1:０.5'"),
    ("guess:1:infinity", "weight from 0 to 1"),
    ("open-head:²³.1", "open-head:LAYER.HEAD"),
    ("resize:１０２４x768", "resize:WxH"),
])
def test_a_number_that_is_not_plain_ascii_in_range_is_refused_naming_the_step(text, named):
    with pytest.raises(StepError) as refused:  # a StepError, never int's or float's ValueError
        parse_steps(text)
    message = str(refused.value)
    assert type(refused.value) is StepError
    assert named in message, message
    assert "\n" not in message and len(message) < 300


@pytest.mark.parametrize("text, value", [
    ("train:reverse:1", 1), (f"train:reverse:{MAX_TRAINING_STEPS}", MAX_TRAINING_STEPS), ("train:reverse:007", 7),
])
def test_the_ends_of_the_training_range_are_taken(text, value):
    assert parse_steps(text)[0].count == value


@pytest.mark.parametrize("x, expected", [("1.5", 1.5), ("-2", -2.0), (".5", 0.5), ("1e-3", 0.001), ("+3.", 3.0),
                                         ("-1e6", -1e6)])
def test_a_drag_point_in_plain_ascii_is_read(x, expected):
    assert parse_steps(f"drag:k:0:{x}:0")[0].x == expected


def test_a_walk_of_the_stated_length_is_read_and_one_step_longer_is_refused_in_one_line():
    assert len(parse_steps(",".join(["lab"] * MAX_WALK_STEPS))) == MAX_WALK_STEPS == 1000
    with pytest.raises(StepError) as refused:
        parse_steps(",".join(["lab"] * 30_000))
    assert str(refused.value) == "--steps: a walk has at most 1,000 steps; found 30,000"


def test_a_long_walk_is_refused_before_any_step_is_read():
    with pytest.raises(StepError, match="at most 1,000 steps"):  # not "'dance': not a step"
        parse_steps(",".join(["dance"] * (MAX_WALK_STEPS + 1)))


def test_a_message_about_a_huge_step_stays_short():
    with pytest.raises(StepError) as refused:
        parse_steps("lesson:" + "x" * 100_000)
    assert len(str(refused.value).split(";")[0]) < 200


def test_a_walk_trains_at_most_the_stated_steps_in_all_refused_before_anything_runs():
    from attn_desktop.ui.tools.walk_steps import MAX_WALK_TRAINING_STEPS

    assert MAX_WALK_TRAINING_STEPS == MAX_TRAINING_STEPS == 5000  # one long training step, or many short ones
    assert len(parse_steps("train:reverse:2500,lab,train:induction:2500")) == 3
    with pytest.raises(StepError) as refused:
        parse_steps(",".join(["train:induction:5000"] * 1000))  # about six days of training before
    assert str(refused.value) == ("--steps: a walk trains at most 5,000 steps in all (about 9 minutes of "
                                  "induction); found 5,000,000")
    with pytest.raises(StepError, match="at most 5,000 steps in all"):
        parse_steps("train:reverse:2500,train:reverse:2501")


def test_a_walk_restarts_at_most_the_stated_times():
    from attn_desktop.ui.tools.walk_steps import MAX_WALK_RESTARTS

    assert len(parse_steps(",".join(["restart"] * MAX_WALK_RESTARTS))) == MAX_WALK_RESTARTS == 50
    with pytest.raises(StepError) as refused:
        parse_steps(",".join(["restart"] * 1000))
    assert str(refused.value) == "--steps: a walk restarts the app at most 50 times; found 1,000"


def test_a_walk_asks_a_real_model_at_most_the_stated_times():
    from attn_desktop.ui.tools.walk_steps import MAX_WALK_MODEL_STEPS

    model_steps = ["heads", "induction", "next-token", "generate", "lens", "knock-out:0.1", "open-head:0.1"]
    assert MAX_WALK_MODEL_STEPS == 100
    assert len(parse_steps(",".join(model_steps * 14))) == 98
    with pytest.raises(StepError) as refused:
        parse_steps(",".join(["generate"] * 1000))
    assert str(refused.value) == "--steps: a walk asks the real model at most 100 times; found 1,000"


@pytest.mark.parametrize("text, kind", [("train:reverse: 10", "train"), ("lesson: two-heads", "lesson"),
                                        ("drag: k : 1 : 1.5 : -2", "drag"), ("resize: 1024x768", "resize"),
                                        ("open-head: 0.1", "open-head")])
def test_spaces_around_a_steps_fields_are_let_go_as_around_steps(text, kind):
    assert parse_steps(text)[0].kind == kind
