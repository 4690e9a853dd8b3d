"""The checked, dequantized weights of a model file, kept in the user's cache folder for the next load.

Reading a GGUF file takes seconds (a small array object per vocabulary entry, then dequantizing every
tensor); the cache holds what that produced: the joined float32 arrays, the config and the tokenizer's
entries. A later load maps the arrays from the cache (np.memmap: the pages are shared with the system's
file cache and read only as used) and never runs the GGUF reader.

One cache file per model file, named after the model file's path. It is used only while the model file
has the size, modification time and first bytes (its header) it had when the cache was written; a
changed model file gets a new cache under the same name, replacing the old one. At most KEPT_CACHES are
kept, the least recently used going first.

The file: MAGIC, then the arrays, each at a multiple of ALIGNMENT, then a JSON description (each array's
place, shape and CRC-32; the config; the tokenizer's entries), then a fixed-size trailer saying where the
description is and its CRC-32. It is written under a temporary name and renamed, so it is whole or
absent; a cache that is truncated, altered or of another format is refused (None), and the caller
rebuilds it. Every failure to write (a read-only folder, a full disk) leaves the load uncached, silently:
the cache only ever saves time.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import shutil
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from attn_desktop.model.files.safe_write import remove_stale_temporaries, temporary_name
from attn_desktop.model.pretrained.gguf_config import LlamaConfig
from attn_desktop.model.pretrained.joined_weights import UNEMBEDDING, joined_shapes

CACHE_DIR_VARIABLE = "ATTN_DESKTOP_CACHE_DIR"
DATA_DIR_VARIABLE = "ATTN_DESKTOP_DATA_DIR"  # tests and portable installs: the cache goes inside it
SUFFIX = ".weights"
MAGIC = b"ATTNWGT1"
FORMAT_VERSION = 1
ALIGNMENT = 64
TRAILER = struct.Struct("<8sQQII")  # magic, description offset, description length, its CRC-32, format version
MAX_DESCRIPTION_BYTES = 64 * 1024 * 1024
HEADER_BYTES_HASHED = 4 * 1024 * 1024  # a GGUF file's metadata and tensor list (1.6 MB for SmolLM2) and more
KEPT_CACHES = 3
SPARE_DISK_BYTES = 256 * 1024 * 1024  # never fill the disk to the last megabyte for a cache
DTYPE = np.dtype("<f4")


def cache_folder() -> Path:
    """$ATTN_DESKTOP_CACHE_DIR; else a folder inside $ATTN_DESKTOP_DATA_DIR; else the user's cache folder."""
    override = os.environ.get(CACHE_DIR_VARIABLE)
    if override:
        return Path(override)
    data = os.environ.get(DATA_DIR_VARIABLE)
    if data:
        return Path(data) / "cache"
    import platformdirs

    return Path(platformdirs.user_cache_dir("attn-desktop", appauthor=False)) / "models"


def cache_path(model_path: Path) -> Path:
    """The cache file of MODEL_PATH: its name, readable, and a hash of its full path (two models, two caches)."""
    full = os.fsencode(os.path.realpath(model_path))
    stem = "".join(char if char.isalnum() or char in "-_." else "_" for char in model_path.stem)[:60]
    return cache_folder() / f"{stem}-{hashlib.sha256(full).hexdigest()[:16]}{SUFFIX}"


def source_key(model_path: Path) -> dict[str, Any]:
    """What identifies this version of the model file: its size, modification time and a hash of its start."""
    info = model_path.stat()
    with open(model_path, "rb") as file:
        start = file.read(HEADER_BYTES_HASHED)
    return {"size": info.st_size, "mtime_ns": info.st_mtime_ns, "header_sha256": hashlib.sha256(start).hexdigest()}


@dataclass(frozen=True)
class CachedModel:
    config: LlamaConfig
    tokenizer_metadata: dict[str, Any]
    arrays: dict[str, np.ndarray]  # read-only views of the mapped file; checked with verify()
    checksums: dict[str, int]

    def verify(self, name: str) -> bool:
        """Whether the array's bytes are the ones written (a cache altered on the disk is refused)."""
        return _checksum(self.arrays[name]) == self.checksums[name]


class _Refused(Exception):
    """A cache that is not a whole cache of this format."""


