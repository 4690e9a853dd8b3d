"""Training one head (no Qt): hand-written gradients, the tasks, learning, determinism, the example scene."""

import math
import subprocess
import sys

import numpy as np
import pytest

from attn_desktop.model import ProjectedScene, read
from attn_desktop.model.scene_files import new_scene, scene_data_from_document, scene_document
from attn_desktop.model.training.example_sentence import example, example_scene_data
from attn_desktop.model.training.head_maths import forward, loss_and_grads
from attn_desktop.model.training.head_params import PARAM_NAMES, HeadParams, init_params, params_from_lists
from attn_desktop.model.training.tasks import TASKS, parse_example
from attn_desktop.model.training.training import OPTIMISER_NAME, Trainer, evaluate, train

from tests.support.project_root import ROOT

REVERSE, PREVIOUS, IT_NOUN = TASKS["reverse"], TASKS["previous-token"], TASKS["it-noun"]


def test_the_issue_s_three_tasks_and_nothing_else():
    assert list(TASKS) == ["reverse", "previous-token", "it-noun"]
    assert REVERSE.vocab == tuple("0123456789") and REVERSE.seq_len == 5 and not REVERSE.causal
    assert PREVIOUS.causal and IT_NOUN.causal
    assert all(task.d_v == 2 for task in TASKS.values())
    assert OPTIMISER_NAME == "Adam"


# ----- the tasks' sequences and targets ----------------------------------


def test_reverse_targets_are_the_sequence_backwards_at_every_position():
    batch = REVERSE.sample(np.random.default_rng(1), 50)
    assert batch.tokens.shape == batch.targets.shape == batch.scored.shape == (50, 5)
    assert np.array_equal(batch.targets, batch.tokens[:, ::-1]) and batch.scored.all()
    assert len(np.unique(batch.tokens)) == 10  # all ten digits turn up


def test_previous_token_targets_the_token_before_and_skips_position_0():
    batch = PREVIOUS.sample(np.random.default_rng(2), 50)
    assert np.array_equal(batch.targets[:, 1:], batch.tokens[:, :-1])
    assert not batch.scored[:, 0].any() and batch.scored[:, 1:].all()


def test_it_noun_sentences_have_one_noun_then_it_and_only_it_is_scored():
    batch = IT_NOUN.sample(np.random.default_rng(3), 200)
    nouns = [IT_NOUN.vocab.index(noun) for noun in ("cat", "dog", "bird", "fish", "cow", "fox")]
    it = IT_NOUN.vocab.index("it")
    assert (batch.tokens[:, -1] == it).all()
    is_noun = np.isin(batch.tokens, nouns)
    assert (is_noun.sum(axis=1) == 1).all()
    assert set(np.argmax(is_noun, axis=1)) == {0, 1, 2, 3, 4}  # the noun turns up at every place before "it"
    assert batch.scored[:, -1].all() and not batch.scored[:, :-1].any()
    assert np.array_equal(batch.targets[:, -1], batch.tokens[is_noun])
    words = IT_NOUN.words(batch.tokens[0])
    assert words[-1] == "it" and IT_NOUN.words(batch.targets[0])[-1] in words


def test_a_typed_it_noun_sentence_without_a_single_noun_scores_nothing():
    two_nouns = parse_example(IT_NOUN, "the cat sat on dog it")
    targets, scored = IT_NOUN.targets(two_nouns)
    assert not scored.any()
    one_noun = parse_example(IT_NOUN, "the cat sat on a it")
    targets, scored = IT_NOUN.targets(one_noun)
    assert scored.tolist() == [False] * 5 + [True] and IT_NOUN.vocab[targets[-1]] == "cat"


def test_the_same_generator_seed_draws_the_same_batch():
    first = IT_NOUN.sample(np.random.default_rng(7), 10)
    second = IT_NOUN.sample(np.random.default_rng(7), 10)
    assert np.array_equal(first.tokens, second.tokens)


# ----- the model and its gradients ---------------------------------------


def _trained_a_little(task, seed=3, steps=15, d_model=4):
    """Parameters a few steps into training: sharper than at the start, so every term of the gradient counts."""
    trainer = Trainer(task, seed, d_model=d_model)
    for _ in range(steps):
        trainer.step()
    return trainer.snapshot()


