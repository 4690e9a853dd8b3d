"""Training the translator live, and reading it: Adam on fresh pairs, held-out exact match, greedy decoding
word by word with its cross-attention, and how often a cross-attention head looks at the aligned source word.

What a Training panel and a lesson use: TranslationTrainer.step(n) for the loss and exact-match curves,
decode() for a sentence written word by word (a head may be knocked out), cross_attention_of() for the
matrix of target words by source words, and alignment_hits() for "does the picture show the alignment".
Everything random comes from the trainer's seed (the weights from stream 0, the batches from stream 1, as
training.Trainer draws them), so the same seed gives the same model. Nothing here imports Qt.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from attn_desktop.language import tr
from attn_desktop.model.training.training import ADAM_BETAS, ADAM_EPSILON, TrainingDiverged
from attn_desktop.model.training.translation_maths import (
    HeadAt,
    TranslationForward,
    exact_match_of,
    forward,
    loss_grads_and_forward,
)
from attn_desktop.model.training.translation_params import TranslationParams, init_translation_params
from attn_desktop.model.training.translation_task import (
    BOS,
    EOS,
    TranslationBatch,
    TranslationPair,
    TranslationTask,
)

Sentence = str | Sequence[str]  # "el gato negro duerme", or its words


@dataclass(frozen=True)
class TrainingFigures:
    """The steps just taken (their numbers), each one's loss and exact match on its own batch (teacher
    forcing), and the exact match on the held-out pairs after the last of them."""

    steps: list[int]
    losses: list[float]
    exact_matches: list[float]
    held_out_exact_match: float


@dataclass(frozen=True)
class DecodingStep:
    """What is written after one step of greedy decoding, and the cross-attention weights (layers, heads, source
    words) of the position that chose its last word."""

    words: list[str]
    cross_attention: np.ndarray


@dataclass(frozen=True)
class Decoding:
    source: list[str]
    words: list[str]  # ends with <eos>, unless decoding stopped at task.max_decoded tokens
    steps: list[DecodingStep]


@dataclass(frozen=True)
class CrossAttention:
    """One cross-attention head on one sentence: WEIGHTS[t, s] is what the position writing target word t
    (the last row writes <eos>) puts on source word s."""

    source_words: list[str]
    target_words: list[str]
    weights: np.ndarray
    layer: int
    head: int


@dataclass(frozen=True)
class AlignmentHits:
    """The share of target words whose row puts its largest weight on the aligned source word: over content words
    (nouns, adjectives, verbs), and over the adjectives and nouns that swapped places (the crossings)."""

    content: float
    crossing: float


class TranslationTrainer:
    """Adam on the translate task from one seed; every step draws a fresh batch of training pairs.

    step() may run in a worker thread while another calls snapshot(): a lock keeps the copy whole.
    A step whose loss, gradient or new weights are not finite numbers raises training.TrainingDiverged
    and changes nothing.
    """

    def __init__(self, task: TranslationTask, seed: int, lr: float | None = None, batch_size: int | None = None) -> None:
        self.task = task
        self.seed = int(seed)
        self.lr = task.default_lr if lr is None else float(lr)
        self.batch_size = task.default_batch_size if batch_size is None else int(batch_size)
        if not math.isfinite(self.lr) or self.lr <= 0 or self.batch_size < 1:
            raise ValueError(f"a positive learning rate and batch size, not {self.lr} and {self.batch_size}")
        self._params = init_translation_params(task, self.seed)
        self._live = dict(self._params.arrays())
        self._first_moment = {name: np.zeros_like(array) for name, array in self._live.items()}
        self._second_moment = {name: np.zeros_like(array) for name, array in self._live.items()}
        self._batches = np.random.default_rng([self.seed, 1])
        self._held_out = task.batch(task.held_out)
        self._lock = threading.Lock()
        self._steps = 0

    @property
    def steps(self) -> int:
        return self._steps

    @property
    def params(self) -> TranslationParams:
        """The live parameters: read them in the training thread, or use snapshot()."""
        return self._params

    def snapshot(self) -> TranslationParams:
        with self._lock:
            return self._params.copy()

    def step(self, count: int = 1) -> TrainingFigures:
        """COUNT Adam steps, each on a fresh batch; the figures of each (before its update) for the curves."""
        steps, losses, exact = [], [], []
        for _ in range(count):
            batch = self.task.sample(self._batches, self.batch_size)
            with np.errstate(all="ignore"):
                loss, grads, result = loss_grads_and_forward(self._params, batch)
                updated = self._adam_update(dict(grads.arrays()), self._steps + 1)
            if not math.isfinite(loss) or updated is None:
                raise TrainingDiverged(_what_diverged(loss), self._steps + 1, self._steps)
            with self._lock:
                for name, (m, v, param) in updated.items():
                    self._first_moment[name][...] = m
                    self._second_moment[name][...] = v
                    self._live[name][...] = param
                self._steps += 1
            steps.append(self._steps)
            losses.append(loss)
            exact.append(exact_match_of(result, batch))
        return TrainingFigures(steps=steps, losses=losses, exact_matches=exact,
                               held_out_exact_match=self.held_out_exact_match())

    def _adam_update(self, grads: dict[str, np.ndarray], step: int) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] | None:
        beta1, beta2 = ADAM_BETAS
        updated = {}
        for name, grad in grads.items():
            m = beta1 * self._first_moment[name] + (1.0 - beta1) * grad
            v = beta2 * self._second_moment[name] + (1.0 - beta2) * grad * grad
            param = self._live[name] - self.lr * (m / (1.0 - beta1**step)) / (np.sqrt(v / (1.0 - beta2**step)) + ADAM_EPSILON)
            if not np.isfinite(param).all():
                return None
            updated[name] = (m, v, param)
        return updated

    def held_out_exact_match(self, knocked_out: Collection[HeadAt] = ()) -> float:
        """The share of held-out pairs translated word for word (see translation_maths.exact_match_of)."""
        with np.errstate(all="ignore"):
            return exact_match_of(forward(self.snapshot(), self._held_out, knocked_out), self._held_out)

    def decode(self, sentence: Sentence, knocked_out: Collection[HeadAt] = ()) -> Decoding:
        """SENTENCE written greedily, word by word, with every step's cross-attention."""
        return decode(self.task, self.snapshot(), sentence, knocked_out)

    def cross_attention_of(self, sentence: Sentence, target: Sequence[str] | None = None, layer: int = -1,
                           head: int = 0, knocked_out: Collection[HeadAt] = ()) -> CrossAttention:
        """The weights of cross-attention head HEAD of decoder layer LAYER on SENTENCE: rows are the words the
        model writes by greedy decoding, then <eos>; or, given TARGET, teacher-forced on TARGET then <eos>."""
        return cross_attention_of(self.task, self.snapshot(), sentence, target, layer, head, knocked_out)


