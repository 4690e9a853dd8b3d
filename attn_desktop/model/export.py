"""Headless export: every number of a scene's attention, as plain JSON."""

from __future__ import annotations

import json

from .scene import Role, Scene


def export_document(scene: Scene) -> dict:
    result = scene.result
    scaled = [
        [float(value) if visible else None for value, visible in zip(row, mask_row)]
        for row, mask_row in zip(result.scaled, result.mask)
    ]
    return {
        "title": scene.title,
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


def export_json_text(scene: Scene) -> str:
    return json.dumps(export_document(scene), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


__all__ = ["export_document", "export_json_text"]