def test_forward_is_the_issue_s_formula_written_out_for_one_position():
    params = init_params(REVERSE, seed=5)
    tokens = [3, 1, 4, 1, 5]
    result = forward(params, tokens, causal=False)
    i = 2
    x = params.embed[tokens] + params.pos
    q_i = x[i] @ params.w_q
    scores = np.array([q_i @ (x[j] @ params.w_k) for j in range(5)])
    weights = np.exp(scores / math.sqrt(2)) / np.exp(scores / math.sqrt(2)).sum()
    o_i = sum(weights[j] * (x[j] @ params.w_v) for j in range(5))
    np.testing.assert_allclose(result.scores[i], scores, rtol=1e-12)
    np.testing.assert_allclose(result.weights[i], weights, rtol=1e-12)
    np.testing.assert_allclose(result.logits[i], o_i @ params.w_o + params.b_o, rtol=1e-12)


def test_the_causal_mask_hides_later_tokens():
    params = init_params(PREVIOUS, seed=5)
    weights = forward(params, [1, 2, 3, 4, 5, 6], causal=True).weights
    assert np.all(weights[np.triu_indices(6, k=1)] == 0.0)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=1e-12)
    assert weights[0, 0] == 1.0


@pytest.mark.parametrize("name", list(TASKS))
def test_every_gradient_matches_central_finite_differences(name):
    task = TASKS[name]
    params = _trained_a_little(task)
    batch = task.sample(np.random.default_rng(11), 6)
    loss, grads = loss_and_grads(params, batch, task.causal)
    assert loss > 0
    step = 1e-5
    for param_name in PARAM_NAMES:
        array = getattr(params, param_name)
        numeric = np.zeros_like(array)
        for index in np.ndindex(array.shape):
            kept = array[index]
            array[index] = kept + step
            above, _ = loss_and_grads(params, batch, task.causal)
            array[index] = kept - step
            below, _ = loss_and_grads(params, batch, task.causal)
            array[index] = kept
            numeric[index] = (above - below) / (2 * step)
        by_hand = getattr(grads, param_name)
        assert by_hand.shape == array.shape
        largest = np.abs(numeric).max()
        assert largest > 1e-4, f"{param_name}: a gradient this small checks nothing"
        relative = np.abs(by_hand - numeric).max() / largest
        assert relative < 1e-6, f"{name} {param_name}: hand gradient off by {relative:.1e} (relative)"


@pytest.mark.parametrize("name", list(TASKS))
def test_loss_and_gradients_match_torch_autograd(name):
    torch = pytest.importorskip("torch")
    task = TASKS[name]
    params = _trained_a_little(task, d_model=8)
    batch = task.sample(np.random.default_rng(12), 16)
    loss, grads = loss_and_grads(params, batch, task.causal)

    leaves = {key: torch.tensor(array, dtype=torch.float64, requires_grad=True) for key, array in params.arrays()}
    tokens = torch.tensor(batch.tokens)
    x = leaves["embed"][tokens] + leaves["pos"]
    q, k, v = x @ leaves["w_q"], x @ leaves["w_k"], x @ leaves["w_v"]
    scaled = q @ k.transpose(-1, -2) / math.sqrt(2)
    if task.causal:
        hidden = ~torch.tril(torch.ones(task.seq_len, task.seq_len, dtype=torch.bool))
        scaled = scaled.masked_fill(hidden, float("-inf"))
    logits = torch.softmax(scaled, dim=-1) @ v @ leaves["w_o"] + leaves["b_o"]
    scored = torch.tensor(batch.scored)
    reference = torch.nn.functional.cross_entropy(logits[scored], torch.tensor(batch.targets)[scored])
    reference.backward()

    assert loss == pytest.approx(reference.item(), rel=1e-6)
    for key, array in grads.arrays():
        expected = leaves[key].grad.numpy()
        relative = np.abs(array - expected).max() / np.abs(expected).max()
        assert relative < 1e-6, f"{name} {key}: off from autograd by {relative:.1e}"


# ----- learning -------------------------------------------------------------


