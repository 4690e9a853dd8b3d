"""Version 3: a scene of queries, keys and values may say which pretrained model's head it was taken from.

    "taken_from": {"model": "SmolLM2-135M", "layer": 3, "head": 5, "sentence": "…"}

and, only for a head whose q and k are the ones from before RoPE turned them, "rope": false
(true is the default; a file without it is read as the turned q and k it always held).
"""

from __future__ import annotations

from typing import Any

from attn_desktop.language import tr
from attn_desktop.model.files.scene_types import DirectScene, SceneData, TakenFrom
from attn_desktop.model.files.values import MAX_TITLE_CHARS, SceneFileError, describe, shown_number, text_at, whole

TAKEN_FROM_VERSION = 3
MAX_SENTENCE_CHARS = 10_000  # the sentence a model read (256 tokens at most)
MAX_LAYER_OR_HEAD = 10_000


def read_taken_from(section: Any, version: int, data: SceneData) -> TakenFrom:
    """The "taken_from" section: which model, layer and head, and the sentence it read."""
    if version < TAKEN_FROM_VERSION:
        raise SceneFileError(
            tr("taken_from: a version {version} file cannot say which model a scene was taken from; it needs "
               "version {taken_from_version}").format(version=version, taken_from_version=TAKEN_FROM_VERSION)
        )
    if not isinstance(data, DirectScene):
        raise SceneFileError(tr("taken_from: only a scene of queries, keys and values can be taken from a model"))
    if not isinstance(section, dict):
        raise SceneFileError(tr("taken_from: expected an object, found {found}").format(
            found=describe(section)))
    model = text_at(section.get("model"), "taken_from.model", MAX_TITLE_CHARS)
    if not model.strip():
        raise SceneFileError(tr("taken_from.model: the name is empty"))
    layer, head = (_count(section.get(part), f"taken_from.{part}") for part in ("layer", "head"))
    sentence = text_at(section.get("sentence"), "taken_from.sentence", MAX_SENTENCE_CHARS)
    rope = section.get("rope", True)
    if not isinstance(rope, bool):
        raise SceneFileError(tr("taken_from.rope: expected true or false, found {found}").format(
            found=describe(rope)))
    return TakenFrom(model=model, layer=layer, head=head, sentence=sentence, rope=rope)


def _count(value: Any, where: str) -> int:
    """A layer or head number: a whole number from 0."""
    number = whole(value, where)
    if not 0 <= number <= MAX_LAYER_OR_HEAD:
        raise SceneFileError(tr("{where}: {shown_number} is not a number from 0 to {max_layer_or_head:,}").format(
            where=where, shown_number=shown_number(number), max_layer_or_head=MAX_LAYER_OR_HEAD))
    return number


def taken_from_to_dict(taken_from: TakenFrom) -> dict[str, Any]:
    section: dict[str, Any] = {"model": taken_from.model, "layer": int(taken_from.layer),
                               "head": int(taken_from.head), "sentence": taken_from.sentence}
    if not taken_from.rope:  # written only when off: files of turned heads stay as they were
        section["rope"] = False
    return section
