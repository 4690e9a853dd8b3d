"""What the frozen app carries besides code, and what it leaves out.

- the files under resources/, as PyInstaller datas (attn-desktop.spec);
- which Qt plugins to keep (hooks/hook-PySide6.QtGui.py) and whether to drop Qt's translations;
- the size budget, and how its size is measured (build.py, tests/test_packaging.py);
- the languages the frozen app's self-test runs in.

tests/test_packaging.py checks these rules against the tree and the built bundle.
Standard library only: the spec and the hook run it inside PyInstaller's Python.
"""

from __future__ import annotations

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
RESOURCES = PROJECT_ROOT / "resources"
# Where attn_desktop/paths.py looks in a frozen app: sys._MEIPASS / "attn_desktop" / "resources".
# It is the same place the wheel puts the folder (pyproject's force-include).
BUNDLE_RESOURCES = "attn_desktop/resources"
# dist/attn-desktop on disk, in MiB as du -sh counts them (build.py reports it; tests/test_packaging.py checks it),
# and the Debian package's file size in MiB (tests/test_deb_package.py checks it). Issue 47: 100 MB and 30 MB.
SIZE_BUDGET_MB = 100
DEB_BUDGET_MIB = 30
# The languages the frozen app's and the .deb's --self-test run in (build.py, tests/test_packaging.py,
# tests/test_deb_package.py): every language it ships and the pseudo-language, whose numbers and words the
# self-test checks as that language writes them. tests/test_packaging.py keeps it equal to the app's list.
SELF_TEST_LANGUAGES = ("en", "es", "zh_CN", "ar", "en_XA")


def resource_files(root: Path = RESOURCES) -> list[Path]:
    """Every file under resources/, relative to it, sorted; caches and editor litter left out."""
    files = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if path.is_file() and not _is_litter(relative):
            files.append(relative)
    return files


def _is_litter(relative: Path) -> bool:
    name = relative.name
    return (
        "__pycache__" in relative.parts
        or name in {".DS_Store", "Thumbs.db"}
        or name.endswith(("~", ".pyc", ".swp"))
    )


def is_translator_source(relative: Path) -> bool:
    """Whether a file under resources/ is for translators only, never read by the app (left out of the bundle).

    The app reads each language's compiled catalog (LC_MESSAGES/attn_desktop.mo, attn_desktop/language/
    catalog.py); the .po beside it, the .pot template, the glossary and babel's extraction rules are what
    translators and packaging/catalogs.py work on: 1.4 MB the app never opens.
    """
    return relative.suffix in {".po", ".pot"} or relative.name in {"GLOSSARY.md", "babel.cfg"}


def disk_usage_mb(folder: Path) -> float:
    """What du -sh reports for folder, in MiB: allocated blocks, each hard-linked file once."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for path in [folder, *folder.rglob("*")]:
        info = path.lstat()
        if (info.st_dev, info.st_ino) not in seen:
            seen.add((info.st_dev, info.st_ino))
            total += getattr(info, "st_blocks", 0) * 512 or info.st_size
    return total / 2**20


def datas(root: Path = RESOURCES) -> list[tuple[str, str]]:
    """PyInstaller (source file, destination folder) pairs: resources/a/b.json -> attn_desktop/resources/a."""
    pairs = []
    for relative in resource_files(root):
        if is_translator_source(relative):
            continue
        destination = Path(BUNDLE_RESOURCES, relative.parent).as_posix()
        pairs.append((str(root / relative), destination))
    return pairs


# --- Qt plugins ------------------------------------------------------------------------------------------
# PyInstaller's PySide6.QtGui hook collects every plugin that QtGui can use; most are for embedded devices
# and pull in libraries of the build machine. packaging/hooks/hook-PySide6.QtGui.py keeps only these
# (paths relative to PySide6/Qt/plugins; a name ending in * is a prefix). Anything of a type not listed
# here (a plugin type a later Qt adds) is kept, and so is every plugin of a Windows or macOS build.
QT_PLUGIN_POLICY: dict[str, tuple[str, ...] | None] = {
    # None = drop the whole type.
    "egldeviceintegrations": None,  # only for the eglfs platform (embedded boards)
    "generic": None,                # evdev/tuio input, for linuxfb/eglfs
    # The self-test runs offscreen; people run xcb (X11) or wayland.
    "platforms": ("libqxcb.so", "libqwayland*", "libqoffscreen.so"),
    # The GTK 3 theme would load the user's GTK with the build machine's glib/cairo/pango beside it, a
    # classic crash; the portal theme gives native file dialogs without that.
    "platformthemes": ("libqxdgdesktopportal.so",),
    # PNG is built into QtGui; SVG for icons; the rest are formats the app never reads.
    "imageformats": ("libqsvg.so", "libqico.so", "libqjpeg.so", "libqgif.so"),
}
# Qt's own translations (qtbase_*.qm: a standard dialog's buttons, and English's plural forms): only the app's
# languages' are loaded (ui/language/app_language.py); the other 40-odd languages' files and the other Qt
# modules' are left out.
KEPT_QT_TRANSLATIONS = ("qtbase_en.qm", "qtbase_es.qm", "qtbase_zh_CN.qm", "qtbase_ar.qm")


def dropped_qt_translation(bundle_path: str) -> bool:
    """Whether a file PyInstaller collected is one of Qt's translations the app never loads."""
    path = bundle_path.replace("\\", "/")
    return path.startswith("PySide6/Qt/translations/") and path.rsplit("/", 1)[-1] not in KEPT_QT_TRANSLATIONS


