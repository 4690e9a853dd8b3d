"""Qt's ICU data, cut down to what this English-only app can reach: about 31 MB of the bundle becomes about 4.

PySide6's Linux wheels ship ICU, and libicudata.so.NN is nothing but one read-only array, the ICU
"common data" package (a table of contents and a few thousand items: locale data, collation rules,
character-set converters, ...). Qt 6 calls ICU for only four things (objdump -T libQt6Core.so.6 shows
the imports): locale-aware upper/lower case, collation, time-zone display names and legacy
character-set converters. This module keeps what those calls can read for the root and English
locales, drops the rest, and builds a library of the same name that exports the smaller array under
the same symbol. The ICU code libraries (libicuuc, libicui18n) stay as they are.

What is dropped, and why the app does not miss it:

- ``*.cnv``: table-driven converters for legacy character sets (EBCDIC, Shift-JIS, ...). The app
  reads and writes only UTF-8; UTF-8/16/32, Latin-1 and ASCII are code inside libicuuc, not data.
- ``brkitr/*.dict``: word dictionaries for breaking Chinese, Japanese, Thai, Lao, Khmer and Burmese
  text. Qt breaks text with its own Unicode tables and never asks ICU.
- ``translit/``: transliteration rules; Qt never calls ICU's transliterator.
- every locale's own ``.res`` except root, en and en_*: ICU falls back to root for any other locale,
  so collation, casing and names still work (with root's rules, which is what an English UI shows).

Everything else is kept: the Unicode property, normalisation, casing and layout data, the
supplemental and time-zone tables, every tree's pool.res and res_index.res.

Used by attn-desktop.spec on Linux (the Windows and macOS wheels carry no ICU); needs a C compiler
(cc) to assemble the new library. Standard library only: it runs inside PyInstaller's Python.
"""

from __future__ import annotations

import itertools
import re
import shutil
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

# The data package's own header: headerSize, then the magic bytes 0xda 0x27 (udata.h's DataHeader).
_MAGIC = b"\xda\x27"
_COMMON_DATA_FORMAT = b"CmnD"
_ITEM_ALIGNMENT = 16  # ICU maps items in place; icupkg aligns each to 16 bytes, and so does this
# A locale ID as ICU names its .res files: "root", "de", "de_AT", "zh_Hant_TW", "de__PHONEBOOK".
_LOCALE_ID = re.compile(r"^(root|[a-z]{2,3}(_[A-Za-z0-9]*)*)$")
# .res files that are not locales though they look like one.
_NOT_LOCALES = {"res_index", "pool"}
_KEPT_LOCALES = re.compile(r"^(root|en|en_[A-Za-z0-9_]*)$")


class IcuDataError(Exception):
    """The file is not an ICU data library this module understands; the caller keeps the original."""


@dataclass(frozen=True)
class CommonData:
    """An ICU common data package: its header bytes and its items by name, in table-of-contents order."""

    header: bytes
    items: dict[str, bytes]

    def to_bytes(self) -> bytes:
        """The package in ICU's layout: header, item count, (name offset, data offset) pairs, names, items.

        Offsets count from the end of the header. The order of the table is kept: ICU looks names up by
        binary search, and the original table is already sorted the way ICU sorts.
        """
        names = [name.encode("ascii") + b"\0" for name in self.items]
        table_size = 4 + 8 * len(names)
        name_offsets = list(itertools.accumulate((len(name) for name in names[:-1]), initial=table_size))
        data_start = table_size + sum(len(name) for name in names)
        data, data_offsets = bytearray(), []
        for item in self.items.values():
            data += b"\0" * (-(len(self.header) + data_start + len(data)) % _ITEM_ALIGNMENT)
            data_offsets.append(data_start + len(data))
            data += item
        table = struct.pack("<I", len(names)) + b"".join(
            struct.pack("<II", name_offset, data_offset) for name_offset, data_offset in zip(name_offsets, data_offsets)
        )
        return self.header + table + b"".join(names) + bytes(data)


def parse_common_data(blob: bytes) -> CommonData:
    """Read an ICU common data package (little-endian, the only kind a Linux x86-64/arm64 wheel carries)."""
    if len(blob) < 24 or blob[2:4] != _MAGIC:
        raise IcuDataError("no ICU data header")
    header_size, = struct.unpack_from("<H", blob, 0)
    is_big_endian = blob[8]
    if is_big_endian or blob[12:16] != _COMMON_DATA_FORMAT:
        raise IcuDataError("not a little-endian ICU common data package")
    table = blob[header_size:]
    count, = struct.unpack_from("<I", table, 0)
    if count == 0 or 4 + 8 * count > len(table):
        raise IcuDataError("damaged table of contents")
    entries = [struct.unpack_from("<II", table, 4 + 8 * index) for index in range(count)]
    items = {}
    for index, (name_offset, data_offset) in enumerate(entries):
        name_end = table.index(b"\0", name_offset)
        name = table[name_offset:name_end].decode("ascii")
        # An item's length is not stored: it runs to the next item (or to the end of the package).
        data_end = entries[index + 1][1] if index + 1 < count else len(table)
        if not name_offset < data_offset <= data_end <= len(table):
            raise IcuDataError(f"damaged table of contents at {name}")
        items[name] = table[data_offset:data_end]
    return CommonData(header=blob[:header_size], items=items)


