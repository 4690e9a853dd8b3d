"""The multi-head part of a scene file: several heads reading the same word vectors.

A multi-head scene is a projection scene whose single w_q, w_k, w_v are replaced by

    "heads": [{"name": "position", "w_q": …, "w_k": …, "w_v": …}, …],
    "w_o": …

Each head makes its own queries, keys and values from the word vectors x (d_model numbers)
with its own grids (d_model × d_head), attends on its own, and the heads' outputs, side by
side (heads · d_v numbers), are mixed by W_O (heads · d_v × d_out) into the scene's output.
Every head has the same widths, as in a transformer layer. Files with heads are version 4;
version 5 keeps the same entries inside each of its "layers" (version5_layers.py).
"""

from __future__ import annotations

from typing import Any

from attn_desktop.language import tr
from attn_desktop.model.files.scene_types import GRID_NAMES, HeadGrids
from attn_desktop.model.files.values import MAX_TITLE_CHARS, SceneFileError, describe, matrix_at, rows, text_at

MULTI_HEAD_VERSION = 4
MAX_HEADS = 8


def read_heads(document: dict[str, Any], d_model: int, version: int) -> tuple[list[HeadGrids], list[list[float]]]:
    """The "heads" list and "w_o" of a version 4 projection scene whose word vectors have D_MODEL numbers."""
    if version < MULTI_HEAD_VERSION:
        raise SceneFileError(
            tr("heads: a version {version} file cannot hold several heads; it needs version {multi_head_version}").format(
                version=version, multi_head_version=MULTI_HEAD_VERSION)
        )
    for name in GRID_NAMES:
        if name in document:
            raise SceneFileError(
                tr("{name}: a scene with \"heads\" gives each head's {name} inside its entry; leave the top-level "
                   "one out").format(name=name)
            )
    heads = read_head_list(document["heads"], "heads", d_model)
    if "w_o" not in document:
        raise SceneFileError(tr("w_o: missing; a scene with heads needs W_O to mix their outputs into one"))
    return heads, read_w_o(document["w_o"], "w_o", heads)


def read_head_list(listed: Any, where: str, d_input: int) -> list[HeadGrids]:
    """A layer's heads, each reading D_INPUT numbers, all of the same widths."""
    if not isinstance(listed, list) or not listed:
        raise SceneFileError(tr("{where}: expected a list of 1 to {max_heads} heads, found {kind}").format(
            where=where, max_heads=MAX_HEADS, kind=_kind(listed)))
    if len(listed) > MAX_HEADS:
        raise SceneFileError(tr("{where}: {listed_count:,} heads; scenes are limited to {max_heads}").format(
            where=where, listed_count=len(listed), max_heads=MAX_HEADS))
    heads = [_head(entry, f"{where}[{index}]", d_input) for index, entry in enumerate(listed)]
    _check_same_widths(heads, where)
    return heads


def read_w_o(value: Any, where: str, heads: list[HeadGrids]) -> list[list[float]]:
    """W_O: one row per number of the heads' outputs side by side."""
    w_o = matrix_at(value, where)
    joined = len(heads) * heads[0].value_width
    if len(w_o) != joined:
        raise SceneFileError(
            tr("{where}: has {w_o_count} rows but the {heads_count} heads' outputs side by side have {joined} "
               "numbers; W_O needs one row per number").format(
                where=where, w_o_count=len(w_o), heads_count=len(heads), joined=joined)
        )
    return w_o


def _kind(value: Any) -> str:
    return "an empty list" if value == [] else describe(value)


def _head(entry: Any, where: str, d_model: int) -> HeadGrids:
    if not isinstance(entry, dict):
        raise SceneFileError(tr("{where}: expected an object with w_q, w_k and w_v, found {found}").format(
            where=where, found=describe(entry)))
    grids = {}
    for name in GRID_NAMES:
        if name not in entry:
            raise SceneFileError(tr("{where}.{name}: missing; every head needs w_q, w_k and w_v").format(
                where=where, name=name))
        grid = matrix_at(entry[name], f"{where}.{name}")
        if len(grid) != d_model:
            raise SceneFileError(
                tr("{where}.{name}: has {grid_count} rows but the word vectors have {d_model} numbers; a grid needs "
                   "one row per number of a word vector").format(
                    where=where, name=name, grid_count=len(grid), d_model=d_model)
            )
        grids[name] = grid
    name = text_at(entry.get("name", ""), f"{where}.name", MAX_TITLE_CHARS)
    head = HeadGrids(w_q=grids["w_q"], w_k=grids["w_k"], w_v=grids["w_v"], name=name.strip())
    if len(head.w_k[0]) != head.key_width:
        raise SceneFileError(
            tr("{where}: w_q makes queries of {key_width} numbers but w_k makes keys of {key_count}; queries and "
               "keys must have the same width").format(
                where=where, key_width=head.key_width, key_count=len(head.w_k[0]))
        )
    return head


def _check_same_widths(heads: list[HeadGrids], where: str) -> None:
    first = heads[0]
    for index, head in enumerate(heads[1:], start=1):
        for part, width, expected in (("w_q", head.key_width, first.key_width),
                                      ("w_v", head.value_width, first.value_width)):
            if width != expected:
                raise SceneFileError(
                    tr("{where}[{index}].{part}: makes {width} numbers but {where}[0].{part} makes {expected}; "
                       "every head of a layer has the same widths").format(
                        where=where, index=index, part=part, width=width, expected=expected)
                )


def heads_to_list(heads: list[HeadGrids]) -> list[dict[str, Any]]:
    """The file's entries for HEADS; a head without a name is written without one."""
    listed = []
    for head in heads:
        entry: dict[str, Any] = {"name": head.name} if head.name else {}
        entry.update(w_q=rows(head.w_q), w_k=rows(head.w_k), w_v=rows(head.w_v))
        listed.append(entry)
    return listed
