"""Reading a LLaMA-style GGUF file with llama.cpp's own reader (the `gguf` package), its metadata read quickly
with struct where the file reads that way (quick_metadata.py), its tensors dequantized by dequantize.py.

Everything that can be wrong with a file becomes one ModelFileError naming the file
and what was found, so the command line prints one line and the window one dialog.
"""

from __future__ import annotations

import mmap
import os
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from attn_desktop.language import N_, tr
from attn_desktop.model.pretrained.dequantize import dequantize_into
from attn_desktop.model.pretrained.gguf_config import (
    LlamaConfig,
    ModelFileError,
    check_layout,
    check_vocabulary,
    llama_config,
)
from attn_desktop.model.pretrained.gguf_values import skip_string, skip_value
from attn_desktop.model.pretrained.joined_weights import file_tensor_places, joined_shapes
from attn_desktop.model.pretrained.pack import require_libraries

__all__ = ["GgufContents", "LlamaConfig", "ModelFileError", "Progress", "check_is_gguf", "read_llama_gguf"]

SUPPORTED_ARCHITECTURE = "llama"
GGUF_MAGIC = b"GGUF"
Progress = Callable[[float, str], None]
LAYOUT_SHARE = 0.6  # of reading a file entry by entry: its vocabulary and layout (6 of 10 s for SmolLM2)
QUICK_LAYOUT_SHARE = 0.1  # ... read quickly (quick_metadata.py): a tenth of a second; the rest is the weights
LAYOUT_TEXT = N_("Reading the vocabulary and the layers' layout")


@dataclass(frozen=True)
class GgufContents:
    """The metadata and the dequantized weights of one file, joined as the forward pass uses them
    (joined_weights.py: float32, rows = outputs)."""

    config: LlamaConfig
    metadata: dict[str, Any]
    weights: dict[str, np.ndarray]


def read_llama_gguf(path: str | os.PathLike[str], progress: Progress | None = None) -> GgufContents:
    require_libraries()
    shown = Path(path).name
    check_is_gguf(Path(path))
    if progress is not None:  # reading the vocabulary and layout takes seconds before any weight is read
        progress(0.0, tr(LAYOUT_TEXT))
    reader, metadata, layout_share = _reader_and_metadata(Path(path), shown, progress)
    architecture = metadata.get("general.architecture")
    if architecture != SUPPORTED_ARCHITECTURE:
        raise ModelFileError(
            tr("{file}: the model's architecture is {architecture}; only LLaMA-style models "
               "(architecture 'llama', such as SmolLM2 or TinyLlama) can be opened").format(
                file=shown, architecture=repr(architecture))
        )
    config = llama_config(metadata, shown)
    check_vocabulary(metadata, config, shown)
    check_layout({tensor.name: tuple(int(size) for size in reversed(tensor.shape)) for tensor in reader.tensors},
                 config, shown)
    weights = _dequantized(reader, config, shown, _share(progress, layout_share, 1.0))
    return GgufContents(config, metadata, weights)


def _reader_and_metadata(path: Path, shown: str, progress: Progress | None
                         ) -> tuple[Any, dict[str, Any], float]:
    """The reader (for the tensors), the metadata entries, and the share of the reading they took. The entries
    are read with struct in tens of milliseconds where the file reads that way (quick_metadata.py); otherwise
    (another byte order, a key twice, anything odd or damaged) by the reader itself, entry by entry in
    seconds, reporting how far it has read, and saying what is wrong."""
    from attn_desktop.model.pretrained.quick_metadata import quick_reader_and_metadata

    quick = quick_reader_and_metadata(path, plain_array_reader())
    if quick is not None:
        return *quick, QUICK_LAYOUT_SHARE
    reader = _open_reader(path, shown, _share(progress, 0.0, LAYOUT_SHARE))
    metadata = _metadata(reader, shown)
    # The reader keeps a small array object for every part of every entry (a million of them for a
    # 49,152-word vocabulary, ~80 MB); the values are copied out now, so they can go before the weights come.
    reader.fields.clear()
    return reader, metadata, LAYOUT_SHARE


