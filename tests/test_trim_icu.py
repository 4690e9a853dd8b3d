"""packaging/trim_icu.py: the frozen app's cut-down ICU data keeps what an English UI reads, and nothing breaks.

The data tests use the ICU library of the PySide6 this suite runs on (Linux wheels carry one); the
behaviour tests build the trimmed library with the system's C compiler and run Qt on it.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support.project_root import ROOT


def _load_trim_icu():
    # By path: packaging/ is not a package, and its modules run inside PyInstaller's Python.
    spec = importlib.util.spec_from_file_location("attn_trim_icu", ROOT / "packaging" / "trim_icu.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


trim_icu = _load_trim_icu()


def _wheel_icu_data() -> Path | None:
    import PySide6

    found = sorted((Path(PySide6.__file__).parent / "Qt" / "lib").glob("libicudata.so.*"))
    return found[0] if found else None


ICU_DATA = _wheel_icu_data() if sys.platform.startswith("linux") else None
needs_icu = pytest.mark.skipif(ICU_DATA is None, reason="this PySide6 carries no ICU (only its Linux wheels do)")


@pytest.fixture(scope="module")
def package():
    library = ICU_DATA.read_bytes()
    symbol = trim_icu.find_data_symbol(library)
    return trim_icu.parse_common_data(library[symbol.file_offset:symbol.file_offset + symbol.size])


@pytest.mark.parametrize("name", [
    "root.res", "en.res", "en_GB.res", "en_001.res", "coll/root.res", "coll/ucadata.icu", "coll/en.res",
    "uprops.icu", "ucase.icu", "ubidi.icu", "nfkc.nrm", "uts46.nrm", "cnvalias.icu", "zoneinfo64.res",
    "metaZones.res", "supplementalData.res", "likelySubtags.res", "res_index.res", "pool.res", "zone/pool.res",
    "zone/res_index.res", "zone/en.res", "zone/tzdbNames.res", "brkitr/word.brk", "brkitr/root.res",
])
def test_what_casing_collation_and_time_zone_names_read_for_english_is_kept(name):
    assert trim_icu.keep_item(f"icudt73l/{name}")


@pytest.mark.parametrize("name", [
    "de.res", "zh_Hant_TW.res", "coll/de.res", "coll/de__PHONEBOOK.res", "coll/zh.res", "zone/fr.res",
    "curr/ja.res", "ibm-37_P100-1995.cnv", "gb18030.cnv", "brkitr/cjdict.dict", "brkitr/thaidict.dict",
    "translit/root.res", "translit/el_Latn.res",
])
def test_other_locales_converters_dictionaries_and_transliteration_go(name):
    assert not trim_icu.keep_item(f"icudt73l/{name}")


@needs_icu
def test_the_trimmed_package_is_a_seventh_of_the_size_and_keeps_its_items_byte_for_byte(package):
    trimmed = trim_icu.trim(package)
    rebuilt = trim_icu.parse_common_data(trimmed.to_bytes())
    assert list(rebuilt.items) == [name for name in package.items if trim_icu.keep_item(name)]  # order kept
    for name, data in rebuilt.items.items():
        # An item may gain zero padding at its end (it runs to the next aligned item); its bytes are the same.
        assert data[:len(package.items[name])].rstrip(b"\0") == package.items[name].rstrip(b"\0"), name
    assert len(trimmed.to_bytes()) < len(package.to_bytes()) / 7
    assert any(name.endswith("/coll/ucadata.icu") for name in rebuilt.items)


@needs_icu
def test_every_item_of_the_rebuilt_package_is_16_byte_aligned(package):
    blob = trim_icu.trim(package).to_bytes()
    header_size = int.from_bytes(blob[:2], "little")
    count = int.from_bytes(blob[header_size:header_size + 4], "little")
    offsets = [int.from_bytes(blob[header_size + 8 + 8 * index:header_size + 12 + 8 * index], "little")
               for index in range(count)]
    assert offsets == sorted(offsets)
    assert all((header_size + offset) % 16 == 0 for offset in offsets)


@needs_icu
def test_a_package_that_is_not_icu_data_is_refused_with_a_reason(package):
    whole = package.to_bytes()
    for damaged in (b"", b"not icu data at all, just text", whole[:200]):
        with pytest.raises(trim_icu.IcuDataError):
            trim_icu.parse_common_data(damaged)
    shiboken = next((Path(sys.executable).parent.parent / "lib").rglob("libshiboken6*.so*"), None)
    for library in (b"\x7fELF" + b"\0" * 60, (shiboken.read_bytes() if shiboken else b"MZ")):
        with pytest.raises(trim_icu.IcuDataError):
            trim_icu.find_data_symbol(library)


@needs_icu
def test_a_damaged_library_file_is_refused_so_the_build_keeps_the_full_one(tmp_path):
    """The spec keeps the wheel's library on IcuDataError; any other exception would stop the build."""
    library = bytearray(ICU_DATA.read_bytes())
    symbol = trim_icu.find_data_symbol(bytes(library))
    header_size = int.from_bytes(library[symbol.file_offset:symbol.file_offset + 2], "little")
    first_name = symbol.file_offset + header_size + 4  # where the first item's name offset is stored
    damages = {
        "section table past the end": lambda data: data.__setitem__(slice(0x28, 0x30), (2**40).to_bytes(8, "little")),
        # The first item's name offset pointed at the table's own binary numbers.
        "a name that is not text": lambda data: data.__setitem__(slice(first_name, first_name + 4),
                                                                 (8).to_bytes(4, "little")),
        "cut short": lambda data: data.__delitem__(slice(len(data) // 2, None)),
    }
    for what, damage in damages.items():
        broken = bytearray(library)
        damage(broken)
        path = tmp_path / what / ICU_DATA.name
        path.parent.mkdir()
        path.write_bytes(bytes(broken))
        with pytest.raises(trim_icu.IcuDataError):
            trim_icu.trimmed_library(path, tmp_path / what / "out")


# --- Qt on the trimmed library -----------------------------------------------------------------------------

_QT_ICU_CALLS = textwrap.dedent("""
    # Each of the four things Qt 6 asks ICU for (objdump -T libQt6Core.so.6), for an English user.
    from PySide6.QtCore import QCollator, QDateTime, QLocale, QStringDecoder, QTimeZone
    mapped = [line.split()[-1] for line in open("/proc/self/maps") if "libicudata" in line]
    print("icudata", mapped[0])
    english = QCollator(QLocale("en_US"))
    words = ["zebra", "Apple", "apple", "\u00e9clair", "eclair", "Zoo", "b", "10", "9"]
    print("sorted", sorted(words, key=english.sortKey))
    print("upper", QLocale("en_US").toUpper("stra\u00dfe"), QLocale("tr_TR").toUpper("istanbul"))
    berlin = QTimeZone(b"Europe/Berlin")
    print("zone", berlin.displayName(QTimeZone.StandardTime, QTimeZone.LongName, QLocale("en_US")))
    print("latin-1", QStringDecoder("ISO-8859-1").isValid())
""")


def _run_with_icu_from(folder: Path | None, args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path), PYTHONPATH=str(ROOT),
               XDG_CONFIG_HOME=str(tmp_path / "config"), ATTN_DESKTOP_DATA_DIR=str(tmp_path / "data"))
    if folder is not None:  # searched before the wheel's RUNPATH ($ORIGIN), so this libicudata wins
        env["LD_LIBRARY_PATH"] = os.pathsep.join(filter(None, [str(folder), env.get("LD_LIBRARY_PATH")]))
    return subprocess.run([sys.executable, *args], env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.fixture(scope="module")
def trimmed_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("icu")
    try:
        trim_icu.trimmed_library(ICU_DATA, folder)
    except trim_icu.IcuDataError as error:
        if "no C compiler" in str(error):
            pytest.skip(str(error))
        raise
    return folder


@needs_icu
def test_the_built_library_exports_the_trimmed_data(trimmed_folder):
    library = (trimmed_folder / ICU_DATA.name).read_bytes()
    symbol = trim_icu.find_data_symbol(library)
    assert symbol.name.startswith("icudt") and symbol.size < 8 * 2**20
    package = trim_icu.parse_common_data(library[symbol.file_offset:symbol.file_offset + symbol.size])
    assert all(trim_icu.keep_item(name) for name in package.items)


@needs_icu
@pytest.mark.slow
def test_qt_answers_an_english_user_the_same_on_the_trimmed_data(trimmed_folder, tmp_path):
    full = _run_with_icu_from(None, ["-c", _QT_ICU_CALLS], tmp_path)
    trimmed = _run_with_icu_from(trimmed_folder, ["-c", _QT_ICU_CALLS], tmp_path)
    assert full.returncode == 0 and trimmed.returncode == 0, full.stderr + trimmed.stderr
    full_lines, trimmed_lines = full.stdout.splitlines(), trimmed.stdout.splitlines()
    assert trimmed_lines[0] == f"icudata {trimmed_folder / ICU_DATA.name}"  # really the trimmed one
    assert trimmed_lines[1:] == full_lines[1:]
    assert "upper STRASSE \u0130STANBUL" in trimmed_lines
    assert "zone Central European Standard Time" in trimmed_lines


@needs_icu
@pytest.mark.slow
def test_the_app_passes_its_self_test_on_the_trimmed_data(trimmed_folder, tmp_path):
    done = _run_with_icu_from(trimmed_folder, ["-m", "attn_desktop", "--self-test"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAIL" not in done.stdout and done.stdout.count("ok ") >= 4, done.stdout
