"""Which arrows a lesson file locks: its `locked` list names roles ("key": every key) and arrows ("v·cat").

Asked of the scene as it is at each gesture, so a lock by name follows its arrow when words are added or moved.
"""

from __future__ import annotations

from attn_desktop.model.layers import Role
from attn_desktop.model.scene import Scene


def arrow_is_locked(locked: tuple[str, ...], scene: Scene, role: Role, index: int) -> bool:
    if role.value in locked:
        return True
    try:
        return scene.arrow_name(role, index) in locked
    except (IndexError, KeyError, ValueError):
        return False


def named_arrows(scene: Scene) -> list[tuple[Role, int]]:
    """Every arrow a head of SCENE draws (its inputs, then queries, keys and values), in that order: the arrows a
    lesson's text may name and link to."""
    return [(role, index) for role in scene.roles for index in range(len(scene.labels(role)))]
