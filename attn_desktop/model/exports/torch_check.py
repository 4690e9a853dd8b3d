"""Check the app's numbers against PyTorch's own scaled dot-product attention.

PyTorch is an optional extra. It is looked for only when a check is asked for
and imported inside the function, so the app starts just as fast (and the
model stays importable) without it. Nothing here raises: every outcome, from
"not installed" to "agrees to 1e-16", is a TorchCheck with a message to show.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from typing import Any

import numpy as np

from attn_desktop.language import N_, tr
from attn_desktop.model.exports.scene_kind import ONE_HEAD_KINDS, scene_kind
from attn_desktop.model.layers import ATTENTION_ROLES, Role
from attn_desktop.model.pretrained.pack import pip_command
from attn_desktop.model.scene import Scene

FROZEN_APP_NOTE = N_("PyTorch is not installed, and this standalone app cannot take it: compare with Attention Desktop "
                   "installed as a Python package, with PyTorch beside it.")  # shown with tr()
AGREEMENT_TOLERANCE = 1e-9  # float64 on both sides: anything above this is a real disagreement


def not_installed_message() -> str:
    """How to get PyTorch: the pip of the Python running this app (a bare `pip` may be another Python's),
    as the model pack's hint says it; a standalone bundle cannot take a pip install at all."""
    if getattr(sys, "frozen", False):
        return tr(FROZEN_APP_NOTE)
    return tr("PyTorch is not installed; to compare, add it with: {command}").format(
        command=pip_command("install torch"))


@dataclass(frozen=True)
class TorchCheck:
    """The outcome of one comparison; ``largest_difference`` is None when none was made."""

    message: str
    installed: bool
    largest_difference: float | None = None

    @property
    def agrees(self) -> bool:
        return self.largest_difference is not None and self.largest_difference <= AGREEMENT_TOLERANCE


def check_against_torch(scene: Scene) -> TorchCheck:
    """Run torch.nn.functional.scaled_dot_product_attention on the scene's Q, K, V and compare outputs."""
    if importlib.util.find_spec("torch") is None:
        return TorchCheck(not_installed_message(), installed=False)
    try:
        import torch
        from torch.nn import functional
    except (ImportError, OSError, RuntimeError) as error:  # a broken install (a missing library) is a message
        return TorchCheck(tr("PyTorch is installed but could not be loaded: {reason}").format(reason=error),
                          installed=False)
    try:
        theirs = _torch_forward(torch, functional, scene)
    except TypeError:  # scale= arrived in PyTorch 2.1
        return TorchCheck(tr("PyTorch {version} has no scale= argument; compare with PyTorch 2.1 or newer.").format(
            version=torch.__version__), installed=True)
    except (RuntimeError, ValueError) as error:
        return TorchCheck(tr("PyTorch could not compute the attention: {reason}").format(reason=error), installed=True)
    difference = _largest_difference(theirs, scene.output)
    agrees = difference <= AGREEMENT_TOLERANCE
    # The message of the scene's kind (see scene_kind.py): several heads say the route their check took; one
    # head is one call of PyTorch's, with what it takes to match when scaling is off.
    if scene_kind(scene) not in ONE_HEAD_KINDS:
        several_heads = (
            tr("PyTorch agrees: each head through its attention, then W_O; the largest difference from the app's "
               "output is {difference}.") if agrees else
            tr("PyTorch differs: each head through its attention, then W_O; the largest difference from the app's "
               "output is {difference}."))
        return TorchCheck(several_heads.format(difference=f"{difference:.1e}"),
                          installed=True, largest_difference=difference)
    message = (tr("PyTorch agrees: the largest difference from the app's output is {difference}.") if agrees
               else tr("PyTorch differs: the largest difference from the app's output is {difference}.")).format(
        difference=f"{difference:.1e}")
    if not scene.scale:
        message += " " + _scale_note(torch, functional, scene)
    return TorchCheck(message, installed=True, largest_difference=difference)


def _torch_forward(torch: Any, functional: Any, scene: Scene) -> np.ndarray:
    """The scene's output as PyTorch computes it: layer by layer, each head's q, k, v (made from the stream
    with its grids, or as given) through scaled_dot_product_attention, the outputs side by side times W_O,
    and the residual stream for the next layer."""
    def tensor(array: np.ndarray) -> Any:
        return torch.tensor(array, dtype=torch.float64)

    stream = tensor(scene.inputs[Role.EMBEDDING]) if Role.EMBEDDING in scene.inputs else None
    # Cross-attention: the target's words make the queries, and the residual stream runs on their side.
    target = None if scene.target_vectors is None else tensor(scene.target_vectors)
    output = np.zeros((0, 0))
    for index, layer in enumerate(scene.layers):
        outputs = []
        for head in layer.heads:
            if head.grids is None or stream is None:
                q, k, v = (tensor(scene.inputs[role]) for role in ATTENTION_ROLES)
            else:
                w_q, w_k, w_v = (tensor(_grid_in_force(scene, head.grids[name])) for name in ("w_q", "w_k", "w_v"))
                q, k, v = (stream if target is None else target) @ w_q, stream @ w_k, stream @ w_v
            # A batch of one: PyTorch documents its inputs as (batch, ..., length, width).
            outputs.append(_torch_output(functional, q[None], k[None], v[None], scene.causal,
                                         scale=None if scene.scale else 1.0))
        joined = np.hstack(outputs)
        output = joined @ layer.w_o if layer.w_o is not None else joined
        if index + 1 == len(scene.layers):
            break
        if target is not None:
            target = target + tensor(output)
        elif stream is not None:
            stream = stream + tensor(output)
    return output


def _grid_in_force(scene: Scene, grid: np.ndarray) -> np.ndarray:
    return grid if scene.use_grids else np.eye(grid.shape[0])


def _torch_output(functional: Any, q: Any, k: Any, v: Any, causal: bool, scale: float | None) -> np.ndarray:
    # Pass scale only when it is not PyTorch's default, so an older PyTorch still runs the scaled case.
    options = {"is_causal": causal} if scale is None else {"is_causal": causal, "scale": scale}
    output: np.ndarray = np.asarray(functional.scaled_dot_product_attention(q, k, v, **options), dtype=np.float64)
    first: np.ndarray = output[0]
    return first


def _scale_note(torch: Any, functional: Any, scene: Scene) -> str:
    """Scaling is off here, and PyTorch divides by √d_k unless told not to: say what it takes to match."""
    head = scene.head(0, 0)
    q, k, v = (torch.tensor(head.vectors[role][None], dtype=torch.float64) for role in ATTENTION_ROLES)
    default = _largest_difference(_torch_output(functional, q, k, v, scene.causal, scale=None), head.attention.output)
    return tr(
        "Scaling is off here, but PyTorch divides by √d_k (√{key_width}) by default: "
        "the one change to match is scale=1.0, which this check passed "
        "(with the default the outputs differ by up to {difference})."
    ).format(key_width=head.vectors[Role.KEY].shape[1], difference=f"{default:.2g}")


def _largest_difference(theirs: np.ndarray, ours: np.ndarray) -> float:
    return float(np.max(np.abs(theirs - ours)))
