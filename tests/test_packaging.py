"""The frozen app (packaging/): the spec's data rule covers resources/, and the built bundle works.

The first tests always run. Those marked ``needs_bundle`` check dist/attn-desktop/ and skip when it has
not been built (python packaging/build.py makes it).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.project_root import ROOT
from tests.support.self_test_language import spoke

PACKAGING = ROOT / "packaging"
RESOURCES = ROOT / "resources"
BUNDLE = ROOT / "dist" / "attn-desktop"
APP = BUNDLE / ("attn-desktop.exe" if sys.platform == "win32" else "attn-desktop")
INTERNAL = BUNDLE / "_internal"  # sys._MEIPASS of a PyInstaller 6 onedir bundle


def _load_bundle_files():
    # By path: a folder named "packaging" must not shadow the PyPI package of that name.
    spec = importlib.util.spec_from_file_location("attn_bundle_files", PACKAGING / "bundle_files.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bundle_files = _load_bundle_files()


def _files_under(folder: Path) -> list[Path]:
    """Every file below folder, relative to it, found independently of bundle_files."""
    found = []
    for directory, _, names in os.walk(folder):
        for name in names:
            found.append((Path(directory) / name).relative_to(folder))
    return sorted(found)


# --- the spec's data rule (always run) -----------------------------------------------------------------


def test_every_resource_file_is_matched_by_the_spec_data_rule():
    datas = set(bundle_files.datas())
    missing = []
    for relative in _files_under(RESOURCES):
        if bundle_files._is_litter(relative) or bundle_files.is_translator_source(relative):
            continue
        expected = (str(RESOURCES / relative), f"attn_desktop/resources/{relative.parent.as_posix()}".rstrip("/."))
        if expected not in datas:
            missing.append(relative.as_posix())
    assert not missing, f"resources the frozen app would lack: {missing}"
    read_by_the_app = [path for path in bundle_files.resource_files() if not bundle_files.is_translator_source(path)]
    assert len(datas) == len(read_by_the_app) > 0


def test_only_the_translators_sources_are_left_out_of_the_bundle():
    """The app reads each language's compiled .mo; the .po beside it is the translators' (1.4 MB together)."""
    left_out = sorted(path.as_posix() for path in bundle_files.resource_files()
                      if bundle_files.is_translator_source(path))
    assert left_out == ["locale/GLOSSARY.md", "locale/ar/LC_MESSAGES/attn_desktop.po", "locale/attn_desktop.pot",
                        "locale/babel.cfg", "locale/es/LC_MESSAGES/attn_desktop.po",
                        "locale/zh_CN/LC_MESSAGES/attn_desktop.po"]


def test_no_tracked_resource_is_left_out_as_litter():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(["git", "ls-files", "resources"], cwd=ROOT, capture_output=True, text=True, check=True)
    litter = [name for name in tracked.stdout.splitlines() if bundle_files._is_litter(Path(name).relative_to("resources"))]
    assert not litter


def test_the_spec_takes_its_datas_and_hooks_from_packaging():
    spec = (PACKAGING / "attn-desktop.spec").read_text(encoding="utf-8")
    assert re.search(r"datas\s*=\s*resource_datas\(\)", spec)
    assert re.search(r"Analysis\(\s*\[[^\]]*launcher\.py", spec)  # the launcher script, not __main__.py
    assert (PACKAGING / "hooks" / "hook-PySide6.QtGui.py").is_file()
    for kept in ("PySide6.QtOpenGLWidgets", "PySide6.QtSvg"):  # pyqtgraph's start-up and SVG export
        assert f'"{kept}"' not in spec and kept not in bundle_files.UNUSED_MODULES
    # pyqtgraph imports QtOpenGL as it loads: left out only with the runtime hook's stand-in in its place.
    assert "PySide6.QtOpenGL" in bundle_files.UNUSED_MODULES and "rthook_no_qt_opengl.py" in spec


# Drives the app from source the way the frozen tests drive the bundle, and lists the modules it loaded.
_LOADED_MODULES = """
import atexit, runpy, sys
atexit.register(lambda: print("LOADED", " ".join(sorted(sys.modules)), file=sys.stderr))
sys.argv = ["attn-desktop", *sys.argv[1:]]
runpy.run_module("attn_desktop", run_name="__main__")
"""


@pytest.mark.slow
@pytest.mark.parametrize("arguments", [["--self-test", "--lang", "zh_CN"], ["train", "translate", "--steps", "5",
                                        "-o", "trained.json"], ["export", "{scene}", "-o", "scene.svg"]], ids=" ".join)
def test_the_app_never_imports_a_module_the_bundle_leaves_out(tmp_path, arguments):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "ATTN_DESKTOP_DATA_DIR": str(tmp_path / "data")}
    from attn_desktop.paths import DEFAULT_SCENE

    scene = str(RESOURCES / "scenes" / DEFAULT_SCENE)
    arguments = [scene if argument == "{scene}" else argument for argument in arguments]
    done = subprocess.run([sys.executable, "-c", _LOADED_MODULES, *arguments], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    loaded = done.stderr.rpartition("LOADED ")[2].split()
    left_out = set(bundle_files.UNUSED_MODULES) - {"PySide6.QtOpenGL"}  # imported, never used: the stand-in's
    used = [name for name in loaded if name in left_out or name.rpartition(".")[0] in left_out]
    assert used == [], f"the frozen app would fail to import {used}"


def test_paths_finds_the_resources_where_the_spec_puts_them(tmp_path, monkeypatch):
    """Lay the data out as PyInstaller would under sys._MEIPASS and ask attn_desktop.paths where they are."""
    from attn_desktop import paths

    for source, destination in bundle_files.datas():
        target = tmp_path / destination / Path(source).name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    found = paths.resource_dir.__wrapped__()  # uncached: the real one has already answered for the checkout
    assert found == tmp_path / "attn_desktop" / "resources"
    assert (found / "scenes" / paths.DEFAULT_SCENE).is_file()


@pytest.mark.parametrize("plugin", ["platforms/libqoffscreen.so", "platforms/libqxcb.so", "platforms/libqwayland.so",
                                    "platformthemes/libqxdgdesktopportal.so", "imageformats/libqsvg.so",
                                    "iconengines/libqsvgicon.so", "wayland-shell-integration/libxdg-shell.so",
                                    "xcbglintegrations/libqxcb-glx-integration.so",
                                    "platforms/qwindows.dll", "platforms/libqcocoa.dylib"])
def test_the_plugins_people_need_are_kept(plugin):
    assert bundle_files.keep_qt_plugin(plugin)


@pytest.mark.parametrize("plugin", ["platforms/libqvnc.so", "platforms/libqeglfs.so", "platformthemes/libqgtk3.so",
                                    "egldeviceintegrations/libqeglfs-kms-integration.so",
                                    "generic/libqevdevmouseplugin.so", "imageformats/libqtiff.so"])
def test_plugins_for_other_devices_are_left_out(plugin):
    assert not bundle_files.keep_qt_plugin(plugin)


@pytest.mark.parametrize("destination", ["libstdc++.so.6", "libfontconfig.so.1", "libX11.so.6", "libz.so.1"])
def test_base_system_libraries_are_left_to_the_system(destination):
    assert bundle_files.left_to_the_system(destination)


@pytest.mark.parametrize("destination", ["libxcb-cursor.so.0", "libxkbcommon.so.0", "libglib-2.0.so.0",
                                         "PySide6/Qt/lib/libQt6Core.so.6", "libpython3.11.so.1.0"])
def test_what_desktops_may_lack_is_bundled(destination):
    assert not bundle_files.left_to_the_system(destination)


def test_the_build_pins_every_dependency_of_the_app():
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pinned = {
        re.sub(r"[-_.]+", "-", line.split("==")[0].strip()).lower()
        for line in (PACKAGING / "requirements-build.txt").read_text(encoding="utf-8").splitlines()
        if "==" in line and not line.lstrip().startswith("#")
    }
    for requirement in project["dependencies"]:
        name = re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9_.-]+", requirement).group()).lower()
        assert name in pinned, f"{name} is not pinned in packaging/requirements-build.txt"


# --- the built bundle (skipped until python packaging/build.py has run) --------------------------------

needs_bundle = pytest.mark.skipif(
    not APP.is_file(), reason=f"no frozen app at {APP.relative_to(ROOT)}; build it with python packaging/build.py"
)


def _run_frozen(*args: str, tmp_path: Path, **environment: str) -> subprocess.CompletedProcess:
    env = {**environment,
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "ATTN_DESKTOP_DATA_DIR": str(tmp_path / "data"),
        "QT_QPA_PLATFORM": "offscreen",
    }
    return subprocess.run([str(APP), *args], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          check=False)


@needs_bundle
@pytest.mark.slow
def test_the_frozen_app_prints_its_version(tmp_path):
    from attn_desktop import APP_NAME, __version__

    done = _run_frozen("--version", tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{APP_NAME} {__version__}", "a stale bundle? rebuild with python packaging/build.py"


def test_the_frozen_self_test_runs_in_every_language_the_app_speaks():
    from attn_desktop.language import PSEUDO_LANGUAGE, shown_languages

    assert list(bundle_files.SELF_TEST_LANGUAGES) == [*shown_languages(), PSEUDO_LANGUAGE]


@needs_bundle
@pytest.mark.slow
@pytest.mark.parametrize("language", bundle_files.SELF_TEST_LANGUAGES)
def test_the_frozen_app_passes_its_self_test(tmp_path, language):
    done = _run_frozen("--self-test", "--lang", language, tmp_path=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAIL" not in done.stdout and done.stdout.count("ok ") >= 4, done.stdout
    assert spoke(language, done.stdout), done.stdout  # in the language asked for: its catalog is in the bundle


@needs_bundle
@pytest.mark.slow
def test_the_frozen_app_passes_its_self_test_on_a_spanish_machine(tmp_path):
    done = _run_frozen("--self-test", tmp_path=tmp_path, LANG="es_ES.UTF-8")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok   default output (1,54; 0,48)" in done.stdout.splitlines(), done.stdout


@needs_bundle
@pytest.mark.slow
def test_the_frozen_app_opens_every_built_in_scene_and_lesson(tmp_path):
    done = _run_frozen("--self-test", tmp_path=tmp_path)
    opened = [line for line in done.stdout.splitlines() if line.startswith("ok   built-in scene ")]
    scenes = sorted(path.relative_to(RESOURCES / "scenes").as_posix() for path in (RESOURCES / "scenes").rglob("*.json"))
    assert [line.split()[3].rstrip(":") for line in opened] == scenes, done.stdout
    assert "ok   lesson 1. Soft lookup: weights for ask ['59%', '8%', '33%']" in done.stdout
    assert "ok   icon attn-desktop.svg 256x256" in done.stdout  # the SVG image plugin made it into the bundle
    for language in ("Español", "简体中文", "العربية"):  # its catalog, and its characters in the bundle's fonts
        assert f"ok   language {language}: " in done.stdout, done.stdout


@needs_bundle
@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
@pytest.mark.slow
def test_the_frozen_app_opens_no_internet_socket_while_walking_the_built_in_scenes(tmp_path):
    """strace sees every socket, Qt's C++ ones included, while the self-test opens each scene and lesson."""
    log = tmp_path / "strace.log"
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "QT_QPA_PLATFORM": "offscreen",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "ATTN_DESKTOP_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run(["strace", "-f", "-e", "trace=socket,connect", "-o", str(log), str(APP), "--self-test"],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert "ok   lesson 4. Scaled attention" in done.stdout
    calls = log.read_text(encoding="utf-8", errors="replace")
    assert "+++ exited with 0 +++" in calls  # strace really followed the app
    assert "AF_INET" not in calls, [line for line in calls.splitlines() if "AF_INET" in line][:5]


