"""The toy translation task: a Spanish-like source where the adjective follows its noun, an English-like
target where it comes first, and which source word every target word translates.

    el gato negro duerme          ->  the black cat sleeps
    un perro ve el raton blanco   ->  a dog sees the white mouse

The grammar: a noun phrase is a determiner, a noun and (or not) an adjective; a sentence is a noun phrase
and an intransitive verb, or a noun phrase, a transitive verb and a second noun phrase: 3 to 7 words.
Every word has exactly one translation, and the order changes only inside a noun phrase with an
adjective: there the target's adjective and noun read the source's noun and adjective the other way round
(a crossing). So the alignment of every pair (the source position each target word translates) follows
from the grammar alone.

The held-out pairs are drawn once, from HELD_OUT_SEED, a fixed number of each sentence shape (so the
64 sentences of the shortest shape are not used up), and training never draws them (see TranslationTask.sample).
The words are plain lower-case ASCII: a lesson shows them. Nothing here imports Qt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

BOS, EOS = "<bos>", "<eos>"
DETERMINERS = (("el", "the"), ("un", "a"))
NOUNS = (("gato", "cat"), ("perro", "dog"), ("pajaro", "bird"), ("raton", "mouse"),
         ("pez", "fish"), ("nino", "boy"), ("oso", "bear"), ("lobo", "wolf"))
ADJECTIVES = (("negro", "black"), ("blanco", "white"), ("grande", "big"), ("pequeno", "small"),
              ("rojo", "red"), ("viejo", "old"))
INTRANSITIVE_VERBS = (("duerme", "sleeps"), ("corre", "runs"), ("salta", "jumps"), ("nada", "swims"))
TRANSITIVE_VERBS = (("ve", "sees"), ("sigue", "follows"), ("muerde", "bites"), ("busca", "seeks"))
WORD_PAIRS = DETERMINERS + NOUNS + ADJECTIVES + INTRANSITIVE_VERBS + TRANSITIVE_VERBS
CONTENT_WORDS = frozenset(word for pairs in (NOUNS, ADJECTIVES, INTRANSITIVE_VERBS, TRANSITIVE_VERBS)
                          for pair in pairs for word in pair)

# A sentence's shape: (transitive, adjective in the first noun phrase, adjective in the second). Training
# draws each shape with its probability; the held-out set takes a fixed count of each, at most a tenth of
# the sentences the shape has (64 intransitive sentences without an adjective: 6 held out).
SHAPES = ((False, False, False), (False, True, False),
          (True, False, False), (True, True, False), (True, False, True), (True, True, True))
SHAPE_PROBABILITIES = (0.25, 0.25, 0.125, 0.125, 0.125, 0.125)
HELD_OUT_PER_SHAPE = (6, 38, 50, 70, 70, 70)  # 304 pairs, 248 with a crossing
HELD_OUT_SEED = 4620  # the held-out pairs are the same for every training seed
MAX_SOURCE_WORDS = 7
MAX_DECODED = 12  # greedy decoding stops at <eos> or after this many tokens, as the headless export says


@dataclass(frozen=True)
class TranslationPair:
    """One sentence and its translation, as words; SOURCE_OF[t] is the source position target word t translates."""

    source: tuple[str, ...]
    target: tuple[str, ...]
    source_of: tuple[int, ...]

    @property
    def alignment(self) -> list[tuple[int, int]]:
        """[t, s] for each content word (noun, adjective, verb), as the headless export lists them."""
        return [(t, s) for t, s in enumerate(self.source_of) if self.target[t] in CONTENT_WORDS]

    @property
    def has_crossing(self) -> bool:
        """Whether two aligned words come in the other order: an adjective and its noun."""
        return any(later < earlier for earlier, later in zip(self.source_of, self.source_of[1:]))


# The choices that make a sentence, each an index into its word list: a determiner, a noun and an adjective
# for each noun phrase, and a verb of each kind; a sentence's shape says which of them it uses.
CHOICE_SIZES = (len(DETERMINERS), len(NOUNS), len(ADJECTIVES), len(INTRANSITIVE_VERBS), len(TRANSITIVE_VERBS),
                len(DETERMINERS), len(NOUNS), len(ADJECTIVES))
_FIRST = {kind: sum(len(words) for words in (DETERMINERS, NOUNS, ADJECTIVES, INTRANSITIVE_VERBS)[:index])
          for index, kind in enumerate(("determiner", "noun", "adjective", "intransitive", "transitive"))}


def noun_phrase(determiner: int, noun: int, adjective: int | None) -> tuple[list[int], list[int], list[int]]:
    """(source words, target words, the source place of each target word within the phrase), as WORD_PAIRS indexes."""
    determiner, noun = _FIRST["determiner"] + determiner, _FIRST["noun"] + noun
    if adjective is None:
        return [determiner, noun], [determiner, noun], [0, 1]
    adjective = _FIRST["adjective"] + adjective
    return [determiner, noun, adjective], [determiner, adjective, noun], [0, 2, 1]


def pair_of(shape: tuple[bool, bool, bool], choices: Sequence[int]) -> TranslationPair:
    """The sentence of SHAPE that CHOICES (one index per CHOICE_SIZES) make, its translation and alignment."""
    transitive, first_adjective, second_adjective = shape
    source, target, places = noun_phrase(choices[0], choices[1], choices[2] if first_adjective else None)
    verb = _FIRST["transitive"] + choices[4] if transitive else _FIRST["intransitive"] + choices[3]
    places.append(len(source))
    source.append(verb)
    target.append(verb)
    if transitive:
        object_source, object_target, object_places = noun_phrase(choices[5], choices[6],
                                                                   choices[7] if second_adjective else None)
        places += [len(source) + place for place in object_places]
        source += object_source
        target += object_target
    return TranslationPair(source=tuple(WORD_PAIRS[word][0] for word in source),
                           target=tuple(WORD_PAIRS[word][1] for word in target), source_of=tuple(places))


def draw_pair(rng: np.random.Generator, shape: tuple[bool, bool, bool]) -> TranslationPair:
    """One sentence of SHAPE with random words, and its translation and alignment."""
    return pair_of(shape, rng.integers(0, CHOICE_SIZES).tolist())


def draw_held_out(seed: int = HELD_OUT_SEED) -> tuple[TranslationPair, ...]:
    """HELD_OUT_PER_SHAPE different pairs of each shape, from SEED alone."""
    rng = np.random.default_rng(seed)
    pairs: dict[tuple[str, ...], TranslationPair] = {}
    for shape, count in zip(SHAPES, HELD_OUT_PER_SHAPE):
        wanted = len(pairs) + count
        while len(pairs) < wanted:
            pair = draw_pair(rng, shape)
            pairs.setdefault(pair.source, pair)
    return tuple(pairs.values())


def translation_of(source: Sequence[str] | str) -> TranslationPair:
    """The grammar's translation of a source sentence ("el gato negro duerme", or its words), with its alignment.

    Raises ValueError for a sentence the grammar cannot make (an unknown word, a word out of place).
    """
    words = source.split() if isinstance(source, str) else list(source)
    kinds = {word: kind for kind, pairs in (("determiner", DETERMINERS), ("noun", NOUNS), ("adjective", ADJECTIVES),
                                            ("intransitive", INTRANSITIVE_VERBS), ("transitive", TRANSITIVE_VERBS))
             for word, _ in pairs}
    dictionary = dict(WORD_PAIRS)
    places: list[int] = []
    at = 0
    while at < len(words):
        kind = kinds.get(words[at])
        if kind == "determiner" and at + 1 < len(words) and kinds.get(words[at + 1]) == "noun":
            with_adjective = at + 2 < len(words) and kinds.get(words[at + 2]) == "adjective"
            places += [at, at + 2, at + 1] if with_adjective else [at, at + 1]
            at += 3 if with_adjective else 2
        elif kind in ("intransitive", "transitive") and places:
            places.append(at)
            at += 1
        else:
            break
    shape = [kinds.get(words[place]) for place in places]
    verbs = [index for index, kind in enumerate(shape) if kind in ("intransitive", "transitive")]
    well_formed = (at == len(words) and len(verbs) == 1 and shape[0] == "determiner"
                   and (verbs[0] == len(shape) - 1) == (shape[verbs[0]] == "intransitive"))
    if not well_formed or words.count("") or len(words) > MAX_SOURCE_WORDS:
        raise ValueError(f"not a sentence of the translate grammar: {' '.join(words) or '(empty)'}")
    return TranslationPair(source=tuple(words), target=tuple(dictionary[words[place]] for place in places),
                           source_of=tuple(places))


@dataclass(frozen=True)
class TranslationBatch:
    """Pairs as arrays. source (count, S) word ids, padded with 0 past each sentence's source_lengths;
    decoder_input (count, T) is <bos> then the target words; targets (count, T) the target words then <eos>;
    scored (count, T) is True up to each sentence's <eos> (padding is neither read nor scored)."""

    source: np.ndarray
    source_lengths: np.ndarray
    decoder_input: np.ndarray
    targets: np.ndarray
    scored: np.ndarray

    @property
    def source_visible(self) -> np.ndarray:
        """(count, 1, 1, S): True at each sentence's real words, the keys attention may read."""
        places = np.arange(self.source.shape[1])
        return (places[None, :] < self.source_lengths[:, None])[:, None, None, :]