# --- libraries left to the system ------------------------------------------------------------------------
# PyInstaller copies every library the Qt wheels link that it does not know to be part of the system.
# These few are part of every Linux desktop the bundle can run on (it needs glibc 2.36 or newer, so their
# versions are at least Debian 12's), and a copy of an older one next to the system's newer drivers and
# configuration is a known cause of failures: the AppImage project's curated "excludelist" leaves out the
# same files, for these reasons. The xcb utility libraries (libxcb-cursor0 and friends), which many
# desktops lack and Qt's X11 plugin needs, stay in the bundle.
LEFT_TO_THE_SYSTEM: dict[str, str] = {
    "libstdc++.so.6": "the system's graphics drivers load into the app and need its own, newer C++ runtime",
    "libgcc_s.so.1": "the C++ runtime's partner; part of the base system",
    "libX11.so.6": "must match the system's libxcb, which is never bundled",
    "libX11-xcb.so.1": "as libX11",
    "libfontconfig.so.1": "an older copy misreads newer font configuration and rebuilds its caches at each start",
    "libfreetype.so.6": "font rendering belongs with the system's fontconfig",
    "libexpat.so.1": "part of the base system (fontconfig's XML parser)",
    "libz.so.1": "part of the base system",
    "libgpg-error.so.0": "part of the base system",
    # D-Bus, which libQt6Gui links on Linux (the portal file dialog, the accessibility bus): every desktop runs
    # a session bus and has its client library; the .deb Depends on libdbus-1-3 (debian_package.py finds it).
    # A copy would also bring libsystemd and what it links (libgcrypt, liblz4, libcap): 2.8 MB of the base
    # system's own libraries, pinned at the build machine's versions.
    "libdbus-1.so.3": "every desktop's D-Bus client library; must match the system's bus",
    "libsystemd.so.0": "libdbus's partner; part of the base system",
    "libgcrypt.so.20": "libsystemd's; part of the base system",
    "liblz4.so.1": "libsystemd's; part of the base system",
    "libcap.so.2": "libsystemd's; part of the base system",
}


def left_to_the_system(destination: str) -> bool:
    """Whether a binary PyInstaller collected (its destination in the bundle) is one the system provides."""
    return destination.replace("\\", "/").rpartition("/")[2] in LEFT_TO_THE_SYSTEM


# --- Python modules the app never loads ---------------------------------------------------------------------
# PyInstaller follows every import it can see, including those behind options the app never sets. These are
# left out (attn-desktop.spec's excludes); tests/test_packaging.py runs the app from source and checks none of
# them is imported, and the frozen tests walk every scene, lesson, export and training task without them.
UNUSED_MODULES: dict[str, str] = {
    # pyqtgraph imports PySide6.QtOpenGL when it loads, for its OpenGL curves (useOpenGL), which the app never
    # turns on: 8.5 MB. A runtime hook (rthook_no_qt_opengl.py) puts a stand-in in its place.
    "PySide6.QtOpenGL": "pyqtgraph's OpenGL drawing, never enabled",
    "PySide6.QtDBus": "Qt's D-Bus from Python; Qt itself still talks to the bus in C++",
    "numpy.f2py": "a Fortran wrapper generator (a build tool)",
    "numpy.testing": "NumPy's own test helpers",
    "numpy.ma": "masked arrays; NumPy 2 loads them only when asked",
    "numpy.polynomial": "polynomial fitting; NumPy 2 loads it only when asked",
    "unittest": "numpy.testing's; tests run from source",
    "doctest": "tests run from source",
    "pdb": "an interactive debugger needs a terminal",
    "asyncio": "pyqtgraph.jupyter's; the app has no event loop but Qt's",
    "tarfile": "numpy's data sources; the app reads JSON and GGUF files",
    "pyqtgraph.flowchart": "pyqtgraph's node editor",
    "pyqtgraph.opengl": "pyqtgraph's 3-D views",
    "pyqtgraph.examples": "pyqtgraph's example browser",
    "pyqtgraph.jupyter": "pyqtgraph in notebooks",
    "pyqtgraph.console": "pyqtgraph's Python console widget",
}
# Python modules that look droppable and are kept: the CJK codecs (_codecs_cn and friends, 1 MB) decode
# text in a system encoding such as GB18030 (a Chinese machine's locale); concurrent and http are small and
# the model's background work may use them.

# Qt platform plugins that must be in every bundle (tests/test_packaging.py checks).
REQUIRED_QT_PLATFORMS = ("libqoffscreen.so", "libqxcb.so")


def keep_qt_plugin(relative: str) -> bool:
    """Whether a plugin at PySide6/Qt/plugins/<relative> (e.g. "platforms/libqvnc.so") goes into the bundle."""
    kind, _, name = relative.replace("\\", "/").partition("/")
    if kind not in QT_PLUGIN_POLICY or not name.endswith(".so"):
        return True  # the policy names Linux plugins; on Windows and macOS PyInstaller's choice stands
    allowed = QT_PLUGIN_POLICY[kind]
    if allowed is None:
        return False
    return any(name.startswith(pattern[:-1]) if pattern.endswith("*") else name == pattern for pattern in allowed)
