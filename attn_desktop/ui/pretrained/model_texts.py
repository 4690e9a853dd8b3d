"""What the Model heads panel says about a model and a run: its shape, its details, what a knock-out moved
and which kind each head was found to be (texts in the student's language)."""

from __future__ import annotations

from typing import Any

from attn_desktop.language import ntr, number, tr
from attn_desktop.language.numbers import whole_number
from attn_desktop.model.pretrained.next_token import moved_most
from attn_desktop.ui.pretrained.next_token_view import moved_text
from attn_desktop.ui.pretrained.pretrained_worker import LoadedModel


def model_shape(model: LoadedModel) -> str:
    """"30 layers × 9 heads": what the grid shows."""
    config = model.config
    if config is None:
        return ""
    layers = ntr("{count} layer", "{count} layers", config.layer_count).format(count=config.layer_count)
    heads = ntr("{count} head", "{count} heads", config.head_count).format(count=config.head_count)
    # Translators: the model's shape, e.g. "30 layers × 9 heads"
    return tr("{layers} \u00d7 {heads}").format(layers=layers, heads=heads)


def model_details(model: LoadedModel) -> str:
    """"9 query heads share 3 key/value heads, each 64 wide · 538 MB in memory · loaded in 7.2 s"."""
    config = model.config
    parts = []
    if config is not None:
        if config.kv_head_count != config.head_count:
            parts.append(tr("{count} query heads share {kv_count} key/value heads, each {width} wide").format(
                count=config.head_count, kv_count=config.kv_head_count, width=config.head_width))
        else:
            parts.append(tr("heads {width} wide").format(width=config.head_width))
    if model.memory_bytes:
        megabytes = model.memory_bytes / 1e6
        size = whole_number(round(megabytes)) if megabytes >= 10 else number(megabytes, 1)
        parts.append(tr("{megabytes} MB in memory").format(megabytes=size))
    parts.append(tr("loaded in {seconds} s").format(seconds=number(model.seconds, 1)))
    return " \u00b7 ".join(parts)


def knock_effect(scores: Any, intact: Any, temperature: float = 1.0) -> str:
    """"'␣mat' moved most: 41 % → 12 %." at TEMPERATURE, or "" without both predictions."""
    if scores is None or intact is None:
        return ""
    return moved_text(*moved_most(intact, scores, temperature))


def kind_descriptions(kinds: dict[Any, list[Any]]) -> dict[tuple[int, int], str]:
    """"previous-token head (82 %)" for each head a rule found, by (layer, head)."""
    described: dict[tuple[int, int], list[str]] = {}
    for kind, found in kinds.items():
        singular = tr(kind.singular)
        for score in found:
            # Translators: a head's kind and its score, e.g. "previous-token head (82 %)"
            described.setdefault((score.layer, score.head), []).append(
                tr("{kind} ({score} %)").format(kind=singular, score=number(100 * score.score, 0)))
    return {head: ", ".join(texts) for head, texts in described.items()}

