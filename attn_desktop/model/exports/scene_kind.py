"""How the exports name a scene's shape: the one place they ask it.

The JSON export, the NumPy script and the PyTorch check each kept one format per shape from before
scenes had layers, and files, scripts and lesson texts made since rely on them: a scene of one head
has its numbers at the top level of the JSON and the short script with Q, K and V; one layer of
several heads has its heads and W_O at the top level and a script with one list of heads; several
layers are a list. Each output picks its format from this one name, then loops over layers and heads.
"""

from __future__ import annotations

from typing import Literal

from attn_desktop.model.layers import Role
from attn_desktop.model.scene import Scene

# The kinds as the JSON export's "kind" writes them: a table keyed by them misses one as a type error.
SceneKind = Literal["vectors", "projection", "multi-head", "layers"]

ONE_HEAD_KINDS: tuple[SceneKind, ...] = ("vectors", "projection")


def scene_kind(scene: Scene) -> SceneKind:
    """"vectors" (queries, keys and values given), "projection" (one head with grids), "multi-head"
    (one layer of several heads) or "layers" (several layers)."""
    if scene.is_one_head:
        return "projection" if Role.EMBEDDING in scene.input_roles else "vectors"
    return "multi-head" if len(scene.layers) == 1 else "layers"


__all__ = ["ONE_HEAD_KINDS", "SceneKind", "scene_kind"]