@dataclass(frozen=True)
class TranslationTask:
    """The translation task and the encoder-decoder trained on it (see translation_maths.py for the shape and why:
    d_head 32 and the MLP make every seed tried learn; lr 0.005 reaches 95 % in 50–70 steps, batch 64)."""

    name: str = "translate"
    source_vocab: tuple[str, ...] = tuple(source for source, _ in WORD_PAIRS)
    target_vocab: tuple[str, ...] = (BOS, EOS, *(target for _, target in WORD_PAIRS))
    max_source_words: int = MAX_SOURCE_WORDS
    max_decoded: int = MAX_DECODED
    d_model: int = 32
    d_head: int = 32
    n_heads: int = 1
    encoder_layers: int = 0
    decoder_layers: int = 1
    mlp_width: int = 64  # 0: no MLP after the attention of each layer
    default_steps: int = 500
    default_lr: float = 0.005
    default_batch_size: int = 64
    target_exact_match: float = 0.95
    held_out_seed: int = HELD_OUT_SEED

    @cached_property
    def held_out(self) -> tuple[TranslationPair, ...]:
        """The pairs training never sees: the same ones for every training seed."""
        return draw_held_out(self.held_out_seed)

    @cached_property
    def held_out_sources(self) -> frozenset[tuple[str, ...]]:
        return frozenset(pair.source for pair in self.held_out)

    def draw_training_pairs(self, rng: np.random.Generator, count: int) -> list[TranslationPair]:
        """COUNT pairs drawn with RNG, shape by SHAPE_PROBABILITIES, never one of the held-out pairs."""
        pairs: list[TranslationPair] = []
        while len(pairs) < count:  # all of a round's random numbers at once: a pair at a time is slow
            wanted = count - len(pairs)
            shapes = rng.choice(len(SHAPES), size=wanted, p=SHAPE_PROBABILITIES).tolist()
            choices = rng.integers(0, CHOICE_SIZES, size=(wanted, len(CHOICE_SIZES))).tolist()
            drawn = (pair_of(SHAPES[shape], row) for shape, row in zip(shapes, choices))
            pairs += [pair for pair in drawn if pair.source not in self.held_out_sources]
        return pairs

    def sample(self, rng: np.random.Generator, count: int) -> TranslationBatch:
        return self.batch(self.draw_training_pairs(rng, count))

    def batch(self, pairs: Sequence[TranslationPair]) -> TranslationBatch:
        """PAIRS as arrays, padded to the longest of them."""
        source_length = max(len(pair.source) for pair in pairs)
        target_length = max(len(pair.target) for pair in pairs) + 1
        source = np.zeros((len(pairs), source_length), dtype=np.int64)
        decoder_input = np.zeros((len(pairs), target_length), dtype=np.int64)
        targets = np.zeros((len(pairs), target_length), dtype=np.int64)
        scored = np.zeros((len(pairs), target_length), dtype=bool)
        for row, pair in enumerate(pairs):
            source[row, :len(pair.source)] = self.source_ids(pair.source)
            written = self.target_ids(pair.target)
            decoder_input[row, :len(written) + 1] = [self.target_vocab.index(BOS), *written]
            targets[row, :len(written) + 1] = [*written, self.target_vocab.index(EOS)]
            scored[row, :len(written) + 1] = True
        lengths = np.array([len(pair.source) for pair in pairs], dtype=np.int64)
        return TranslationBatch(source=source, source_lengths=lengths, decoder_input=decoder_input,
                                targets=targets, scored=scored)

    def source_ids(self, words: Sequence[str]) -> list[int]:
        """Word ids of a source sentence. Raises ValueError for a word the task does not know, or for more
        words than the encoder has positions for (max_source_words), or none."""
        unknown = [word for word in words if word not in self.source_vocab]
        if unknown or not 0 < len(words) <= self.max_source_words:
            raise ValueError(f"not a {self.name} source sentence: {' '.join(words) or '(empty)'}")
        return [self.source_vocab.index(word) for word in words]

    def target_ids(self, words: Sequence[str]) -> list[int]:
        return [self.target_vocab.index(word) for word in words]


TRANSLATE = TranslationTask()
