"""The checked, dequantized weights of a model file, kept in the user's cache folder for the next load.

Reading a GGUF file takes seconds (a small array object per vocabulary entry, then dequantizing every
tensor); the cache holds what that produced: the joined float32 arrays, the config and the tokenizer's
entries. A later load maps the arrays from the cache (np.memmap: the pages are shared with the system's
file cache and read only as used) and never runs the GGUF reader.

One cache file per model file, named after the model file's path. It is used only while the model file
has the fingerprint it had when the cache was written (source_key: its size, modification time and a hash
of its start and of blocks sampled across all of it); a changed model file gets a new cache under the same
name, replacing the old one. At most KEPT_CACHES are kept, the least recently used going first; the cleanup
deletes only files it can prove are its own caches (their name's pattern and MAGIC at their start, regular
files in the cache folder), never a user's file that happens to end in .weights.

The file: MAGIC, then the arrays, each at a multiple of ALIGNMENT, then a JSON description (each array's
place, shape and CRC-32; the config; the tokenizer's entries), then a fixed-size trailer saying where the
description is and its CRC-32. It is written under a temporary name and renamed, so it is whole or
absent.

A cache is untrusted input like the model file: one that is truncated, altered or of another format is
refused (None), as is one whose description, even with a correct checksum, holds what reading the model
file would refuse or what the model file does not hold (cache_description.py), and anything but a regular
file at its path (a FIFO is never opened, so it cannot block). The caller then reads the model file and
rebuilds the cache. Every failure to write (a read-only folder, a full disk) leaves the load uncached, silently:
the cache only ever saves time.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import logging
import math
import os
import re
import shutil
import stat
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from attn_desktop.model.files.json_reading import parse_json_text
from attn_desktop.model.files.safe_write import remove_stale_temporaries, temporary_name
from attn_desktop.model.pretrained.cache_description import (
    CacheRefused,
    check_model_files_own,
    checked_config,
    checked_tokenizer,
)
from attn_desktop.model.pretrained.gguf_config import LlamaConfig
from attn_desktop.model.pretrained.joined_weights import LAYER_PARTS, UNEMBEDDING, joined_shapes

CACHE_DIR_VARIABLE = "ATTN_DESKTOP_CACHE_DIR"
DATA_DIR_VARIABLE = "ATTN_DESKTOP_DATA_DIR"  # tests and portable installs: the cache goes inside it
SUFFIX = ".weights"
MAGIC = b"ATTNWGT1"
FORMAT_VERSION = 1
ALIGNMENT = 64
TRAILER = struct.Struct("<8sQQII")  # magic, description offset, description length, its CRC-32, format version
MAX_DESCRIPTION_BYTES = 64 * 1024 * 1024
HEADER_BYTES_HASHED = 4 * 1024 * 1024  # a GGUF file's metadata and tensor list (1.8 MB for SmolLM2) and more
SAMPLE_COUNT = 64  # blocks hashed across the whole model file, the first and the last among them
SAMPLE_BYTES = 64 * 1024
KEPT_CACHES = 3
SPARE_DISK_BYTES = 256 * 1024 * 1024  # never fill the disk to the last megabyte for a cache
DTYPE = np.dtype("<f4")
# cache_path's names: the model file's name (letters, digits, "-", "_", "." only), a hash, the suffix
CACHE_NAME = re.compile(r"[\w.-]{0,60}-[0-9a-f]{16}" + re.escape(SUFFIX))
NOT_BLOCKING = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)

_log = logging.getLogger(__name__)


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
    """The fingerprint of this version of the model file: its size, modification time and one SHA-256 of its
    first HEADER_BYTES_HASHED bytes and of SAMPLE_COUNT blocks of SAMPLE_BYTES at evenly spaced offsets
    from its first byte to its last (a file up to HEADER_BYTES_HASHED long is hashed whole).

    At most 8 MB are read, whatever the file's size: a few milliseconds, on every load (the first one
    writes it into the cache). The start holds SmolLM2's whole metadata (vocabulary, config, tensor list:
    1.8 MB), and a cache's config and tokenizer are compared with the file's own entries anyway
    (cache_description.py), so what this key stands guard over is the weights.

    What it can miss: a change confined to the unsampled parts of the weights (of SmolLM2's 98 MB file,
    the first 4 MB and 64 KB of every 1.5 MB after them are hashed: 9 %) in a file whose size stayed the same and whose
    modification time was set back to the very nanosecond. Copying, downloading or converting a model
    sets the time anew; only a deliberate forgery restores it, and hashing the whole file on every load
    (a second or more from a cold disk) is what catching that would cost.
    """
    with open(model_path, "rb") as file:
        info = os.fstat(file.fileno())
        digest = hashlib.sha256(file.read(HEADER_BYTES_HASHED))
        for offset in sample_offsets(info.st_size):
            file.seek(offset)
            digest.update(file.read(SAMPLE_BYTES))
    return {"size": info.st_size, "mtime_ns": info.st_mtime_ns, "sampled_sha256": digest.hexdigest()}


def sample_offsets(size: int) -> list[int]:
    """Where source_key's sampled blocks start in a file of SIZE bytes: none when its start covers it all."""
    if size <= HEADER_BYTES_HASHED:
        return []
    last = size - SAMPLE_BYTES
    return [round(last * number / (SAMPLE_COUNT - 1)) for number in range(SAMPLE_COUNT)]