@needs_bundle
@pytest.mark.slow
def test_the_frozen_app_leaves_the_model_reader_out_and_says_so(tmp_path):
    """The model pack is optional and the bundle stays small: asking the frozen app for a real model's
    heads gets one line saying how to see them, exit 2, nothing written; the readers are not inside."""
    out = tmp_path / "heads.json"
    done = _run_frozen("heads", "The cat sat", "-o", str(out), tmp_path=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "cannot be added to this standalone app" in done.stderr
    assert "leaves out the model reader" in done.stderr and "pip" not in done.stderr  # no command that cannot work
    assert not out.exists()
    bundled = {path.name for path in INTERNAL.iterdir()}
    assert not bundled & {"gguf", "tokenizers", "threadpoolctl", "torch", "transformers"}


@needs_bundle
def test_every_resource_file_is_in_the_bundle():
    bundled = INTERNAL / bundle_files.BUNDLE_RESOURCES
    differ = [
        relative.as_posix() for relative in _files_under(RESOURCES)
        if not bundle_files._is_litter(relative) and not bundle_files.is_translator_source(relative)
        and not ((bundled / relative).is_file() and (bundled / relative).read_bytes() == (RESOURCES / relative).read_bytes())
    ]
    assert not differ, f"missing or stale in the bundle (rebuild with python packaging/build.py): {differ}"


@needs_bundle
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="names Linux's Qt platform plugins")
def test_the_platform_plugins_are_in_the_bundle():
    platforms = INTERNAL / "PySide6" / "Qt" / "plugins" / "platforms"
    for name in bundle_files.REQUIRED_QT_PLATFORMS:  # offscreen (the self-test) and xcb (X11)
        assert (platforms / name).is_file(), name
    assert list(platforms.glob("libqwayland*.so")), "no Wayland platform plugin"


