"""Reading and writing scene files: UTF-8 JSON with strict validation, every version from 1 to 6.

A file is one JSON object: "format", "version", "tokens", the scene's inputs and settings.

- Version 1: queries, keys and values given directly, or word vectors ("embeddings") and one
  head's w_q, w_k, w_v (and "use_grids").
- Version 2 adds a one-head scene's "trained_head" (version2_trained_head.py), version 3 the
  "taken_from" of a head of a pretrained model (version3_taken_from.py), version 4 several
  heads and their "w_o" (version4_heads.py), version 5 a stack of "layers" of heads
  (version5_layers.py), version 6 a cross-attention scene's target sentence, "query_tokens"
  and "query_embeddings" (version6_target.py).

Every version is read; every file is written as version 5, the one shape, or as version 6 when
it holds a target sentence: a file that does not need version 6 still opens in the release before. The kind of a scene
(DirectScene or ProjectedScene, scene_types.py) is decided here and nowhere else. Every problem
becomes one SceneFileError whose message names the file, the place in it and what is wrong.
"""

from __future__ import annotations

import os
from typing import Any

from attn_desktop.language import tr
from attn_desktop.model.files.json_reading import named, parse_json_bytes, parse_json_text, read_file_bytes
from attn_desktop.model.files.scene_types import (
    DirectScene,
    HeadGrids,
    LayerGrids,
    ProjectedScene,
    SceneData,
)
from attn_desktop.model.files.values import MAX_TITLE_CHARS, MAX_TOKEN_CHARS, MAX_TOKENS, SceneFileError
from attn_desktop.model.files.values import boolean as _boolean
from attn_desktop.model.files.values import check_text as _check_text
from attn_desktop.model.files.values import describe as _describe
from attn_desktop.model.files.values import matrix_at as _matrix_at
from attn_desktop.model.files.values import number as _number
from attn_desktop.model.files.values import rows as _rows
from attn_desktop.model.files.values import shown_number as _shown_number
from attn_desktop.model.files.version2_trained_head import (
    TaskShapes,
    read_trained_head,
    trained_head_fits,
    trained_head_to_dict,
)
from attn_desktop.model.files.version3_taken_from import read_taken_from, taken_from_to_dict
from attn_desktop.model.files.version4_heads import read_heads
from attn_desktop.model.files.version5_layers import LAYERS_VERSION, layers_to_list, read_layers
from attn_desktop.model.files.version6_target import (
    TARGET_VERSION,
    check_target_settings,
    read_target,
    target_to_dict,
)

FORMAT_MARKER = "attention-desktop-scene"
FORMAT_VERSION = TARGET_VERSION


def load_scene_file(path: str | os.PathLike[str], tasks: TaskShapes) -> SceneData:
    """Read and validate a scene file; raise SceneFileError on any problem.

    TASKS are the training tasks a trained head may name (the file format does not know them)."""
    return named(path, lambda: scene_from_dict(parse_json_bytes(read_file_bytes(path)), tasks))


def parse_scene_text(text: str, tasks: TaskShapes) -> SceneData:
    return scene_from_dict(parse_json_text(text), tasks)


def scene_from_dict(document: Any, tasks: TaskShapes) -> SceneData:
    """Validate a decoded JSON document and turn it into a DirectScene or a ProjectedScene."""
    if not isinstance(document, dict):
        raise SceneFileError(tr("the top level must be a JSON object, found {found}").format(
            found=_describe(document)))
    version = _check_format(document)
    tokens = _token_list(document.get("tokens"), "tokens", required=True)
    query_tokens = _token_list(document.get("query_tokens"), "query_tokens", required=False)
    data: SceneData
    if "embeddings" in document:
        data = _projected_scene(document, version, tokens, query_tokens)
    else:
        data = _direct_scene(document, tokens, query_tokens)
    n, n_queries = len(tokens), len(data.query_tokens)
    data.scale = _boolean(document, "scale", default=True)
    data.causal = _boolean(document, "causal", default=False)
    if data.causal and n_queries != n:
        raise SceneFileError(tr("causal: a causal mask needs exactly one query per token"))
    data.selected = _selected(document, n_queries)
    data.title = _title(document)
    if "trained_head" in document:
        trained_head = read_trained_head(document["trained_head"], version, data, tasks)
        assert isinstance(data, ProjectedScene)  # read_trained_head refuses any other kind
        data.trained_head = trained_head
    if "taken_from" in document:
        taken_from = read_taken_from(document["taken_from"], version, data)
        assert isinstance(data, DirectScene)  # read_taken_from refuses any other kind
        data.taken_from = taken_from
    return data


