"""Lesson 11's exercises: cross-attention, a target sentence's queries reading a source sentence's keys, checked
by the app.

The numbers are those of the lesson's scene, "el gato negro duerme" read while writing "the black cat sleeps"
(resources/scenes/lessons/11_cross_attention.json): keys of length 2 at the four diagonals, each target word's
query pointing near its source word's key, scaled by √2 (tests/test_cross_attention_lesson.py works them out).
"""

from __future__ import annotations

from attn_desktop.language import N_
from attn_desktop.model.teaching.exercise import AnswerKind, ChooseQuery, Exercise, ShowMe

LESSON_SCENE = "lessons/11_cross_attention.json"
BLACK, CAT = 1, 2  # the target's words the questions read: rows of the matrix
BLACK_ON_NEGRO = 0.82  # q·black's weight on k·negro

CROSS_ATTENTION_EXERCISES: tuple[Exercise, ...] = (
    Exercise(
        id="cross-cat-reads",
        lesson="cross-attention",
        source=N_("Lesson 11, predict"),
        prompt=N_("The translator is writing \"cat\", the third word of \"the black cat sleeps\". Which word of \"el "
        "gato negro duerme\" does its query give the most weight?"),
        kind=AnswerKind.CHOICE,
        choices=(
            N_("gato, the second word: the one it translates, though it is not in the same place."),
            N_("negro, the third word: the word in the same place."),
            N_("cat itself: a query always looks most at its own word."),
            N_("Every source word the same: cross-attention cannot tell them apart."),
        ),
        correct_choice=0,
        hint=N_("Choose cat in the Query box and read its row of the matrix: which column is brightest?"),
        explanation=N_("q·cat gives k·gato 82% of its weight. Its own word is not among the keys at all: in "
        "cross-attention the keys are the source's, so a row says which source word the target word reads, "
        "wherever it stands."),
        show_me=ShowMe(LESSON_SCENE, (ChooseQuery(CAT),)),
    ),
    Exercise(
        id="cross-black-weight",
        lesson="cross-attention",
        source=N_("Lesson 11, your turn"),
        prompt=N_("q·black is (1.3, −1.0) and the keys are k·el (−1.4, 1.4), k·gato (1.4, 1.4), k·negro (1.4, −1.4) "
        "and k·duerme (−1.4, −1.4), scaled by √2. What weight does q·black give k·negro?"),
        kind=AnswerKind.NUMBER,
        answer=(BLACK_ON_NEGRO,),
        tolerance=0.01,
        labels=(N_("weight"),),
        hint=N_("The scores are −3.22, 0.42, 3.22 and −0.42. Divide by √2, then take the softmax."),
        explanation=N_("Divided by √2 the scores are −2.28, 0.30, 2.28 and −0.30; e to each of them is 0.10, 1.35, "
        "9.75 and 0.74, and 9.75 of their sum 11.94 is {weight}."),
        numbers=(("weight", BLACK_ON_NEGRO),),
        show_me=ShowMe(LESSON_SCENE, (ChooseQuery(BLACK),)),
    ),
    Exercise(
        id="cross-why-no-encoder-attention",
        lesson="cross-attention",
        source=N_("Lesson 11, check yourself"),
        prompt=N_("The translator the app trains reads its source as plain word vectors, with no self-attention "
        "over the source first. Why does that make its cross-attention matrix a clean word alignment?"),
        kind=AnswerKind.CHOICE,
        choices=(
            N_("Each source position then holds only its own word, so the column a query reads is that word."),
            N_("Without self-attention the source cannot be read at all."),
            N_("Self-attention over the source would make the translation wrong."),
            N_("Cross-attention needs the source and the target to have the same length."),
        ),
        correct_choice=0,
        hint=N_("What does a self-attention layer write into each position of the sentence it reads?"),
        explanation=N_("A self-attention layer over the source writes a blend of other words into each position. "
        "With one, a translator can find \"gato\" in its neighbour's column just as well, and its weights point "
        "off by one word; it still translates. Without one, each column holds its own word only."),
    ),
)
