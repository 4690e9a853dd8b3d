"""A description of the screen for a student who cannot see it, in four parts (as PhET's simulations give one).

What is on the screen, the controls, the current state and a hint what to try: said on a key and shown in the
Description panel, the teacher's way to check what a blind student hears. The state is built from the model's
numbers (the chosen query, its heaviest key and that key's weight, the output), in the interface's language and
its number format. No Qt here: the window says which activity is open and whether the weights are veiled.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_desktop.language import N_, number, percent, tr, vector
from attn_desktop.model.head_reading import HeadReading
from attn_desktop.model.layers import Role
from attn_desktop.model.teaching import lessons
from attn_desktop.model.teaching.dock_id import DockId

# The activities that are not lessons (a lesson is named by its id).
EXPLORER = "explorer"  # a scene of the student's own: no lesson open
TRAINING = "training"
MODEL_HEADS = "model-heads"

# Translators: the four headings of the Description panel (a screen reader's summary of the screen).
PART_TITLES = (N_("On the screen"), N_("Controls"), N_("Now"), N_("Try this"))

ARROW_CONTROLS = N_("Tab goes from arrow to arrow; the arrow keys move the arrow that has the focus; Enter types "
                    "its exact numbers. Ctrl+] and Ctrl+[ choose the next or the previous query. The lesson's "
                    "questions and buttons are in the Lesson panel. F1 says this description again.")


@dataclass(frozen=True)
class ScreenDescription:
    screen: str  # what is on the screen
    controls: str  # how to work it
    state: str  # what it shows now, from the model's numbers
    hint: str  # what to try next

    def parts(self) -> tuple[tuple[str, str], ...]:
        """(heading, text) for each of the four parts, in the order they are read."""
        texts = (self.screen, self.controls, self.state, self.hint)
        return tuple((tr(title), text) for title, text in zip(PART_TITLES, texts, strict=True))

    def spoken(self) -> str:
        """The four parts as one text to announce: each heading, then its text."""
        return " ".join(f"{title}: {text}" for title, text in self.parts())


def activity_of(lesson_id: str | None, companion: DockId | None) -> str:
    """What the student is doing, as the description names it: Training or a real model's heads while their panel
    is open (the canvas then shows their head), else the open lesson, else a scene of their own."""
    if companion == DockId.TRAINING:
        return TRAINING
    if companion == DockId.MODEL_HEADS:
        return MODEL_HEADS
    return lesson_id if lesson_id is not None else EXPLORER


def describe_screen(activity: str, reading: HeadReading, weights_hidden: bool = False) -> ScreenDescription:
    """ACTIVITY (a lesson's id, EXPLORER, TRAINING or MODEL_HEADS) with the head READING shows on the canvas.
    WEIGHTS_HIDDEN: Predict, then see is waiting for a guess, so the state does not give the weights away."""
    state = _hidden_state() if weights_hidden else head_state(reading)
    if activity == TRAINING:
        return ScreenDescription(_training_screen(), _training_controls(), state, _training_hint())
    if activity == MODEL_HEADS:
        return ScreenDescription(_model_heads_screen(), _model_heads_controls(), state, _model_heads_hint())
    if activity == EXPLORER:
        return ScreenDescription(_canvas_screen(tr("Your own scene."), reading), tr(ARROW_CONTROLS), state,
                                 _explorer_hint(reading))
    lesson = lessons.lesson(activity)
    # Translators: the start of the Description panel's first part: "Lesson: 3. Every word looks at every word."
    title = tr("Lesson: {title}.").format(title=tr(lesson.title))
    return ScreenDescription(_canvas_screen(title, reading), tr(ARROW_CONTROLS), state,
                             tr(lesson.steps[0]) if lesson.steps else _explorer_hint(reading))


def head_state(reading: HeadReading) -> str:
    """"The chosen query is q·it. Its heaviest key is k·cat, with 62% of the weight. The output is (0.77, 0.38).\""""
    weights = np.asarray(reading.selected_weights, dtype=float)
    heaviest = int(np.argmax(weights))
    # Translators: the Description panel's state: {query} and {key} are arrow names (q·it, k·cat), {output} a vector.
    return tr("The chosen query is {query}. Its heaviest key is {key}, with {weight} of the weight. "
              "The output is {output}.").format(
        query=reading.arrow_name(Role.QUERY, reading.selected), key=reading.arrow_name(Role.KEY, heaviest),
        weight=percent(float(weights[heaviest])), output=_output(np.ravel(reading.selected_output)))


def _output(output: np.ndarray) -> str:
    """A scalar value's output as a number ("3.49"), a vector's as a vector ("(0.77, 0.38)")."""
    return number(float(output[0])) if output.size == 1 else vector(output)


def _hidden_state() -> str:
    return tr("Predict, then see: the weights are hidden until you have made your guess on the weights chart.")


def _canvas_screen(opening: str, reading: HeadReading) -> str:
    if Role.TARGET in reading.roles:
        return _cross_canvas_screen(opening, reading)
    if reading.query_tokens != reading.tokens:  # the queries ask from other words: lesson 1's, cross-attention
        # Translators: {opening} is "Lesson: …." or "Your own scene."; {queries} the words that ask (the sentence
        # being written), {words} the words whose keys and values are read; each list comma-separated.
        return tr("{opening} The canvas shows the query arrows of the words that ask ({queries}), and the key and "
                  "value arrows of the words they read ({words}). Beside it: the Scores table, the attention "
                  "matrix, the weights chart and the output.").format(
            opening=opening, queries=", ".join(reading.query_tokens), words=", ".join(reading.tokens))
    # Translators: {opening} is "Lesson: …." or "Your own scene."; {words} the scene's words, comma-separated.
    return tr("{opening} The canvas shows {count} words ({words}), each with a query, a key and a value arrow. "
              "Beside it: the Scores table, the attention matrix, the weights chart and the output.").format(
        opening=opening, count=reading.n_tokens, words=", ".join(reading.tokens))


def _cross_canvas_screen(opening: str, reading: HeadReading) -> str:
    """A cross-attention head's canvas: the source's words answer with keys and values, the target's ask."""
    # Translators: {opening} is "Lesson: …." or "Your own scene."; {words} and {targets} the two sentences' words.
    return tr("{opening} The canvas shows two sentences: {count} source words ({words}), each with a word vector x, a "
              "key and a value arrow, and {target_count} target words ({targets}), each with a word vector y and a "
              "query arrow. Beside it: the Scores table, the attention matrix, the weights chart and the output.").format(
        opening=opening, count=reading.n_tokens, words=", ".join(reading.tokens), target_count=reading.n_queries,
        targets=", ".join(reading.query_tokens))


def _explorer_hint(reading: HeadReading) -> str:
    return tr("Move a key towards the chosen query {query} and listen to its weight grow.").format(
        query=reading.arrow_name(Role.QUERY, reading.selected))


def _training_screen() -> str:
    return tr("Training: a head learns a task by gradient descent. The Training panel has the task, the learning "
              "rate, the buttons and the loss and accuracy curves; the canvas shows the head on an example as it "
              "learns.")


def _training_controls() -> str:
    return tr("In the Training panel, Tab reaches Train, Pause, Step and Reset, the task and the learning rate. "
              "F1 says this description again.")


def _training_hint() -> str:
    return tr("Press Train and listen for the step at which the loss drops: the circuit has formed.")


def _model_heads_screen() -> str:
    return tr("The heads of a real language model: the Model heads panel shows every head's attention on your "
              "sentence as a small picture in a grid of layers and heads; an opened head is on the canvas.")


def _model_heads_controls() -> str:
    return tr("Type a sentence in the Model heads panel. In the grid of heads the arrow keys move from head to head, "
              "Enter opens a head on the canvas and K knocks it out. F1 says this description again.")


def _model_heads_hint() -> str:
    return tr("Open a head and choose the sentence's last word as the query: which earlier word does it look at?")