@pytest.mark.parametrize("name", list(TASKS))
def test_each_task_reaches_its_target_accuracy_from_a_fixed_seed(name):
    task = TASKS[name]
    trainer = Trainer(task, seed=0)
    before = trainer.evaluate()
    assert before < 0.5  # an untrained head is far from it: the test can fail
    metrics = [trainer.step() for _ in range(task.default_steps)]
    after = trainer.evaluate(count=1000)
    assert after >= task.target_accuracy >= 0.99, f"{name}: {after:.3f} after {task.default_steps} steps"
    assert metrics[-1].step == task.default_steps == trainer.steps
    assert metrics[-1].loss < metrics[0].loss / 10
    assert metrics[-1].accuracy >= 0.99


def test_trained_reverse_attends_to_the_mirrored_position():
    trainer = train(REVERSE, REVERSE.default_steps, seed=1)
    weights = example(REVERSE, trainer.params, parse_example(REVERSE, "3 1 4 1 5")).weights
    assert weights.argmax(axis=1).tolist() == [4, 3, 2, 1, 0]  # the anti-diagonal
    assert weights[np.arange(5), [4, 3, 2, 1, 0]].min() > 0.9


def test_trained_previous_token_attends_one_step_back():
    trainer = train(PREVIOUS, PREVIOUS.default_steps, seed=1)
    weights = example(PREVIOUS, trainer.params, PREVIOUS.example_tokens()).weights
    assert weights.argmax(axis=1)[1:].tolist() == [0, 1, 2, 3, 4]  # the sub-diagonal
    assert weights[np.arange(1, 6), np.arange(0, 5)].min() > 0.9


def test_trained_it_looks_at_its_noun_wherever_it_is():
    trainer = train(IT_NOUN, IT_NOUN.default_steps, seed=1)
    for sentence, noun_place in (("the big cat sat here it", 2), ("fox ran on the a it", 0), ("a small on here dog it", 4)):
        result = example(IT_NOUN, trainer.params, parse_example(IT_NOUN, sentence))
        assert result.weights[-1].argmax() == noun_place and result.weights[-1, noun_place] > 0.9
        assert IT_NOUN.vocab[result.predictions[-1]] == sentence.split()[noun_place]


def test_evaluation_uses_the_same_fresh_sequences_each_time_and_a_broken_head_scores_low():
    params = train(REVERSE, REVERSE.default_steps, seed=2).snapshot()
    assert evaluate(REVERSE, params) == evaluate(REVERSE, params) >= 0.99
    params.w_k[:] = 0.0  # every key the same: the head can no longer tell positions apart
    assert evaluate(REVERSE, params) < 0.3


# ----- determinism and the trainer's state -----------------------------------


def test_the_same_task_seed_and_settings_give_identical_weights():
    first, second, other = Trainer(IT_NOUN, 42), Trainer(IT_NOUN, 42), Trainer(IT_NOUN, 43)
    for _ in range(30):
        assert first.step() == second.step()
        other.step()
    for (name, a), (_, b), (_, c) in zip(first.params.arrays(), second.params.arrays(), other.params.arrays()):
        assert np.array_equal(a, b), name
        assert not np.array_equal(a, c), name


def test_training_leaves_the_global_random_state_alone():
    np.random.seed(0)
    expected = np.random.random()
    np.random.seed(0)
    train(REVERSE, 5, seed=9)
    assert np.random.random() == expected


def test_a_snapshot_is_a_copy_that_training_does_not_change():
    trainer = Trainer(REVERSE, 1)
    snapshot = trainer.snapshot()
    kept = snapshot.w_q.copy()
    trainer.step()
    assert np.array_equal(snapshot.w_q, kept) and not np.array_equal(trainer.params.w_q, kept)
    snapshot.embed[:] = 0.0
    assert trainer.params.embed.any()


@pytest.mark.parametrize("lr", [0.0, -0.1, float("nan"), float("inf")])
def test_a_learning_rate_that_is_not_a_positive_number_is_refused(lr):
    with pytest.raises(ValueError, match="learning rate"):
        Trainer(REVERSE, 0, lr=lr)


def test_parameters_round_trip_through_lists_and_wrong_shapes_are_named():
    params = init_params(PREVIOUS, seed=4)
    back = params_from_lists(PREVIOUS, params.to_lists())
    assert all(np.array_equal(a, b) for (_, a), (_, b) in zip(params.arrays(), back.arrays()))
    broken = params.to_lists()
    broken["w_k"] = [[1.0, 2.0, 3.0]] * params.d_model
    with pytest.raises(ValueError, match=r"w_k: has shape \(16, 3\), expected \(16, 2\)"):
        params_from_lists(PREVIOUS, broken)
    with pytest.raises(ValueError, match="pos: has shape"):
        params_from_lists(REVERSE, params.to_lists())  # previous-token's six positions, reverse has five
    del broken["b_o"]
    with pytest.raises(ValueError, match="b_o: missing"):
        params_from_lists(PREVIOUS, broken)


