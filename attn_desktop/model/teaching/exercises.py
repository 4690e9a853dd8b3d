"""The lesson's questions as exercises the app can check.

Every "Your turn" and "Check yourself" question of "Attention as a soft
lookup" is here, with its answer worked out from the lesson's numbers, the
tolerance the check allows (stated to the student), a hint, and a "show me"
recipe that sets the canvas up so the answer can be seen. Lesson 9's are in
induction_exercises.py, lesson 10's in positions_exercises.py, lesson 11's in
cross_attention_exercises.py; what an exercise is, in exercise.py.
"""

from __future__ import annotations

from attn_desktop.language import N_
from attn_desktop.model.scene import Role
from attn_desktop.model.teaching.cross_attention_exercises import CROSS_ATTENTION_EXERCISES
from attn_desktop.model.teaching.exercise import (
    AnswerKind,
    CheckResult,
    ChooseQuery,
    Exercise,
    SetGrids,
    SetVector,
    ShowMe,
    ShowMeStep,
    apply_steps,
    parse_numbers,
)
from attn_desktop.model.teaching.induction_exercises import INDUCTION_EXERCISES
from attn_desktop.model.teaching.positions_exercises import POSITIONS_EXERCISES

EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        id="lookup-ask-up",
        lesson="soft-lookup",
        source=N_("Part 1, your turn"),
        prompt=N_("Keep the same three entries (apple, pear, plum: values 3, 5 and 4), but ask with the query (0, 2). "
        "Roughly what comes back?"),
        kind=AnswerKind.NUMBER,
        answer=(4.51,),
        tolerance=0.05,
        labels=(N_("answer"),),
        hint=N_("Score each key with a dot product: apple 0, pear 2, plum 1.4. Softmax those, then blend 3, 5 and 4."),
        explanation=N_("The weights are about 0.08, 0.59 and 0.33, so the answer is 0.08×3 + 0.59×5 + 0.33×4 ≈ 4.51: "
        "mostly pear, with some plum."),
        show_me=ShowMe("lessons/1_soft_lookup.json", (SetVector(Role.QUERY, 0, (0.0, 2.0)),)),
    ),
    Exercise(
        id="projection-query",
        lesson="projections",
        source=N_("Part 2, your turn"),
        prompt=N_("Another word has the vector x = (1, 0.5). It goes through the same W_Q, with rows (0, 2) and (2, 0). "
        "What is its query? Type both numbers."),
        kind=AnswerKind.NUMBERS,
        answer=(1.0, 2.0),
        tolerance=0.01,
        labels=(N_("first number"), N_("second number")),
        hint=N_("Each number of q is x dotted with one column of W_Q: (1×0 + 0.5×2, 1×2 + 0.5×0)."),
        explanation=N_("q = (1, 2). W_Q swaps the two numbers of x and doubles them."),
        show_me=ShowMe("lessons/2_projections.json", (SetVector(Role.EMBEDDING, 2, (1.0, 0.5)), ChooseQuery(2))),
    ),
    Exercise(
        id="row-for-sat",
        lesson="self-attention",
        source=N_("Part 3, your turn"),
        prompt=N_("Work out the row for \"sat\". Its query is (2, 0); the keys are cat (2, 0), sat (0, 1) and it (1.2, 0.8). "
        "What weights does it give cat, sat and it? Type three numbers (decimals or percents)."),
        kind=AnswerKind.NUMBERS,
        answer=(0.82, 0.02, 0.17),
        tolerance=0.01,
        labels=(N_("cat"), N_("sat"), N_("it")),
        hint=N_("The scores are 4, 0 and 2.4. Take e to each, then divide each by their total."),
        explanation=N_("e^4 ≈ 54.6, e^0 = 1 and e^2.4 ≈ 11.0 add up to about 66.6, giving 0.82, 0.02 and 0.17."),
        show_me=ShowMe("lessons/3_self_attention.json", (ChooseQuery(1),)),
    ),
    Exercise(
        id="no-grids-self-match",
        lesson="projections",
        source=N_("Check yourself"),
        prompt=N_("Skip the grids: use each word's own vector as its query and its key. "
        "In \"cat sat it\", which word does each one give the most weight?"),
        kind=AnswerKind.CHOICE,
        choices=(
            N_("All three give the most weight to cat."),
            N_("Each word gives the most weight to itself."),
            N_("Each word gives the most weight to the word after it."),
            N_("All three spread their weight evenly."),
        ),
        correct_choice=1,
        hint=N_("A vector dotted with itself is its length squared, and it points exactly its own way."),
        explanation=N_("With q = k = x every word matches itself best: cat scores 1 against itself, sat 1, "
        "and it scores 1 against itself but only 0.6 and 0.8 against the others."),
        show_me=ShowMe("lessons/2_projections.json", (SetGrids(False),)),
    ),
    Exercise(
        id="matrix-size",
        lesson="self-attention",
        source=N_("Check yourself"),
        prompt=N_("A sentence has 6 tokens. How many weights are in its attention matrix, "
        "and what does each row add up to? Type two numbers."),
        kind=AnswerKind.NUMBERS,
        answer=(36.0, 1.0),
        tolerance=0.0,
        labels=(N_("number of weights"), N_("row total")),
        hint=N_("Every token's query gives one weight to every token's key, its own included."),
        explanation=N_("6 × 6 = 36 weights, and each row is a softmax, so it adds up to 1."),
        show_me=ShowMe("the_cat_sat_on_the_mat.json"),
    ),
    Exercise(
        id="lookup-no-match",
        lesson="soft-lookup",
        source=N_("Check yourself"),
        prompt=N_("A soft lookup has the values 3, 5 and 4, and the query scores 0 against every key. What comes back?"),
        kind=AnswerKind.NUMBER,
        answer=(4.0,),
        tolerance=0.01,
        labels=(N_("answer"),),
        hint=N_("Equal scores give equal weights."),
        explanation=N_("Each weight is 1/3, so the answer is the plain average (3 + 5 + 4) / 3 = 4. "
        "A soft lookup never says \"not found\": it blends everything."),
        show_me=ShowMe("lessons/1_soft_lookup.json", (SetVector(Role.QUERY, 0, (0.0, 0.0)),)),
    ),
    Exercise(
        id="trained-reverse-position-0",
        lesson="trained-heads",
        source=N_("Lesson 5, your turn"),
        prompt=N_("In the head trained on reverse, which position does position 0 give the most weight? "
        "Type the position's number (0 to 4)."),
        kind=AnswerKind.NUMBER,
        answer=(4.0,),
        tolerance=0.0,
        labels=(N_("position"),),
        hint=N_("Position 0 must answer the digit at its mirror position. Click row 0:3 of the matrix."),
        explanation=N_("Position 0 puts nearly all its weight on position 4, the last one: that is where the digit "
        "it has to answer sits. Training found the anti-diagonal on its own."),
        show_me=ShowMe("lessons/5_trained_reverse.json", (ChooseQuery(0),)),
    ),
    Exercise(
        id="trained-reverse-middle",
        lesson="trained-heads",
        source=N_("Lesson 5, your turn"),
        prompt=N_("And the middle position, 2: which position does it give the most weight?"),
        kind=AnswerKind.NUMBER,
        answer=(2.0,),
        tolerance=0.0,
        labels=(N_("position"),),
        hint=N_("Reverse five digits: which one stays where it was?"),
        explanation=N_("The middle digit is its own mirror, so position 2 looks at itself: the anti-diagonal "
        "crosses the diagonal there."),
        show_me=ShowMe("lessons/5_trained_reverse.json", (ChooseQuery(2),)),
    ),
    Exercise(
        id="trained-reverse-needs-positions",
        lesson="trained-heads",
        source=N_("Lesson 5, check yourself"),
        prompt=N_("Each word vector of the trained head is its digit's vector plus its position's vector, "
        "x = E[digit] + P[position]. Why could the head not learn reverse from the digit vectors alone?"),
        kind=AnswerKind.CHOICE,
        choices=(
            N_("Ten digits are too many for one head to tell apart."),
            N_("A digit alone does not say where it sits, so no query could find the mirror position."),
            N_("Without position vectors the weights would not add up to 1."),
            N_("The digits alone would make the head learn too slowly, but it would get there."),
        ),
        correct_choice=1,
        hint=N_("Two 1s in different places get the same digit vector. What would tell their queries apart?"),
        explanation=N_("With digit vectors only, the same digit in two places has the same query and the same key, "
        "so the head cannot look at \"the position mirrored from mine\": where a digit sits is only in P."),
    ),
    Exercise(
        id="dk-spread-64",
        lesson="why-sqrt-dk",
        source=N_("Lesson 6, your turn"),
        prompt=N_("In the √d_k lab, set d_k to 64. What is the standard deviation of the raw scores q · k?"),
        kind=AnswerKind.NUMBER,
        answer=(8.0,),
        tolerance=0.25,
        labels=(N_("standard deviation"),),
        hint=N_("Type 64 in the lab's d_k box (or move the slider there); the text under it gives the spread."),
        explanation=N_("About 8 (the lab's 2,000 pairs give 8.10): 64 products of variance 1 add up to a variance "
        "of 64, and √64 = 8."),
    ),
    Exercise(
        id="dk-spread-256",
        lesson="why-sqrt-dk",
        source=N_("Lesson 6, predict"),
        prompt=N_("Predict before you look: what will the raw scores' standard deviation be at d_k = 256? "
        "Answer, then check it in the lab."),
        kind=AnswerKind.NUMBER,
        answer=(16.0,),
        tolerance=0.4,
        labels=(N_("standard deviation"),),
        hint=N_("The spread grows like √d_k. At 64 it was 8; 256 is four times as wide."),
        explanation=N_("√256 = 16 (the lab reads 16.06): four times the width doubles the spread, and the "
        "division by √256 = 16 brings it back to 1."),
    ),
    Exercise(
        id="dk-collapse",
        lesson="why-sqrt-dk",
        source=N_("Lesson 6, check yourself"),
        prompt=N_("Without the division by √d_k, what happens to one query's softmax weights as d_k grows?"),
        kind=AnswerKind.CHOICE,
        choices=(
            N_("They spread more evenly over the keys."),
            N_("Nearly all the weight goes to one key: the entropy falls toward 0 bits."),
            N_("They stay the same: the softmax does not depend on the size of the scores."),
            N_("They add up to more than 1."),
        ),
        correct_choice=1,
        hint=N_("Move the lab's slider and watch the orange entropy curve."),
        explanation=N_("The scores spread like √d_k, and a softmax of widely spread scores is nearly one-hot: "
        "the largest score takes almost everything. Weights always add up to 1."),
    ),
    Exercise(
        id="two-heads-it-cat",
        lesson="two-heads",
        source=N_("Lesson 7, your turn"),
        prompt=N_("Choose \"it\" as the query. Which head links \"it\" to \"cat\"?"),
        kind=AnswerKind.CHOICE,
        choices=(
            N_("Head 1, the position head"),
            N_("Head 2, the meaning head"),
            N_("Both heads, about equally"),
            N_("Neither: \"it\" comes after \"cat\", so the mask hides it"),
        ),
        correct_choice=1,
        hint=N_("Look at the row of \"it\" in each head's matrix, or at the weights on each head's keys."),
        explanation=N_("Head 2 gives \"cat\" 84% of the weight of \"it\"; head 1 gives 83% to \"because\", "
        "the word before \"it\". The mask hides only the words after a query."),
        show_me=ShowMe(scene="lessons/7_two_heads.json", steps=(ChooseQuery(4),)),
    ),
    Exercise(
        id="two-heads-width",
        lesson="two-heads",
        source=N_("Lesson 7, check yourself"),
        prompt=N_("Each head's output has 2 numbers. How many numbers do the two heads' outputs have side by side, "
        "in the row that W_O multiplies?"),
        kind=AnswerKind.NUMBER,
        answer=(4.0,),
        labels=(N_("numbers"),),
        hint=N_("Count the numbers inside the brackets of the output line under the heads, or W_O's rows."),
        explanation=N_("2 + 2 = 4: heads × d_v. W_O has one row for each of them."),
    ),
    Exercise(
        id="two-heads-w-o",
        lesson="two-heads",
        source=N_("Lesson 7, your turn"),
        prompt=N_("Read W_O under the heads. Its first two rows take head 1's output: by what number does the "
        "layer's output multiply head 1's two numbers?"),
        kind=AnswerKind.NUMBER,
        answer=(0.5,),
        labels=(N_("factor"),),
        hint=N_("Rows 1 and 2 of W_O belong to head 1, rows 3 and 4 to head 2; look at the number on the diagonal."),
        explanation=N_("0.5, and head 2's rows carry 1: this W_O counts head 2's output twice as much as head 1's."),
    ),
    Exercise(
        id="predict-winner",
        lesson="predict-then-see",
        source=N_("Lesson 8, predict"),
        prompt=N_("Before you reveal anything: which key does \"it\" give the most weight? Its query (1, 1) points "
        "exactly along k·the (0.8, 0.8); k·dog (2.5, 0.2) is longer but points another way."),
        kind=AnswerKind.CHOICE,
        choices=(N_("the"), N_("dog"), N_("chased"), N_("it")),
        correct_choice=1,
        hint=N_("The score is a dot product, and length counts: 1×0.8 + 1×0.8 for the, 1×2.5 + 1×0.2 for dog."),
        explanation=N_("dog: its key scores 2.7 against the's 1.6, so \"it\" gives dog 54%, the 25%, chased 16% and "
        "itself 5%. Pointing the same way is not enough; a longer key can win from further round."),
        show_me=ShowMe("lessons/8_predict_then_see.json", (ChooseQuery(3),)),
    ),
    Exercise(
        id="predict-key-at-origin",
        lesson="predict-then-see",
        source=N_("Lesson 8, predict, then see"),
        prompt=N_("Predict, then check: with k·dog moved to the origin (0, 0), what weights does \"it\" give the, "
        "dog, chased and it? Guess, then drag k·dog there (Snap to Grid helps) and reveal."),
        kind=AnswerKind.NUMBERS,
        answer=(0.46, 0.15, 0.30, 0.09),
        tolerance=0.01,
        labels=(N_("the"), N_("dog"), N_("chased"), N_("it")),
        hint=N_("dog's score becomes 0, and e⁰ = 1: a key that scores 0 still gets some weight."),
        explanation=N_("The scaled scores are 1.13, 0, 0.71 and −0.49; e to each is 3.10, 1, 2.03 and 0.61, which "
        "add up to 6.74: 46%, 15%, 30% and 9%. Nothing drops to zero."),
        show_me=ShowMe("lessons/8_predict_then_see.json", (SetVector(Role.KEY, 1, (0.0, 0.0)),)),
    ),
    Exercise(
        id="predict-score",
        lesson="predict-then-see",
        source=N_("Lesson 8, check yourself"),
        # A round of another scene: this scene's weights are what the class predicts, never given here.
        prompt=N_("In a round on another sentence of four words, a student guessed 60%, 20%, 20% and 0%; the "
        "real weights were 40%, 40%, 10% and 10%. How many points off was the guess, and what did the round "
        "score? Type two numbers."),
        kind=AnswerKind.NUMBERS,
        answer=(30.0, 70.0),
        tolerance=0.0,
        labels=(N_("points off"), N_("score")),
        hint=N_("Points off is half the sum of the differences: ½ (20 + 20 + 10 + 10). The score is 100 minus that."),
        explanation=N_("½ (20 + 20 + 10 + 10) = 30 points of weight sit on the wrong keys, so the round scores "
        "100 − 30 = 70."),
    ),
    *INDUCTION_EXERCISES,
    *POSITIONS_EXERCISES,
    *CROSS_ATTENTION_EXERCISES,
)


def exercises_for(lesson_id: str) -> list[Exercise]:
    return [exercise for exercise in EXERCISES if exercise.lesson == lesson_id]


__all__ = ["EXERCISES", "AnswerKind", "CheckResult", "ChooseQuery", "Exercise", "SetGrids", "SetVector", "ShowMe",
           "ShowMeStep", "apply_steps", "exercises_for", "parse_numbers"]