def _what_diverged(loss: float) -> str:
    """training.Trainer's words for it (the catalogs have them)."""
    if math.isnan(loss):
        return tr("the loss became NaN")
    return tr("the loss became infinite") if math.isinf(loss) else tr("the weights became too large to hold")


def words_of(sentence: Sentence) -> list[str]:
    return sentence.split() if isinstance(sentence, str) else list(sentence)


def _source_batch(task: TranslationTask, sources: Sequence[Sequence[str]], written: np.ndarray) -> TranslationBatch:
    """SOURCES with the decoder input WRITTEN so far ((count, T), <bos> first), for a forward pass."""
    ids = [task.source_ids(words) for words in sources]
    source = np.zeros((len(ids), max(len(row) for row in ids)), dtype=np.int64)
    for row, sentence in enumerate(ids):
        source[row, :len(sentence)] = sentence
    nothing = np.zeros(written.shape, dtype=np.int64)
    return TranslationBatch(source=source, source_lengths=np.array([len(row) for row in ids], dtype=np.int64),
                            decoder_input=written, targets=nothing, scored=nothing.astype(bool))


def greedy_decode(task: TranslationTask, params: TranslationParams, sentences: Sequence[Sentence | TranslationPair],
                  knocked_out: Collection[HeadAt] = ()) -> list[list[str]]:
    """Each sentence written greedily: at every step the model's first choice, until <eos> or task.max_decoded tokens."""
    sources = [list(item.source) if isinstance(item, TranslationPair) else words_of(item) for item in sentences]
    eos = task.target_vocab.index(EOS)
    written = np.full((len(sources), 1), task.target_vocab.index(BOS), dtype=np.int64)
    finished = np.zeros(len(sources), dtype=bool)
    while written.shape[1] <= task.max_decoded and not finished.all():
        with np.errstate(all="ignore"):
            chosen = forward(params, _source_batch(task, sources, written), knocked_out).predictions[:, -1]
        chosen = np.where(finished, eos, chosen)
        finished |= chosen == eos
        written = np.concatenate([written, chosen[:, None]], axis=1)
    return [_until_eos(task, row[1:]) for row in written]


