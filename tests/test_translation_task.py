"""The toy translation task: the grammar's reordering, the alignment of every pair, the held-out pairs that
training never draws, and the same pairs from the same seed."""

import numpy as np
import pytest

from attn_desktop.model.training.translation_task import (
    BOS,
    EOS,
    TRANSLATE,
    TranslationPair,
    draw_held_out,
    translation_of,
)


def test_the_adjective_follows_the_noun_in_the_source_and_precedes_it_in_the_target():
    pair = translation_of("el gato negro duerme")
    assert pair.target == ("the", "black", "cat", "sleeps")
    assert pair.source_of[:3] == (0, 2, 1)  # the -> el, black -> negro, cat -> gato: a crossing
    assert pair.has_crossing
    assert pair.alignment == [(1, 2), (2, 1), (3, 3)]  # content words only: "the" is not listed


def test_every_pair_translates_word_by_word_through_its_alignment():
    dictionary = dict(zip(TRANSLATE.source_vocab, TRANSLATE.target_vocab[2:]))
    pairs = [*TRANSLATE.held_out, *TRANSLATE.draw_training_pairs(np.random.default_rng(0), 500)]
    for pair in pairs:
        assert len(pair.source) == len(pair.target) and 3 <= len(pair.source) <= 7
        assert sorted(pair.source_of) == list(range(len(pair.source)))
        assert [dictionary[pair.source[s]] for s in pair.source_of] == list(pair.target)
    lengths = {len(pair.source) for pair in pairs}
    assert lengths == {3, 4, 5, 6, 7}


def test_the_vocabularies_are_20_to_40_plain_lower_case_words_a_side():
    source, target = TRANSLATE.source_vocab, TRANSLATE.target_vocab
    assert 20 <= len(source) <= 40 and target[:2] == (BOS, EOS) and 20 <= len(target) - 2 <= 40
    for word in (*source, *target[2:]):
        assert word.isascii() and word.isalpha() and word.islower()
    assert len(set(source)) == len(source) and len(set(target)) == len(target)


def test_at_least_200_held_out_pairs_never_drawn_for_training_and_most_have_a_crossing():
    held_out = TRANSLATE.held_out
    sources = {pair.source for pair in held_out}
    assert len(held_out) >= 200 and len(sources) == len(held_out)
    rng = np.random.default_rng(12)
    drawn = {pair.source for _ in range(40) for pair in TRANSLATE.draw_training_pairs(rng, 500)}
    assert len(drawn) > 5000 and not drawn & sources
    # every shape is held out, and all 64 three-word sentences are not used up
    assert {len(pair.source) for pair in held_out} == {3, 4, 5, 6, 7}
    assert sum(len(pair.source) == 3 for pair in held_out) <= 6
    assert any(len(source) == 3 for source in drawn)
    crossing = sum(pair.has_crossing for pair in held_out) / len(held_out)
    assert crossing >= 0.3


def test_the_same_seed_draws_the_same_pairs_and_another_seed_others():
    assert draw_held_out(3) == draw_held_out(3) and draw_held_out(3) != draw_held_out(4)
    first = TRANSLATE.draw_training_pairs(np.random.default_rng(5), 50)
    assert first == TRANSLATE.draw_training_pairs(np.random.default_rng(5), 50)
    assert first != TRANSLATE.draw_training_pairs(np.random.default_rng(6), 50)


def test_a_batch_is_bos_then_the_target_and_the_target_then_eos_padding_unscored():
    pairs = [TranslationPair(("el", "gato", "duerme"), ("the", "cat", "sleeps"), (0, 1, 2)),
             TranslationPair(("un", "perro", "ve", "el", "pez"), ("a", "dog", "sees", "the", "fish"), (0, 1, 2, 3, 4))]
    batch = TRANSLATE.batch(pairs)
    vocab = TRANSLATE.target_vocab
    assert [vocab[i] for i in batch.decoder_input[0, :4]] == [BOS, "the", "cat", "sleeps"]
    assert [vocab[i] for i in batch.targets[0, :4]] == ["the", "cat", "sleeps", EOS]
    assert batch.scored.tolist() == [[True] * 4 + [False] * 2, [True] * 6]
    assert batch.source_lengths.tolist() == [3, 5]
    assert batch.source_visible[:, 0, 0].tolist() == [[True] * 3 + [False] * 2, [True] * 5]


def test_the_grammar_translates_a_typed_sentence_and_refuses_one_it_cannot_make():
    pair = translation_of(["un", "perro", "ve", "el", "raton", "blanco"])
    assert pair.target == ("a", "dog", "sees", "the", "white", "mouse") and pair.source_of == (0, 1, 2, 3, 5, 4)
    for sentence in ("el gato", "gato el duerme", "el gato duerme el perro", "el gato ve", "el gato negro",
                     "el gato negro blanco duerme", "el cat sleeps", ""):
        with pytest.raises(ValueError, match="not a sentence"):
            translation_of(sentence)
    for pair in TRANSLATE.held_out:
        assert translation_of(pair.source) == pair