def keep_item(name: str) -> bool:
    """Whether an item such as "icudt73l/coll/de.res" stays in the trimmed package (see the module text)."""
    path = name.split("/", 1)[-1]  # drop the package prefix "icudt73l/"
    folder, _, file_name = path.rpartition("/")
    stem, _, extension = file_name.rpartition(".")
    if extension == "cnv" or folder == "translit" or (folder == "brkitr" and extension == "dict"):
        return False
    if extension == "res" and stem not in _NOT_LOCALES and _LOCALE_ID.match(stem):
        return bool(_KEPT_LOCALES.match(stem))
    return True


def trim(package: CommonData) -> CommonData:
    return CommonData(package.header, {name: data for name, data in package.items.items() if keep_item(name)})


# --- the library around the data -------------------------------------------------------------------------


@dataclass(frozen=True)
class DataSymbol:
    name: str  # e.g. "icudt73_dat"
    file_offset: int
    size: int


def find_data_symbol(library: bytes) -> DataSymbol:
    """The one defined symbol of an ICU data library (64-bit little-endian ELF), where its bytes are."""
    if library[:4] != b"\x7fELF" or library[4] != 2 or library[5] != 1:
        raise IcuDataError("not a 64-bit little-endian ELF file")
    section_offset, = struct.unpack_from("<Q", library, 0x28)
    entry_size, count = struct.unpack_from("<HH", library, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", library, section_offset + index * entry_size)
                for index in range(count)]
    dynsym = next((section for section in sections if section[1] == 11), None)  # SHT_DYNSYM
    if dynsym is None:
        raise IcuDataError("no dynamic symbol table")
    strings = sections[dynsym[6]]  # sh_link: the string table of the symbol names
    for position in range(dynsym[4], dynsym[4] + dynsym[5], 24):
        name_index, _info, _other, section_index, value, size = struct.unpack_from("<IBBHQQ", library, position)
        name_start = strings[4] + name_index
        name = library[name_start:library.index(b"\0", name_start)].decode("ascii")
        if section_index != 0 and re.fullmatch(r"icudt\d+_dat", name):
            home = sections[section_index]  # sh_addr is [3], sh_offset [4]
            return DataSymbol(name, home[4] + value - home[3], size)
    raise IcuDataError("no icudtNN_dat symbol")


def build_library(package: CommonData, symbol: str, soname: str, output: Path) -> None:
    """Assemble a shared library exporting `symbol` = the package, 16-byte aligned, with no dependencies."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise IcuDataError("no C compiler (cc) to assemble the library")
    output.parent.mkdir(parents=True, exist_ok=True)
    data_file = output.parent / (output.name + ".dat")
    data_file.write_bytes(package.to_bytes())
    source = output.parent / (output.name + ".S")
    source.write_text(
        "\t.section .rodata\n"
        f"\t.globl {symbol}\n"
        f"\t.type {symbol}, %object\n"  # % rather than @: @ starts a comment on ARM
        f"\t.balign {_ITEM_ALIGNMENT}\n"
        f"{symbol}:\n"
        f'\t.incbin "{data_file.name}"\n'
        f"\t.size {symbol}, . - {symbol}\n"
        '\t.section .note.GNU-stack,"",%progbits\n',
        encoding="ascii",
    )
    result = subprocess.run(
        [compiler, "-shared", "-nostdlib", f"-Wl,-soname,{soname}", "-o", output.name, source.name],
        cwd=output.parent, capture_output=True, text=True, check=False,
    )
    if result.returncode != 0:
        raise IcuDataError(f"{compiler} failed: {result.stderr.strip()}")


def trimmed_library(original: Path, folder: Path) -> tuple[Path, int, int]:
    """Build the trimmed copy of `original` (a libicudata.so.NN) in `folder`.

    Returns (new library, bytes of data before, bytes after). Raises IcuDataError when the file is not
    what this module expects or no compiler is found; the caller then keeps the original.
    """
    library = original.read_bytes()
    try:
        symbol = find_data_symbol(library)
        package = parse_common_data(library[symbol.file_offset:symbol.file_offset + symbol.size])
    except (struct.error, ValueError, IndexError) as error:  # UnicodeDecodeError is a ValueError
        raise IcuDataError(f"damaged or unexpected file: {error}") from error
    smaller = trim(package)
    output = folder / original.name
    build_library(smaller, symbol.name, original.name, output)  # the file name is the soname
    return output, symbol.size, len(smaller.to_bytes())
