"""Lesson 9's scene is the model the app trains, and the lesson's and exercises' numbers are that model's."""

import math
import subprocess
import sys

import numpy as np
import pytest

from attn_desktop.model import read
from attn_desktop.model.exports.codegen import numpy_code
from attn_desktop.model.exports.torch_check import check_against_torch
from attn_desktop.model.layers import Role
from attn_desktop.model.scene import Scene
from attn_desktop.model.scene_files import open_scene
from attn_desktop.model.teaching.exercises import exercises_for
from attn_desktop.model.teaching.lessons import lesson
from attn_desktop.model.training.induction_circuit import loss_drop, read_circuit
from attn_desktop.model.training.induction_document import induction_scene_data
from attn_desktop.model.training.induction_task import INDUCTION
from attn_desktop.model.training.training import Trainer
from attn_desktop.paths import scene_path

pytestmark = pytest.mark.slow  # trains the lesson's model: 1,000 steps, a few seconds


@pytest.fixture(scope="module")
def lesson_model():
    trainer = Trainer(INDUCTION, seed=0)
    losses = [trainer.step().loss for _ in range(INDUCTION.default_steps)]
    return trainer.snapshot(), losses


def shipped() -> Scene:
    return open_scene(scene_path(lesson("induction-heads").scene))


def test_the_lesson_scene_is_what_training_from_seed_0_makes(lesson_model):
    params, _ = lesson_model
    trained = Scene(induction_scene_data(INDUCTION, params, INDUCTION.example_tokens()))
    scene = shipped()
    assert scene.tokens == trained.tokens and [len(layer.heads) for layer in scene.layers] == [1, 1]
    for layer in range(2):  # the weights a student reads (another machine's last bits may differ)
        assert np.allclose(scene.head(layer, 0).attention.weights, trained.head(layer, 0).attention.weights, atol=0.01)


def test_the_stripe_the_lesson_names():
    scene = shipped()
    layer_2 = scene.head(1, 0).attention.weights
    for query in range(14, 20):  # 14:D ... 19:H look at 2:K ... 7:B, the letter after their first occurrence
        assert layer_2[query, query - 12] > 0.9
    assert layer_2[14, 2] > 0.995  # "gives 2:K all its weight"
    layer_1 = scene.head(0, 0).attention.weights
    assert np.argmax(layer_1[2]) == 1  # layer 1's head at 2:K looked at 1:D


def test_the_plateau_drop_and_knock_out_the_lesson_states(lesson_model):
    params, losses = lesson_model
    plateau_end, drop = loss_drop(losses, len(INDUCTION.vocab))
    assert math.log(24) == pytest.approx(3.18, abs=0.005)
    assert 140 <= plateau_end <= 200 and drop - plateau_end < 100  # "about 170 steps, then drops within a few dozen"
    assert read_circuit(INDUCTION, params).accuracy > 0.99
    knocked = read_circuit(INDUCTION, params, knocked_out=[(0, 0)]).accuracy
    assert 0.05 < knocked < 0.15  # "about 10%" / "about one in ten"
    assert "about 10%" in lesson("induction-heads").steps[2]
    assert "one in ten" in next(e for e in exercises_for("induction-heads") if e.id == "induction-needs-layer-1").choices[1]


def test_pytorch_agrees_with_the_two_layer_scene_before_and_after_a_drag():
    pytest.importorskip("torch")
    scene = shipped()
    assert check_against_torch(scene).agrees
    scene.set_vector(Role.EMBEDDING, 14, np.zeros(32))  # the second D forgets what it is
    assert check_against_torch(scene).agrees


def test_the_code_panels_script_of_the_two_layers_runs_and_prints_the_scene_s_output(tmp_path):
    shown = read(shipped())
    shown.select_query(14)
    script = tmp_path / "induction.py"
    script.write_text(numpy_code(shown), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("layer 1 head 1: 14:D attends to") and "13:M 77%" in lines[0]  # the letter before
    assert lines[1].startswith("layer 2 head 1: 14:D attends to") and "2:K 100%" in lines[1]  # after the first D
    assert lines[2].startswith(f"output for 14:D: [{shown.scene.output[14, 0]:5.2f}")
