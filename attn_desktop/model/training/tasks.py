"""The training tasks: small sequence puzzles one attention head can learn.

Each task draws random token sequences and says, for every position, what the
head should output there (the target, an index into the task's vocabulary)
and whether that position counts towards the loss and the accuracy.

* reverse: the digits 0-9, five at a time, no mask; the target at position i
  is the input at position L-1-i; every position is scored.
* previous-token: the digits 0-9, six at a time, causal; the target at
  position i is the token at i-1; position 0 (which has no previous token)
  is not scored.
* it-noun: six-word causal "sentences": five words, exactly one of them a noun
  and the rest filler words, then "it". Only the position of "it" is scored,
  and its target is the noun. Every sentence has exactly six words, so
  no padding is needed. The fillers are drawn at random, so the sentences are
  word salad ("on big cat the sat it"); what matters is that the noun can be
  anywhere before "it".

Nothing here imports Qt: the command line trains headless with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from attn_desktop.language import N_, ntr, tr

IntArray = np.ndarray  # integer arrays (tokens, targets); a readable alias, not a separate type


@dataclass(frozen=True)
class Batch:
    """COUNT sequences of a task with their targets.

    tokens (count, L) are indices into the task's vocabulary; targets
    (count, L) are indices into the same vocabulary (the head's output
    vocabulary); scored (count, L) is True where a position counts. Where it
    does not, the target is 0 and means nothing.
    """

    tokens: IntArray
    targets: IntArray
    scored: np.ndarray


# A rule: the targets and scored positions of a (count, L) array of tokens.
TargetRule = Callable[[IntArray], tuple[IntArray, np.ndarray]]
# A generator: COUNT random sequences of the task, as (count, L) token indices.
SequenceDrawer = Callable[[np.random.Generator, int], IntArray]


@dataclass(frozen=True)
class Task:
    """One task: its vocabulary, sentence length, mask, and the settings that train it well.

    default_steps and default_lr are chosen (see bench/training.py) so that
    training from any of several seeds reaches target_accuracy on fresh
    sequences; d_model and d_v are the sizes of the head trained for it.
    """

    name: str
    title: str
    description: str
    vocab: tuple[str, ...]
    seq_len: int
    causal: bool
    d_model: int
    d_v: int
    default_steps: int
    default_lr: float
    default_batch_size: int
    target_accuracy: float
    example_words: tuple[str, ...]
    draw: SequenceDrawer
    rule: TargetRule

    def sample(self, rng: np.random.Generator, count: int) -> Batch:
        """COUNT fresh random sequences, drawn with RNG only (so a seed gives the same batch)."""
        tokens = np.asarray(self.draw(rng, count), dtype=np.int64)
        targets, scored = self.targets(tokens)
        return Batch(tokens=tokens, targets=targets, scored=scored)

    def targets(self, tokens: IntArray) -> tuple[IntArray, np.ndarray]:
        """What the head should answer at each position of TOKENS ((count, L) or (L,)), and where it counts."""
        array = np.asarray(tokens, dtype=np.int64)
        targets, scored = self.rule(array.reshape(-1, self.seq_len))
        return targets.reshape(array.shape), scored.reshape(array.shape)

    def example_tokens(self) -> list[int]:
        """The task's example sentence as token indices."""
        return [self.vocab.index(word) for word in self.example_words]

    def words(self, tokens: Sequence[int]) -> list[str]:
        return [self.vocab[int(token)] for token in tokens]


# ----- reverse ----------------------------------------------------------

DIGITS = tuple(str(digit) for digit in range(10))


def _uniform_digits(length: int) -> SequenceDrawer:
    def draw(rng: np.random.Generator, count: int) -> IntArray:
        return rng.integers(0, len(DIGITS), size=(count, length))

    return draw


def _reverse_rule(tokens: IntArray) -> tuple[IntArray, np.ndarray]:
    return tokens[:, ::-1].copy(), np.ones(tokens.shape, dtype=bool)


# ----- previous token -----------------------------------------------------


def _previous_token_rule(tokens: IntArray) -> tuple[IntArray, np.ndarray]:
    targets = np.zeros_like(tokens)
    targets[:, 1:] = tokens[:, :-1]
    scored = np.ones(tokens.shape, dtype=bool)
    scored[:, 0] = False  # position 0 has no previous token
    return targets, scored


# ----- it -> noun -----------------------------------------------------------

FILLERS = ("the", "a", "big", "small", "sat", "ran", "on", "here")
NOUNS = ("cat", "dog", "bird", "fish", "cow", "fox")
IT = "it"
IT_NOUN_VOCAB = (*FILLERS, *NOUNS, IT)
IT_NOUN_LENGTH = 6
_NOUN_IDS = np.array([IT_NOUN_VOCAB.index(noun) for noun in NOUNS])
_IT_ID = IT_NOUN_VOCAB.index(IT)