def _direct_scene(document: dict[str, Any], tokens: list[str], query_tokens: list[str]) -> DirectScene:
    if "layers" in document or "heads" in document:
        raise SceneFileError(tr("embeddings: missing; a scene with heads gives the word vectors they read"))
    if "query_embeddings" in document:
        raise SceneFileError(tr("query_embeddings: only a projection scene (embeddings and grids) has target word "
                                "vectors; a scene of given queries names them with query_tokens"))
    queries = _matrix(document, "queries")
    keys = _matrix(document, "keys")
    values, scalar_values = _values(document)
    n = len(tokens)
    if len(keys) != n:
        raise SceneFileError(tr("keys: there are {n} tokens but {keys_count} keys; give one key per token").format(
            n=n, keys_count=len(keys)))
    if len(values) != n:
        raise SceneFileError(tr("values: there are {n} tokens but {values_count} values; give one value per token").format(
            n=n, values_count=len(values)))
    if not query_tokens:
        if len(queries) != n:
            raise SceneFileError(
                tr("queries: there are {n} tokens but {queries_count} queries; give one query per token, or name "
                   "them with query_tokens").format(n=n, queries_count=len(queries))
            )
        query_tokens = list(tokens)
    elif len(query_tokens) != len(queries):
        raise SceneFileError(
            tr("query_tokens: {query_tokens_count} names for {queries_count} queries; give one name per query").format(
                query_tokens_count=len(query_tokens), queries_count=len(queries))
        )
    if len(queries[0]) != len(keys[0]):
        raise SceneFileError(
            tr("queries have {query_width} numbers each but keys have {key_width}; a query and a key must have "
               "the same width to be compared").format(query_width=len(queries[0]), key_width=len(keys[0]))
        )
    return DirectScene(tokens=tokens, queries=queries, keys=keys, values=values,
                       query_tokens=query_tokens, scalar_values=scalar_values)


def _values(document: dict[str, Any]) -> tuple[list[list[float]], bool]:
    """Values as rows; a flat list of numbers means one number per token (d_v = 1)."""
    raw = document.get("values")
    if isinstance(raw, list) and raw and not any(isinstance(item, list) for item in raw):
        if len(raw) > MAX_TOKENS:
            raise SceneFileError(tr("values: {raw_count:,} values; scenes are limited to {max_tokens}").format(
                raw_count=len(raw), max_tokens=MAX_TOKENS))
        return [[_number(item, f"values[{index}]")] for index, item in enumerate(raw)], True
    return _matrix(document, "values"), False