# ----- one example as a scene -----------------------------------------------


@pytest.mark.parametrize("name", list(TASKS))
def test_the_example_scene_shows_the_head_s_own_weights(name):
    task = TASKS[name]
    params = _trained_a_little(task, steps=60, d_model=16)
    tokens = task.example_tokens()
    data = example_scene_data(task, params, tokens)
    result = example(task, params, tokens)
    assert isinstance(data, ProjectedScene) and data.scale is True and data.causal is task.causal
    assert data.title == f"Trained head: {name}"
    assert data.tokens == [f"{i}:{word}" for i, word in enumerate(task.example_words)]
    scene = new_scene(data)
    np.testing.assert_allclose(read(scene).result.weights, result.weights, rtol=0, atol=1e-12)
    np.testing.assert_allclose(read(scene).result.scores, result.scores, rtol=0, atol=1e-12)
    np.testing.assert_allclose(read(scene).result.output, result.o, rtol=0, atol=1e-12)
    reopened = new_scene(scene_data_from_document(scene_document(data)))  # as Keep as scene, saved and opened again
    np.testing.assert_allclose(read(reopened).result.weights, result.weights, rtol=0, atol=1e-12)


def test_repeated_words_get_labels_a_scene_can_tell_apart():
    data = example_scene_data(REVERSE, init_params(REVERSE, 0), parse_example(REVERSE, "1 1 1 1 1"))
    assert data.tokens == ["0:1", "1:1", "2:1", "3:1", "4:1"]


# ----- typed sentences ------------------------------------------------------


def test_typed_sentences_become_token_indices():
    assert parse_example(REVERSE, "3 1 4 1 5") == [3, 1, 4, 1, 5]
    assert parse_example(REVERSE, " 3,1, 4 1   5 ") == [3, 1, 4, 1, 5]
    assert IT_NOUN.words(parse_example(IT_NOUN, "The cat sat ON a it")) == ["the", "cat", "sat", "on", "a", "it"]


@pytest.mark.parametrize(
    "task, text, message",
    [
        (REVERSE, "3 1 4 1", "reverse sentences have 5 words; found 4"),
        (REVERSE, "", "reverse sentences have 5 words; found 0"),
        (REVERSE, "3 1 4 1 5 9", "found 6"),
        (REVERSE, "3 1 x 1 5", '"x" is not in the reverse vocabulary; use 0 1 2 3 4 5 6 7 8 9'),
        (REVERSE, "31415", '"31415" is not in the reverse vocabulary'),
        (IT_NOUN, "the mat sat on the it", '"mat" is not in the it-noun vocabulary; use the a big'),
        (IT_NOUN, "one two three four five six", '"one", "two", "three" and 3 more are not in the it-noun vocabulary'),
    ],
)
def test_a_sentence_that_does_not_fit_gets_one_clear_message(task, text, message):
    with pytest.raises(ValueError) as raised:
        parse_example(task, text)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_example_refuses_a_sentence_of_the_wrong_length():
    with pytest.raises(ValueError, match="5 tokens"):
        example(REVERSE, init_params(REVERSE, 0), [1, 2, 3])


@pytest.mark.slow
def test_training_code_loads_no_qt():
    code = (
        "import sys\n"
        "from attn_desktop.model.training.tasks import TASKS\n"
        "from attn_desktop.model.training.training import train\n"
        "train(TASKS['reverse'], 2)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6', 'PyQt6')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_head_params_hold_the_issue_s_shapes():
    params = init_params(IT_NOUN, seed=0)
    vocab, length = len(IT_NOUN.vocab), IT_NOUN.seq_len
    shapes = {name: array.shape for name, array in params.arrays()}
    assert shapes == {
        "embed": (vocab, 16), "pos": (length, 16), "w_q": (16, 2), "w_k": (16, 2),
        "w_v": (16, 2), "w_o": (2, vocab), "b_o": (vocab,),
    }
    assert all(array.dtype == np.float64 for _, array in params.arrays())
    assert isinstance(params.copy(), HeadParams)

