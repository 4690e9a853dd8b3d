"""Headless export: every number of a scene's attention, as plain JSON."""

from __future__ import annotations

import json
from typing import Any

from attn_desktop.model.attention import AttentionResult
from attn_desktop.model.scene import GRID_NAMES, Role, Scene
from attn_desktop.model.training.trained_head import task_accuracy, task_of
from attn_desktop.model.training.training import EVALUATION_COUNT, EVALUATION_SEED


def export_document(scene: Scene) -> dict[str, Any]:
    if scene.is_multi_head:
        return _multi_head_document(scene)
    result = scene.result
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
        "scaled_scores": _scaled_scores(result),
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


def _multi_head_document(scene: Scene) -> dict[str, Any]:
    """Each head's vectors, scores, weights and output, then the heads' outputs side by side and
    mixed by W_O: the scene's "output"."""
    heads = []
    for head in range(scene.n_heads):
        result = scene.head_result(head)
        entry: dict[str, Any] = {"name": scene.head_names[head]} if scene.head_names[head] else {}
        entry.update({name: scene.grid(name, head).tolist() for name in GRID_NAMES})
        entry.update({
            "queries": scene.head_vectors(head, Role.QUERY).tolist(),
            "keys": scene.head_vectors(head, Role.KEY).tolist(),
            "values": scene.head_vectors(head, Role.VALUE).tolist(),
            "scores": result.scores.tolist(),
            "scaled_scores": _scaled_scores(result),
            "weights": result.weights.tolist(),
            "output": result.output.tolist(),
        })
        heads.append(entry)
    return {
        "title": scene.title,
        "kind": "multi-head",
        "tokens": list(scene.tokens),
        "query_tokens": list(scene.query_tokens),
        "embeddings": scene.vectors(Role.EMBEDDING).tolist(),
        "scale": scene.scale,
        "causal": scene.causal,
        "selected": scene.selected,
        "divisor": scene.result.divisor,
        "heads": heads,
        "w_o": scene.grid("w_o").tolist(),
        "joined_output": scene.joined_output.tolist(),
        "output": scene.mixed_output.tolist(),
    }


def _scaled_scores(result: AttentionResult) -> list[list[float | None]]:
    """The scores after the division; a masked one (never looked at) is null."""
    return [
        [float(value) if visible else None for value, visible in zip(row, mask_row)]
        for row, mask_row in zip(result.scaled, result.mask)
    ]


def export_json_text(scene: Scene) -> str:
    return json.dumps(export_document(scene), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


__all__ = ["export_document", "export_json_text"]
