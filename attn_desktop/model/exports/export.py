"""Headless export: every number of a scene's attention, as plain JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from attn_desktop.model.attention import AttentionResult
from attn_desktop.model.exports.scene_kind import SceneKind, scene_kind
from attn_desktop.model.head_reading import HeadReading
from attn_desktop.model.layers import Head, Layer, Role
from attn_desktop.model.scene import Scene
from attn_desktop.model.training.trained_head import task_accuracy, task_of
from attn_desktop.model.training.training import EVALUATION_COUNT, EVALUATION_SEED


def export_document(shown: HeadReading) -> dict[str, Any]:
    """Every number of the scene SHOWN reads, with the query it has chosen. One head: its numbers at the top
    level, as they always were; several: each head's numbers inside its layer, with the layer's W_O and
    mixed output (see scene_kind.py)."""
    scene = shown.scene
    kind = scene_kind(scene)
    document: dict[str, Any] = {
        "title": scene.title,
        "kind": kind,
        "tokens": list(scene.tokens),
        "query_tokens": list(scene.query_tokens),
    }
    if Role.EMBEDDING in scene.inputs:
        document["embeddings"] = scene.vectors(Role.EMBEDDING).tolist()
    if scene.target_vectors is not None:  # cross-attention: the target's word vectors y make the queries
        document["query_embeddings"] = scene.target_vectors.tolist()
    document.update(scale=scene.scale, causal=scene.causal, selected=shown.selected,
                    divisor=scene.head(0, 0).attention.divisor)
    document.update(_BODIES[kind](scene))
    return document


def _one_head(scene: Scene) -> dict[str, Any]:
    body = _head_entry(scene.head(0, 0))
    if Role.EMBEDDING in scene.inputs:
        body["use_grids"] = scene.use_grids
    body.update(_task_accuracy(scene))
    return body


def _one_layer(scene: Scene) -> dict[str, Any]:
    return _layer_entry(scene.layers[0])  # "heads", "w_o", "joined_output", "output"


def _layers(scene: Scene) -> dict[str, Any]:
    return {"layers": [_layer_entry(layer) for layer in scene.layers], "output": scene.output.tolist()}


_BODIES: dict[SceneKind, Callable[[Scene], dict[str, Any]]] = {
    "vectors": _one_head, "projection": _one_head, "multi-head": _one_layer, "layers": _layers,
}


def _layer_entry(layer: Layer) -> dict[str, Any]:
    entry: dict[str, Any] = {"heads": [_head_entry(head) for head in layer.heads]}
    if layer.w_o is not None:
        entry["w_o"] = layer.w_o.tolist()
    entry.update(joined_output=layer.joined_output.tolist(), output=layer.output.tolist())
    return entry


def _head_entry(head: Head) -> dict[str, Any]:
    """A head's grids (when it has them), queries, keys, values, scores, weights and output."""
    entry: dict[str, Any] = {"name": head.name} if head.name else {}
    entry.update({name: grid.tolist() for name, grid in (head.grids or {}).items()})
    result = head.attention
    entry.update({
        "queries": head.vectors[Role.QUERY].tolist(),
        "keys": head.vectors[Role.KEY].tolist(),
        "values": head.vectors[Role.VALUE].tolist(),
        "scores": result.scores.tolist(),
        "scaled_scores": _scaled_scores(result),
        "weights": result.weights.tolist(),
        "output": result.output.tolist(),
    })
    return entry


def _task_accuracy(scene: Scene) -> dict[str, Any]:
    """A head kept from training: how well it, as edited here, still does its task."""
    accuracy = task_accuracy(scene)
    if accuracy is None:
        return {}
    return {"task_accuracy": {"task": task_of(scene).name, "accuracy": accuracy,
                              "sequences": EVALUATION_COUNT, "seed": EVALUATION_SEED}}


def _scaled_scores(result: AttentionResult) -> list[list[float | None]]:
    """The scores after the division; a masked one (never looked at) is null."""
    return [
        [float(value) if visible else None for value, visible in zip(row, mask_row)]
        for row, mask_row in zip(result.scaled, result.mask)
    ]


def export_json_text(shown: HeadReading) -> str:
    return json.dumps(export_document(shown), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


__all__ = ["export_document", "export_json_text"]
