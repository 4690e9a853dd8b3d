"""A first load's metadata in tens of milliseconds: read with struct (gguf_metadata.py), the reader left to the tensors.

llama.cpp's reader builds a small array for every part of every metadata entry: a second or more for
SmolLM2's 49,152-word vocabulary and its merges, half of a first load. gguf_metadata.py reads the same entries
as the same Python values (the weights cache's checks compare the two) in tens of milliseconds. The reader
then skips over the entries (SkimmingReader) and reads only what it reads itself: the alignment, the tensor
list and the tensors.

Only a file that reads this way whole is read this way: a little-endian file, each key once, no array of
arrays, every string UTF-8, nothing past the end. Anything else (None) is read by the reader entry by entry,
as before, which says in one line what is wrong with a damaged file.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

from attn_desktop.model.pretrained.gguf_metadata import read_entries
from attn_desktop.model.pretrained.gguf_values import skip_string, skip_value

ALIGNMENT_KEY = b"general.alignment"  # the one entry the reader reads and checks for itself


def quick_reader_and_metadata(path: Path, reader_class: Any) -> tuple[Any, dict[str, Any]] | None:
    """READER_CLASS's reader of PATH, and its metadata as the reader's entries give it (GGUF.version,
    GGUF.tensor_count and GGUF.kv_count first, as the reader lists them); None when the file does not read so."""
    try:
        entries, _shapes = read_entries(path, lambda _key: True)
        with open(path, "rb") as file:
            version, tensor_count, entry_count = struct.unpack("<IQQ", file.read(24)[4:])
        reader = _skimming(reader_class)(str(path), "r")
    except Exception:  # noqa: BLE001 - anything at all: the reader reads the file entry by entry and says what
        return None
    if len(entries) != entry_count:  # a key twice: the reader refuses such a file
        return None
    metadata = {"GGUF.version": version, "GGUF.tensor_count": tensor_count, "GGUF.kv_count": entry_count}
    return reader, metadata | entries


def _skimming(reader_class: Any) -> Any:
    class SkimmingReader(reader_class):  # type: ignore[misc, unused-ignore]
        """The reader, skipping over the metadata entries (read already) but the alignment, which it reads itself."""

        def _build_fields(self, offset: int, count: int) -> int:
            data = self.data
            for _ in range(int(count)):
                key_end = skip_string(data, offset)
                if bytes(data[offset + 8 : key_end]) == ALIGNMENT_KEY:
                    offset = super()._build_fields(offset, 1)
                    continue
                (kind,) = struct.unpack_from("<I", data, key_end)
                offset = skip_value(data, key_end + 4, kind)
            return offset

    return SkimmingReader
