"""Finding heads: those that link one chosen token to another, and two common kinds, each by a stated rule.

Both kinds are measured on the sentence at hand, over every query but the first (the first token
can only look at itself). A head is of a kind when its average weight on the kind's key is at
least KIND_THRESHOLD: half of all its attention, on average, goes to that one place.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np

from attn_desktop.language import N_, number, tr
from attn_desktop.model.pretrained.run import ModelRun

KIND_THRESHOLD = 0.5
DEFAULT_LINK_COUNT = 10

# SmolLM2-135M's clearest previous-token head (layer, head), the one lesson 10 opens with RoPE on and off.
# On "the dog chased the cat because it was fast" its mean weight on the previous token is 0.807 with RoPE
# and 0.1549 without (below the 0.229 of attention spread evenly): without the turns it cannot find the
# word before. (11, 1) is next: 0.739 and 0.160.
CLEAR_PREVIOUS_TOKEN_HEAD = (16, 0)
PREVIOUS_TOKEN_SENTENCE = "the dog chased the cat because it was fast"


@dataclass(frozen=True)
class HeadScore:
    layer: int
    head: int
    score: float  # a weight, or an average weight, from 0 to 1


class HeadKind(enum.Enum):
    PREVIOUS_TOKEN = "previous-token"
    FIRST_TOKEN = "first-token"

    @property
    def title(self) -> str:
        """"Previous-token heads", in the language shown."""
        return tr(KIND_TITLES[self.value])

    @property
    def singular(self) -> str:
        """The catalog text of one head of the kind ("previous-token head"): tr() it where shown."""
        return KIND_SINGULARS[self.value]

    @property
    def rule(self) -> str:
        """The rule the kind's heads meet, in the language shown."""
        rules = {"previous-token": N_("Each token after the first puts, on average, at least {share} of its "
                                      "attention on the token just before it."),
                 "first-token": N_("Each token after the first puts, on average, at least {share} of its "
                                   "attention on the sentence's first token.")}
        return tr(rules[self.value]).format(share=number(100 * KIND_THRESHOLD, 0) + "%")


KIND_TITLES = {"previous-token": N_("Previous-token heads"), "first-token": N_("First-token heads")}
KIND_SINGULARS = {"previous-token": N_("previous-token head"), "first-token": N_("first-token head")}


def kind_scores(run: ModelRun, kind: HeadKind) -> np.ndarray:
    """Each head's average weight on the kind's key, over queries 1..n-1: (layers, heads).

    With a one-token sentence there is nothing to average, and every score is 0.
    """
    weights = run.attention
    n = weights.shape[-1]
    if n < 2:
        return np.zeros(weights.shape[:2])
    queries = np.arange(1, n)
    keys = queries - 1 if kind is HeadKind.PREVIOUS_TOKEN else np.zeros_like(queries)
    return np.asarray(weights[:, :, queries, keys].mean(axis=-1))


def heads_of_kind(run: ModelRun, kind: HeadKind) -> list[HeadScore]:
    """The heads meeting the kind's rule on this sentence, the strongest first."""
    scores = kind_scores(run, kind)
    found = np.argwhere(scores >= KIND_THRESHOLD)
    return _best_first([HeadScore(int(layer), int(head), float(scores[layer, head])) for layer, head in found])


def kinds_of_head(run: ModelRun, layer: int, head: int) -> list[HeadKind]:
    return [kind for kind in HeadKind if kind_scores(run, kind)[layer, head] >= KIND_THRESHOLD]


def heads_linking(run: ModelRun, query_index: int, key_index: int, top: int = DEFAULT_LINK_COUNT) -> list[HeadScore]:
    """The `top` heads putting the most weight from the query token on the key token, the most first."""
    n = len(run.tokens)
    if not (0 <= query_index < n and 0 <= key_index < n):
        raise ValueError(f"token positions must be between 0 and {n - 1}")
    if key_index > query_index:
        raise ValueError("a token can only attend to itself and the tokens before it (the causal mask)")
    weights = run.attention[:, :, query_index, key_index]
    scores = [HeadScore(layer, head, float(weights[layer, head])) for layer, head in np.ndindex(weights.shape)]
    return _best_first(scores)[:top]


def _best_first(scores: list[HeadScore]) -> list[HeadScore]:
    return sorted(scores, key=lambda s: (-s.score, s.layer, s.head))