def _until_eos(task: TranslationTask, ids: np.ndarray) -> list[str]:
    words = [task.target_vocab[int(token)] for token in ids]
    return words[:words.index(EOS) + 1] if EOS in words else words


def decode(task: TranslationTask, params: TranslationParams, sentence: Sentence,
           knocked_out: Collection[HeadAt] = ()) -> Decoding:
    """SENTENCE written greedily word by word; each step's words and the cross-attention that chose its last word."""
    source = words_of(sentence)
    words = greedy_decode(task, params, [source], knocked_out)[0]
    result = teacher_forced(task, params, source, words, knocked_out)
    steps = [DecodingStep(words=words[:step + 1],
                          cross_attention=np.stack([layer.cross.weights[0, :, step] for layer in result.decoder]))
             for step in range(len(words))]
    return Decoding(source=source, words=words, steps=steps)


def teacher_forced(task: TranslationTask, params: TranslationParams, source: Sequence[str], written: Sequence[str],
                   knocked_out: Collection[HeadAt] = ()) -> TranslationForward:
    """The model fed <bos> and WRITTEN but its last word: the rows that wrote each word of WRITTEN.

    Under the causal mask a row never sees the words after it, so these are the rows greedy decoding computed."""
    decoder_input = [task.target_vocab.index(BOS), *task.target_ids(written[:-1])]
    with np.errstate(all="ignore"):
        return forward(params, _source_batch(task, [source], np.array([decoder_input], dtype=np.int64)), knocked_out)


def cross_attention_of(task: TranslationTask, params: TranslationParams, sentence: Sentence,
                       target: Sequence[str] | None = None, layer: int = -1, head: int = 0,
                       knocked_out: Collection[HeadAt] = ()) -> CrossAttention:
    """See TranslationTrainer.cross_attention_of."""
    source = words_of(sentence)
    written = greedy_decode(task, params, [source], knocked_out)[0] if target is None else [*target, EOS]
    result = teacher_forced(task, params, source, written, knocked_out)
    layer = layer % len(params.decoder)
    return CrossAttention(source_words=source, target_words=list(written),
                          weights=result.cross_attention(layer)[0, head].copy(), layer=layer, head=head)


def alignment_hits(task: TranslationTask, params: TranslationParams, pairs: Sequence[TranslationPair],
                   layer: int = -1, head: int = 0) -> AlignmentHits:
    """How often head HEAD of decoder layer LAYER, teacher-forced on each pair's target, looks hardest at the
    source word each target word translates (see AlignmentHits)."""
    batch = task.batch(pairs)
    with np.errstate(all="ignore"):
        weights = forward(params, batch).cross_attention(layer % len(params.decoder))[:, head]
    looked_at = weights.argmax(axis=-1)
    content, crossing = [], []
    for row, pair in enumerate(pairs):
        for t, s in pair.alignment:
            content.append(looked_at[row, t] == s)
            if s != t:  # only an adjective and its noun change places
                crossing.append(looked_at[row, t] == s)
    return AlignmentHits(content=float(np.mean(content)), crossing=float(np.mean(crossing)) if crossing else math.nan)


def best_cross_head(task: TranslationTask, params: TranslationParams, pairs: Sequence[TranslationPair]) -> tuple[int, int]:
    """(layer, head) of the last decoder layer's cross-attention head that looks at the aligned words most often."""
    layer = len(params.decoder) - 1
    hits = [alignment_hits(task, params, pairs, layer, head).content for head in range(params.decoder[layer].cross.n_heads)]
    return layer, int(np.argmax(hits))


__all__ = ["AlignmentHits", "CrossAttention", "Decoding", "DecodingStep", "TrainingFigures", "TranslationTrainer",
           "alignment_hits", "best_cross_head", "cross_attention_of", "decode", "greedy_decode", "teacher_forced",
           "words_of"]
