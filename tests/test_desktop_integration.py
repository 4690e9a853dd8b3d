"""The icon, the .desktop file and the AppStream metainfo: present, valid, and used by the window."""

import shutil
import subprocess

import pytest

from attn_desktop.paths import APP_ID, ICON_SIZES, icon_files, resource_dir

DESKTOP_FILE = resource_dir() / f"{APP_ID}.desktop"
METAINFO = resource_dir() / f"{APP_ID}.metainfo.xml"


def test_every_icon_size_is_there():
    from PySide6.QtGui import QImage

    for path in icon_files()[1:]:
        size = int(path.stem.rsplit("-", 1)[1])
        image = QImage(str(path))
        assert size in ICON_SIZES and image.width() == image.height() == size, path.name
    assert icon_files()[0].read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_the_desktop_file_launches_the_command_with_our_icon():
    entries = dict(line.split("=", 1) for line in DESKTOP_FILE.read_text(encoding="utf-8").splitlines() if "=" in line)
    assert entries["Exec"].split()[0] == "attn-desktop" and entries["Icon"] == APP_ID
    assert entries["Terminal"] == "false" and "Education" in entries["Categories"]


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-validate is not installed")
def test_desktop_file_validates():
    done = subprocess.run(["desktop-file-validate", str(DESKTOP_FILE)], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "error" not in done.stdout.lower(), done.stdout


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstreamcli is not installed")
def test_metainfo_validates():
    done = subprocess.run(["appstreamcli", "validate", "--no-net", str(METAINFO)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_app_sets_its_icon_and_desktop_file_name(qapp):
    from attn_desktop.ui.window.startup.app import make_application

    app = make_application()
    assert app.desktopFileName() == APP_ID
    assert 256 in [size.width() for size in app.windowIcon().availableSizes()]