def _projected_scene(document: dict[str, Any], version: int, tokens: list[str],
                     query_tokens: list[str]) -> ProjectedScene:
    for name in ("queries", "keys", "values"):
        if name in document:
            raise SceneFileError(
                tr("{name}: a projection scene gives embeddings and w_q, w_k, w_v, which make the {name}; leave "
                   "{name} out").format(name=name)
            )
    if query_tokens and query_tokens != tokens and "query_embeddings" not in document:
        raise SceneFileError(tr("query_tokens: in a projection scene every token makes its own query"))
    embeddings = _matrix(document, "embeddings")
    n, d_model = len(tokens), len(embeddings[0])
    if len(embeddings) != n:
        raise SceneFileError(tr("embeddings: there are {n} tokens but {embeddings_count} word vectors").format(
            n=n, embeddings_count=len(embeddings)))
    if version >= LAYERS_VERSION or "layers" in document:
        if version < LAYERS_VERSION:
            raise SceneFileError(tr("layers: a version {version} file cannot hold layers; it needs version "
                                    "{layers_version}").format(version=version, layers_version=LAYERS_VERSION))
        layers = read_layers(document, d_model)
    elif "heads" in document:
        heads, w_o = read_heads(document, d_model, version)
        layers = [LayerGrids(heads=heads, w_o=w_o)]
    else:
        layers = [LayerGrids(heads=[_one_head(document, d_model)])]
    use_grids = _boolean(document, "use_grids", default=True)
    if not use_grids:
        _check_grids_can_be_switched_off(layers, d_model)
    target = None
    if "query_embeddings" in document:
        check_target_settings(document)
        target = read_target(document, version, query_tokens, d_model)
    return ProjectedScene(tokens=tokens, embeddings=embeddings, layers=layers, use_grids=use_grids, target=target)


def _one_head(document: dict[str, Any], d_model: int) -> HeadGrids:
    """Versions 1 to 4 without "heads": the top-level w_q, w_k and w_v of the one head."""
    if "w_o" in document:
        raise SceneFileError(tr("w_o: only a scene with \"heads\" mixes their outputs with W_O"))
    grids = {name: _matrix(document, name) for name in ("w_q", "w_k", "w_v")}
    for name, grid in grids.items():
        if len(grid) != d_model:
            raise SceneFileError(
                tr("{name}: has {grid_count} rows but the word vectors have {d_model} numbers; a grid needs one row "
                   "per number of a word vector").format(name=name, grid_count=len(grid), d_model=d_model)
            )
    if len(grids["w_q"][0]) != len(grids["w_k"][0]):
        raise SceneFileError(
            tr("w_q makes queries of {query_width} numbers but w_k makes keys of {key_width}; queries and keys "
               "must have the same width").format(
                query_width=len(grids['w_q'][0]), key_width=len(grids['w_k'][0]))
        )
    return HeadGrids(w_q=grids["w_q"], w_k=grids["w_k"], w_v=grids["w_v"])


def _check_grids_can_be_switched_off(layers: list[LayerGrids], d_model: int) -> None:
    if len(layers) > 1 or len(layers[0].heads) > 1:
        raise SceneFileError(tr("use_grids: a scene with several heads always makes its vectors with their grids"))
    head = layers[0].heads[0]
    if not all(len(grid[0]) == d_model for grid in (head.w_q, head.w_k, head.w_v)):
        raise SceneFileError(tr("use_grids: switching the grids off needs square grids (d_k = d_v = d_model)"))


def _title(document: dict[str, Any]) -> str:
    title = document.get("title", "")
    if not isinstance(title, str):
        raise SceneFileError(tr("title: expected text, found {found}").format(found=_describe(title)))
    _check_text(title, "title")
    if len(title) > MAX_TITLE_CHARS:
        raise SceneFileError(tr("title: longer than {max_title_chars} characters").format(
            max_title_chars=MAX_TITLE_CHARS))
    return title


def _check_format(document: dict[str, Any]) -> int:
    marker = document.get("format", FORMAT_MARKER)
    if marker != FORMAT_MARKER:
        raise SceneFileError(tr("format: expected \"{format_marker}\", found {found}").format(
            format_marker=FORMAT_MARKER, found=_describe(marker)))
    # A file without a version is read as the newest version whose shape it has.
    version = document.get("version", TARGET_VERSION if "query_embeddings" in document
                           else LAYERS_VERSION if "layers" in document else LAYERS_VERSION - 1)
    if isinstance(version, bool) or not isinstance(version, int):
        raise SceneFileError(tr("version: expected a whole number, found {found}").format(
            found=_describe(version)))
    if version > FORMAT_VERSION:
        raise SceneFileError(
            tr("version: the file is version {shown_number}, made by a newer Attention Desktop; this one reads up "
               "to version {format_version}").format(
                shown_number=_shown_number(version), format_version=FORMAT_VERSION)
        )
    if version < 1:
        raise SceneFileError(tr("version: {shown_number} is not a scene format version").format(
            shown_number=_shown_number(version)))
    return version