def check_is_gguf(path: Path) -> None:
    if not path.exists():
        raise ModelFileError(tr("{file}: no such file").format(file=path.name))
    if path.is_dir():
        raise ModelFileError(tr("{file}: a folder, not a model file").format(file=path))
    if not path.is_file():
        raise ModelFileError(tr("{file}: not a file").format(file=path))
    # Files of /proc and /sys pass is_file() but say 0 bytes: reading them fails or finds more than that.
    size = path.stat().st_size
    try:
        with open(path, "rb") as file:
            magic = file.read(len(GGUF_MAGIC))
    except OSError as error:  # no permission, or a special file such as /proc/self/mem
        reason = error.strerror or str(error)
        text = (tr("{file}: not a regular file (its size reads as 0 bytes, and reading it fails: {reason})")
                if size == 0 else tr("{file}: cannot be read ({reason})"))
        raise ModelFileError(text.format(file=path.name, reason=reason)) from None
    if len(magic) > size:
        raise ModelFileError(tr("{file}: not a regular file (its size reads as 0 bytes, yet it holds more)").format(
            file=path.name))
    if magic != GGUF_MAGIC:
        raise ModelFileError(tr("{file}: not a GGUF model file (a GGUF file starts with \"GGUF\"; "
                                "this one with {start})").format(file=path.name, start=_shown_bytes(magic)))


def _shown_bytes(data: bytes) -> str:
    """'"hell"' for text a person can read, 'the bytes E2 25 CA DE' otherwise, 'nothing' for an empty file."""
    if not data:
        return tr("nothing: it is empty")
    if all(32 <= byte < 127 for byte in data):
        return f'"{data.decode("ascii")}"'
    return tr("the bytes {bytes}").format(bytes=" ".join(f"{byte:02X}" for byte in data))


def plain_array_reader() -> Any:
    """llama.cpp's reader class (imported now: the model's checks may replace it), over a plain NumPy view of
    its memory map."""
    from gguf import GGUFReader

    # Without the model pack GGUFReader is Any to the type checker, which the model's checks let no class subclass.
    class PlainArrayReader(GGUFReader):  # type: ignore[misc, unused-ignore]
        """The reader over a plain NumPy view of its memory map. It cuts a small array out of the file for every
        part of every entry (a million for a 49,152-word vocabulary), and numpy.memmap's own slicing and
        bookkeeping cost microseconds each: 4 of its 5 seconds. A view of the same memory reads the same bytes;
        it keeps the map open as long as it lives, as the memmap did."""

        @property  # type: ignore[override, unused-ignore]
        def data(self) -> np.ndarray:
            return self._plain_data

        @data.setter
        def data(self, mapped: np.ndarray) -> None:
            self._plain_data = mapped.view(np.ndarray)

    return PlainArrayReader


def _open_reader(path: Path, shown: str, progress: Progress | None = None) -> Any:
    plain_reader: Any = plain_array_reader()

    class ReportingReader(plain_reader):  # type: ignore[misc, unused-ignore]
        """The reader, reporting how far into the metadata it has read: it reads every entry of the
        vocabulary through _get, in order, and takes seconds for a 49,152-word one."""

        def __init__(self, report: Callable[[int], None]) -> None:
            self._report = report
            super().__init__(str(path), "r")

        def _get(self, offset: int, *args: Any, **kwargs: Any) -> Any:
            self._report(offset)
            return super()._get(offset, *args, **kwargs)

    try:
        span = _metadata_span(path) if progress is not None else None
        if progress is None or span is None:
            return plain_reader(str(path), "r")
        return ReportingReader(_layout_reporter(progress, *span))
    except _ReportRaised as stopped:  # the report's own exception (a load stopped at shutdown), not damage
        raise stopped.error from None
    except Exception as error:  # noqa: BLE001 - the reader raises many kinds for a damaged file
        raise ModelFileError(tr("{file}: a damaged or truncated GGUF file ({reason})").format(
            file=shown, reason=_reason(error))) from None