@needs_bundle
def test_the_bundle_fits_its_size_budget():
    size_mib = bundle_files.disk_usage_mb(BUNDLE)
    budget = bundle_files.SIZE_BUDGET_MB
    assert size_mib <= budget, f"dist/attn-desktop is {size_mib:.1f} MB; the budget is {budget} MB"


@needs_bundle
def test_the_bundle_carries_what_each_language_needs():
    """Each language's compiled catalog, Qt's own catalog for its standard dialogs, and the fonts that draw
    Chinese and Arabic on a machine that has none; not the translators' sources."""
    locale = INTERNAL / bundle_files.BUNDLE_RESOURCES / "locale"
    for code in ("es", "zh_CN", "ar"):
        assert (locale / code / "LC_MESSAGES" / "attn_desktop.mo").is_file(), code
        assert not (locale / code / "LC_MESSAGES" / "attn_desktop.po").exists(), code
    qt_catalogs = sorted(path.name for path in (INTERNAL / "PySide6" / "Qt" / "translations").glob("*.qm"))
    assert qt_catalogs == ["qtbase_ar.qm", "qtbase_en.qm", "qtbase_es.qm", "qtbase_zh_CN.qm"]
    fonts = sorted(path.name for path in (INTERNAL / bundle_files.BUNDLE_RESOURCES / "fonts").iterdir())
    assert fonts == ["NotoSansArabicUI-Bold-Subset.ttf", "NotoSansArabicUI-Regular-Subset.ttf",
                     "NotoSansSC-Subset.otf", "OFL.txt"]


