"""Headless export: every number of a scene's attention, as plain JSON."""

from __future__ import annotations

import json
from typing import Any

from .scene import GRID_NAMES, Role, Scene
from .trained_head import task_accuracy, task_of
from .training import EVALUATION_COUNT, EVALUATION_SEED


def export_document(scene: Scene) -> dict[str, Any]:
    result = scene.result
    scaled = [
        [float(value) if visible else None for value, visible in zip(row, mask_row)]
        for row, mask_row in zip(result.scaled, result.mask)
    ]
    document = {
        "title": scene.title,
        "kind": "projection" if scene.is_projection else "vectors",
        "tokens": list(scene.tokens),
        "query_tokens": list(scene.query_tokens),
        "queries": scene.vectors(Role.QUERY).tolist(),
        "keys": scene.vectors(Role.KEY).tolist(),
        "values": scene.vectors(Role.VALUE).tolist(),
        "scale": scene.scale,
        "causal": scene.causal,
        "selected": scene.selected,
        "divisor": result.divisor,
        "scores": result.scores.tolist(),
        "scaled_scores": scaled,
        "weights": result.weights.tolist(),
        "output": result.output.tolist(),
    }
    if scene.is_projection:
        # The queries, keys and values above are the derived ones; these made them.
        document["embeddings"] = scene.vectors(Role.EMBEDDING).tolist()
        document.update({name: scene.grids[name].tolist() for name in GRID_NAMES})
        document["use_grids"] = scene.use_grids
    accuracy = task_accuracy(scene)
    if accuracy is not None:
        # A head kept from training: how well it, as edited here, still does its task.
        document["task_accuracy"] = {
            "task": task_of(scene).name, "accuracy": accuracy,
            "sequences": EVALUATION_COUNT, "seed": EVALUATION_SEED,
        }
    return document


def export_json_text(scene: Scene) -> str:
    return json.dumps(export_document(scene), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


__all__ = ["export_document", "export_json_text"]
