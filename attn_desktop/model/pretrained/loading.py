"""A model file's config, tokenizer and joined weights: from the weights cache when it holds this version of
the file, else read from the file (and then kept in the cache for next time).

A first load reads the GGUF file (a second or two: gguf_file.py); the cache is written afterwards, on a thread
of its own, once the model is built (ModelWeights.keep_in_cache): writing 540 MB and their checksums took a
second and a half of the first load, and the heads do not wait for it. A later load maps the cached arrays
and checks their checksums (well under a second for SmolLM2). The cache is written under a temporary name
and renamed, so a load that comes while it is written reads the file again and never a half-written cache;
a process waits for its writes before it ends (the thread is not a daemon; finish_cache_writes waits at once). A cache that is refused (damaged,
of another version of the file or of the app, or lying in a description rewritten with a correct checksum)
is rebuilt from the file, whatever in it failed: the only trace is a line in the log. A cache that cannot be
written leaves the load as it was before there was a cache.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from attn_desktop.language import N_, tr
from attn_desktop.model.pretrained.gguf_config import LlamaConfig
from attn_desktop.model.pretrained.gguf_file import Progress, check_is_gguf, read_llama_gguf
from attn_desktop.model.pretrained.pack import require_libraries
from attn_desktop.model.pretrained.tokenizer import ModelTokenizer, tokenizer_metadata
from attn_desktop.model.pretrained.weights_cache import (
    cache_path,
    mark_used,
    open_cache,
    remove_cache,
    source_key,
    write_cache,
)

READING_SHARE = 0.9  # of a load's progress bar: reading and checking the weights; the rest is putting it together
READING_CACHE = N_("Reading the weights kept from the first load")
JOINING = N_("Building the tokenizer and joining the layers")

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ModelWeights:
    config: LlamaConfig
    tokenizer: ModelTokenizer
    weights: dict[str, np.ndarray]  # joined_weights.py's names
    from_cache: bool = False
    # read from the file: writes the cache on a thread of its own (call it once the model is built)
    keep_in_cache: Callable[[], None] = field(default=lambda: None, compare=False)


def load_weights(path: Path, progress: Progress | None = None, use_cache: bool = True) -> ModelWeights:
    """The weights of the model file at PATH; from its cache when USE_CACHE and the cache is whole and true.

    Without USE_CACHE (a cached model that failed to build: LlamaModel.load) the file is read and the
    cache written afresh.
    """
    require_libraries()
    check_is_gguf(path)
    try:
        key = source_key(path)
    except OSError:  # readable a moment ago: the reader below says what is wrong, in one line
        key = None
    cached = None if key is None or not use_cache else _from_cache(path, key, progress)
    return cached if cached is not None else _from_file(path, key, progress)


def set_cache_aside(path: Path, reason: str) -> None:
    """The cache of the model file PATH is not used again (the next load reads the file), REASON logged."""
    _log.info("weights cache of %s not used: %s; reading the model file", path.name, reason)
    remove_cache(cache_path(path))


def _from_cache(path: Path, key: dict[str, Any], progress: Progress | None) -> ModelWeights | None:
    target = cache_path(path)
    cached = open_cache(target, key, path)  # tens of milliseconds: the description and the file's metadata
    if cached is None:
        return None
    if progress is not None:
        progress(0.0, tr(READING_CACHE))
    names = list(cached.arrays)
    for number, name in enumerate(names):
        if not cached.verify(name):
            set_cache_aside(path, f"the checksum of {name} is not the one written")
            return None
        if progress is not None:
            progress(READING_SHARE * (number + 1) / len(names), tr(READING_CACHE))
    try:
        tokenizer = ModelTokenizer(cached.tokenizer_metadata, path.name)
    except Exception as error:  # noqa: BLE001 - whatever the cache's entries make fail, the file's are read instead
        set_cache_aside(path, f"its tokenizer: {type(error).__name__}: {error}")
        return None
    mark_used(target)
    return ModelWeights(cached.config, tokenizer, cached.arrays, from_cache=True)


def _from_file(path: Path, key: dict[str, Any] | None, progress: Progress | None) -> ModelWeights:
    contents = read_llama_gguf(path, _share(progress, 0.0, READING_SHARE))
    if progress is not None:  # a moment more: the tokenizer
        progress(READING_SHARE, tr(JOINING))
    tokenizer = ModelTokenizer(contents.metadata, path.name)
    weights = contents.weights
    for array in weights.values():  # the cache written from them meanwhile holds the very numbers the model uses
        array.flags.writeable = False
    if key is None:
        return ModelWeights(contents.config, tokenizer, weights)
    target, entries = cache_path(path), tokenizer_metadata(contents.metadata)  # the cache folder of this moment
    return ModelWeights(contents.config, tokenizer, weights,
                        keep_in_cache=lambda: _write_in_background(target, key, contents.config, entries, weights))


_writing = threading.Lock()  # one cache written at a time: two loads of one file never write it side by side
_writers: list[threading.Thread] = []


def _write_in_background(target: Path, key: dict[str, Any], config: LlamaConfig, tokenizer_entries: dict[str, Any],
                         weights: dict[str, np.ndarray]) -> None:
    """The cache TARGET written on a thread of its own: the load has returned, and the heads are shown meanwhile.

    Not a daemon thread, so a process (the command line, the window closing) ends only once it is written
    whole; a write that fails (a read-only folder, a full disk, anything else) leaves no cache and a line
    in the log, never a message: the cache only ever saves time.
    """
    def write() -> None:
        with _writing:
            try:
                if not write_cache(target, key, config, tokenizer_entries, weights):
                    _log.info("weights cache %s not written; the next load reads the model file", target)
            except Exception as error:  # noqa: BLE001 - see above; write_cache has removed its temporary file
                _log.info("weights cache %s not written: %s: %s", target, type(error).__name__, error)

    writer = threading.Thread(target=write, name=f"weights cache {target.name}")
    _writers[:] = [thread for thread in _writers if thread.is_alive()]
    _writers.append(writer)
    writer.start()


def finish_cache_writes() -> None:
    """Wait until every cache being written in the background is written (or has failed)."""
    for writer in _writers.copy():  # a copy: a load on another thread may add one meanwhile
        writer.join()


def _share(progress: Progress | None, start: float, end: float) -> Progress | None:
    """PROGRESS with its fractions mapped into [start, end], for one stage of a longer task."""
    if progress is None:
        return None
    report = progress
    return lambda fraction, text: report(start + (end - start) * fraction, text)
