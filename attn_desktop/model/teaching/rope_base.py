"""SmolLM2's RoPE base, read from the header of the model pack's file when the pack is installed.

The Positions lab draws a head's 32 pairs turning at θ_i = base^(−2i/64). The base is one number in the GGUF
file's metadata (`llama.rope.freq_base`); reading the whole file takes seconds, so only its metadata
entries are walked, straight from the bytes, as far as that entry (the tokenizer's 49,152 words come after it
in SmolLM2's file, and are skipped over, not read, if they come first). Any problem reads as "no base":
the lab then says it shows SmolLM2's published base.
"""

from __future__ import annotations

import math
import mmap
import struct
from pathlib import Path

ROPE_BASE_KEY = "llama.rope.freq_base"
GGUF_MAGIC = b"GGUF"
_SCALAR_FORMATS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9
MAX_ENTRIES = 1 << 20


def installed_rope_base() -> float | None:
    """The base in the installed model pack's file, or None (no pack, no reader library, or no such entry)."""
    from attn_desktop.model.pretrained.pack import ModelUnavailable, find_pack_model

    try:
        path = find_pack_model()
    except ModelUnavailable:
        return None
    return rope_base_in(path)


def rope_base_in(path: str | Path) -> float | None:
    """The number under ROPE_BASE_KEY in a little-endian GGUF file's metadata, or None."""
    try:
        with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
            if data[:4] != GGUF_MAGIC:
                return None
            _version, _tensors, entries = struct.unpack_from("<IQQ", data, 4)
            offset = 24
            for _ in range(min(entries, MAX_ENTRIES)):
                key, offset = _string(data, offset)
                (kind,) = struct.unpack_from("<I", data, offset)
                if key == ROPE_BASE_KEY and kind in _SCALAR_FORMATS:
                    value = float(struct.unpack_from(_SCALAR_FORMATS[kind], data, offset + 4)[0])
                    return value if math.isfinite(value) and value > 1 else None  # inf or NaN: none
                offset = _skip(data, offset + 4, kind)
    except (OSError, ValueError, struct.error, UnicodeDecodeError):
        return None
    return None


def _string(data: mmap.mmap, offset: int) -> tuple[str, int]:
    (length,) = struct.unpack_from("<Q", data, offset)
    if offset + 8 + length > len(data):
        raise ValueError("a string past the end of the file")
    return data[offset + 8: offset + 8 + length].decode("utf-8"), offset + 8 + length


def _skip(data: mmap.mmap, offset: int, kind: int) -> int:
    if kind in _SCALAR_FORMATS:
        return offset + struct.calcsize(_SCALAR_FORMATS[kind])
    if kind == _STRING:
        (length,) = struct.unpack_from("<Q", data, offset)
        return offset + 8 + int(length)
    if kind != _ARRAY:
        raise ValueError(f"unknown value type {kind}")
    item_kind, count = (int(number) for number in struct.unpack_from("<IQ", data, offset))
    offset += 12
    if count > len(data):
        raise ValueError("an array longer than the file")
    if item_kind in _SCALAR_FORMATS:
        return offset + struct.calcsize(_SCALAR_FORMATS[item_kind]) * count
    for _ in range(count):
        offset = _skip(data, offset, item_kind)
        if offset > len(data):
            raise ValueError("an array past the end of the file")
    return offset
