"""Induction heads (Olsson et al., 2022): at a token seen before, a head looks at the token that followed
it last time, so the model can copy what came next.

The probe: the model reads R random tokens, then the same R again (after its beginning-of-text token,
if its tokenizer adds one; SmolLM2's does not, so its sequence starts with the first random token).
No token repeats inside one copy, so each token of the second copy has exactly one earlier occurrence,
and random tokens mean nothing can be guessed from sense: only copying predicts the second copy.

A head's induction score is its average weight, from each token of the second copy, on the token after
that token's first occurrence (the query at start + R + i, the key at start + i + 1). In the weight matrix
those cells form a stripe parallel to the diagonal, R - 1 places to its left. A head is an induction head
when the score is at least INDUCTION_THRESHOLD: half of its attention, as for the other kinds.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.pretrained.head_kinds import KIND_THRESHOLD, HeadKind, HeadScore, kind_scores
from attn_desktop.model.pretrained.llama import MAX_SENTENCE_TOKENS
from attn_desktop.model.pretrained.run import ModelRun

# Measured on SmolLM2-135M-Instruct with R = 20 and seeds 0 to 11: layer 18 head 6 (0.81 to 0.92) and layer 17
# heads 3, 4 and 5 (0.67 to 0.86) meet 0.5 for every seed; layer 18 head 7 and layer 23 head 2 (0.38 to 0.72)
# for about half of them; no other head averages above 0.49. A head spreading its weight evenly would score
# about 0.03 at R = 20, so 0.5 is some fifteen times chance, and it is the threshold of the other kinds too.
INDUCTION_THRESHOLD = KIND_THRESHOLD
# 20 random tokens twice: the four strong heads stand out for every seed tried (at R = 10 they score about
# 0.1 less), and 40 tokens still show every token in a thumbnail and open as a scene a class can read.
DEFAULT_LENGTH = 20
DEFAULT_SEED = 0
MIN_LENGTH = 2  # one token has no "token after" in its own copy
MAX_LENGTH = MAX_SENTENCE_TOKENS // 2  # both copies within what the model reads at once (its context here)
MAX_SEED = 2**31 - 1  # as a spin box holds
TOP_COUNT = 10
# The random tokens are drawn from ids below this: a byte-level BPE vocabulary lists its tokens in the
# order they were merged, so the lowest ids are the commonest pieces of text, whose embeddings the model
# learnt well; the last ids are rare (SmolLM2's 49,000th is " exfol"). Special tokens are left out too:
# "<|im_start|>" or "<file_sep>" are markers with meanings of their own, not text.
COMMON_TOKENS = 10_000


class TokenSource(Protocol):
    """What the probe needs of a tokenizer (ModelTokenizer)."""

    @property
    def vocab_size(self) -> int: ...
    @property
    def special_ids(self) -> frozenset[int]: ...
    def first_token_ids(self) -> list[int]: ...


class RunsTokenIds(Protocol):
    """What the probe needs of a model (LlamaModel)."""

    @property
    def tokenizer(self) -> TokenSource: ...
    def run_token_ids(self, ids: list[int], knocked_out: Collection[tuple[int, int]] = frozenset()) -> ModelRun: ...
    def position_logits(self, run: ModelRun, positions: list[int]) -> np.ndarray: ...


@dataclass(frozen=True)
class InductionProbe:
    """A model reading R random tokens twice, and every head's induction score on it."""

    run: ModelRun
    length: int  # R
    seed: int
    start: int  # where the first copy starts: 1 after a beginning-of-text token, else 0
    scores: np.ndarray  # (layers, heads)
    # Mean cross-entropy (nats) of the model's guesses for the second copy's tokens after its first (copying
    # predicts each of them; the first follows a token never seen before, so nothing does): NaN if not measured.
    loss: float = math.nan
    knocked_out: frozenset[tuple[int, int]] = frozenset()  # (layer, head) zeroed in this probe's run

    @property
    def token_ids(self) -> list[int]:
        return list(self.run.token_ids)

    def top(self, count: int = TOP_COUNT) -> list[HeadScore]:
        """The COUNT heads with the highest induction scores, the highest first."""
        return best_heads(self.scores)[:count]

    def induction_heads(self) -> list[HeadScore]:
        """The heads meeting the rule (a score of at least INDUCTION_THRESHOLD), the strongest first."""
        return [score for score in best_heads(self.scores) if score.score >= INDUCTION_THRESHOLD]

    def feeding_heads(self) -> list[HeadScore]:
        """Previous-token heads on this same sequence in layers before the first induction head (before the
        strongest head when none meets the rule): each could write "the token before me" into a position,
        which an induction head's key can match (K-composition)."""
        found = self.induction_heads() or self.top(1)
        first_layer = min(score.layer for score in found)
        previous = kind_scores(self.run, HeadKind.PREVIOUS_TOKEN)
        return best_heads(previous, KIND_THRESHOLD, below_layer=first_layer)

    def feeding_layers(self) -> list[int]:
        return sorted({score.layer for score in self.feeding_heads()})


