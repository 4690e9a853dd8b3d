"""The Debian package registers the lesson file type: it installs the MIME package, the type's icon and the menu
entry that declares it, and leaves the databases to the triggers of shared-mime-info, hicolor-icon-theme and
desktop-file-utils (no maintainer script). The package is built by packaging/debian_package.py around a stand-in
bundle (one small program instead of the frozen app, which takes long to build), then unpacked into a temporary
folder, where xdg-mime must name the type of a lesson file."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.project_root import ROOT
from tests.test_lesson_file_type import (
    LESSON_ICON,
    LESSON_TYPE,
    needs_desktop_tools,
    query_filetype,
    write_lesson,
)

APP_ID = "io.github.attn_desktop.AttentionDesktop"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)

pytestmark = pytest.mark.skipif(shutil.which("dpkg-deb") is None or shutil.which("ldd") is None,
                                reason="building a Debian package needs dpkg-deb and ldd")


def _debian_package():
    # By path: a folder named "packaging" must not shadow the PyPI package of that name.
    spec = importlib.util.spec_from_file_location("attn_debian_package", ROOT / "packaging" / "debian_package.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def deb(tmp_path_factory) -> Path:
    """The package, built around a stand-in bundle: the system's `true` as the app's program."""
    work = tmp_path_factory.mktemp("deb")
    bundle = work / "bundle"
    bundle.mkdir()
    shutil.copy2(shutil.which("true"), bundle / "attn-desktop")
    return _debian_package().build_deb(bundle, ROOT / "resources", "0.0.1", work, work / "build")


def contents(deb: Path) -> list[str]:
    listed = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True).stdout
    return [line.split(" ./", 1)[1].split(" -> ")[0].rstrip("/") for line in listed.splitlines() if " ./" in line]


def test_the_package_installs_the_mime_package_and_the_type_s_icon(deb):
    paths = contents(deb)
    assert f"usr/share/mime/packages/{APP_ID}.xml" in paths
    assert f"usr/share/icons/hicolor/scalable/mimetypes/{LESSON_ICON}.svg" in paths
    for size in ICON_SIZES:
        assert f"usr/share/icons/hicolor/{size}x{size}/mimetypes/{LESSON_ICON}.png" in paths, size
    assert not [path for path in paths if path.startswith("usr/share/mime/") and "packages" not in path]  # no cache


def test_the_databases_are_left_to_the_system_s_triggers(deb, tmp_path):
    """shared-mime-info, hicolor-icon-theme and desktop-file-utils watch their folders with dpkg file triggers and
    rebuild their caches once per installation: a maintainer script doing it again would only be slower."""
    subprocess.run(["dpkg-deb", "--control", str(deb), str(tmp_path / "control")], check=True)
    assert sorted(path.name for path in (tmp_path / "control").iterdir()) == ["control", "md5sums"]


def test_unpacked_the_package_makes_a_lesson_file_its_type(deb, tmp_path):
    needs_desktop_tools()
    root = tmp_path / "root"
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    share = root / "usr" / "share"
    lesson = write_lesson(tmp_path)
    assert query_filetype(lesson, share) != LESSON_TYPE
    subprocess.run(["update-mime-database", str(share / "mime")], check=True, capture_output=True, timeout=120)
    assert query_filetype(lesson, share) == LESSON_TYPE
    desktop_file = (share / "applications" / f"{APP_ID}.desktop").read_text(encoding="utf-8")
    assert f"MimeType={LESSON_TYPE};" in desktop_file.splitlines()


def test_lintian_finds_nothing_to_warn_of_in_the_files_for_the_desktop(deb):
    """The MIME package, the icons and the menu entry as Debian's checker reads them (the stand-in program aside,
    which the real package's own lintian test covers: tests/test_deb_package.py)."""
    if shutil.which("lintian") is None:
        pytest.skip("lintian is not installed")
    done = subprocess.run(["lintian", "--tag-display-limit", "0", str(deb)], capture_output=True, text=True,
                          check=False, timeout=600)
    warnings = [line for line in done.stdout.splitlines() if line.startswith(("E:", "W:"))]
    assert warnings == [], done.stdout