def _token_list(value: Any, where: str, required: bool) -> list[str]:
    if value is None:
        if required:
            raise SceneFileError(tr("{where}: missing; a scene needs a list of token names").format(where=where))
        return []
    if not isinstance(value, list):
        raise SceneFileError(tr("{where}: expected a list of names, found {found}").format(
            where=where, found=_describe(value)))
    if not value:
        raise SceneFileError(tr("{where}: the list is empty; a scene needs at least one token").format(where=where))
    if len(value) > MAX_TOKENS:
        raise SceneFileError(tr("{where}: {value_count:,} tokens; scenes are limited to {max_tokens}").format(
            where=where, value_count=len(value), max_tokens=MAX_TOKENS))
    for index, token in enumerate(value):
        if not isinstance(token, str):
            raise SceneFileError(tr("{where}[{index}]: expected a name (text), found {found}").format(
                where=where, index=index, found=_describe(token)))
        _check_text(token, f"{where}[{index}]")
        if not token.strip():
            raise SceneFileError(tr("{where}[{index}]: the name is empty").format(where=where, index=index))
        if len(token) > MAX_TOKEN_CHARS:
            raise SceneFileError(tr("{where}[{index}]: longer than {max_token_chars} characters").format(
                where=where, index=index, max_token_chars=MAX_TOKEN_CHARS))
    return list(value)


def _matrix(document: dict[str, Any], where: str) -> list[list[float]]:
    return _matrix_at(document.get(where), where)


def _selected(document: dict[str, Any], n_queries: int) -> int:
    value = document.get("selected", 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SceneFileError(tr("selected: expected the index of a query, found {found}").format(
            found=_describe(value)))
    if not 0 <= value < n_queries:
        raise SceneFileError(tr("selected: {shown_number} is out of range; there are {n_queries} queries (0 to "
                                "{last})").format(
            shown_number=_shown_number(value), n_queries=n_queries, last=n_queries - 1))
    return value


def scene_to_dict(data: SceneData, tasks: TaskShapes) -> dict[str, Any]:
    """The file's document for DATA, in version 5, or 6 when it has a target sentence. A trained head that no
    longer fits its scene (a word was added or removed) is left out, so every file written opens again."""
    crossed = isinstance(data, ProjectedScene) and data.target is not None
    document: dict[str, Any] = {"format": FORMAT_MARKER, "version": TARGET_VERSION if crossed else LAYERS_VERSION}
    if data.title:
        document["title"] = data.title
    document["tokens"] = list(data.tokens)
    if isinstance(data, DirectScene):
        if data.query_tokens != data.tokens:
            document["query_tokens"] = list(data.query_tokens)
        document.update(queries=_rows(data.queries), keys=_rows(data.keys))
        document["values"] = [float(row[0]) for row in data.values] if data.scalar_values else _rows(data.values)
    else:
        document["embeddings"] = _rows(data.embeddings)
        if data.target is not None:
            document.update(target_to_dict(data.target))
        document["layers"] = layers_to_list(data.layers)
        if not data.use_grids:
            document["use_grids"] = False
    document.update(scale=data.scale, causal=data.causal, selected=data.selected)
    if isinstance(data, ProjectedScene) and data.trained_head is not None and trained_head_fits(data, tasks):
        document["trained_head"] = trained_head_to_dict(data.trained_head)
    if isinstance(data, DirectScene) and data.taken_from is not None:
        document["taken_from"] = taken_from_to_dict(data.taken_from)
    return document
