"""The Debian package for computer labs (python packaging/build.py --deb): what it holds, what lintian says,
and, as root on a Debian-like machine (CI), installing it, running it from /usr/bin and removing it."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.project_root import ROOT
from tests.support.self_test_language import spoke

DIST = ROOT / "dist"


def _bundle_files():
    """packaging/bundle_files.py, loaded by path: a folder named "packaging" must not shadow the PyPI package of
    that name. It lists the languages the self-test runs in and the package's size budget."""
    spec = importlib.util.spec_from_file_location("attn_bundle_files", ROOT / "packaging" / "bundle_files.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SELF_TEST_LANGUAGES = list(_bundle_files().SELF_TEST_LANGUAGES)
DEB_BUDGET_MIB = _bundle_files().DEB_BUDGET_MIB
APP_ID = "io.github.attn_desktop.AttentionDesktop"
DESKTOP_FILE = f"/usr/share/applications/{APP_ID}.desktop"


def _the_deb() -> Path | None:
    debs = sorted(DIST.glob("attn-desktop_*.deb"))
    return debs[-1] if debs and shutil.which("dpkg-deb") else None


DEB = _the_deb()
pytestmark = [
    pytest.mark.slow,  # every test reads the package built from the frozen app; one installs and runs it
    pytest.mark.skipif(DEB is None, reason="no package in dist/; build it with python packaging/build.py --deb"),
]


def run(*command: str, **options) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=600, **options)


def contents() -> dict[str, str]:
    """Each path in the package (as installed) and what `dpkg-deb -c` says of it."""
    listed = run("dpkg-deb", "-c", str(DEB)).stdout.splitlines()
    return {line.split(" ./", 1)[1].split(" -> ")[0].rstrip("/"): line for line in listed if " ./" in line}


def test_the_package_holds_the_app_its_menu_entry_icons_and_metainfo():
    paths = contents()
    assert "opt/attn-desktop/attn-desktop" in paths
    assert "-> /opt/attn-desktop/attn-desktop" in paths["usr/bin/attn-desktop"]
    for path in (f"usr/share/applications/{APP_ID}.desktop", f"usr/share/metainfo/{APP_ID}.metainfo.xml",
                 f"usr/share/icons/hicolor/scalable/apps/{APP_ID}.svg", "usr/share/doc/attn-desktop/copyright",
                 "usr/share/doc/attn-desktop/changelog.gz", "usr/share/man/man1/attn-desktop.1.gz",
                 f"usr/share/mime/packages/{APP_ID}.xml",  # the lesson file type, and its icon
                 "usr/share/icons/hicolor/scalable/mimetypes/application-x-attn-desktop-lesson.svg"):
        assert path in paths, path
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        assert f"usr/share/icons/hicolor/{size}x{size}/apps/{APP_ID}.png" in paths
    assert all(" root/root " in line for line in paths.values())  # owned by root, whoever built it
    assert DEB.name == f"attn-desktop_{version()}_{run('dpkg', '--print-architecture').stdout.strip()}.deb"


def version() -> str:
    text = (ROOT / "attn_desktop" / "__init__.py").read_text(encoding="utf-8")
    return re.search(r'__version__ = "([^"]+)"', text).group(1)


def test_the_package_fits_its_size_budget():
    """What a computer lab downloads for each machine (issue 47: under 30 MiB)."""
    size_mib = DEB.stat().st_size / 2**20
    assert size_mib <= DEB_BUDGET_MIB, f"{DEB.name} is {size_mib:.1f} MiB; the budget is {DEB_BUDGET_MIB} MiB"


def test_depends_names_the_system_libraries_the_bundle_leaves_out_and_not_those_it_carries():
    depends = {item.strip().split()[0] for item in run("dpkg-deb", "-f", str(DEB), "Depends").stdout.split(",")}
    # What packaging/bundle_files.py leaves to the system on purpose, and what no bundle carries (the C
    # library, libxcb, OpenGL/EGL): a machine without them gets them with the package.
    for package in ("libc6", "libstdc++6", "libgcc-s1", "libfontconfig1", "libfreetype6", "libx11-6", "libx11-xcb1",
                    "zlib1g", "libexpat1", "libxcb1", "libegl1", "libgl1", "libdbus-1-3"):
        assert package in depends, package
    # The xcb utility libraries a minimal Debian lacks travel inside the bundle: no need to install them.
    carried = {path.split("/")[-1] for path in contents() if path.startswith("opt/attn-desktop/_internal/")}
    assert "libxcb-icccm.so.4" in carried
    assert "libxcb-icccm4" not in depends and "libxcb-cursor0" not in depends


def test_lintian_finds_no_errors():
    if shutil.which("lintian") is None:
        pytest.skip("lintian is not installed")
    done = run("lintian", "--fail-on", "error", "--tag-display-limit", "0", str(DEB))
    errors = [line for line in done.stdout.splitlines() if line.startswith("E:")]
    assert errors == [] and done.returncode == 0, done.stdout + done.stderr


def test_install_run_from_usr_bin_and_remove_without_a_trace(tmp_path):
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip("installing needs root and apt-get (CI)")
    if run("dpkg", "-s", "attn-desktop").returncode == 0:
        pytest.skip("attn-desktop is installed on this machine already; not touching it")
    if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) > 1:
        # The install puts the lesson type into the system's MIME database, where test_lesson_file_type.py,
        # running beside it, checks that the type is not known before its own install.
        pytest.skip("installing changes the system's databases that tests running beside it read: run this file "
                    "in one process (as .ci/run does after the build)")
    environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    installed = run("apt-get", "install", "-y", "-q", str(DEB), env=environment)
    assert installed.returncode == 0, installed.stdout[-2000:] + installed.stderr[-2000:]
    try:
        files = [line for line in run("dpkg", "-L", "attn-desktop").stdout.splitlines() if line.strip()]
        assert "/usr/bin/attn-desktop" in files and DESKTOP_FILE in files
        user = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
                "ATTN_DESKTOP_DATA_DIR": str(tmp_path / "data"), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        for language in SELF_TEST_LANGUAGES:  # each checks its numbers and words as the language writes them
            checked = run("/usr/bin/attn-desktop", "--self-test", "--lang", language, env=user)
            assert checked.returncode == 0 and "FAIL" not in checked.stdout, (language, checked.stdout + checked.stderr)
            assert spoke(language, checked.stdout), (language, checked.stdout)  # not English passed off as it
        assert run("/usr/bin/attn-desktop", "--version", env=user).stdout.strip().endswith(version())
        if shutil.which("desktop-file-validate"):
            validated = run("desktop-file-validate", DESKTOP_FILE)
            assert validated.returncode == 0 and validated.stdout == "", validated.stdout
    finally:
        removed = run("apt-get", "remove", "--purge", "-y", "-q", "attn-desktop", env=environment)
    assert removed.returncode == 0, removed.stdout[-2000:] + removed.stderr[-2000:]
    assert run("dpkg", "-s", "attn-desktop").returncode != 0
    left = [path for path in files if path not in ("/.", "/opt", "/usr", "/usr/bin", "/usr/share")
            and not Path(path).is_dir() and os.path.lexists(path)]
    assert left == []
    assert not Path("/opt/attn-desktop").exists() and not Path("/usr/share/doc/attn-desktop").exists()