REPORT_STEP = 0.01  # the smallest change of the layout's fraction worth a progress report


class _ReportRaised(Exception):
    """An exception of the progress report, carried through the reader's own handling of damage."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def _layout_reporter(progress: Progress, start: int, end: int) -> Callable[[int], None]:
    """A function of the reader's offset in the metadata that reports the fraction read, each 1 % once."""
    size = max(end - start, 1)
    reported = [0.0]

    def report(offset: int) -> None:
        fraction = min(max((offset - start) / size, 0.0), 1.0)
        if fraction >= reported[0] + REPORT_STEP:
            reported[0] = fraction
            try:
                progress(fraction, tr(LAYOUT_TEXT))
            except Exception as error:  # handed on as it is, by _open_reader
                raise _ReportRaised(error) from error

    return report


def _metadata_span(path: Path) -> tuple[int, int] | None:
    """Where a little-endian GGUF file's metadata entries start and end (found by skipping over them, in
    a few tens of ms: the reader takes seconds), or None when the file does not read that way."""
    try:
        with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
            version, _tensor_count, kv_count = struct.unpack_from("<IQQ", data, 4)
            if version & 0xFFFF == 0 or kv_count > 1 << 20:  # the other byte order, or nonsense
                return None
            start = offset = 24
            for _ in range(kv_count):
                offset = skip_string(data, offset)
                (kind,) = struct.unpack_from("<I", data, offset)
                offset = skip_value(data, offset + 4, kind)
            return (start, offset) if offset <= len(data) else None
    except (OSError, ValueError, struct.error):
        return None


def _share(progress: Progress | None, start: float, end: float) -> Progress | None:
    """PROGRESS with its fractions mapped into [start, end], for one stage of reading a file."""
    if progress is None:
        return None
    report = progress
    return lambda fraction, text: report(start + (end - start) * fraction, text)


def _reason(error: Exception) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return text[:160]


def _metadata(reader: Any, shown: str) -> dict[str, Any]:
    metadata: dict[str, Any] = {}
    for key, field in reader.fields.items():
        try:
            metadata[key] = field.contents()
        except Exception as error:  # noqa: BLE001 - any damage in the entry: one line naming it
            raise ModelFileError(tr("{file}: cannot read the metadata entry {key} ({reason})").format(
                file=shown, key=key, reason=_reason(error))) from None
    return metadata


def _dequantized(reader: Any, config: LlamaConfig, shown: str, progress: Progress | None) -> dict[str, np.ndarray]:
    """The joined weights (joined_weights.py), each file tensor dequantized once, straight into its rows, and
    checked to be finite while its numbers are still in the processor's cache."""
    has_unembedding = any(tensor.name == "output.weight" for tensor in reader.tensors)
    weights = {name: np.empty(shape, dtype=np.float32)
               for name, shape in joined_shapes(config, has_unembedding).items()}
    places = file_tensor_places(config, has_unembedding)
    count = len(reader.tensors)
    for index, tensor in enumerate(reader.tensors):
        if tensor.name in places:  # a tensor the forward pass does not use is never read
            name, rows = places[tensor.name]
            _dequantize(tensor, weights[name][rows], shown)
        if progress is not None:
            progress((index + 1) / count, tr("Reading weights: {done} of {count}").format(done=index + 1, count=count))
    return weights


def _dequantize(tensor: Any, out: np.ndarray, shown: str) -> None:
    try:
        dequantize_into(tensor.data, tensor.tensor_type, out)
    except Exception as error:  # noqa: BLE001 - an unknown or damaged tensor type: one line naming it
        raise ModelFileError(
            tr("{file}: cannot read tensor {tensor} of type {kind} ({reason})").format(
                file=shown, tensor=tensor.name, kind=tensor.tensor_type.name, reason=_reason(error))
        ) from None
    if not np.isfinite(out).all():
        raise ModelFileError(tr("{file}: the tensor {tensor} holds numbers that are not finite (NaN or "
                                "infinity)").format(file=shown, tensor=tensor.name))
