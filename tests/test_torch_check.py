"""Checking the app against PyTorch: without it, with a stand-in, and with the real thing when present."""

import importlib.machinery
import importlib.util
import shlex
import sys
import types

import numpy as np
import pytest

from attn_desktop import paths
from attn_desktop.model import Role, Scene
from attn_desktop.model.exports.torch_check import check_against_torch
from attn_desktop.model.scene_files import open_scene


def default_scene() -> Scene:
    return open_scene(paths.scene_path(paths.DEFAULT_SCENE))


def reference_sdpa(q, k, v, is_causal=False, scale=None):
    """PyTorch's documented semantics, written out independently of the app's model."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    logits = q @ np.swapaxes(k, -1, -2) * (1 / np.sqrt(q.shape[-1]) if scale is None else scale)
    if is_causal:
        logits = np.where(np.tril(np.ones(logits.shape[-2:], dtype=bool)), logits, -np.inf)
    exp = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return exp / exp.sum(axis=-1, keepdims=True) @ v


@pytest.fixture
def fake_torch(monkeypatch):
    """A stand-in torch module whose scaled_dot_product_attention records what it was asked."""
    calls: list[dict] = []

    def scaled_dot_product_attention(q, k, v, **options):
        calls.append(options)
        return reference_sdpa(q, k, v, **options)

    torch = types.ModuleType("torch")
    torch.__spec__ = importlib.machinery.ModuleSpec("torch", None)
    torch.__version__ = "2.4.0 (stand-in)"
    torch.float64 = np.float64
    torch.tensor = lambda data, dtype=None: np.array(data, dtype=dtype)
    torch.nn = types.ModuleType("torch.nn")
    torch.nn.functional = types.ModuleType("torch.nn.functional")
    torch.nn.functional.scaled_dot_product_attention = scaled_dot_product_attention
    for name, module in (("torch", torch), ("torch.nn", torch.nn), ("torch.nn.functional", torch.nn.functional)):
        monkeypatch.setitem(sys.modules, name, module)
    torch.calls = calls
    return torch


def test_without_pytorch_the_check_says_how_to_get_it(monkeypatch):
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real_find_spec(name, *a))
    result = check_against_torch(default_scene())
    # The pip of the Python running the app, as the model pack's hint names it: a bare `pip` may be another Python's.
    assert result.message == f"PyTorch is not installed; to compare, add it with: {shlex.quote(sys.executable)} -m pip install torch"
    assert not result.installed and result.largest_difference is None and not result.agrees


def test_the_check_passes_the_scene_settings_to_pytorch(fake_torch):
    result = check_against_torch(default_scene())
    assert fake_torch.calls == [{"is_causal": False}]  # PyTorch's default scale is already 1/√d_k
    assert result.installed and result.agrees
    assert result.largest_difference < 1e-12
    assert result.message.startswith("PyTorch agrees: the largest difference from the app's output is ")


def test_with_scaling_off_the_check_passes_scale_one_and_explains_why(fake_torch):
    scene = default_scene()
    scene.set_scale(False)
    scene.set_causal(True)
    result = check_against_torch(scene)
    assert fake_torch.calls[0] == {"is_causal": True, "scale": 1.0}
    assert result.agrees
    assert "PyTorch divides by √d_k (√2) by default" in result.message
    assert "the one change to match is scale=1.0" in result.message
    # And it shows the change matters: PyTorch's default gives other outputs for this scene.
    default_difference = float(result.message.rsplit("differ by up to ", 1)[1].rstrip(").").strip())
    assert default_difference > 0.1


def test_a_disagreement_is_reported_as_one(fake_torch, monkeypatch):
    monkeypatch.setattr(fake_torch.nn.functional, "scaled_dot_product_attention", lambda q, k, v, **o: np.zeros_like(v))
    result = check_against_torch(default_scene())
    assert not result.agrees
    assert result.message.startswith("PyTorch differs: ")


def test_an_old_pytorch_without_scale_is_named(fake_torch, monkeypatch):
    def no_scale_argument(q, k, v, is_causal=False):
        return reference_sdpa(q, k, v, is_causal=is_causal)

    monkeypatch.setattr(fake_torch.nn.functional, "scaled_dot_product_attention", no_scale_argument)
    scene = default_scene()
    assert check_against_torch(scene).agrees  # with scaling on, nothing new is needed
    scene.set_scale(False)
    result = check_against_torch(scene)
    assert result.installed and result.largest_difference is None
    assert "PyTorch 2.1 or newer" in result.message


def test_real_pytorch_agrees_with_the_app():
    pytest.importorskip("torch")
    scene = default_scene()
    assert check_against_torch(scene).largest_difference < 1e-12
    scene.set_scale(False)
    scene.set_causal(True)
    scene.set_vector(Role.QUERY, 2, [0.5, -3.0])
    result = check_against_torch(scene)
    assert result.largest_difference < 1e-12 and "scale=1.0" in result.message


def test_a_standalone_app_without_pytorch_suggests_no_pip(monkeypatch):
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "torch" else real_find_spec(name, *a))
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    result = check_against_torch(default_scene())
    assert "pip" not in result.message and "Python package" in result.message and not result.installed
