"""The model: NumPy only. Nothing in this package may import Qt or pyqtgraph."""

from attn_desktop.model.attention import AttentionResult, attention, causal_mask, stable_softmax
from attn_desktop.model.files.scene_file import SceneData
from attn_desktop.model.files.values import SceneFileError
from attn_desktop.model.scene import Change, Role, Scene

__all__ = [
    "AttentionResult", "Change", "Role", "Scene", "SceneData", "SceneFileError",
    "attention", "causal_mask", "stable_softmax",
]
