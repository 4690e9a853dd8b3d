"""The metadata entries a model is built from, read straight from a GGUF file in tens of milliseconds.

llama.cpp's reader (gguf_file.py) takes seconds over a 49,152-word vocabulary; this reads the same
entries with struct alone, for one purpose: checking that a weights cache's config and tokenizer are the
model file's own (weights_cache.py), so that a cache whose description was rewritten, even with valid
values and a correct checksum, can never change a single number. Only little-endian files are read, and
only the entries named by WANTED; every other entry is skipped over. The values are those the reader's
ReaderField.contents() gives (Python str, int, float, bool, and lists of them), so the two compare equal,
and the tensors' shapes are given as gguf_file.py gives them. Anything unexpected raises ValueError (or
struct.error): the caller then reads the file the slow way.
"""

from __future__ import annotations

import mmap
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

from attn_desktop.model.pretrained.gguf_values import skip_string, skip_value

_FORMATS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_STRING, _ARRAY = 8, 9
MAX_ENTRIES = 1 << 20


def read_entries(path: Path, wanted: Callable[[str], bool]) -> tuple[dict[str, Any], dict[str, tuple[int, ...]]]:
    """The metadata entries of the GGUF file at PATH whose keys WANTED accepts, as the reader gives them, and
    the shape of each tensor it lists (rows first, as gguf_file.py gives them to check_layout)."""
    with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
        if data[:4] != b"GGUF":
            raise ValueError("not a GGUF file")
        version, tensor_count, entry_count = struct.unpack_from("<IQQ", data, 4)
        if version & 0xFFFF == 0 or entry_count > MAX_ENTRIES or tensor_count > MAX_ENTRIES:
            raise ValueError("not a little-endian GGUF file this reader knows")  # the other byte order, or nonsense
        entries, offset = {}, 24
        for _ in range(entry_count):
            key, offset = _string(data, offset)
            (kind,) = struct.unpack_from("<I", data, offset)
            if wanted(key):
                entries[key], offset = _value(data, offset + 4, kind)
            else:
                offset = skip_value(data, offset + 4, kind)
        return entries, _tensor_shapes(data, offset, tensor_count)


def _tensor_shapes(data: mmap.mmap, offset: int, count: int) -> dict[str, tuple[int, ...]]:
    """The tensor list after the entries: each tensor's name, dimensions, type and place."""
    shapes = {}
    for _ in range(count):
        name, offset = _string(data, offset)
        (dimensions,) = struct.unpack_from("<I", data, offset)
        if dimensions > 4:  # GGML_MAX_DIMS
            raise ValueError("a tensor of more than four dimensions")
        sizes = struct.unpack_from(f"<{dimensions}Q", data, offset + 4)
        shapes[name] = tuple(int(size) for size in reversed(sizes))
        offset += 4 + 8 * dimensions + 4 + 8  # the sizes, then the type and the offset of its data
    return shapes


def _string(data: mmap.mmap, offset: int) -> tuple[str, int]:
    end = skip_string(data, offset)
    return data[offset + 8: end].decode("utf-8"), end  # strict, as the reader decodes


_LENGTH = struct.Struct("<Q")


def _strings(data: mmap.mmap, offset: int, count: int) -> tuple[list[str], int]:
    """COUNT strings from OFFSET: _string's work in one loop (a vocabulary is 49,152 of them: every call counts)."""
    items, size, length_at = [], len(data), _LENGTH.unpack_from
    for _ in range(count):
        start = offset + 8
        offset = start + length_at(data, offset)[0]
        if offset > size:
            raise ValueError("a string past the end of the file")
        items.append(data[start:offset].decode("utf-8"))
    return items, offset


def _value(data: mmap.mmap, offset: int, kind: int) -> tuple[Any, int]:
    if kind in _FORMATS:
        form = struct.Struct("<" + _FORMATS[kind])
        return form.unpack_from(data, offset)[0], offset + form.size
    if kind == _STRING:
        return _string(data, offset)
    if kind != _ARRAY:
        raise ValueError(f"unknown value type {kind}")
    item_kind, count = (int(number) for number in struct.unpack_from("<IQ", data, offset))
    offset += 12
    if count > len(data):  # every item takes a byte at least
        raise ValueError("an array longer than the file")
    if item_kind in _FORMATS:
        form = struct.Struct(f"<{count}{_FORMATS[item_kind]}")
        return list(form.unpack_from(data, offset)), offset + form.size
    if item_kind != _STRING:  # arrays of arrays: no entry a model is built from holds one
        raise ValueError("an array of arrays")
    return _strings(data, offset, count)
