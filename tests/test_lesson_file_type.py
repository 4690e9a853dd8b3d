"""A lesson file in the file manager: the MIME type application/x-attn-desktop-lesson (glob *.attn-lesson) with
an icon of its own, declared by the shared-mime-info package, opened by the .desktop file with the file's name,
and named in the AppStream data. With shared-mime-info and xdg-utils installed, the type is what a desktop
finds for a lesson file once the package is installed (here into a temporary data folder)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from xml.etree import ElementTree

import pytest
from PySide6.QtGui import QImage

from attn_desktop.model.teaching.builtin_lesson_files import builtin_lesson_file
from attn_desktop.model.teaching.lesson_file_writing import write_lesson_file
from attn_desktop.paths import APP_ID, ICON_SIZES, resource_dir

LESSON_TYPE = "application/x-attn-desktop-lesson"
LESSON_ICON = "application-x-attn-desktop-lesson"  # the icon theme's name for the type's icon
MIME_PACKAGE = resource_dir() / f"{APP_ID}.mime.xml"
DESKTOP_FILE = resource_dir() / f"{APP_ID}.desktop"
METAINFO = resource_dir() / f"{APP_ID}.metainfo.xml"
MIME_NAMESPACE = "{http://www.freedesktop.org/standards/shared-mime-info}"
DESKTOP_TOOLS = ("xdg-mime", "update-mime-database", "mimetype")  # xdg-mime asks `mimetype` outside a desktop


def _lesson_type_element() -> ElementTree.Element:
    root = ElementTree.parse(MIME_PACKAGE).getroot()
    assert root.tag == f"{MIME_NAMESPACE}mime-info"
    types = root.findall(f"{MIME_NAMESPACE}mime-type")
    assert [element.get("type") for element in types] == [LESSON_TYPE]
    return types[0]


def test_the_mime_package_declares_the_lesson_type_as_json_with_its_glob_and_icon():
    element = _lesson_type_element()
    assert [glob.get("pattern") for glob in element.findall(f"{MIME_NAMESPACE}glob")] == ["*.attn-lesson"]
    assert [parent.get("type") for parent in element.findall(f"{MIME_NAMESPACE}sub-class-of")] == ["application/json"]
    assert element.find(f"{MIME_NAMESPACE}icon").get("name") == LESSON_ICON
    comments = {comment.get("{http://www.w3.org/XML/1998/namespace}lang"): comment.text
                for comment in element.findall(f"{MIME_NAMESPACE}comment")}
    assert comments[None] == "Attention Desktop lesson"
    assert {"es", "zh_CN", "ar"} <= set(comments)  # the languages the app speaks


def test_the_desktop_file_opens_a_lesson_file_given_by_name():
    entries = dict(line.split("=", 1) for line in DESKTOP_FILE.read_text(encoding="utf-8").splitlines() if "=" in line)
    assert LESSON_TYPE in entries["MimeType"].split(";")
    assert entries["Exec"].split()[1:] == ["%f"]  # the file double-clicked, as a path: the app opens it as a lesson


def test_the_metainfo_says_the_app_opens_lesson_files():
    provides = ElementTree.parse(METAINFO).getroot().find("provides")
    assert LESSON_TYPE in [element.text for element in provides.findall("mediatype")]


def test_the_lesson_icon_is_there_in_every_size():
    folder = resource_dir() / "icons"
    assert (folder / "attn-lesson.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    for size in ICON_SIZES:
        image = QImage(str(folder / f"attn-lesson-{size}.png"))
        assert image.width() == image.height() == size, size
        corner, middle = image.pixelColor(0, 0), image.pixelColor(size // 2, size // 2)
        assert corner.alpha() == 0 and middle.alpha() == 255  # a page on a transparent ground


def write_lesson(folder: Path) -> Path:
    path = folder / "Pronouns.attn-lesson"
    write_lesson_file(builtin_lesson_file("self-attention"), path)
    return path


def xdg_mime(data_home: Path, *arguments: str) -> str:
    """What xdg-mime answers with DATA_HOME as the user's data folder, outside any desktop (no desktop's own
    settings reach it: the system's data and DATA_HOME alone)."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("XDG_", "KDE", "GNOME"))}
    environment |= {"XDG_DATA_HOME": str(data_home), "XDG_DATA_DIRS": "/usr/local/share:/usr/share"}
    done = subprocess.run(["xdg-mime", *arguments], capture_output=True, text=True, check=False, env=environment,
                          timeout=60)
    return done.stdout.strip()


def query_filetype(path: Path, data_home: Path) -> str:
    return xdg_mime(data_home, "query", "filetype", str(path))


def install_mime_package(package: Path, data_home: Path) -> None:
    """As a package manager does: the XML into mime/packages, then the database rebuilt from it."""
    packages = data_home / "mime" / "packages"
    packages.mkdir(parents=True, exist_ok=True)
    shutil.copy2(package, packages / f"{APP_ID}.xml")
    subprocess.run(["update-mime-database", str(data_home / "mime")], check=True, capture_output=True, timeout=120)


def needs_desktop_tools() -> None:
    missing = [tool for tool in DESKTOP_TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (xdg-utils, shared-mime-info, libfile-mimeinfo-perl)")


def test_a_desktop_finds_the_lesson_type_once_the_package_is_installed(tmp_path):
    needs_desktop_tools()
    lesson = write_lesson(tmp_path)
    data_home = tmp_path / "share"
    assert query_filetype(lesson, data_home) != LESSON_TYPE  # not known before
    install_mime_package(MIME_PACKAGE, data_home)
    assert query_filetype(lesson, data_home) == LESSON_TYPE


def test_a_double_click_on_a_lesson_file_opens_the_app(tmp_path):
    """The application a desktop starts for the type, once the menu entry is installed and its cache rebuilt."""
    if shutil.which("xdg-mime") is None or shutil.which("update-desktop-database") is None:
        pytest.skip("needs xdg-mime and update-desktop-database (xdg-utils, desktop-file-utils)")
    applications = tmp_path / "share" / "applications"
    applications.mkdir(parents=True)
    shutil.copy2(DESKTOP_FILE, applications / DESKTOP_FILE.name)
    subprocess.run(["update-desktop-database", str(applications)], check=True, capture_output=True, timeout=60)
    assert xdg_mime(tmp_path / "share", "query", "default", LESSON_TYPE) == DESKTOP_FILE.name
