"""The induction task: random letters where a stretch of them comes back later in the same sequence.

Each sequence has SEQUENCE_LENGTH letters. A segment of SEGMENT_LENGTHS letters (its length and both of its
places drawn per sequence) appears twice: once, and again later. Everything outside the second copy
is drawn without repeats, so every letter of the second copy has exactly one earlier occurrence.

The model predicts the next letter at every position. Only where the letter after the current one is
predictable from the sequence itself does a position count: inside the second copy, from its first
letter to its last but one (there the answer is "the letter that followed this one last time"). Since
the segment's length and places change from sequence to sequence, a position alone cannot say where
to look; only the content can: a two-layer induction circuit (see layered_maths.py).

Nothing here imports Qt.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attn_desktop.language import N_, ntr
from attn_desktop.model.training.tasks import Batch, IntArray

LETTERS = tuple("ABCDEFGHIJKLMNOPQRSTUVWX")  # 24: the vocabulary of the probe the issue describes
SEQUENCE_LENGTH = 20
SEGMENT_LENGTHS = (4, 8)  # both inclusive: short enough to fit twice, long enough to score a few places


@dataclass(frozen=True)
class InductionTask:
    """The induction puzzle and the sizes and settings of the two-layer model trained on it.

    default_steps and default_lr are chosen with bench/training.py: every seed tried forms both heads
    and passes target_accuracy well inside the issue's 60 s.
    """

    name: str = "induction"
    title: str = N_("Induction")  # (marked for the catalog; shown translated)
    description: str = N_(
        "Twenty random letters where a stretch of them comes back later. At each letter of the second "
        "copy, answer the letter that followed it the first time: only a previous-token head in layer 1 "
        "and an induction head in layer 2, working together, can."
    )
    vocab: tuple[str, ...] = LETTERS
    seq_len: int = SEQUENCE_LENGTH
    causal: bool = True
    n_layers: int = 2
    n_heads: int = 1
    d_model: int = 32
    d_head: int = 16
    default_steps: int = 1000
    default_lr: float = 0.003
    default_batch_size: int = 64
    target_accuracy: float = 0.85
    example_words: tuple[str, ...] = tuple("QDKWNRHBTCFJPMDKWNRH")

    def sample(self, rng: np.random.Generator, count: int) -> Batch:
        """COUNT fresh sequences drawn with RNG only, with their next-letter targets and scored places."""
        tokens = draw_repeated_sequences(rng, count, len(self.vocab), self.seq_len)
        targets, scored = self.targets(tokens)
        return Batch(tokens=tokens, targets=targets, scored=scored)

    def targets(self, tokens: IntArray) -> tuple[IntArray, np.ndarray]:
        """The next letter at every position, and True where it is predictable (see predictable_places)."""
        array = np.asarray(tokens, dtype=np.int64)
        flat = array.reshape(-1, self.seq_len)
        targets = np.zeros_like(flat)
        targets[:, :-1] = flat[:, 1:]
        return targets.reshape(array.shape), predictable_places(flat).reshape(array.shape)

    def example_tokens(self) -> list[int]:
        return [self.vocab.index(word) for word in self.example_words]

    def words(self, tokens: IntArray | list[int]) -> list[str]:
        return [self.vocab[int(token)] for token in tokens]


def draw_repeated_sequences(rng: np.random.Generator, count: int, vocab_size: int, length: int) -> IntArray:
    """COUNT sequences of LENGTH letters: distinct letters, except a segment copied later on."""
    shortest, longest = SEGMENT_LENGTHS
    tokens = np.argsort(rng.random((count, vocab_size)), axis=1)[:, :length]  # distinct letters per row
    segment = rng.integers(shortest, longest + 1, size=count)
    for row in range(count):
        size = int(segment[row])
        first = int(rng.integers(0, length - 2 * size + 1))
        second = int(rng.integers(first + size, length - size + 1))
        tokens[row, second:second + size] = tokens[row, first:first + size]
    return tokens.astype(np.int64)


def predictable_places(tokens: IntArray) -> np.ndarray:
    """True at position i when token i occurred earlier and token i+1 equals what followed it then.

    That is the second copy from its first letter to its last but one: elsewhere every letter is new,
    and the last letter of the second copy is followed by a random one. Worked from the tokens alone
    (not from how they were drawn), so a sentence typed by a student is scored by the same rule.
    """
    flat = np.asarray(tokens, dtype=np.int64)
    scored = np.zeros(flat.shape, dtype=bool)
    for i in range(2, flat.shape[-1] - 1):
        same_token = flat[..., :i - 1] == flat[..., i:i + 1]         # token i at some j <= i - 2 ...
        same_follower = flat[..., 1:i] == flat[..., i + 1:i + 2]     # ... followed then by token i + 1
        scored[..., i] = (same_token & same_follower).any(axis=-1)
    return scored


INDUCTION = InductionTask()


def parse_letters(task: InductionTask, text: str) -> list[int]:
    """The letter indices of a sequence typed by a user ("QDKW…", "q d k w …", "Q,D,K,W,…").

    Spaces and commas are optional and case does not matter. Raises ValueError with one sentence
    saying what is wrong: a character that is not one of the task's letters, or the wrong number of them.
    """
    letters = [character for character in text.upper() if not character.isspace() and character != ","]
    unknown = list(dict.fromkeys(letter for letter in letters if letter not in task.vocab))
    if unknown:
        shown = ", ".join(f'"{letter}"' for letter in unknown[:3]) + (" …" if len(unknown) > 3 else "")
        raise ValueError(ntr("{letters} is not among the {task} letters; use {first} to {last}",
                             "{letters} are not among the {task} letters; use {first} to {last}", len(unknown)).format(
            letters=shown, task=task.name, first=task.vocab[0], last=task.vocab[-1]))
    if len(letters) != task.seq_len:
        raise ValueError(ntr("{task} sequences have {count} letters; found {found}",
                             "{task} sequences have {count} letters; found {found}", task.seq_len).format(
            task=task.name, count=task.seq_len, found=len(letters)))
    return [task.vocab.index(letter) for letter in letters]
