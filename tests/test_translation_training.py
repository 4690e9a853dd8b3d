"""Training the translator: held-out exact match by greedy decoding, the cross-attention head pointing at each
target word's aligned source word (the swapped adjective and noun included), the translation failing with that
head knocked out, and the same numbers from the same seed."""

import dataclasses

import numpy as np
import pytest

from attn_desktop.model.scene import Scene
from attn_desktop.model.scene_files import scene_data_from_document, scene_document
from attn_desktop.model.training.training import TrainingDiverged
from attn_desktop.model.training.translation_maths import forward
from attn_desktop.model.training.translation_params import init_translation_params
from attn_desktop.model.training.translation_scene import cross_head_scene_data
from attn_desktop.model.training.translation_task import EOS, TRANSLATE, translation_of
from attn_desktop.model.training.translation_trainer import TranslationTrainer, alignment_hits, greedy_decode

SEEDS = (0, 1, 2)
STEPS = 500
EXTRA_STEPS = 40
CROSS_HEAD = ("cross", 0, 0)


@pytest.fixture(scope="module")
def trained():
    """The default shape from seeds 0, 1 and 2, each trained until its held-out exact match first reaches 95 %
    (at most STEPS steps; about 60 on this machine), then EXTRA_STEPS more; and the step each reached 95 %."""
    trainers, reached = {}, {}
    for seed in SEEDS:
        trainer = TranslationTrainer(TRANSLATE, seed)
        while trainer.steps < STEPS and seed not in reached:
            if trainer.step(10).held_out_exact_match >= 0.95:
                reached[seed] = trainer.steps
        trainer.step(EXTRA_STEPS)
        trainers[seed] = trainer
    return trainers, reached


def test_every_seed_translates_95_percent_of_the_held_out_pairs_within_500_steps(trained):
    trainers, reached = trained
    assert sorted(reached) == list(SEEDS)
    for trainer in trainers.values():
        exact = greedy_decode(TRANSLATE, trainer.snapshot(), TRANSLATE.held_out)
        assert np.mean([words == [*pair.target, EOS] for words, pair in zip(exact, TRANSLATE.held_out)]) >= 0.95


def test_step_gives_a_loss_and_an_exact_match_per_step_for_the_curves():
    trainer = TranslationTrainer(TRANSLATE, 9)
    figures = trainer.step(3)
    assert figures.steps == [1, 2, 3] and trainer.steps == 3
    assert len(figures.losses) == 3 and all(0 <= share <= 1 for share in figures.exact_matches)
    assert figures.losses[0] == pytest.approx(np.log(len(TRANSLATE.target_vocab)), abs=0.5)  # guessing at first
    assert 0 <= figures.held_out_exact_match <= 1


def test_the_cross_attention_head_looks_at_the_aligned_source_word(trained):
    trainers, _ = trained
    for trainer in trainers.values():
        hits = alignment_hits(TRANSLATE, trainer.snapshot(), TRANSLATE.held_out, layer=0, head=0)
        assert hits.content >= 0.9 and hits.crossing >= 0.9, (hits.content, hits.crossing)


def test_knocking_out_the_cross_attention_head_leaves_the_translation_near_chance(trained):
    trainers, _ = trained
    for trainer in trainers.values():
        assert trainer.held_out_exact_match(knocked_out=[CROSS_HEAD]) < 0.1  # measured 0.0: it cannot read the source
        assert trainer.held_out_exact_match() >= 0.95


def test_decoding_word_by_word_gives_each_step_its_words_and_its_cross_attention(trained):
    trainer = trained[0][0]
    decoding = trainer.decode("el gato negro duerme")
    assert decoding.words == ["the", "black", "cat", "sleeps", EOS]
    assert [step.words for step in decoding.steps] == [["the"], ["the", "black"], ["the", "black", "cat"],
                                                       ["the", "black", "cat", "sleeps"], decoding.words]
    weights = decoding.steps[1].cross_attention  # (layers, heads, source words) at the step that wrote "black"
    assert weights.shape == (1, 1, 4) and np.argmax(weights[0, 0]) == 2  # negro
    knocked = trainer.decode("el gato negro duerme", knocked_out=[CROSS_HEAD])
    assert knocked.words != decoding.words and np.all(knocked.steps[0].cross_attention >= 0)


def test_the_cross_attention_matrix_of_a_sentence_crosses_at_the_adjective(trained):
    trainer = trained[0][0]
    pair = translation_of("un perro ve el raton blanco")
    greedy = trainer.cross_attention_of(pair.source)
    forced = trainer.cross_attention_of(pair.source, target=pair.target)
    assert greedy.target_words == [*pair.target, EOS] and greedy.source_words == list(pair.source)
    assert greedy.weights.shape == (7, 6)
    np.testing.assert_allclose(greedy.weights, forced.weights, rtol=0, atol=1e-12)  # decoded right: the same rows
    assert np.argmax(greedy.weights, axis=1)[:6].tolist() == list(pair.source_of)
    np.testing.assert_allclose(greedy.weights.sum(axis=1), 1.0)


