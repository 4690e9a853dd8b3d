"""A head kept from training: the scene it becomes, the head as the student edits it, and its accuracy."""

import json

import numpy as np
import pytest

from attn_desktop.model import Role, Scene, ViewState, read
from attn_desktop.model.commands import AddToken, ReplaceContents, move_arrow, switch
from attn_desktop.model.exports.export import export_document
from attn_desktop.model.files.version2_trained_head import TRAINED_KEY_WIDTH
from attn_desktop.model.scene_files import open_scene, save_scene, scene_document
from attn_desktop.model.training.example_sentence import example_scene_data
from attn_desktop.model.training.head_maths import forward
from attn_desktop.model.training.head_params import KEY_WIDTH, init_params
from attn_desktop.model.training.tasks import TASKS
from attn_desktop.model.training.trained_head import edited_params, has_trained_head, keep_as_scene, task_accuracy
from attn_desktop.model.training.training import Trainer, evaluate, train

REVERSE = TASKS["reverse"]


@pytest.fixture(scope="module")
def reverse_head():
    """Reverse trained as the Training panel's defaults train it (about a second)."""
    return train(REVERSE, REVERSE.default_steps, seed=0).snapshot()


@pytest.fixture
def kept(reverse_head):
    return Scene(keep_as_scene(REVERSE, reverse_head, REVERSE.example_tokens()))


def test_the_file_format_knows_the_width_training_uses():
    assert TRAINED_KEY_WIDTH == KEY_WIDTH


def test_keep_as_scene_is_the_example_scene_with_the_whole_head(reverse_head):
    tokens = REVERSE.example_tokens()
    data = keep_as_scene(REVERSE, reverse_head, tokens)
    plain = example_scene_data(REVERSE, reverse_head, tokens)
    assert data.title == "Trained head: reverse"
    assert data.embeddings == plain.embeddings and data.layers == plain.layers
    head = data.trained_head
    assert head.task == "reverse" and head.token_ids == tokens and head.d_model == REVERSE.d_model
    assert head.embed == reverse_head.embed.tolist() and head.b_o == reverse_head.b_o.tolist()


def test_an_unedited_kept_scene_has_exactly_the_trained_accuracy(kept, reverse_head):
    trained = evaluate(REVERSE, reverse_head)
    assert trained >= REVERSE.target_accuracy
    assert task_accuracy(kept) == trained
    params = edited_params(kept)
    for name, array in reverse_head.arrays():
        np.testing.assert_allclose(getattr(params, name), array, rtol=0, atol=1e-12, err_msg=name)


def test_a_dragged_word_vector_changes_its_position_embedding_only(kept, reverse_head):
    x = kept.vectors(Role.EMBEDDING)
    moved = x[3] + 1.5
    kept.set_vector(Role.EMBEDDING, 3, moved)
    params = edited_params(kept)
    np.testing.assert_allclose(params.pos[3], moved - reverse_head.embed[REVERSE.example_tokens()[3]], atol=1e-12)
    np.testing.assert_allclose(np.delete(params.pos, 3, axis=0), np.delete(reverse_head.pos, 3, axis=0), atol=1e-12)
    assert np.array_equal(params.embed, reverse_head.embed)  # the 1 at position 1 keeps its word vector


def test_moving_one_key_far_breaks_reverse(kept):
    """Position 0's key pushed far towards where the queries point: many queries then look at position 0
    instead of their mirror, and the head gets a large share of sequences wrong."""
    before = task_accuracy(kept)
    toward_queries = read(kept).grids["w_k"] @ read(kept).vectors(Role.QUERY).mean(axis=0)  # dx that grows k along them
    far = kept.vectors(Role.EMBEDDING)[0] + 30 * toward_queries / np.linalg.norm(toward_queries)
    move_arrow(read(kept), Role.EMBEDDING, 0, kept.vectors(Role.EMBEDDING)[0], far).do(kept, ViewState())
    after = task_accuracy(kept)
    assert before > 0.99 and after < 0.7 and before - after > 0.25


def test_undoing_the_move_brings_the_accuracy_back(kept):
    before = task_accuracy(kept)
    command = move_arrow(read(kept), Role.EMBEDDING, 2, kept.vectors(Role.EMBEDDING)[2], np.zeros(REVERSE.d_model))
    command.do(kept, ViewState())
    assert task_accuracy(kept) != before
    command.undo(kept, ViewState())
    assert task_accuracy(kept) == before