def open_cache(path: Path, key: dict[str, Any]) -> CachedModel | None:
    """The cache at PATH when it is whole, of this format and for the model file version KEY; else None.

    The arrays' checksums are left to the caller (CachedModel.verify), which reports progress meanwhile.
    """
    try:
        with open(path, "rb") as file:
            description = _description(file, os.fstat(file.fileno()).st_size)
        if description.get("source") != key:
            return None
        config = _config(description["config"])
        entries = description["arrays"]
        shapes = joined_shapes(config, has_unembedding=UNEMBEDDING in entries)
        if list(entries) != list(shapes) or not isinstance(description["tokenizer"], dict):
            raise _Refused("the arrays are not those of its config")
        mapped = np.memmap(path, dtype=np.uint8, mode="r")
        arrays, checksums = {}, {}
        for name, shape in shapes.items():
            arrays[name], checksums[name] = _array(mapped, entries[name], shape, description["data_end"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError, struct.error, _Refused):
        return None
    return CachedModel(config, description["tokenizer"], arrays, checksums)


def _description(file: Any, size: int) -> dict[str, Any]:
    if size < len(MAGIC) + TRAILER.size or file.read(len(MAGIC)) != MAGIC:
        raise _Refused("not a cache")
    file.seek(size - TRAILER.size)
    magic, offset, length, checksum, version = TRAILER.unpack(file.read(TRAILER.size))
    if magic != MAGIC or version != FORMAT_VERSION or length > MAX_DESCRIPTION_BYTES:
        raise _Refused("another format")
    if offset + length + TRAILER.size != size:
        raise _Refused("truncated or extended")
    file.seek(offset)
    text = file.read(length)
    if zlib.crc32(text) != checksum:
        raise _Refused("its description was altered")
    description = json.loads(text)
    if not isinstance(description, dict) or description.get("data_end") != offset:
        raise _Refused("its description is not one")
    return description


def _config(fields: dict[str, Any]) -> LlamaConfig:
    config = LlamaConfig(**fields)
    for field in dataclasses.fields(LlamaConfig):
        value = getattr(config, field.name)
        if type(value) is not {"str": str, "int": int, "float": float}[str(field.type)]:
            raise _Refused(f"its config's {field.name} is {value!r}")
    return config


def _array(mapped: np.memmap, entry: dict[str, Any], shape: tuple[int, ...], data_end: int) -> tuple[np.ndarray, int]:
    offset, checksum = entry["offset"], entry["crc32"]
    if tuple(entry["shape"]) != shape or not isinstance(offset, int) or not isinstance(checksum, int):
        raise _Refused("an array's place or shape is wrong")
    end = offset + int(np.prod(shape)) * DTYPE.itemsize
    if offset < len(MAGIC) or offset % ALIGNMENT or end > data_end:
        raise _Refused("an array lies outside the data")
    return mapped[offset:end].view(DTYPE).reshape(shape), checksum


Progress = Callable[[float], None]


def write_cache(path: Path, key: dict[str, Any], config: LlamaConfig, tokenizer_metadata: dict[str, Any],
                arrays: dict[str, np.ndarray], progress: Progress | None = None) -> bool:
    """Write the cache whole under PATH (a temporary file renamed); False when it cannot be written.

    Not fsynced: forcing 600 MB to the disk would take seconds, and a cache cut short by a power cut
    is refused by its checksums and written again.
    """
    try:  # entries JSON cannot hold (none that a GGUF file gives): no cache for this file
        json.dumps([key, dataclasses.asdict(config), tokenizer_metadata])
    except (TypeError, ValueError):
        return False
    needed = sum(int(array.nbytes) for array in arrays.values()) + ALIGNMENT * len(arrays) + 16 * 1024 * 1024
    temporary = path.parent / temporary_name(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if shutil.disk_usage(path.parent).free < needed + SPARE_DISK_BYTES:
            return False
        remove_stale_temporaries(path)
        with open(temporary, "xb") as file:
            _write_contents(file, key, config, tokenizer_metadata, arrays, progress)
        os.replace(temporary, path)
    except OSError:  # a read-only folder, a full disk
        with contextlib.suppress(OSError):
            temporary.unlink()
        return False
    except BaseException:  # a load stopped by its progress report: no half-written file is left behind
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
    remove_old_caches(path.parent)
    return True


def _write_contents(file: Any, key: dict[str, Any], config: LlamaConfig, tokenizer_metadata: dict[str, Any],
                    arrays: dict[str, np.ndarray], progress: Progress | None) -> None:
    file.write(MAGIC)
    entries = {}
    for number, (name, array) in enumerate(arrays.items()):
        file.write(b"\0" * (-file.tell() % ALIGNMENT))
        data = np.ascontiguousarray(array, dtype=DTYPE)
        entries[name] = {"offset": file.tell(), "shape": list(data.shape), "crc32": _checksum(data)}
        file.write(data.data)
        if progress is not None:
            progress((number + 1) / len(arrays))
    data_end = file.tell()
    description = json.dumps({"source": key, "config": dataclasses.asdict(config), "tokenizer": tokenizer_metadata,
                              "arrays": entries, "data_end": data_end}).encode()
    file.write(description)
    file.write(TRAILER.pack(MAGIC, data_end, len(description), zlib.crc32(description), FORMAT_VERSION))


def _checksum(array: np.ndarray) -> int:
    return zlib.crc32(array.data)


def remove_old_caches(folder: Path) -> None:
    """All but the KEPT_CACHES most recently used caches go (a class's many model files do not fill a disk)."""
    with contextlib.suppress(OSError):
        caches = sorted(folder.glob("*" + SUFFIX), key=lambda cache: cache.stat().st_mtime, reverse=True)
        for old in caches[KEPT_CACHES:]:
            old.unlink()


def mark_used(path: Path) -> None:
    """Marks the cache as just used (its modification time), so it is the last to be removed."""
    with contextlib.suppress(OSError):
        os.utime(path)


def remove_cache(path: Path) -> None:
    """A refused cache goes before its replacement is written (or at once, when none can be)."""
    with contextlib.suppress(OSError):
        path.unlink()