@dataclass(frozen=True)
class CachedModel:
    config: LlamaConfig
    tokenizer_metadata: dict[str, Any]
    arrays: dict[str, np.ndarray]  # read-only views of the mapped file; checked with verify()
    checksums: dict[str, int]

    def verify(self, name: str) -> bool:
        """Whether the array's bytes are the ones written (a cache altered on the disk is refused)."""
        return _checksum(self.arrays[name]) == self.checksums[name]


def open_cache(path: Path, key: dict[str, Any], model_path: Path) -> CachedModel | None:
    """The cache at PATH when it is whole, of this format and a true cache of the model file version KEY at
    MODEL_PATH; else None, with the reason in the log.

    The arrays' checksums are left to the caller (CachedModel.verify), which reports progress meanwhile.
    """
    try:
        return _opened(path, key, model_path)
    except Exception as error:  # noqa: BLE001 - whatever a hostile cache makes fail: the model file is read instead
        _log.info("weights cache %s not used: %s", path, _reason(error))
        return None


def _opened(path: Path, key: dict[str, Any], model_path: Path) -> CachedModel | None:
    with _open_regular(path) as file:
        description = _description(file, os.fstat(file.fileno()).st_size)
        if description.get("source") != key:
            raise CacheRefused("it was written from another version of the model file")
        config = checked_config(description.get("config"), model_path.name)
        tokenizer = checked_tokenizer(description.get("tokenizer"), config, model_path.name)
        entries = description.get("arrays")
        # counted first: a config claiming a billion layers is refused before a shape is listed for each
        if not isinstance(entries, dict) or len(entries) != _array_count(config, UNEMBEDDING in entries):
            raise CacheRefused("its arrays are not those of its config")
        shapes = joined_shapes(config, has_unembedding=UNEMBEDDING in entries)
        if list(entries) != list(shapes):
            raise CacheRefused("its arrays are not those of its config")
        check_model_files_own(config, tokenizer, UNEMBEDDING in entries, model_path)
        places, data_end = _places(shapes)
        if data_end != description["data_end"]:
            raise CacheRefused("its data is not as long as its arrays")
        mapped = np.memmap(file, dtype=np.uint8, mode="r")
    arrays, checksums = {}, {}
    for name, shape in shapes.items():
        arrays[name], checksums[name] = _array(mapped, entries[name], shape, places[name])
    return CachedModel(config, tokenizer, arrays, checksums)


def _array_count(config: LlamaConfig, has_unembedding: bool) -> int:
    """How many arrays joined_shapes lists for CONFIG: the embedding, the final norm, the layers' parts."""
    return 2 + int(has_unembedding) + len(LAYER_PARTS) * config.layer_count


def _open_regular(path: Path) -> BinaryIO:
    """PATH opened for reading if it is a regular file, itself (not a link): what the cache renames into place.

    Its kind is looked at before it is opened, so a FIFO or a device is never opened (a FIFO would block
    the open until something wrote to it); opened non-blocking and looked at again, against a swap between.
    """
    if not stat.S_ISREG(os.lstat(path).st_mode):
        raise CacheRefused("not a regular file")
    file = os.fdopen(os.open(path, os.O_RDONLY | NOT_BLOCKING), "rb")
    if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
        file.close()
        raise CacheRefused("not a regular file")
    return file