@needs_bundle
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="build.py compiles NumPy for Linux only")
def test_the_bundles_numpy_carries_no_blas_library():
    """PyPI's NumPy brings OpenBLAS and its Fortran runtime (27 MB, a quarter of the budget); the build swaps in
    NumPy compiled without them (packaging/blas_free_numpy.py). A build that could not compile says why."""
    blas = sorted(path.relative_to(BUNDLE).as_posix() for path in INTERNAL.rglob("*")
                  if re.search(r"openblas|gfortran|quadmath", path.name))
    assert blas == [], "NumPy with OpenBLAS in the bundle: was a C++ compiler or Python's headers missing?"


@needs_bundle
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a rule for Linux bundles")
def test_the_bundle_carries_no_copy_of_a_base_system_library():
    copies = sorted(path.relative_to(BUNDLE).as_posix() for path in BUNDLE.rglob("*")
                    if path.name in bundle_files.LEFT_TO_THE_SYSTEM)
    assert not copies, f"rebuild with python packaging/build.py: {copies}"


@needs_bundle
@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("readelf") is None, reason="needs readelf")
def test_no_library_of_the_bundle_looks_for_libraries_on_the_build_machine():
    """A RUNPATH may name the bundle's own folders ($ORIGIN/...), never an absolute folder of the machine
    that built it, which a user's machine might have (a Python built under /root/.pyenv did)."""
    foreign = []
    for path in sorted(BUNDLE.rglob("*")):
        if path.is_file() and not path.is_symlink() and path.read_bytes()[:4] == b"\x7fELF":
            dynamic = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True, check=False).stdout
            for search_path in re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library (?:runpath|rpath): \[(.*?)\]", dynamic):
                if any(not item.startswith("$ORIGIN") for item in search_path.split(":") if item):
                    foreign.append(f"{path.relative_to(BUNDLE)}: {search_path}")
    assert foreign == []


@needs_bundle
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="only PySide6's Linux wheels carry ICU")
def test_the_bundle_carries_the_trimmed_icu_data():
    """31 MB of Qt's ICU data would alone break the budget; the spec swaps in packaging/trim_icu.py's build."""
    libraries = list((INTERNAL / "PySide6" / "Qt" / "lib").glob("libicudata.so.*"))
    assert len(libraries) == 1, libraries
    size_mib = libraries[0].stat().st_size / 2**20
    assert size_mib < 8, f"{libraries[0].name} is {size_mib:.1f} MB: the full ICU data (is cc missing? see the build log)"


@needs_bundle
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Qt's X11 plugin is Linux's")
@pytest.mark.slow
def test_the_frozen_app_says_which_system_libraries_are_missing(plugin_missing_a_library, tmp_path):
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "DISPLAY": ":98",
                   "QT_QPA_PLATFORM_PLUGIN_PATH": str(plugin_missing_a_library),
                   "XDG_CONFIG_HOME": str(tmp_path / "config"), "ATTN_DESKTOP_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run([str(APP)], env=environment, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == ("attn-desktop: error: cannot open a window: Qt's xcb platform plugin "
                                           "needs libattn-desktop-missing.so.1, which this system lacks.")