def test_the_same_seed_trains_the_same_model():
    def weights(seed):
        trainer = TranslationTrainer(TRANSLATE, seed)
        trainer.step(15)
        return dict(trainer.snapshot().arrays())

    first, again, other = weights(4), weights(4), weights(5)
    assert all(np.array_equal(first[name], again[name]) for name in first)
    assert not np.array_equal(first["w_u"], other["w_u"])


def test_keep_as_scene_opens_the_cross_attention_head_with_the_trainers_weights(trained):
    trainer = trained[0][0]
    params = trainer.snapshot()
    sentence = "el perro negro ve el gato"  # "el" twice: the scene names them apart
    data = cross_head_scene_data(TRANSLATE, params, sentence)
    assert data.tokens == ["el", "perro", "negro", "ve", "el₂", "gato"]
    assert data.target.tokens == ["the", "black", "dog", "sees", "the₂", "cat", EOS]
    assert data.scale and not data.causal and np.array(data.embeddings).shape == (6, TRANSLATE.d_model)
    scene = Scene(data)
    head = scene.head(0, 0)
    expected = trainer.cross_attention_of(sentence)
    assert np.abs(head.attention.weights - expected.weights).max() < 1e-12
    # what the head writes into the decoder's stream: its output through W_O
    batch = TRANSLATE.batch([translation_of(sentence)])
    cross = forward(params, batch).decoder[0].cross
    assert np.abs(scene.output - (cross.joined @ params.decoder[0].cross.w_o)[0]).max() < 1e-12
    reopened = Scene(scene_data_from_document(scene_document(scene)))
    assert np.array_equal(reopened.head(0, 0).attention.weights, head.attention.weights)


def test_held_out_exact_match_under_teacher_forcing_is_what_greedy_decoding_gets():
    trainer = TranslationTrainer(TRANSLATE, 7)
    shares = set()
    for _ in range(4):  # part-trained models: some sentences right, some wrong
        trainer.step(15)
        decoded = greedy_decode(TRANSLATE, trainer.snapshot(), TRANSLATE.held_out)
        greedy = np.mean([words == [*pair.target, EOS] for words, pair in zip(decoded, TRANSLATE.held_out)])
        assert trainer.held_out_exact_match() == pytest.approx(greedy, abs=1e-12)
        shares.add(round(float(greedy), 3))
    assert len(shares) > 1 and any(0 < share < 1 for share in shares)


def test_the_weights_as_the_headless_export_lists_them():
    shape = dataclasses.replace(TRANSLATE, encoder_layers=1, mlp_width=0)
    lists = init_translation_params(shape, 0).to_lists()
    assert set(lists) == {"encoder", "decoder", "w_u", "b_u"}
    encoder_layer, decoder_layer = lists["encoder"]["layers"][0], lists["decoder"]["layers"][0]
    assert set(encoder_layer) == {"heads", "w_o", "mlp"} and encoder_layer["mlp"] is None
    assert set(decoder_layer) == {"self", "cross", "mlp"} and set(decoder_layer["cross"]) == {"heads", "w_o"}
    assert np.array(decoder_layer["cross"]["heads"][0]["w_q"]).shape == (shape.d_model, shape.d_head)
    assert np.array(lists["decoder"]["pos"]).shape == (shape.max_decoded, shape.d_model)
    with_mlp = init_translation_params(TRANSLATE, 0).to_lists()["decoder"]["layers"][0]["mlp"]
    assert set(with_mlp) == {"w_in", "b_in", "w_out", "b_out"}


@pytest.mark.parametrize("sentence", ["el gato duerme el gato negro ve un", "el tigre duerme", ""])
def test_a_sentence_the_encoder_cannot_read_is_refused_with_a_reason(sentence):
    trainer = TranslationTrainer(TRANSLATE, 0)
    with pytest.raises(ValueError, match="source sentence"):
        trainer.decode(sentence)
    with pytest.raises(ValueError, match="source sentence"):
        trainer.cross_attention_of(sentence)


def test_a_learning_rate_far_too_large_stops_training_and_changes_nothing():
    trainer = TranslationTrainer(TRANSLATE, 0, lr=1e300)
    trainer.step()
    before = dict(trainer.snapshot().arrays())
    with pytest.raises(TrainingDiverged, match="at step 2"):
        trainer.step()
    assert trainer.steps == 1
    assert all(np.array_equal(before[name], array) for name, array in trainer.snapshot().arrays())