def is_regular_or_absent(path: Path) -> bool:
    """Whether PATH is free for a cache: nothing there, or a regular file (never a FIFO, device, folder, link)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _description(file: Any, size: int) -> dict[str, Any]:
    if size < len(MAGIC) + TRAILER.size or file.read(len(MAGIC)) != MAGIC:
        raise CacheRefused("not a cache")
    file.seek(size - TRAILER.size)
    magic, offset, length, checksum, version = TRAILER.unpack(file.read(TRAILER.size))
    if magic != MAGIC or version != FORMAT_VERSION or length > MAX_DESCRIPTION_BYTES:
        raise CacheRefused("another format")
    if offset + length + TRAILER.size != size:
        raise CacheRefused("truncated or extended")
    file.seek(offset)
    text = file.read(length)
    if zlib.crc32(text) != checksum:
        raise CacheRefused("its description was altered")
    # The reader scene files go through: no NaN, no endless whole numbers, no nesting that exhausts the stack.
    description = parse_json_text(text.decode("utf-8"))
    if not isinstance(description, dict) or description.get("data_end") != offset:
        raise CacheRefused("its description is not one")
    return description


def _reason(error: Exception) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text[:200]}"


def _array(mapped: np.memmap, entry: Any, shape: tuple[int, ...], place: int) -> tuple[np.ndarray, int]:
    """The array of ENTRY, which must lie at PLACE, where the writer puts it (so no two entries can be
    swapped or made to share bytes, whatever their checksums say)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("shape"), list):
        raise CacheRefused("an array's entry is not one")
    offset, checksum = entry.get("offset"), entry.get("crc32")
    if tuple(entry["shape"]) != shape or not isinstance(checksum, int) or isinstance(checksum, bool):
        raise CacheRefused("an array's shape or checksum is wrong")
    if type(offset) is not int or offset != place:
        raise CacheRefused("an array is not where the cache's writer puts it")
    return mapped[offset: offset + math.prod(shape) * DTYPE.itemsize].view(DTYPE).reshape(shape), checksum


def _places(shapes: dict[str, tuple[int, ...]]) -> tuple[dict[str, int], int]:
    """Where _write_contents puts each array of SHAPES (one after another, each at a multiple of ALIGNMENT),
    and where the data ends."""
    places, end = {}, len(MAGIC)
    for name, shape in shapes.items():
        end += -end % ALIGNMENT
        places[name] = end
        end += math.prod(shape) * DTYPE.itemsize
    return places, end


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
    if not is_regular_or_absent(path):  # a FIFO, a device, a folder or a link is not ours to replace
        return False
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
    """All but the KEPT_CACHES most recently used caches go (a class's many model files do not fill a disk).

    Only files proved to be caches of this app are counted and deleted (is_own_cache): the folder may be
    one a user named in ATTN_DESKTOP_CACHE_DIR, holding their own files.
    """
    try:
        names = os.listdir(folder)
    except OSError:
        return
    caches = []
    for name in names:
        path = folder / name
        with contextlib.suppress(OSError):
            if is_own_cache(path):
                caches.append((os.lstat(path).st_mtime, path))
    for _time, old in sorted(caches, reverse=True)[KEPT_CACHES:]:
        with contextlib.suppress(OSError):
            old.unlink()


def is_own_cache(path: Path) -> bool:
    """Whether PATH is one of this app's caches: named as cache_path names them, a regular file (not a link,
    never opened if it is anything else) and starting with MAGIC. A cache of an older format passes too."""
    if not CACHE_NAME.fullmatch(path.name):
        return False
    try:
        with _open_regular(path) as file:
            return file.read(len(MAGIC)) == MAGIC
    except (OSError, CacheRefused):
        return False


def mark_used(path: Path) -> None:
    """Marks the cache as just used (its modification time), so it is the last to be removed."""
    with contextlib.suppress(OSError):
        os.utime(path)


def remove_cache(path: Path) -> None:
    """A refused cache goes before its replacement is written (or at once, when none can be); only a regular
    file, never a FIFO, device or folder that stands where the cache would be."""
    with contextlib.suppress(OSError):
        if stat.S_ISREG(os.lstat(path).st_mode):
            path.unlink()
