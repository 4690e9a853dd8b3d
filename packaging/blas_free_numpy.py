"""NumPy for the Linux bundle, compiled from the pinned version's source without BLAS, LAPACK or per-CPU kernels.

Why: PyPI's NumPy wheel carries OpenBLAS (libscipy_openblas64_, 24 MB, plus libgfortran and libquadmath,
3 MB) and a copy of each hot loop for several CPU generations (about 6 MB in _multiarray_umath): together
a third of the bundle, which must stay under 100 MB (issue 47). numpy.linalg still works, on the LAPACK
subset NumPy carries in its source (lapack_lite).

The cost: matrix products run on NumPy's own loops, 15 to 25 times slower than OpenBLAS on the training
tasks' shapes. A scene's few tokens do not notice, and the small tasks (reverse, previous-token, it-noun)
still train in 2 to 3 s frozen (at most 1.5 times as long), but the frozen app trains induction about 3.5
times slower and translate about 7 times slower (measured for issue 47). Training runs on its own thread and NumPy lets go of the
interpreter lock inside a product, so the window keeps its pace; only the curves take longer to fall.

How: ``pip wheel --no-binary numpy numpy==PIN`` in the build venv, with meson options that leave BLAS and
the dispatch out. The compile's own tools (meson-python, meson, Cython, ...) come from the package index into
pip's isolated build environment, pinned by numpy-build-constraints.txt so a new meson cannot change the
bundle overnight. It needs a C and C++ compiler and Python's headers (Debian: g++ and python3-dev; .ci/run
installs them). It takes several minutes on two cores, so the wheel is kept in the user's cache folder under
a name that holds everything that decides its bytes: NumPy's version, the Python it is for, the platform,
and a digest of the meson options, the build tools' pins, the C library and the compilers' versions. A second build reuses it in a second.

Standard library only: build.py runs it with whatever python3 started the build.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONSTRAINTS = Path(__file__).resolve().parent / "numpy-build-constraints.txt"
MESON_OPTIONS = (
    "-Dblas=none",           # no OpenBLAS: NumPy's own matrix-product loops
    "-Dlapack=none",         # numpy.linalg on the lapack_lite NumPy carries in its source
    "-Dallow-noblas=true",   # meson otherwise refuses to build without a BLAS
    "-Dcpu-dispatch=",       # one copy of each loop (the baseline, x86-64-v2 on x86-64) instead of one
                             # per CPU generation: a smaller library and about half the compile time
)


def wanted() -> bool:
    """Whether this build compiles NumPy: Linux only (Windows and macOS keep PyPI's wheel)."""
    return sys.platform.startswith("linux")


def cache_folder() -> Path:
    """The user's cache folder (XDG), where compiled wheels are kept between builds."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "attn-desktop-build" / "numpy"


def cache_key(numpy_version: str, python_tag: str) -> str:
    """A folder name that changes whenever anything that decides the wheel's bytes does: NumPy's version, the
    Python, the platform, the meson options, the build tools' pins, the C library and the compilers."""
    recipe = "\n".join([*MESON_OPTIONS, CONSTRAINTS.read_text(encoding="utf-8"), " ".join(platform.libc_ver()),
                        *(_compiler_version(os.environ.get(variable, default))
                          for variable, default in (("CC", "cc"), ("CXX", "c++")))])
    digest = hashlib.sha256(recipe.encode("utf-8")).hexdigest()[:12]
    return f"numpy-{numpy_version}-{python_tag}-{sys.platform}-{platform.machine()}-{digest}"


def _compiler_version(compiler: str) -> str:
    try:
        found = subprocess.run([*compiler.split(), "--version"], capture_output=True, text=True, check=False)
    except OSError:
        return f"{compiler}: none"
    return found.stdout.partition("\n")[0]


def blas_free_wheel(python: str, numpy_version: str, python_tag: str, env: dict[str, str]) -> Path:
    """The compiled wheel for the venv's python, from the cache or compiled now; raises RuntimeError if it fails."""
    folder = cache_folder() / cache_key(numpy_version, python_tag)
    cached = sorted(folder.glob("numpy-*.whl"))
    if cached:
        print(f"  NumPy {numpy_version} without BLAS: cached in {folder}")
        return cached[0]
    print(f"  compiling NumPy {numpy_version} without BLAS (several minutes; cached afterwards in {folder})",
          flush=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="attn-numpy-") as scratch:
        command = [python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-cache-dir",
                   "--no-binary", "numpy", f"numpy=={numpy_version}", "--wheel-dir", scratch,
                   *(f"--config-settings=setup-args={option}" for option in MESON_OPTIONS)]
        # PIP_CONSTRAINT reaches the isolated build environment pip makes for the compile's own tools.
        # --no-cache-dir: pip's wheel cache does not tell wheels built with other meson options apart.
        result = subprocess.run(command, env=dict(env, PIP_CONSTRAINT=str(CONSTRAINTS)), check=False)
        built = sorted(Path(scratch).glob("numpy-*.whl"))
        if result.returncode != 0 or len(built) != 1:
            raise RuntimeError(f"pip wheel exited {result.returncode} (a C/C++ compiler and Python's headers are "
                               "needed: on Debian, apt-get install g++ python3-dev)")
        folder.mkdir(parents=True, exist_ok=True)
        # Into place in one rename, so an interrupted build never leaves half a wheel in the cache.
        partial = folder / (built[0].name + ".partial")
        shutil.copyfile(built[0], partial)
        partial.rename(folder / built[0].name)
    print(f"  compiled in {time.monotonic() - started:.0f} s")
    return folder / built[0].name
