"""Reading and writing scene files: UTF-8 JSON with strict validation.

Every problem becomes one SceneFileError whose message names the file, the
place in it and what is wrong, so the command line can print one clear line
and the GUI can show one clear dialog. Nothing here raises anything else.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT_MARKER = "attention-desktop-scene"
FORMAT_VERSION = 1

# Limits that keep a hostile or mistaken file from freezing the app.
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_TOKENS = 256
MAX_WIDTH = 64
MAX_TOKEN_CHARS = 40
MAX_TITLE_CHARS = 200
MAX_ABS_COORDINATE = 1e9


class SceneFileError(ValueError):
    """A scene file (or scene data) that cannot be used, with where and why."""


@dataclass
class SceneData:
    """The plain contents of a scene, as read from or written to a file."""

    tokens: list[str]
    queries: list[list[float]]
    keys: list[list[float]]
    values: list[list[float]]
    query_tokens: list[str] = field(default_factory=list)
    scale: bool = True
    causal: bool = False
    selected: int = 0
    title: str = ""

    def __post_init__(self) -> None:
        if not self.query_tokens:
            self.query_tokens = list(self.tokens)


def load_scene_file(path: str | os.PathLike) -> SceneData:
    """Read and validate a scene file; raise SceneFileError on any problem."""
    name = os.fspath(path)
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            raise SceneFileError(f"{name}: the file is {size:,} bytes; scenes are limited to {MAX_FILE_BYTES:,}")
        raw = Path(path).read_bytes()
    except SceneFileError:
        raise
    except OSError as error:
        raise SceneFileError(f"{name}: cannot read the file ({error.strerror or error})") from None
    try:
        return parse_scene_bytes(raw)
    except SceneFileError as error:
        raise SceneFileError(f"{name}: {error}") from None


def parse_scene_bytes(raw: bytes) -> SceneData:
    if len(raw) > MAX_FILE_BYTES:
        raise SceneFileError(f"the file is {len(raw):,} bytes; scenes are limited to {MAX_FILE_BYTES:,}")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SceneFileError(f"not UTF-8 text (byte 0x{raw[error.start]:02x} at offset {error.start})") from None
    return parse_scene_text(text)


def parse_scene_text(text: str) -> SceneData:
    try:
        document = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise SceneFileError(f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:
        raise SceneFileError("not usable JSON: it is nested too deeply") from None
    return scene_from_dict(document)


def _refuse_constant(name: str) -> Any:
    raise SceneFileError(f"{name} is not a number a scene can hold; use finite numbers only")


def scene_from_dict(document: Any) -> SceneData:
    """Validate a decoded JSON document and turn it into SceneData."""
    if not isinstance(document, dict):
        raise SceneFileError(f"the top level must be a JSON object, found {_describe(document)}")
    _check_format(document)
    tokens = _token_list(document.get("tokens"), "tokens", required=True)
    query_tokens = _token_list(document.get("query_tokens"), "query_tokens", required=False)
    queries = _matrix(document, "queries")
    keys = _matrix(document, "keys")
    values = _matrix(document, "values")

    n = len(tokens)
    if len(keys) != n:
        raise SceneFileError(f"keys: there are {n} tokens but {len(keys)} keys; give one key per token")
    if len(values) != n:
        raise SceneFileError(f"values: there are {n} tokens but {len(values)} values; give one value per token")
    if not query_tokens:
        if len(queries) != n:
            raise SceneFileError(
                f"queries: there are {n} tokens but {len(queries)} queries; "
                "give one query per token, or name them with query_tokens"
            )
        query_tokens = list(tokens)
    elif len(query_tokens) != len(queries):
        raise SceneFileError(
            f"query_tokens: {len(query_tokens)} names for {len(queries)} queries; give one name per query"
        )
    if len(queries[0]) != len(keys[0]):
        raise SceneFileError(
            f"queries have {len(queries[0])} numbers each but keys have {len(keys[0])}; "
            "a query and a key must have the same width to be compared"
        )

    scale = _boolean(document, "scale", default=True)
    causal = _boolean(document, "causal", default=False)
    if causal and len(queries) != n:
        raise SceneFileError("causal: a causal mask needs exactly one query per token")
    selected = _selected(document, len(queries))
    title = document.get("title", "")
    if not isinstance(title, str):
        raise SceneFileError(f"title: expected text, found {_describe(title)}")
    if len(title) > MAX_TITLE_CHARS:
        raise SceneFileError(f"title: longer than {MAX_TITLE_CHARS} characters")
    return SceneData(
        tokens=tokens, queries=queries, keys=keys, values=values,
        query_tokens=query_tokens, scale=scale, causal=causal,
        selected=selected, title=title,
    )


def _check_format(document: dict) -> None:
    marker = document.get("format", FORMAT_MARKER)
    if marker != FORMAT_MARKER:
        raise SceneFileError(f"format: expected \"{FORMAT_MARKER}\", found {_describe(marker)}")
    version = document.get("version", FORMAT_VERSION)
    if isinstance(version, bool) or not isinstance(version, int):
        raise SceneFileError(f"version: expected a whole number, found {_describe(version)}")
    if version > FORMAT_VERSION:
        raise SceneFileError(
            f"version: the file is version {version}, made by a newer Attention Desktop; "
            f"this one reads up to version {FORMAT_VERSION}"
        )
    if version < 1:
        raise SceneFileError(f"version: {version} is not a scene format version")


def _token_list(value: Any, where: str, required: bool) -> list[str]:
    if value is None:
        if required:
            raise SceneFileError(f"{where}: missing; a scene needs a list of token names")
        return []
    if not isinstance(value, list):
        raise SceneFileError(f"{where}: expected a list of names, found {_describe(value)}")
    if not value:
        raise SceneFileError(f"{where}: the list is empty; a scene needs at least one token")
    if len(value) > MAX_TOKENS:
        raise SceneFileError(f"{where}: {len(value):,} tokens; scenes are limited to {MAX_TOKENS}")
    for index, token in enumerate(value):
        if not isinstance(token, str):
            raise SceneFileError(f"{where}[{index}]: expected a name (text), found {_describe(token)}")
        if not token.strip():
            raise SceneFileError(f"{where}[{index}]: the name is empty")
        if len(token) > MAX_TOKEN_CHARS:
            raise SceneFileError(f"{where}[{index}]: longer than {MAX_TOKEN_CHARS} characters")
    return list(value)


def _matrix(document: dict, where: str) -> list[list[float]]:
    rows = document.get(where)
    if rows is None:
        raise SceneFileError(f"{where}: missing; a scene needs {where} as a list of number lists")
    if not isinstance(rows, list):
        raise SceneFileError(f"{where}: expected a list of number lists, found {_describe(rows)}")
    if not rows:
        raise SceneFileError(f"{where}: the list is empty")
    if len(rows) > MAX_TOKENS:
        raise SceneFileError(f"{where}: {len(rows):,} rows; scenes are limited to {MAX_TOKENS}")
    width = None
    matrix = []
    for row_index, row in enumerate(rows):
        place = f"{where}[{row_index}]"
        if not isinstance(row, list):
            raise SceneFileError(f"{place}: expected a list of numbers, found {_describe(row)}")
        if not row:
            raise SceneFileError(f"{place}: the row is empty")
        if len(row) > MAX_WIDTH:
            raise SceneFileError(f"{place}: {len(row)} numbers; vectors are limited to {MAX_WIDTH}")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise SceneFileError(f"{place}: has {len(row)} numbers but {where}[0] has {width}; rows must be the same length")
        matrix.append([_number(item, f"{place}[{column}]") for column, item in enumerate(row)])
    return matrix


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SceneFileError(f"{where}: expected a number, found {_describe(value)}")
    number = float(value)
    if not math.isfinite(number):
        raise SceneFileError(f"{where}: {value} is not a finite number")
    if abs(number) > MAX_ABS_COORDINATE:
        raise SceneFileError(f"{where}: {value:g} is too large; coordinates are limited to ±{MAX_ABS_COORDINATE:g}")
    return number


def _boolean(document: dict, where: str, default: bool) -> bool:
    value = document.get(where, default)
    if not isinstance(value, bool):
        raise SceneFileError(f"{where}: expected true or false, found {_describe(value)}")
    return value


def _selected(document: dict, n_queries: int) -> int:
    value = document.get("selected", 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SceneFileError(f"selected: expected the index of a query, found {_describe(value)}")
    if not 0 <= value < n_queries:
        raise SceneFileError(f"selected: {value} is out of range; there are {n_queries} queries (0 to {n_queries - 1})")
    return value


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 20 else value[:17] + "..."
        return f"the text {json.dumps(shown, ensure_ascii=False)}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def scene_to_dict(data: SceneData) -> dict:
    document: dict[str, Any] = {"format": FORMAT_MARKER, "version": FORMAT_VERSION}
    if data.title:
        document["title"] = data.title
    document["tokens"] = list(data.tokens)
    if data.query_tokens != data.tokens:
        document["query_tokens"] = list(data.query_tokens)
    document.update(
        queries=[list(map(float, row)) for row in data.queries],
        keys=[list(map(float, row)) for row in data.keys],
        values=[list(map(float, row)) for row in data.values],
        scale=data.scale,
        causal=data.causal,
        selected=data.selected,
    )
    return document


def write_json_atomically(path: str | os.PathLike, document: dict) -> None:
    """Write JSON beside the target, then rename over it.

    A crash or a full disk mid-write leaves the old file (or no file), never
    half a file: os.replace is atomic on one filesystem.
    """
    text = json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    write_text_atomically(path, text)


def write_text_atomically(path: str | os.PathLike, text: str) -> None:
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