def _draw_it_noun(rng: np.random.Generator, count: int) -> IntArray:
    """Five words, one a noun at a random place and four fillers, then "it"."""
    words = IT_NOUN_LENGTH - 1
    tokens = rng.integers(0, len(FILLERS), size=(count, IT_NOUN_LENGTH))  # fillers are ids 0..len-1
    noun_place = rng.integers(0, words, size=count)
    tokens[np.arange(count), noun_place] = _NOUN_IDS[rng.integers(0, len(NOUNS), size=count)]
    tokens[:, -1] = _IT_ID
    return tokens


def _it_noun_rule(tokens: IntArray) -> tuple[IntArray, np.ndarray]:
    """At a final "it" the target is the sentence's noun; a sentence without exactly one noun scores nothing."""
    is_noun = np.isin(tokens, _NOUN_IDS)
    scored = np.zeros(tokens.shape, dtype=bool)
    scored[:, -1] = (tokens[:, -1] == _IT_ID) & (is_noun.sum(axis=1) == 1)
    targets = np.zeros_like(tokens)
    targets[:, -1] = np.where(scored[:, -1], (tokens * is_noun).max(axis=1), 0)
    return targets, scored


TASKS: dict[str, Task] = {
    task.name: task
    for task in (
        Task(
            name="reverse",
            title=N_("Reverse"),
            description=N_("Five digits; at each position, answer the digit at the mirrored position "
                           "(position 0 answers the last digit). No mask: every position sees every other."),
            vocab=DIGITS,
            seq_len=5,
            causal=False,
            d_model=16,
            d_v=2,
            default_steps=400,
            default_lr=0.02,
            default_batch_size=64,
            target_accuracy=0.99,
            example_words=("3", "1", "4", "1", "5"),
            draw=_uniform_digits(5),
            rule=_reverse_rule,
        ),
        Task(
            name="previous-token",
            title=N_("Previous token"),
            description=N_("Six digits, causal mask; at each position, answer the digit just before it "
                           "(position 0 has none and is not scored)."),
            vocab=DIGITS,
            seq_len=6,
            causal=True,
            d_model=16,
            d_v=2,
            default_steps=400,
            default_lr=0.02,
            default_batch_size=64,
            target_accuracy=0.99,
            example_words=("2", "7", "1", "8", "2", "8"),
            draw=_uniform_digits(6),
            rule=_previous_token_rule,
        ),
        Task(
            name="it-noun",
            # Translators: the task "it → noun": at the word "it", answer the noun it stands for.
            title=N_("it → noun"),
            description=N_("Six-word sentences, causal mask: five words with one noun among filler words, "
                           "then \"it\". At \"it\", answer the noun it stands for; only that position is scored."),
            vocab=IT_NOUN_VOCAB,
            seq_len=IT_NOUN_LENGTH,
            causal=True,
            d_model=16,
            d_v=2,
            default_steps=400,
            default_lr=0.02,
            default_batch_size=64,
            target_accuracy=0.99,
            example_words=("the", "big", "cat", "sat", "here", "it"),
            draw=_draw_it_noun,
            rule=_it_noun_rule,
        ),
    )
}


_SEPARATORS = re.compile(r"[\s,]+")
_MAX_WORDS_NAMED = 3  # the message stays one readable line whatever was pasted


def _short(word: str) -> str:
    return word if len(word) <= 12 else word[:11] + "…"


def parse_example(task: Task, text: str) -> list[int]:
    """The token indices of a sentence typed by a user ("3 1 4 1 5", "the cat sat on a it").

    Words are separated by spaces or commas and matched without regard to case.
    Raises ValueError with one sentence saying what is wrong: a word outside
    the task's vocabulary (all of them are named) or the wrong number of words.
    """
    words = [word for word in _SEPARATORS.split(text.strip().lower()) if word]
    unknown = list(dict.fromkeys(word for word in words if word not in task.vocab))
    if unknown:
        shown = ", ".join(f'"{_short(word)}"' for word in unknown[:_MAX_WORDS_NAMED])
        if len(unknown) > _MAX_WORDS_NAMED:
            # Translators: the words typed that are not in a task's vocabulary: '"x", "y", "z" and 2 more'.
            shown = tr("{words} and {count} more").format(words=shown, count=len(unknown) - _MAX_WORDS_NAMED)
        # Translators: {task} is a task's name as the command line knows it ("reverse", "it-noun").
        raise ValueError(ntr("{words} is not in the {task} vocabulary; use {vocabulary}",
                             "{words} are not in the {task} vocabulary; use {vocabulary}", len(unknown)).format(
            words=shown, task=task.name, vocabulary=" ".join(task.vocab)))
    if len(words) != task.seq_len:
        raise ValueError(ntr("{task} sentences have {count} words; found {found}",
                             "{task} sentences have {count} words; found {found}", task.seq_len).format(
            task=task.name, count=task.seq_len, found=len(words)))
    return [task.vocab.index(word) for word in words]
