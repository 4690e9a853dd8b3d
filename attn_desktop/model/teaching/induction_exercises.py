"""Lesson 9's exercises: heads that work together (the induction circuit), checked by the app.

The numbers are those of the lesson's scene, the two-layer model the app trains on induction from seed 0
for its default 1,000 steps (tests/test_induction_lesson.py checks them against that model).
"""

from __future__ import annotations

from attn_desktop.language import N_
from attn_desktop.model.teaching.exercise import AnswerKind, ChooseQuery, Exercise, ShowMe

# SmolLM2-135M-Instruct's strongest induction head on the Find heads panel's first sequence (R = 20, seed 0),
# layers and heads counted from 0 as the panel names them: tests/test_induction.py reads it off the model.
SMOLLM2_STRONGEST_INDUCTION_HEAD = (18, 6)

LESSON_SCENE = "lessons/9_induction.json"
SECOND_R = 18  # the position of the second R in the lesson's sequence: the query that answers H

INDUCTION_EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        id="induction-next-letter",
        lesson="induction-heads",
        source=N_("Lesson 9, predict"),
        prompt=N_("The model reads Q D K W N R H B T C F J P M D K W N R. Which letter does it answer after the "
        "last R, and where does its layer-2 head look to find it?"),
        kind=AnswerKind.CHOICE,
        choices=(
            N_("H, found by looking at 6:H, the letter that followed R the first time."),
            N_("R again, found by looking at 5:R, the earlier R itself."),
            N_("B, found by looking at 7:B, two letters after the earlier R."),
            N_("It cannot know: the next letter is random."),
        ),
        correct_choice=0,
        hint=N_("Choose 18:R in the Query box and read layer 2's row: which key takes nearly all the weight?"),
        explanation=N_("The stretch D K W N R H came before, so after R comes H. Layer 2's head at 18:R gives 6:H "
        "99% of its weight: the key that says \"the letter before me was R\", so its value is what follows R."),
        show_me=ShowMe(LESSON_SCENE, (ChooseQuery(SECOND_R),)),
    ),
    Exercise(
        id="induction-needs-layer-1",
        lesson="induction-heads",
        source=N_("Lesson 9, your turn"),
        prompt=N_("In the Training panel, train induction, then knock out layer 1's head. What happens to the "
        "accuracy on the repeated letters?"),
        kind=AnswerKind.CHOICE,
        choices=(
            N_("Nothing: the induction head in layer 2 compares the letters themselves."),
            N_("It falls to about one in ten: layer 2's keys can no longer say which letter came before."),
            N_("It rises: layer 1 was only adding noise."),
            N_("It falls to exactly 0, because nothing can be answered any more."),
        ),
        correct_choice=1,
        hint=N_("An induction head's key must say \"the letter before me was R\". Which head wrote that into the stream?"),
        explanation=N_("About 10% are still right (guesses that happen to be right, and letters with little else to "
        "pick from); with both heads on, 100%. The induction head works only because layer 1's previous-token "
        "head wrote each letter's predecessor into the stream its keys read."),
    ),
    Exercise(
        id="induction-smollm2-strongest",
        lesson="induction-heads",
        source=N_("Lesson 9, your turn (needs the SmolLM2 model pack)"),
        prompt=N_("Open Lessons → Heads of a Real Model, Find heads, and choose Induction heads: SmolLM2 reads 20 "
        "random tokens twice (seed 0). Which is its strongest induction head? Type its layer and its head, "
        "counted from 0 as the panel names them."),
        kind=AnswerKind.NUMBERS,
        answer=tuple(float(number) for number in SMOLLM2_STRONGEST_INDUCTION_HEAD),
        tolerance=0.0,
        labels=(N_("layer"), N_("head")),
        hint=N_("The list under the grid starts with the strongest head; the grid's brightest square is the same one."),
        explanation=N_("Layer 18, head 6, with 91% of its weight on the token after the earlier occurrence; three "
        "heads of layer 17 follow near 80%. Previous-token heads sit earlier, in layers 1, 2, 11 and 16 "
        "(layer 16, head 0 at 89%): the same two-step circuit as the lesson's two layers, inside a real model."),
    ),
)
