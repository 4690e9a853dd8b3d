"""Lesson 10's exercises: where each word is (order-blind attention, added and rotated positions), checked
by the app.

The numbers are those of the lesson's scene, "the dog chased the cat" (resources/scenes/lessons/10_positions.json),
and of RoPE turning its 2-D queries and keys by one radian a position, as the Positions lab's Rotated page does
(tests/test_positions_lesson.py works them out again).
"""

from __future__ import annotations

from attn_desktop.language import N_
from attn_desktop.model.teaching.exercise import AnswerKind, ChooseQuery, Exercise, ShowMe

LESSON_SCENE = "lessons/10_positions.json"
CHASED = 2  # the query the questions read
# q·chased = (1.6, 0) turned for position 4 against k·dog = (1.2, 1) at position 0, θ = 1 radian:
# |q||k| cos(φ + 4θ), the same at positions 7 and 3 (the distance is 4 in both).
SCORE_AT_4_AND_0 = -2.47

POSITIONS_EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        id="positions-shuffle",
        lesson="positions",
        source=N_("Lesson 10, predict"),
        prompt=N_("No position is added and nothing is turned. Shuffle \"the dog chased the cat\" into another order. "
        "Which words' outputs change?"),
        kind=AnswerKind.CHOICE,
        choices=(
            N_("None: every word keeps its weights and its output; only their rows move."),
            N_("All of them: every word now has other neighbours."),
            N_("Only \"chased\": it now sits between other words."),
            N_("Only the two words that swapped places."),
        ),
        correct_choice=0,
        hint=N_("A word's weights come from its query against every key. Does any query or key say where a word stands?"),
        explanation=N_("A word's query and key are made from its own vector only, so a word meets the same keys in "
        "any order: \"chased\" gives dog and cat 34% each in both orders, and its output stays (0.88, 0.09). "
        "Attention alone is blind to order."),
        show_me=ShowMe(LESSON_SCENE, (ChooseQuery(CHASED),)),
    ),
    Exercise(
        id="positions-rope-distance",
        lesson="positions",
        source=N_("Lesson 10, your turn"),
        prompt=N_("RoPE turns q·chased for its position m and k·dog for its position n, one radian a position. At "
        "m = 4, n = 0 they score q·k = {score}. What do they score at m = 7, n = 3?"),
        kind=AnswerKind.NUMBER,
        answer=(SCORE_AT_4_AND_0,),
        tolerance=0.01,
        labels=("q·k",),
        hint=N_("Both arrows turn by three more radians. What happens to the angle between them?"),
        explanation=N_("Turning both arrows by the same angle keeps the angle between them, so the score depends "
        "only on the distance m − n = 4: it is {score} again. At m = 3, n = 7 (the distance −4) it would "
        "differ: the key is now after the query."),
        numbers=(("score", SCORE_AT_4_AND_0),),
    ),
    Exercise(
        id="positions-real-head-without-rope",
        lesson="positions",
        source=N_("Lesson 10, your turn (needs the SmolLM2 model pack)"),
        prompt=N_("Open SmolLM2's previous-token head from the Positions lab's Real head page, then untick RoPE on: "
        "its queries and keys are recomputed as the model made them, before turning. Does the head still look at "
        "the token just before each one?"),
        kind=AnswerKind.CHOICE,
        choices=(
            N_("Yes: its queries and keys still say which word came before."),
            N_("No: the line below the diagonal breaks up; the head found the word before by the rotation alone."),
            N_("It looks at the next token instead."),
            N_("It gives every token the same weight, exactly."),
        ),
        correct_choice=1,
        hint=N_("Watch the cells just below the diagonal of the matrix as you untick RoPE on."),
        explanation=N_("Without the rotation nothing in q or k says where a token stands, and the previous token is "
        "a place, not a meaning. On \"the dog chased the cat because it was fast\" layer 16, head 0 gives the "
        "token before 81% of its weight on average with RoPE and 15% without, less than the 23% of weight spread "
        "evenly. Real models tell word order by RoPE's turning."),
    ),
)
