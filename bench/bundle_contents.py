"""What the frozen bundle's largest files are for (bench/frozen_app.py prints them).

A file's purpose comes from the first pattern below its path matches; a library also lists the files of
the bundle that link it (readelf's NEEDED entries), so a library nobody links stands out.
"""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
from pathlib import Path

# (pattern on the path under the bundle, what needs it), first match wins.
PURPOSES: tuple[tuple[str, str], ...] = (
    ("attn-desktop", "the program: PyInstaller's launcher and every Python module, compressed"),
    ("*/libpython3*", "the Python interpreter"),
    ("*/base_library.zip", "the standard library Python needs before the program's archive opens"),
    ("*/libQt6Gui.so*", "QtGui: painting, fonts, images, windows"),
    ("*/libQt6Widgets.so*", "QtWidgets: the window, panels and dialogs"),
    ("*/libQt6Core.so*", "QtCore: events, threads, files, text, translations"),
    ("*/libQt6DBus.so*", "libQt6Gui links it on Linux: portal file dialogs, the accessibility bus"),
    ("*/libQt6OpenGL.so*", "QtOpenGLWidgets links it; pyqtgraph imports that at start-up"),
    ("*/libQt6Svg.so*", "QtSvg: the SVG icons and SVG export"),
    ("*/libQt6WaylandClient.so*", "Qt's Wayland platform (Wayland desktops)"),
    ("*/libQt6XcbQpa.so*", "Qt's X11 platform"),
    ("*/PySide6/Qt*.abi3.so", "PySide6: Python's access to that Qt module"),
    ("*/libpyside6*", "PySide6's runtime"),
    ("*/shiboken6/*", "PySide6's binding runtime"),
    ("*/libicudata*", "ICU's data, trimmed (packaging/trim_icu.py): QtCore's text and locale rules"),
    ("*/libicu*", "ICU: QtCore's Unicode, collation and number formats"),
    ("*/PySide6/Qt/plugins/*", "a Qt plugin kept by packaging/bundle_files.py"),
    ("*/PySide6/Qt/translations/*", "Qt's own catalog for a language the app speaks (standard dialogs)"),
    ("*/numpy/_core/_multiarray_umath*", "NumPy's arrays and arithmetic: the model, training, exports"),
    ("*/numpy/linalg/*", "numpy.linalg (lapack_lite), which import numpy loads"),
    ("*/numpy/random/*", "numpy.random, which import numpy loads: the training's initial weights"),
    ("*/numpy/fft/*", "numpy.fft, which import numpy loads"),
    ("*/numpy/*", "NumPy"),
    ("*/fonts/NotoSansSC*", "the Chinese font (zh_CN), subset to the app's characters"),
    ("*/fonts/NotoSansArabic*", "the Arabic font (ar), subset to the app's characters"),
    ("*/LC_MESSAGES/*.mo", "the app's catalog for that language"),
    ("*/lib-dynload/unicodedata*", "Python's Unicode database: the app's text checks, IDNA"),
    ("*/lib-dynload/*", "a standard-library extension module"),
    ("*/libglib-2.0*", "GLib: QtCore's event loop on Linux (input methods, portals)"),
    ("*/libpcre2-8*", "GLib's regular expressions"),
    ("*/libzstd*", "Zstandard: QtCore's compressed resources"),
)


def purpose(relative: str) -> str:
    return next((text for pattern, text in PURPOSES if fnmatch.fnmatch(relative, pattern)), "")


def linked_by(bundle: Path, files: list[Path]) -> dict[str, list[str]]:
    """For each library name, the bundle's files whose NEEDED entries name it (empty without readelf)."""
    readelf = shutil.which("readelf")
    users: dict[str, list[str]] = {}
    if readelf is None:
        return users
    for path in files:
        if path.read_bytes()[:4] != b"\x7fELF":
            continue
        dynamic = subprocess.run([readelf, "-d", str(path)], capture_output=True, text=True, check=False).stdout
        for needed in re.findall(r"\(NEEDED\)\s+Shared library: \[(.*?)\]", dynamic):
            users.setdefault(needed, []).append(path.name)
    return users


def largest_files(bundle: Path, count: int) -> list[str]:
    """One line per file, largest first: size in MiB, path, what needs it."""
    files = sorted((path for path in bundle.rglob("*") if path.is_file() and not path.is_symlink()),
                   key=lambda path: path.stat().st_size, reverse=True)
    users = linked_by(bundle, files)
    lines = []
    for path in files[:count]:
        relative = path.relative_to(bundle).as_posix()
        linkers = sorted(set(users.get(path.name, [])))
        notes = [purpose(relative)]
        if linkers:
            notes.append(f"linked by {', '.join(linkers[:3])}{' ...' if len(linkers) > 3 else ''}")
        lines.append(f"{path.stat().st_size / 2**20:6.2f} MB  {relative}  ({'; '.join(note for note in notes if note)})")
    return lines
