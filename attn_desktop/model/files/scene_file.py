"""Reading and writing scene files: UTF-8 JSON with strict validation.

Every problem becomes one SceneFileError whose message names the file, the
place in it and what is wrong, so the command line can print one clear line
and the GUI can show one clear dialog. Nothing here raises anything else.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

import numpy as np

from attn_desktop.model.files.multi_head_file import MULTI_HEAD_VERSION, HeadGrids, heads_to_dict, read_heads
from attn_desktop.model.files.safe_write import file_kind
from attn_desktop.model.files.values import MAX_TITLE_CHARS, MAX_TOKEN_CHARS, MAX_TOKENS, SceneFileError
from attn_desktop.model.files.values import boolean as _boolean
from attn_desktop.model.files.values import check_text as _check_text
from attn_desktop.model.files.values import describe as _describe
from attn_desktop.model.files.values import matrix_at as _matrix_at
from attn_desktop.model.files.values import number as _number
from attn_desktop.model.files.values import printable as _printable
from attn_desktop.model.files.values import rows as _rows
from attn_desktop.model.files.values import shown_number as _shown_number
from attn_desktop.model.files.values import text_at as _text_at
from attn_desktop.model.files.values import whole as _whole
from attn_desktop.model.training.tasks import TASKS

T = TypeVar("T")

FORMAT_MARKER = "attention-desktop-scene"
# Version 2 added the optional "trained_head" of a projection scene (a head kept from training),
# version 3 the optional "taken_from" of a scene made from a head of a pretrained model,
# version 4 several heads ("heads" and "w_o", see multi_head_file.py).
# A file is written with the lowest version that holds it, so a scene without any of them
# still opens in an Attention Desktop that reads only version 1.
FORMAT_VERSION = MULTI_HEAD_VERSION
TRAINED_HEAD_VERSION = 2
TAKEN_FROM_VERSION = 3
TRAINED_KEY_WIDTH = 2  # training's KEY_WIDTH: trained queries and keys are 2-D (training imports this module)

# Limits that keep a hostile or mistaken file from freezing the app.
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_SENTENCE_CHARS = 10_000  # the sentence a model read (256 tokens at most)
MAX_LAYER_OR_HEAD = 10_000


@dataclass(frozen=True)
class TrainedHead:
    """A head kept from training, carried by the projection scene that shows its example.

    The scene's own w_q, w_k and w_v are the head's grids, and its word vectors
    start as x_i = E[t_i] + P[i]; this holds the rest of the head: the task it
    was trained on, the example's token ids t_i (indices into the task's
    vocabulary), the embeddings E (V x d_model) and P (L x d_model), and the
    output layer W_O (d_v x V) and b_O (V). Plain lists, as in the file.
    """

    task: str
    token_ids: list[int]
    embed: list[list[float]]
    pos: list[list[float]]
    w_o: list[list[float]]
    b_o: list[float]

    @property
    def d_model(self) -> int:
        return len(self.embed[0])


@dataclass(frozen=True)
class TakenFrom:
    """Where a scene's vectors came from: one head of a pretrained model reading one sentence.

    Layers and heads are counted from 0, as the model's arrays index them. The scene's
    queries and keys are the head's after RoPE turned them, its values the head's own.
    """

    model: str
    layer: int
    head: int
    sentence: str


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
    scalar_values: bool = False  # values were plain numbers (d_v = 1), as in a soft lookup
    # A projection scene: word vectors and the three grids; queries, keys and values are derived.
    embeddings: list[list[float]] | None = None
    w_q: list[list[float]] | None = None
    w_k: list[list[float]] | None = None
    w_v: list[list[float]] | None = None
    use_grids: bool = True
    trained_head: TrainedHead | None = None  # a projection scene kept from training (file version 2)
    taken_from: TakenFrom | None = None  # a scene made from a pretrained model's head (file version 3)
    # Several heads (file version 4): each head's grids instead of w_q, w_k, w_v, and W_O to mix them.
    # queries, keys and values are then the first head's.
    heads: list[HeadGrids] | None = None
    w_o: list[list[float]] | None = None

    @property
    def is_projection(self) -> bool:
        return self.embeddings is not None

    @property
    def is_multi_head(self) -> bool:
        return self.heads is not None

    def __post_init__(self) -> None:
        if not self.query_tokens:
            self.query_tokens = list(self.tokens)


def load_scene_file(path: str | os.PathLike[str]) -> SceneData:
    """Read and validate a scene file; raise SceneFileError on any problem."""
    return _named(path, lambda: scene_from_dict(parse_json_bytes(read_file_bytes(path))))


def load_json_file(path: str | os.PathLike[str]) -> Any:
    """Any JSON document of ours (a scene, the autosave copy), read with the scene's limits.

    Raises only SceneFileError, its message starting with the file's name:
    a folder, device or pipe, a file over the size limit, text that is not
    UTF-8, JSON that is broken, nested too deeply or holds numbers too long
    to be numbers.
    """
    return _named(path, lambda: parse_json_bytes(read_file_bytes(path)))


def _named(path: str | os.PathLike[str], read: Callable[[], T]) -> T:
    try:
        return read()
    except SceneFileError as error:
        raise SceneFileError(f"{shown_path(path)}: {error}") from None


def read_file_bytes(path: str | os.PathLike[str], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file, reading at most LIMIT; SceneFileError (without the name) otherwise.

    The size on disk is not trusted (a device or a pipe says 0): the type is
    checked before opening, the file is opened non-blocking (a FIFO swapped in
    meanwhile cannot hang the open) and checked again, and the read stops one
    byte past the limit.
    """
    try:
        info = os.stat(path)  # through symlinks: what counts is what the link points at
        if not stat.S_ISREG(info.st_mode):
            raise SceneFileError(f"{file_kind(info.st_mode)}, not a scene file")
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as error:
        raise SceneFileError(f"cannot read the file ({error.strerror or error})") from None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise SceneFileError(f"{file_kind(info.st_mode)}, not a scene file")
        if info.st_size > limit:
            raise SceneFileError(_too_big(f"{info.st_size:,} bytes", limit))
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(handle, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:  # it grew while being read
            raise SceneFileError(_too_big(f"more than {limit:,} bytes", limit))
        return b"".join(chunks)
    except OSError as error:
        raise SceneFileError(f"cannot read the file ({error.strerror or error})") from None
    finally:
        os.close(handle)


def _too_big(size: str, limit: int) -> str:
    return f"the file is {size}; scenes are limited to {limit:,}"


def shown_path(path: str | os.PathLike[str]) -> str:
    """A file name fit for a one-line message: undecodable bytes and control characters escaped."""
    return _printable(os.fsencode(path).decode("utf-8", "backslashreplace"))


def parse_scene_bytes(raw: bytes) -> SceneData:
    return scene_from_dict(parse_json_bytes(raw))


def parse_json_bytes(raw: bytes) -> Any:
    if len(raw) > MAX_FILE_BYTES:
        raise SceneFileError(_too_big(f"{len(raw):,} bytes", MAX_FILE_BYTES))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SceneFileError(f"not UTF-8 text (byte 0x{raw[error.start]:02x} at offset {error.start})") from None
    return parse_json_text(text)


def parse_scene_text(text: str) -> SceneData:
    return scene_from_dict(parse_json_text(text))


MAX_INTEGER_DIGITS = 30  # every whole number a scene holds is far shorter; 5,000 digits would stall int()
_LONG_INTEGER = re.compile(rf"-?[0-9]{{{MAX_INTEGER_DIGITS + 1},}}")


def parse_json_text(text: str) -> Any:
    """Decode JSON, refusing NaN and Infinity, whole numbers too long to be sensible and too much nesting."""
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_int=_whole_number)
    except _LongInteger as error:
        raise SceneFileError(f"{error}{_where(text, _LONG_INTEGER)}") from None
    except SceneFileError as error:
        name = str(error).split()[0]
        raise SceneFileError(f"{error}{_where(text, re.compile(re.escape(name)))}") from None
    except json.JSONDecodeError as error:
        raise SceneFileError(f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:
        raise SceneFileError("not usable JSON: it is nested too deeply") from None
    except (ValueError, OverflowError, MemoryError) as error:  # whatever else the decoder's limits raise
        raise SceneFileError(f"not usable JSON: {_printable(str(error))[:120]}") from None


class _LongInteger(SceneFileError):
    pass


def _whole_number(digits: str) -> int:
    count = len(digits.lstrip("-"))
    if count > MAX_INTEGER_DIGITS:
        raise _LongInteger(f"a whole number with {count:,} digits is far too large for a scene")
    return int(digits)


def _refuse_constant(name: str) -> Any:
    raise SceneFileError(f"{name} is not a number a scene can hold; use finite numbers only")


def _where(text: str, pattern: re.Pattern[str]) -> str:
    """' (line L column C)' for the first match of PATTERN outside a JSON string, or ''.

    Strings are matched whole as the first alternative, so a hit of PATTERN
    is never inside one; the regex engine does the scan (a 4 MB file in well under a second).
    """
    combined = re.compile(rf'"[^"\\\\]*(?:\\\\.[^"\\\\]*)*"|(?P<hit>{pattern.pattern})', re.DOTALL)
    for match in combined.finditer(text):
        if match.group("hit") is not None:
            position = match.start()
            line = text.count("\n", 0, position) + 1
            column = position - (text.rfind("\n", 0, position) + 1) + 1
            return f" (line {line} column {column})"
    return ""


def scene_from_dict(document: Any) -> SceneData:
    """Validate a decoded JSON document and turn it into SceneData.

    Two kinds of scene: one that gives queries, keys and values directly
    (values may be plain numbers, as in a soft lookup), and a projection
    scene that gives word vectors (embeddings) and the grids w_q, w_k, w_v
    that make them, q = x W_Q, k = x W_K, v = x W_V.
    """
    if not isinstance(document, dict):
        raise SceneFileError(f"the top level must be a JSON object, found {_describe(document)}")
    _check_format(document)
    tokens = _token_list(document.get("tokens"), "tokens", required=True)
    query_tokens = _token_list(document.get("query_tokens"), "query_tokens", required=False)
    if "embeddings" in document:
        data = _projection_scene(document, tokens, query_tokens)
    else:
        data = _vectors_scene(document, tokens, query_tokens)
    n, n_queries = len(tokens), len(data.queries)
    data.scale = _boolean(document, "scale", default=True)
    data.causal = _boolean(document, "causal", default=False)
    if data.causal and n_queries != n:
        raise SceneFileError("causal: a causal mask needs exactly one query per token")
    data.selected = _selected(document, n_queries)
    data.title = _title(document)
    if "trained_head" in document:
        data.trained_head = _trained_head(document, data)
    if "taken_from" in document:
        data.taken_from = _taken_from(document, data)
    return data


def _vectors_scene(document: dict[str, Any], tokens: list[str], query_tokens: list[str]) -> SceneData:
    queries = _matrix(document, "queries")
    keys = _matrix(document, "keys")
    values, scalar_values = _values(document)
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
    return SceneData(
        tokens=tokens, queries=queries, keys=keys, values=values,
        query_tokens=query_tokens, scalar_values=scalar_values,
    )


def _values(document: dict[str, Any]) -> tuple[list[list[float]], bool]:
    """Values as rows; a flat list of numbers means one number per token (d_v = 1)."""
    raw = document.get("values")
    if isinstance(raw, list) and raw and not any(isinstance(item, list) for item in raw):
        if len(raw) > MAX_TOKENS:
            raise SceneFileError(f"values: {len(raw):,} values; scenes are limited to {MAX_TOKENS}")
        return [[_number(item, f"values[{index}]")] for index, item in enumerate(raw)], True
    return _matrix(document, "values"), False


def _projection_scene(document: dict[str, Any], tokens: list[str], query_tokens: list[str]) -> SceneData:
    for name in ("queries", "keys", "values"):
        if name in document:
            raise SceneFileError(
                f"{name}: a projection scene gives embeddings and w_q, w_k, w_v, which make the {name}; "
                f"leave {name} out"
            )
    if query_tokens and query_tokens != tokens:
        raise SceneFileError("query_tokens: in a projection scene every token makes its own query")
    embeddings = _matrix(document, "embeddings")
    n, d_model = len(tokens), len(embeddings[0])
    if len(embeddings) != n:
        raise SceneFileError(f"embeddings: there are {n} tokens but {len(embeddings)} word vectors")
    if "heads" in document:
        return _multi_head_scene(document, tokens, embeddings)
    if "w_o" in document:
        raise SceneFileError("w_o: only a scene with \"heads\" mixes their outputs with W_O")
    grids = {name: _matrix(document, name) for name in ("w_q", "w_k", "w_v")}
    for name, grid in grids.items():
        if len(grid) != d_model:
            raise SceneFileError(
                f"{name}: has {len(grid)} rows but the word vectors have {d_model} numbers; "
                "a grid needs one row per number of a word vector"
            )
    if len(grids["w_q"][0]) != len(grids["w_k"][0]):
        raise SceneFileError(
            f"w_q makes queries of {len(grids['w_q'][0])} numbers but w_k makes keys of {len(grids['w_k'][0])}; "
            "queries and keys must have the same width"
        )
    use_grids = _boolean(document, "use_grids", default=True)
    if not use_grids and not all(len(grid[0]) == d_model for grid in grids.values()):
        raise SceneFileError("use_grids: switching the grids off needs square grids (d_k = d_v = d_model)")
    data = SceneData(
        tokens=tokens, queries=[], keys=[], values=[],
        embeddings=embeddings, w_q=grids["w_q"], w_k=grids["w_k"], w_v=grids["w_v"], use_grids=use_grids,
    )
    data.queries, data.keys, data.values = project(data)
    return data


def _multi_head_scene(document: dict[str, Any], tokens: list[str], embeddings: list[list[float]]) -> SceneData:
    heads, w_o = read_heads(document, len(embeddings[0]), document.get("version", FORMAT_VERSION))
    if not _boolean(document, "use_grids", default=True):
        raise SceneFileError("use_grids: a scene with several heads always makes its vectors with their grids")
    data = SceneData(tokens=tokens, queries=[], keys=[], values=[], embeddings=embeddings, heads=heads, w_o=w_o)
    data.queries, data.keys, data.values = project(data)
    return data


def project(data: SceneData) -> tuple[list[list[float]], list[list[float]], list[list[float]]]:
    """q = x W_Q, k = x W_K, v = x W_V (or q = k = v = x with the grids switched off);
    with several heads, the first head's."""
    x = np.asarray(data.embeddings, dtype=np.float64)
    if not data.use_grids:
        return x.tolist(), x.tolist(), x.tolist()
    grids = data.heads[0] if data.heads else data
    queries, keys, values = ((x @ np.asarray(grid, dtype=np.float64)).tolist()
                             for grid in (grids.w_q, grids.w_k, grids.w_v))
    return queries, keys, values


def _title(document: dict[str, Any]) -> str:
    title = document.get("title", "")
    if not isinstance(title, str):
        raise SceneFileError(f"title: expected text, found {_describe(title)}")
    _check_text(title, "title")
    if len(title) > MAX_TITLE_CHARS:
        raise SceneFileError(f"title: longer than {MAX_TITLE_CHARS} characters")
    return title


def _trained_head(document: dict[str, Any], data: SceneData) -> TrainedHead:
    """The "trained_head" section, checked against its task and against the scene that shows it."""
    if not data.is_projection or data.is_multi_head:
        raise SceneFileError(
            "trained_head: only a projection scene with one head (embeddings and grids) can carry a trained head"
        )
    version = document.get("version", FORMAT_VERSION)
    if version < TRAINED_HEAD_VERSION:
        raise SceneFileError(
            f"trained_head: a version {version} file cannot hold a trained head; it needs version {TRAINED_HEAD_VERSION}"
        )
    section = document["trained_head"]
    if not isinstance(section, dict):
        raise SceneFileError(f"trained_head: expected an object, found {_describe(section)}")
    name = section.get("task")
    if not isinstance(name, str) or name not in TASKS:
        raise SceneFileError(
            f"trained_head.task: expected one of {', '.join(TASKS)}, found {_describe(name)}"
        )
    task = TASKS[name]
    vocab, length = len(task.vocab), task.seq_len
    d_model = _whole(section.get("d_model"), "trained_head.d_model")
    width = len(data.embeddings[0]) if data.embeddings else 0
    if d_model != width:
        raise SceneFileError(f"trained_head.d_model: {d_model}, but the word vectors have {width} numbers")
    if len(data.tokens) != length:
        raise SceneFileError(
            f"trained_head: {task.name} sentences have {length} tokens but the scene has {len(data.tokens)}"
        )
    grids = {grid: np.shape(getattr(data, grid)) for grid in ("w_q", "w_k", "w_v")}
    if grids["w_q"][1] != TRAINED_KEY_WIDTH:
        raise SceneFileError(
            f"trained_head: a trained head makes queries and keys of {TRAINED_KEY_WIDTH} numbers, "
            f"but w_q makes {grids['w_q'][1]}"
        )
    d_v = grids["w_v"][1]
    token_ids = _token_ids(section.get("token_ids"), length, vocab)
    shapes = {"embed": (vocab, d_model), "pos": (length, d_model), "w_o": (d_v, vocab)}
    arrays = {}
    for part, shape in shapes.items():
        where = f"trained_head.{part}"
        arrays[part] = _matrix_at(section.get(part), where)
        if np.shape(arrays[part]) != shape:
            raise SceneFileError(
                f"{where}: has {len(arrays[part])} rows of {len(arrays[part][0])} numbers; "
                f"the {task.name} head needs {shape[0]} rows of {shape[1]}"
            )
    b_o = section.get("b_o")
    if not isinstance(b_o, list) or len(b_o) != vocab:
        raise SceneFileError(f"trained_head.b_o: expected a list of {vocab} numbers, one per word of {task.name}")
    biases = [_number(item, f"trained_head.b_o[{index}]") for index, item in enumerate(b_o)]
    return TrainedHead(task=name, token_ids=token_ids, embed=arrays["embed"], pos=arrays["pos"],
                       w_o=arrays["w_o"], b_o=biases)


def _taken_from(document: dict[str, Any], data: SceneData) -> TakenFrom:
    """The "taken_from" section: which model, layer and head, and the sentence it read."""
    version = document.get("version", FORMAT_VERSION)
    if version < TAKEN_FROM_VERSION:
        raise SceneFileError(
            f"taken_from: a version {version} file cannot say which model a scene was taken from; "
            f"it needs version {TAKEN_FROM_VERSION}"
        )
    if data.is_projection:
        raise SceneFileError("taken_from: only a scene of queries, keys and values can be taken from a model")
    section = document["taken_from"]
    if not isinstance(section, dict):
        raise SceneFileError(f"taken_from: expected an object, found {_describe(section)}")
    model = _text_at(section.get("model"), "taken_from.model", MAX_TITLE_CHARS)
    if not model.strip():
        raise SceneFileError("taken_from.model: the name is empty")
    layer, head = (_count(section.get(part), f"taken_from.{part}") for part in ("layer", "head"))
    sentence = _text_at(section.get("sentence"), "taken_from.sentence", MAX_SENTENCE_CHARS)
    return TakenFrom(model=model, layer=layer, head=head, sentence=sentence)


def _count(value: Any, where: str) -> int:
    """A layer or head number: a whole number from 0."""
    number = _whole(value, where)
    if not 0 <= number <= MAX_LAYER_OR_HEAD:
        raise SceneFileError(f"{where}: {_shown_number(number)} is not a number from 0 to {MAX_LAYER_OR_HEAD:,}")
    return number


def _token_ids(value: Any, length: int, vocab: int) -> list[int]:
    where = "trained_head.token_ids"
    if not isinstance(value, list) or len(value) != length:
        raise SceneFileError(f"{where}: expected a list of {length} token ids, one per position of the example")
    for index, item in enumerate(value):
        token = _whole(item, f"{where}[{index}]")
        if not 0 <= token < vocab:
            raise SceneFileError(f"{where}[{index}]: {_shown_number(token)} is not a token id (0 to {vocab - 1})")
    return list(value)


def trained_head_fits(data: SceneData) -> bool:
    """True when DATA's trained head still belongs to its scene: the same number of tokens
    (adding or removing a word makes it another sentence) and the same widths."""
    head = data.trained_head
    if head is None or not data.is_projection or data.is_multi_head:
        return False
    try:
        _trained_head({"version": FORMAT_VERSION, "trained_head": _trained_head_dict(head)}, data)
    except SceneFileError:
        return False
    return True


def _check_format(document: dict[str, Any]) -> None:
    marker = document.get("format", FORMAT_MARKER)
    if marker != FORMAT_MARKER:
        raise SceneFileError(f"format: expected \"{FORMAT_MARKER}\", found {_describe(marker)}")
    version = document.get("version", FORMAT_VERSION)
    if isinstance(version, bool) or not isinstance(version, int):
        raise SceneFileError(f"version: expected a whole number, found {_describe(version)}")
    if version > FORMAT_VERSION:
        raise SceneFileError(
            f"version: the file is version {_shown_number(version)}, made by a newer Attention Desktop; "
            f"this one reads up to version {FORMAT_VERSION}"
        )
    if version < 1:
        raise SceneFileError(f"version: {_shown_number(version)} is not a scene format version")


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
        _check_text(token, f"{where}[{index}]")
        if not token.strip():
            raise SceneFileError(f"{where}[{index}]: the name is empty")
        if len(token) > MAX_TOKEN_CHARS:
            raise SceneFileError(f"{where}[{index}]: longer than {MAX_TOKEN_CHARS} characters")
    return list(value)


def _matrix(document: dict[str, Any], where: str) -> list[list[float]]:
    return _matrix_at(document.get(where), where)


def _selected(document: dict[str, Any], n_queries: int) -> int:
    value = document.get("selected", 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SceneFileError(f"selected: expected the index of a query, found {_describe(value)}")
    if not 0 <= value < n_queries:
        raise SceneFileError(f"selected: {_shown_number(value)} is out of range; there are {n_queries} queries (0 to {n_queries - 1})")
    return value


def scene_to_dict(data: SceneData) -> dict[str, Any]:
    carries_head = trained_head_fits(data)  # so every file written opens again
    taken_from = data.taken_from if not data.is_projection else None
    # The lowest version that holds the scene: without a trained head or a model's head, older versions open it.
    version = (MULTI_HEAD_VERSION if data.is_multi_head else TAKEN_FROM_VERSION if taken_from
               else TRAINED_HEAD_VERSION if carries_head else 1)
    document: dict[str, Any] = {"format": FORMAT_MARKER, "version": version}
    if data.title:
        document["title"] = data.title
    document["tokens"] = list(data.tokens)
    if data.query_tokens != data.tokens:
        document["query_tokens"] = list(data.query_tokens)
    if data.is_multi_head and data.heads is not None and data.w_o is not None:  # (two tests for the type checker)
        document.update(embeddings=_rows(data.embeddings), **heads_to_dict(data.heads, data.w_o))
    elif data.is_projection:
        document.update(
            embeddings=_rows(data.embeddings), w_q=_rows(data.w_q), w_k=_rows(data.w_k), w_v=_rows(data.w_v),
            use_grids=data.use_grids,
        )
    else:
        document.update(queries=_rows(data.queries), keys=_rows(data.keys))
        document["values"] = [float(row[0]) for row in data.values] if data.scalar_values else _rows(data.values)
    document.update(scale=data.scale, causal=data.causal, selected=data.selected)
    if carries_head and data.trained_head is not None:  # (the second test is for the type checker)
        document["trained_head"] = _trained_head_dict(data.trained_head)
    if taken_from is not None:
        document["taken_from"] = {"model": taken_from.model, "layer": int(taken_from.layer),
                                  "head": int(taken_from.head), "sentence": taken_from.sentence}
    return document


def _trained_head_dict(head: TrainedHead) -> dict[str, Any]:
    return {
        "task": head.task, "d_model": head.d_model, "token_ids": [int(token) for token in head.token_ids],
        "embed": _rows(head.embed), "pos": _rows(head.pos), "w_o": _rows(head.w_o),
        "b_o": [float(item) for item in head.b_o],
    }


def same_contents(a: SceneData, b: SceneData) -> bool:
    """Every field equal, the numbers exactly (an undo restores them exactly).

    The chosen query does not count: choosing one is not an edit.
    """
    for item in fields(SceneData):
        if item.name == "selected":
            continue
        x, y = getattr(a, item.name), getattr(b, item.name)
        if item.name == "heads":  # HeadGrids compare their lists exactly
            if x != y:
                return False
        elif x is None or y is None or isinstance(x, (str, bool, int, TrainedHead, TakenFrom)):
            if x is not y and x != y:
                return False
        elif np.shape(x) != np.shape(y) or not np.array_equal(x, y):
            return False
    return True
