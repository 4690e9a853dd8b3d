"""Version 5: every projection scene written in one shape, a stack of layers of heads.

    "embeddings": …,
    "layers": [{"heads": [{"name": "position", "w_q": …, "w_k": …, "w_v": …}, …], "w_o": …}, …]

Layer 1 reads the word vectors x (d_model numbers); each later layer reads the residual stream,
x plus the outputs of the layers below it, so every layer but the last must mix its heads back
into d_model numbers (W_O with d_model columns). A layer of one head may leave W_O out: its
head's output is then the layer's (W_O = I). The heads' entries are version 4's.
"""

from __future__ import annotations

from typing import Any

from attn_desktop.language import tr
from attn_desktop.model.files.scene_types import GRID_NAMES, LayerGrids
from attn_desktop.model.files.values import SceneFileError, describe, rows
from attn_desktop.model.files.version4_heads import heads_to_list, read_head_list, read_w_o

LAYERS_VERSION = 5
MAX_LAYERS = 4


def read_layers(document: dict[str, Any], d_model: int) -> list[LayerGrids]:
    """The "layers" of a version 5 projection scene whose word vectors have D_MODEL numbers."""
    for name in (*GRID_NAMES, "heads", "w_o"):
        if name in document:
            raise SceneFileError(
                tr("{name}: a version {layers_version} scene gives its grids inside \"layers\"; leave the top-level "
                   "one out").format(name=name, layers_version=LAYERS_VERSION)
            )
    listed = document.get("layers")
    if not isinstance(listed, list) or not listed:
        raise SceneFileError(tr("layers: expected a list of 1 to {max_layers} layers, found {found}").format(
            max_layers=MAX_LAYERS, found=describe(listed)))
    if len(listed) > MAX_LAYERS:
        raise SceneFileError(tr("layers: {listed_count:,} layers; scenes are limited to {max_layers}").format(
            listed_count=len(listed), max_layers=MAX_LAYERS))
    layers = [_layer(entry, f"layers[{index}]", d_model) for index, entry in enumerate(listed)]
    for index, layer in enumerate(layers[:-1]):
        width = len(layer.w_o[0]) if layer.w_o is not None else layer.heads[0].value_width
        if width != d_model:
            raise SceneFileError(
                tr("layers[{index}]: its output has {width} numbers but the word vectors have {d_model}; a layer "
                   "below another must give d_model numbers, which join the residual stream").format(
                    index=index, width=width, d_model=d_model)
            )
    return layers


def _layer(entry: Any, where: str, d_model: int) -> LayerGrids:
    if not isinstance(entry, dict):
        raise SceneFileError(tr("{where}: expected an object with \"heads\", found {found}").format(
            where=where, found=describe(entry)))
    if "heads" not in entry:
        raise SceneFileError(tr("{where}.heads: missing; every layer needs its list of heads").format(where=where))
    heads = read_head_list(entry["heads"], f"{where}.heads", d_model)
    if "w_o" in entry:
        return LayerGrids(heads=heads, w_o=read_w_o(entry["w_o"], f"{where}.w_o", heads))
    if len(heads) > 1:
        raise SceneFileError(tr("{where}.w_o: missing; a layer with several heads needs W_O to mix their outputs").format(
            where=where))
    return LayerGrids(heads=heads)


def layers_to_list(layers: list[LayerGrids]) -> list[dict[str, Any]]:
    """The file's "layers"; a layer without W_O (one head, W_O = I) is written without one."""
    listed = []
    for layer in layers:
        entry: dict[str, Any] = {"heads": heads_to_list(layer.heads)}
        if layer.w_o is not None:
            entry["w_o"] = rows(layer.w_o)
        listed.append(entry)
    return listed
