"""The model: NumPy only. Nothing in this package may import Qt or pyqtgraph."""

from .attention import AttentionResult, attention, causal_mask, stable_softmax
from .file_values import SceneFileError
from .scene import Change, Role, Scene
from .scene_file import SceneData

__all__ = [
    "AttentionResult", "Change", "Role", "Scene", "SceneData", "SceneFileError",
    "attention", "causal_mask", "stable_softmax",
]