@pytest.fixture
def square_head_scene():
    """Grids can only be switched off when they are square, so this head has d_model = 2 (and is unsure:
    about a quarter right after 200 steps, so any change to its scores shows in its accuracy)."""
    trainer = Trainer(REVERSE, seed=1, d_model=2, d_v=2)
    for _ in range(200):
        trainer.step()
    head = trainer.snapshot()
    scene = Scene(keep_as_scene(REVERSE, head, REVERSE.example_tokens()))
    assert task_accuracy(scene) == evaluate(REVERSE, head)
    return scene


def test_switching_the_grids_off_changes_the_accuracy(square_head_scene):
    scene = square_head_scene
    with_grids = task_accuracy(scene)
    switch(scene, "use_grids", False).do(scene, ViewState())
    assert np.array_equal(edited_params(scene).w_q, np.eye(2))
    assert task_accuracy(scene) != with_grids


def test_switching_scaling_off_changes_the_accuracy(square_head_scene):
    scaled = task_accuracy(square_head_scene)
    switch(square_head_scene, "scale", False).do(square_head_scene, ViewState())
    assert task_accuracy(square_head_scene) != scaled


def test_the_causal_mask_breaks_reverse(kept):
    switch(kept, "causal", True).do(kept, ViewState())
    # Positions 0 and 1 answer digits the mask now hides from them: at best 3 of 5 right, plus lucky guesses.
    assert task_accuracy(kept) < 0.7


@pytest.mark.parametrize("name", sorted(TASKS))
def test_the_kept_scene_shows_the_heads_own_attention(name, reverse_head):
    task = TASKS[name]
    params = reverse_head if name == "reverse" else init_params(task, seed=3)
    scene = Scene(keep_as_scene(task, params, task.example_tokens()))
    expected = forward(params, task.example_tokens(), task.causal)
    np.testing.assert_allclose(read(scene).result.weights, expected.weights, rtol=0, atol=1e-12)
    np.testing.assert_allclose(read(scene).vectors(Role.KEY), expected.k, rtol=0, atol=1e-12)
    assert task_accuracy(scene) == evaluate(task, params)


def test_a_scene_without_a_trained_head_has_no_accuracy():
    scene = Scene(example_scene_data(REVERSE, init_params(REVERSE, 0), REVERSE.example_tokens()))
    assert task_accuracy(scene) is None and not has_trained_head(scene)
    with pytest.raises(ValueError, match="no trained head"):
        edited_params(scene)


def test_a_word_added_leaves_the_head_behind_until_undone(kept):
    trained = task_accuracy(kept)
    command = AddToken("extra")
    command.do(kept, ViewState())
    assert task_accuracy(kept) is None and "trained_head" not in scene_document(kept)
    command.undo(kept, ViewState())
    assert task_accuracy(kept) == trained


def test_undo_of_replacing_the_scene_brings_the_head_back(kept):
    other = Scene(example_scene_data(REVERSE, init_params(REVERSE, 0), REVERSE.example_tokens()))
    command = ReplaceContents(kept.to_data(), other.to_data(), "Open")
    command.do(kept, ViewState())
    assert not has_trained_head(kept)
    command.undo(kept, ViewState())
    assert has_trained_head(kept)


def test_saving_keeps_the_head(kept, tmp_path):
    kept.set_vector(Role.EMBEDDING, 1, kept.vectors(Role.EMBEDDING)[1] * 2)
    edited = task_accuracy(kept)
    path = tmp_path / "kept.json"
    save_scene(kept, path)
    assert json.loads(path.read_text(encoding="utf-8"))["version"] == 5
    assert task_accuracy(open_scene(path)) == edited


def test_the_export_names_the_task_accuracy(kept):
    document = export_document(read(kept))
    assert document["task_accuracy"]["task"] == "reverse"
    assert document["task_accuracy"]["accuracy"] == task_accuracy(kept)
    assert document["task_accuracy"]["sequences"] == 1000
    json.dumps(document, allow_nan=False)
    plain = Scene(example_scene_data(REVERSE, init_params(REVERSE, 0), REVERSE.example_tokens()))
    assert "task_accuracy" not in export_document(read(plain))