def ordinary_token_ids(tokenizer: TokenSource) -> np.ndarray:
    """The ids random tokens are drawn from: below COMMON_TOKENS, and no special token."""
    special = tokenizer.special_ids
    return np.array([token for token in range(min(tokenizer.vocab_size, COMMON_TOKENS)) if token not in special],
                    dtype=np.int64)


def longest_length(tokenizer: TokenSource) -> int:
    """The largest R this model's probe can take: both copies within what it reads, no repeat in a copy."""
    room = (MAX_SENTENCE_TOKENS - len(tokenizer.first_token_ids())) // 2
    return min(room, len(ordinary_token_ids(tokenizer)))


def settings_problem(length: int, seed: int, longest: int = MAX_LENGTH) -> str | None:
    """Why LENGTH or SEED cannot be used (one line), or None; LONGEST is the model's longest_length."""
    if not MIN_LENGTH <= length <= longest:
        return tr("the length must be from {lowest} to {longest} random tokens (read twice, so at most {tokens} "
                  "tokens); it was {length}").format(lowest=MIN_LENGTH, longest=longest, tokens=MAX_SENTENCE_TOKENS,
                                                     length=f"{length:,}")
    if not 0 <= seed <= MAX_SEED:
        return tr("the seed must be a whole number from 0 to {highest}; it was {seed}").format(
            highest=f"{MAX_SEED:,}", seed=f"{seed:,}")
    return None


def repeated_random_ids(tokenizer: TokenSource, length: int, seed: int) -> list[int]:
    """The probe's token ids: the beginning-of-text token if the tokenizer adds one, R random ids, the same R again."""
    problem = settings_problem(length, seed, longest_length(tokenizer))
    if problem:
        raise ValueError(problem)
    drawn = np.random.default_rng(seed).choice(ordinary_token_ids(tokenizer), size=length, replace=False)
    copy = [int(token) for token in drawn]
    return tokenizer.first_token_ids() + copy + copy


def induction_scores(attention: np.ndarray, start: int, length: int) -> np.ndarray:
    """Each head's mean weight from token i of the second copy (start + length + i) on the token after its
    first occurrence (start + i + 1), over i = 0..length-1: (layers, heads), from (layers, heads, n, n)."""
    if attention.shape[-1] < start + 2 * length or length < 1:
        raise ValueError(f"the attention covers {attention.shape[-1]} tokens, not {start} + 2 × {length}")
    steps = np.arange(length)
    return np.asarray(attention[..., start + length + steps, start + steps + 1].mean(axis=-1))


def probe_induction(model: RunsTokenIds, length: int = DEFAULT_LENGTH, seed: int = DEFAULT_SEED,
                    knocked_out: Collection[tuple[int, int]] = frozenset()) -> InductionProbe:
    """MODEL reads LENGTH random tokens (drawn with SEED) twice, with the KNOCKED_OUT heads zeroed; every head's
    induction score and the loss on the second copy. Raises ValueError for a length, seed or head the model
    cannot take (HeadError for a head)."""
    ids = repeated_random_ids(model.tokenizer, length, seed)
    start = len(ids) - 2 * length
    # without heads knocked out, called as before (a model standing in for one may take the ids alone)
    run = model.run_token_ids(ids, knocked_out) if knocked_out else model.run_token_ids(ids)
    loss = second_copy_loss(model.position_logits(run, list(range(start + length, start + 2 * length - 1))),
                            ids[start + length + 1 :])
    return InductionProbe(run, length, seed, start, induction_scores(run.attention, start, length), loss,
                          run.knocked_out)


def second_copy_loss(logits: np.ndarray, targets: list[int]) -> float:
    """The mean cross-entropy (nats) of TARGETS under LOGITS (one row each): -log softmax(row)[target]."""
    rows = np.asarray(logits, dtype=np.float64)
    rows = rows - rows.max(axis=-1, keepdims=True)
    log_probabilities = rows - np.log(np.exp(rows).sum(axis=-1, keepdims=True))
    return float(-log_probabilities[np.arange(len(targets)), targets].mean())


def strongest_induction_head(model: RunsTokenIds, length: int = DEFAULT_LENGTH,
                             seed: int = DEFAULT_SEED) -> HeadScore:
    """The head with the highest induction score (SmolLM2-135M: layer 18, head 6, 0.91 at the defaults)."""
    return probe_induction(model, length, seed).top(1)[0]


def best_heads(scores: np.ndarray, at_least: float = -np.inf, below_layer: int | None = None) -> list[HeadScore]:
    """Every head scoring at least AT_LEAST (in a layer before BELOW_LAYER, if given), the highest first."""
    found = [HeadScore(int(layer), int(head), float(scores[layer, head]))
             for layer, head in np.ndindex(scores.shape)
             if scores[layer, head] >= at_least and (below_layer is None or layer < below_layer)]
    return sorted(found, key=lambda s: (-s.score, s.layer, s.head))


__all__ = ["DEFAULT_LENGTH", "DEFAULT_SEED", "INDUCTION_THRESHOLD", "MAX_LENGTH", "MAX_SEED", "MIN_LENGTH", "TOP_COUNT",
           "InductionProbe", "best_heads", "induction_scores", "longest_length", "ordinary_token_ids", "probe_induction",
           "repeated_random_ids", "second_copy_loss", "settings_problem", "strongest_induction_head"]
