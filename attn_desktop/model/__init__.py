"""The model: NumPy only. Nothing in this package may import Qt or pyqtgraph."""

from attn_desktop.model.attention import AttentionResult, attention, causal_mask, stable_softmax
from attn_desktop.model.files.scene_types import DirectScene, ProjectedScene, SceneData
from attn_desktop.model.files.values import SceneFileError
from attn_desktop.model.head_reading import HeadReading, read
from attn_desktop.model.scene import Change, Role, Scene
from attn_desktop.model.view_state import ViewState

__all__ = [
    "AttentionResult",
    "Change",
    "DirectScene",
    "HeadReading",
    "ProjectedScene",
    "Role",
    "Scene",
    "SceneData",
    "SceneFileError",
    "ViewState",
    "attention",
    "causal_mask",
    "read",
    "stable_softmax",
]
