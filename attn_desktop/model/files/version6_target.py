"""Version 6: a cross-attention projection scene stores the sentence being written beside the one read.

    "tokens": ["el", "gato", "negro"], "embeddings": [...],     the source: its x make keys and values
    "query_tokens": ["the", "black", "cat"], "query_embeddings": [...],    the target: its y make queries
    "layers": [...]                                              version 5's, reading both

The target's word vectors are as wide as the source's, because the same grids read both. A causal
mask is refused: it hides the later words of one sentence, and a target word comes after none of
the source's. A trained head (version 2) is refused too: its task is self-attention over one sentence.
Scenes of queries given directly named their queries with "query_tokens" since version 1; they
have no target word vectors, and version 6 changes nothing for them.
"""

from __future__ import annotations

from typing import Any

from attn_desktop.language import tr
from attn_desktop.model.files.scene_types import TargetSentence
from attn_desktop.model.files.values import SceneFileError, matrix_at, rows

TARGET_VERSION = 6


def read_target(document: dict[str, Any], version: int, query_tokens: list[str], d_model: int) -> TargetSentence:
    """The target sentence of a projection scene whose source's word vectors have D_MODEL numbers."""
    if version < TARGET_VERSION:
        raise SceneFileError(tr("query_embeddings: a version {version} file cannot hold a target sentence; it needs "
                                "version {target_version}").format(version=version, target_version=TARGET_VERSION))
    if not query_tokens:
        raise SceneFileError(tr("query_tokens: missing; the target's word vectors need their words"))
    embeddings = matrix_at(document.get("query_embeddings"), "query_embeddings")
    if len(embeddings) != len(query_tokens):
        raise SceneFileError(tr("query_embeddings: {count} word vectors for {n} query_tokens; give one per target "
                                "word").format(count=len(embeddings), n=len(query_tokens)))
    if len(embeddings[0]) != d_model:
        raise SceneFileError(tr("query_embeddings: the target's word vectors have {width} numbers but the source's "
                                "have {d_model}; the same grids read both").format(
            width=len(embeddings[0]), d_model=d_model))
    return TargetSentence(tokens=list(query_tokens), embeddings=embeddings)


def check_target_settings(document: dict[str, Any]) -> None:
    """What a cross-attention scene cannot have, refused before anything is computed."""
    if document.get("causal") is True:
        raise SceneFileError(tr("causal: a causal mask hides later words of the same sentence; in cross-attention "
                                "the queries read another sentence, all of it"))
    if "trained_head" in document:
        raise SceneFileError(tr("trained_head: a cross-attention scene cannot carry a trained head"))


def target_to_dict(target: TargetSentence) -> dict[str, Any]:
    return {"query_tokens": list(target.tokens), "query_embeddings": rows(target.embeddings)}
