"""The built-in lessons: a scene each, a short explanation and steps to try.

The explanations are the app's own words; the facts and numbers come from
the course's lesson "Attention as a soft lookup" and its explorer demo, and
for the last lesson from a head the app trained itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from attn_desktop.language import N_
from attn_desktop.model.teaching.dock_id import DockId


@dataclass(frozen=True)
class Lesson:
    id: str
    title: str
    scene: str  # a file under resources/scenes/
    explanation: str
    steps: tuple[str, ...]
    formula: str = ""
    companion: DockId | None = None  # a panel the lesson opens beside its text (the √d_k lab), if any
    predict: bool = False  # turns Predict, then see on while the lesson is open
    # The head (layer, head) the lesson shows first where the heads show one at a time (a small screen):
    # the one its first step reads.
    first_head: tuple[int, int] = (0, 0)
    # Panels that show the lesson's subject: in front of the class too when presenting (lesson 2's grids).
    presents: tuple[DockId, ...] = ()


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        id="soft-lookup",
        title=N_("1. Soft lookup"),
        scene="lessons/1_soft_lookup.json",
        formula=N_("answer = Σ softmax(q · k) × v"),
        explanation=(
            N_("A dictionary finds one key exactly or fails. A soft lookup asks with a vector instead: "
            "every key is scored by its dot product with the query, softmax turns the scores into "
            "weights that add up to 1, and the answer is the weighted blend of the values. "
            "Here the keys are apple (1, 0), pear (0, 1) and plum (0.7, 0.7), with the values 3, 5 and 4. "
            "On the right the values sit on a number line; each stem is as tall as its weight, and the "
            "purple marker is the answer, where the weighted values balance.")
        ),
        steps=(
            N_("The query starts at (2, 0). Read the weights in the Scores panel: 59%, 8% and 33%, and the answer 3.49."),
            N_("Drag the query tip toward pear's key (0, 1). Watch pear's stem grow and the answer move toward 5."),
            N_("Drag the query to the origin: every score is 0, every weight is 1/3 and the answer is the plain average, 4."),
            N_("Make the query longer in the same direction: the weights get sharper, because scores grow with length."),
        ),
    ),
    Lesson(
        id="projections",
        title=N_("2. Three vectors from one word"),
        scene="lessons/2_projections.json",
        formula="q = x W_Q,  k = x W_K,  v = x W_V",
        presents=(DockId.GRIDS,),  # W_Q, W_K and W_V are what the lesson is about
        explanation=(
            N_("In a sentence every word plays all three roles. Its query, key and value are made from its own "
            "vector x by three grids of learned numbers: q = x W_Q, k = x W_K, v = x W_V. Each number of q is x "
            "dotted with one column of W_Q. Drag a word vector on the left plot, or type new numbers into the "
            "grids in the Grids panel, and watch the queries, keys and values follow. "
            "With W_Q rows (0, 2) and (2, 0), W_K rows (2, 0) and (0, 1) and W_V the identity, "
            "the word \"it\" at x = (0.6, 0.8) gets the query (1.6, 1.2), the key (1.2, 0.8) and the value (0.6, 0.8).")
        ),
        steps=(
            N_("Select \"it\". Check its query (1.6, 1.2) and key (1.2, 0.8) by hovering their arrow tips."),
            N_("Drag x·it around: q·it, k·it and v·it all move, each in its own way."),
            (N_("Change one number of W_Q in the Grids panel and see every query change at once: the grids belong to "
            "the layer, not to one word.")),
            (N_("Tick \"No grids\": now q = k = v = x, and every word gives the most weight to itself. Separate grids "
            "are what let a word look for something unlike itself.")),
        ),
    ),
    Lesson(
        id="self-attention",
        title=N_("3. Every word looks at every word"),
        scene="lessons/3_self_attention.json",
        formula=N_("weights = softmax(QKᵀ),  output = weights V"),
        explanation=(
            N_("Self-attention runs the soft lookup inside one sentence: every word's query is scored against "
            "every word's key, its own included. Each row of the attention matrix is one word's weights, and "
            "each row adds up to 1. In \"cat sat it\" (no scaling yet) the row for \"it\" is 0.54, 0.07 and "
            "0.39, so its new vector is (0.77, 0.38): more than half cat.")
        ),
        steps=(
            N_("Read the matrix row by row: cat looks mostly at sat, sat mostly at cat, it mostly at cat."),
            N_("Click the row for \"sat\" in the matrix and check its weights: 0.82, 0.02 and 0.17."),
            (N_("Drag k·it out along q·it, further from the origin, and watch the output of \"it\" slide from cat "
            "toward its own value: a key that reaches further along the query scores more.")),
        ),
    ),
    Lesson(
        id="scaled-attention",
        title=N_("4. Scaled attention"),
        scene="the_cat_sat_on_the_mat.json",
        formula="softmax(QKᵀ / √d_k) V",
        explanation=(
            N_("Real models divide every score by √d_k, the square root of the key width, before the softmax. "
            "Dot products grow with the number of dimensions; without the division the softmax would put almost "
            "all the weight on one key and learning would stall. Here d_k = 2, so every score is divided by √2. "
            "\"sat\" gives cat 76% of its weight and gathers the output (1.54, 0.48).")
        ),
        steps=(
            N_("Pick mat as the query. Which key does it favour? Drag that key's value somewhere new and watch mat's output follow."),
            (N_("Drag two keys to exactly the same point (turn on Snap to grid). Their weights become equal for every "
            "query. Pointing the same way is not enough: a longer key gets a larger score.")),
            N_("Turn scaling off and compare the matrix with scaling on: every row gets sharper."),
            N_("Try the four challenges in the Challenges panel."),
        ),
    ),
    Lesson(
        id="trained-heads",
        title=N_("5. What trained heads learn"),
        scene="lessons/5_trained_reverse.json",
        formula=N_("x = E[word] + P[position],  q = x W_Q,  k = x W_K,  v = x W_V  (all learned)"),
        explanation=(
            N_("So far every arrow and every grid was placed by hand. In a real model nobody places them: "
            "training starts from small random numbers and nudges W_Q, W_K, W_V, the word vectors E and the "
            "position vectors P by gradient descent, step after step, until the head's answers come out right. "
            "This scene is a head trained that way (400 steps of Adam from seed 0) on reverse: five digits, "
            "and each position must answer the digit at its mirror position. Each label reads position:digit. "
            "Nobody told it to, yet its matrix is an anti-diagonal: position 0 looks at position 4, 1 at 3, "
            "and the middle one at itself. While a head trains, watch for that pattern to appear in the matrix "
            "(a sub-diagonal for previous token, each position looking one step back) and for the query and "
            "key arrows to turn until each query points along its partner's key.")
        ),
        steps=(
            N_("Click the rows of the matrix: every position gives nearly all its weight to its mirror."),
            (N_("Open Lessons → Train a Head… (Ctrl+T), pick reverse and press Train. Watch the loss fall and "
            "the anti-diagonal form as the arrows turn.")),
            N_("Press Keep as scene. The status bar shows how accurate the kept head is on fresh sequences."),
            (N_("Drag one word vector (say x·0:3) toward another position's, and watch the accuracy in the status "
            "bar drop as the head loses track of where that position is.")),
            N_("Train previous token too: its pattern is the line just below the diagonal."),
        ),
    ),
    Lesson(
        id="why-sqrt-dk",
        title=N_("6. Why divide by √d_k"),
        scene="the_cat_sat_on_the_mat.json",
        companion=DockId.SCALING_LAB,
        formula="std(q · k) ≈ √d_k,   std(q · k / √d_k) ≈ 1",
        explanation=(
            N_("A score q · k adds up d_k products, one per number of the vectors. Take the numbers at random, "
            "with mean 0 and variance 1: each product has variance 1, so their sum has variance d_k, and the "
            "scores spread like √d_k, about 1.4 at d_k = 2 but 8 at 64 and 22.6 at 512. A softmax turns "
            "differences of that size into near certainty: one key takes almost all the weight, the others "
            "almost none, and a model learning through that softmax gets almost no signal about them. "
            "Dividing every score by √d_k brings the spread back to 1 at any width. The √d_k lab draws 2,000 "
            "random query–key pairs at the width you choose and reads their spread, and compares one "
            "query's weights over eight keys with and without the division. Their entropy says how spread the "
            "weights are: 3 bits when eight keys share evenly, 0 bits when one takes all.")
        ),
        steps=(
            (N_("The √d_k lab is under this text (Lessons → √d_k Lab, Ctrl+L, opens it anywhere). At d_k = 2 the "
             "raw scores spread about 1.4, and both softmaxes share their weight.")),
            (N_("Move the slider to the right. The orange curve (scores as they are) grows like √d_k; the blue one "
            "(divided by √d_k) stays at 1.")),
            (N_("Watch the entropy plot: without the division the query's weights collapse onto one key (toward 0 bits) "
            "long before d_k = 512; with it they stay spread.")),
            (N_("Back on the canvas, turn on View → Row Entropy in the Matrix, then switch Scale by √d_k (Ctrl+K) "
            "off and on: without the division every row is sharper and its entropy lower, even at d_k = 2.")),
        ),
    ),
    Lesson(
        id="two-heads",
        title=N_("7. Two heads, side by side"),
        scene="lessons/7_two_heads.json",
        formula=N_("output = [head₁ | head₂] W_O"),
        explanation=(
            N_("One head makes one pattern of weights. A transformer layer runs several heads on the same words, "
            "each with its own W_Q, W_K and W_V, so each can look for something else. Here every word vector has "
            "four numbers: the first two say where the word stands in the sentence, the last two what it means "
            "(the third: how much it is a thing; the fourth: how much it looks for one). Head 1 reads only the "
            "first two and matches each word with the word before it. Head 2 reads only the last two and matches "
            "a word that looks for a thing with the thing, so \"it\" finds \"cat\". Each head's canvas draws "
            "the word vectors in the two numbers that head reads, and its matrix shows its pattern: a line under "
            "the diagonal for head 1, a column under \"cat\" for head 2. Each head's output has two numbers; side "
            "by side they make four, and W_O, under the heads, mixes them into the layer's output. The causal "
            "mask is on: a word sees itself and the words before it.")
        ),
        steps=(
            (N_("Choose \"it\" in the Query box. Head 1 gives 83% of its weight to \"because\", the word before; "
            "head 2 gives 84% to \"cat\".")),
            (N_("In head 2's Words x plot (on a small screen, click \"Head 2 · meaning\" after \"Plots of:\" first), "
            "drag x·cat to the left, away from being a thing. Head 2's column under "
            "\"cat\" fades; head 1's matrix does not change at all: it never reads those two numbers.")),
            (N_("Now drag x·it in head 1's Words x plot (its plots back with \"Head 1 · position\"). Head 1 looks at another word; head 2 stays as it was, and "
            "the output line under the heads changes in its first two numbers only.")),
            (N_("Read the output line: the two heads' outputs side by side, times W_O. Double-click W_O's first "
            "number, type 2 and watch head 1's share of the output grow. Ctrl+Z puts it back.")),
            (N_("Tick Scores above the heads to see both score tables at once (on a small screen the canvases get "
            "smaller). Click a head's title to show that head in the panels of the View menu.")),
        ),
    ),
    Lesson(
        id="predict-then-see",
        title=N_("8. Predict, then see"),
        scene="lessons/8_predict_then_see.json",
        predict=True,
        formula=N_("off by = ½ Σ |guess − real|,   score = 100 × (1 − off by)"),
        explanation=(
            N_("Guess first, then look: a guess you have committed to makes what you then see stick (people who drew "
            "their prediction before seeing a chart recalled it better; Kim, Reinecke and Hullman, 2017). This lesson "
            "turns on Predict, then see (Lessons menu, Ctrl+P; any scene can use it). When you move a query or a key, "
            "every number that depends on the weights turns into \"?\" and the arrows stop showing their weight. "
            "Release the arrow, drag the grey bars on the Weights chart to your guess, or pick the winner, and press "
            "Reveal: the real weights stand beside your guess, with how many points of weight you put on the wrong "
            "keys and a score out of 100. In \"the dog chased it\" (scaled by √2) the query of \"it\", (1, 1), points "
            "exactly along k·the (0.8, 0.8); dog's key (2.5, 0.2) is longer but points another way. Which key does "
            "\"it\" give the most weight, and how much does each of the four get? Make your guess before you reveal.")
        ),
        steps=(
            (N_("The weights of \"it\" start hidden. Drag the grey bars to your guess (or pick the winner), then press "
             "Reveal.")),
            N_("Drag k·dog to the origin. While it moves, every weight is a \"?\". Release, guess, reveal."),
            N_("Drag q·it to point straight up, toward k·chased. Which key wins now? Guess before you reveal."),
            (N_("Your score sits over the chart: rounds, average and winners named right; every round is also kept "
             "between runs. Lessons → Predict, then See (Ctrl+P) turns it on for any scene.")),
        ),
    ),
    Lesson(
        id="induction-heads",
        title=N_("9. Heads that work together"),
        scene="lessons/9_induction.json",
        first_head=(1, 0),  # layer 2's stripe: the first step reads it
        formula=N_("layer 1: look at the letter before me;  layer 2: look where the letter before was mine"),
        explanation=(
            N_("Models are stacks of layers, and the most famous thing trained heads learn needs two of them: an "
            "induction head (Olsson et al., 2022). Seen \"D K W N R H\" once, a model reading \"D K W\" again "
            "guesses N next. This scene is a model of two layers, one head each, that the app trained from seed 0 "
            "for 1,000 steps on random letters where a stretch comes back later. Layer 1's head looks at the "
            "letter just before each one (a line below the diagonal in its matrix, clearest in the first "
            "copy) and writes it into that position. Layer 2's head reads the stream: its keys now say \"the "
            "letter before me\", so a query for D finds 2:K, the place right after the earlier D, and copies it. "
            "In its matrix that is a stripe, parallel to the diagonal, from 14:D to 2:K. Trained live, the loss "
            "stays near ln 24 = 3.18 (guessing among 24 letters) for about 170 steps, then drops within a few "
            "dozen: the two heads appear together, since neither helps without the other.")
        ),
        steps=(
            (N_("The query is 14:D, the second D. Layer 2's head gives 2:K all its weight; layer 1's head at 2:K "
             "looked at 1:D. Choose 15:K to 19:H in the Query box: the stripe.")),
            (N_("Open Lessons → Train a Head… (Ctrl+T), pick induction and press Train. Watch the loss sit on its "
             "plateau, then drop, and the stripe form in layer 2 as the diagonal forms in layer 1.")),
            (N_("Knock out layer 1's head with its switch: the accuracy falls to about 10% and layer 2's stripe "
             "breaks up. Switch it back on.")),
            (N_("Real models have such heads too. Open Lessons → Heads of a Real Model… (Ctrl+H), then Find heads → "
             "Find: Induction heads. SmolLM2 reads 20 random tokens twice, and the grid colours each of its 270 "
             "heads by how much it copies; open the strongest to see its stripe.")),
        ),
    ),
    Lesson(
        id="positions",
        title=N_("10. Where is each word?"),
        scene="lessons/10_positions.json",
        companion=DockId.POSITIONS_LAB,
        formula=N_("x + PE[i],   or turn q by m·θ and k by n·θ (RoPE)"),
        explanation=(
            N_("Attention by itself cannot tell word order. Every score is one word's query against another's key, "
            "and nothing in either says where the word stands: shuffle the sentence and every word gets the same "
            "weights and the same output, only in another row. In \"the dog chased the cat\" the query of "
            "\"chased\" gives dog and cat 34% of its weight each, and the same 34% each in \"the cat chased the "
            "dog\": who chased whom is invisible. Models add position in one of three ways. "
            "The original Transformer adds a fixed pattern of sines and cosines to each word vector; lesson 5's "
            "trained head adds a vector per position that it learned. Models such as SmolLM2, Llama, Qwen and "
            "Mistral instead turn q and k (rotary position, RoPE): each pair of numbers of the query at position m "
            "is turned by m·θ, of the key at position n by n·θ, so their dot product depends only on the distance "
            "m − n. Each pair turns at its own speed: fast pairs tell near from far, slow ones hardly move and "
            "carry meaning. The Positions lab, beside this text, shows each way.")
        ),
        steps=(
            (N_("Positions lab, Order: press Shuffle. The rows and columns of the Matrix panel move with their "
             "words, and every word keeps its weights and its output.")),
            (N_("Added: move the strength slider. With position added, the two orders' matrices differ; at 0 they "
             "are the same again. The learned positions of lesson 5's head make its mirror pattern; at 0 it fades.")),
            (N_("Rotated: move m and n together. The arrows turn, the angle between them stays, and q·k does not "
             "change; move only m and the score swings. Watch the 32 clocks: the first spin, the last hardly move.")),
            (N_("Real head (needs the SmolLM2 model pack): open its previous-token head, then untick RoPE on. "
             "Without the rotation its line below the diagonal disappears: it found the word before by distance.")),
        ),
    ),
    Lesson(
        id="cross-attention",
        title=N_("11. Reading one sentence while writing another"),
        scene="lessons/11_cross_attention.json",
        formula=N_("Q from the sentence written,  K and V from the sentence read"),
        explanation=(
            N_("Every scene so far was self-attention: the queries, keys and values all came from one sentence. A "
            "translator reads one sentence and writes another, and its cross-attention mixes the two: the queries "
            "come from the words being written (the target), the keys and values from the words being read (the "
            "source). The matrix then has a row for each target word and a column for each source word, and it "
            "need not be square. Attention was first made for this (Bahdanau, Cho and Bengio, 2015), and its "
            "matrix became the picture of which word a translator reads while it writes each word. Here the "
            "source is \"el gato negro duerme\" and the target \"the black cat sleeps\". In Spanish the adjective "
            "follows the noun, in English it comes before it, so two rows cross: \"black\" reads \"negro\", the "
            "third word, and \"cat\" reads \"gato\", the second. A trained translator keeps many numbers per word, "
            "not two; Lessons → Train a Head… has one small enough to train here (translate): one layer that "
            "writes, reading a source of plain word vectors, so each of its source columns is one word.")
        ),
        steps=(
            (N_("The chosen query is q·black. It gives k·negro 82% of its weight: its row in the matrix lights up "
             "under negro, the third column, while q·cat's lights up under gato, the second. The two rows cross.")),
            (N_("Drag q·black toward k·gato. The weight moves to gato and the output toward v·gato: this writer "
             "would now read the noun while writing the adjective.")),
            (N_("Open Lessons → Train a Head… (Ctrl+T), pick translate and press Train. Watch the exact-match curve "
             "rise and the cross-attention matrix of the chosen sentence form, the crossing of adjective and noun "
             "with it.")),
            (N_("Knock out the cross-attention head with its switch: the writer no longer reads the source, and "
             "almost no sentence comes out right. Switch it back on.")),
            (N_("A caution: in a small model with one head, its weights line up with the words. In large models "
             "many heads and layers share the work and words are mixed before they are read, so a weight is not a "
             "faithful word alignment: it says where a head read, not what the model used.")),
        ),
    ),
)


def lesson(lesson_id: str) -> Lesson:
    return next(item for item in LESSONS if item.id == lesson_id)


DEFAULT_SCENE_LESSON = "scaled-attention"


def lesson_for_scene(scene_file: Path | None, builtin_default: Path) -> str | None:
    """The lesson that goes with a scene: a new scene or the default one opens the
    scaled-attention lesson (it is that lesson's scene); any other file opens none."""
    return DEFAULT_SCENE_LESSON if scene_file is None or scene_file == builtin_default else None
