"""Skipping over a GGUF file's metadata values without reading them: how many bytes each kind takes.

Shared by gguf_file.py (where the metadata ends), gguf_metadata.py (the cache's checks) and
quick_metadata.py (the first load's quick read), so none of them imports another for it.
"""

from __future__ import annotations

import mmap
import struct

_SCALAR_SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}  # GGUF value types
_STRING, _ARRAY = 8, 9


def skip_string(data: mmap.mmap, offset: int) -> int:
    length = int(struct.unpack_from("<Q", data, offset)[0])
    if offset + 8 + length > len(data):
        raise ValueError("a string past the end of the file")
    return offset + 8 + length


def skip_value(data: mmap.mmap, offset: int, kind: int) -> int:
    if kind in _SCALAR_SIZES:
        return offset + _SCALAR_SIZES[kind]
    if kind == _STRING:
        return skip_string(data, offset)
    if kind != _ARRAY:
        raise ValueError(f"unknown value type {kind}")
    item_kind, count = (int(number) for number in struct.unpack_from("<IQ", data, offset))
    offset += 12
    if count > len(data):  # every item takes a byte at least
        raise ValueError("an array longer than the file")
    if item_kind in _SCALAR_SIZES:
        return offset + _SCALAR_SIZES[item_kind] * count
    for _ in range(count):
        offset = skip_value(data, offset, item_kind)
        if offset > len(data):
            raise ValueError("an array past the end of the file")
    return offset
