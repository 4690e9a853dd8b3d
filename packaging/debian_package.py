"""The frozen bundle as a Debian package for computer labs: python packaging/build.py --deb.

    /opt/attn-desktop/                 the bundle as PyInstaller made it
    /usr/bin/attn-desktop              a link to /opt/attn-desktop/attn-desktop
    /usr/share/applications/…desktop   the menu entry
    /usr/share/icons/hicolor/…/apps/   the icon, 16 to 512 pixels and scalable
    /usr/share/icons/hicolor/…/mimetypes/  a lesson file's icon (application-x-attn-desktop-lesson), the same sizes
    /usr/share/mime/packages/…xml      the lesson file type, application/x-attn-desktop-lesson (*.attn-lesson)
    /usr/share/metainfo/…metainfo.xml  AppStream (software centres)
    /usr/share/doc/attn-desktop/       copyright, changelog
    /usr/share/lintian/overrides/      why files sit under /opt (see README, "Install for a class")

Depends: names the packages of the system libraries the bundle leaves to the system (packaging/
bundle_files.py), found by asking the dynamic loader what every library in the bundle resolves to
outside it, and dpkg which package holds each of those files. dpkg-deb builds it with root as the
owner of every file; removing the package leaves nothing behind (no maintainer scripts write anything).
The MIME database, the icon cache and the menu's MIME cache are rebuilt by the dpkg file triggers of
shared-mime-info, hicolor-icon-theme and desktop-file-utils, once per installation, whichever packages brought
files into their folders: a postinst calling update-mime-database would only do it twice.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import shutil
import subprocess
from datetime import datetime, timezone
from email.utils import format_datetime
from pathlib import Path

PACKAGE = "attn-desktop"
APP_ID = "io.github.attn_desktop.AttentionDesktop"
INSTALL_DIR = Path("opt") / PACKAGE
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
LESSON_ICON = "application-x-attn-desktop-lesson"  # the icon theme's name for application/x-attn-desktop-lesson
MAINTAINER = "Attention Desktop developers <attn-desktop@users.noreply.github.com>"
HOMEPAGE = "https://github.com/attn-desktop/attn-desktop"
DESCRIPTION = """\
learn attention by dragging queries, keys and values
 An offline lab for scaled dot-product attention: drag the query, key and
 value arrows of a short sentence and watch the score table, the softmax
 weights, the attention matrix and the output vector recompute.
 .
 Lessons take students from a soft lookup to projections, self-attention,
 the division by sqrt(d_k) and several heads, with exercises the app checks."""
LINTIAN_OVERRIDES = """\
# A self-contained PyInstaller bundle (its own Python, NumPy and Qt) lives in one folder under /opt,
# as third-party applications do; nothing of it is meant to be shared with other packages.
attn-desktop: dir-or-file-in-opt *
attn-desktop: embedded-library *
attn-desktop: shared-library-lacks-prerequisites *
attn-desktop: unstripped-binary-or-object *
attn-desktop: executable-not-elf-or-script *
# Python's own extension module for the statistics module needs no C library function.
attn-desktop: library-not-linked-against-libc [opt/attn-desktop/_internal/python3.11/lib-dynload/*]
"""
MAN_PAGE = """\
.TH ATTN-DESKTOP 1 "November 2026" "attn-desktop {version}" "User Commands"
.SH NAME
attn-desktop \\- learn attention by dragging queries, keys and values
.SH SYNOPSIS
.B attn-desktop
[\\fISCENE.json\\fR | \\fILESSON.attn-lesson\\fR]
.br
.B attn-desktop export
\\fISCENE.json\\fR \\fB-o\\fR \\fIOUT.json|.csv|.png|.svg\\fR
.br
.B attn-desktop snapshot
[\\fISCENE\\fR] \\fB-o\\fR \\fIOUT.png\\fR \\fB--size\\fR \\fIWxH\\fR
.br
.B attn-desktop
\\fB--self-test\\fR | \\fB--version\\fR
.SH DESCRIPTION
An offline lab for scaled dot-product attention: drag the query, key and value arrows of a short
sentence and watch the score table, the softmax weights, the attention matrix and the output vector
recompute. It opens SCENE.json, a teacher's lesson file (LESSON.attn-lesson, as a student sees it), or a
six-word example. The subcommands work without a display;
\\fBattn-desktop export --help\\fR and the others describe their options.
.SH EXIT STATUS
0 on success; 2 for input it cannot use (a broken scene file, a missing system library), with one
line on standard error saying why.
"""


def deb_architecture() -> str:
    return subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True).stdout.strip()


def build_deb(bundle: Path, resources: Path, version: str, out_dir: Path, work: Path) -> Path:
    """Stage the package under WORK and build it into OUT_DIR; returns the .deb's path."""
    stage = work / "deb-root"
    shutil.rmtree(stage, ignore_errors=True)
    app_dir = stage / INSTALL_DIR
    shutil.copytree(bundle, app_dir, symlinks=True)
    _install_desktop_files(stage, resources, version)
    (stage / "usr" / "bin").mkdir(parents=True)
    os.symlink(f"/{INSTALL_DIR}/{PACKAGE}", stage / "usr" / "bin" / PACKAGE)
    depends = system_packages(app_dir)
    control = stage / "DEBIAN"
    control.mkdir()
    (control / "control").write_text(_control(version, depends, _installed_size_kb(stage)), encoding="utf-8")
    (control / "md5sums").write_text(_md5sums(stage), encoding="utf-8")
    _normalise_modes(stage)
    target = out_dir / f"{PACKAGE}_{version}_{deb_architecture()}.deb"
    target.unlink(missing_ok=True)
    # xz at its highest level: 0.6 MiB less than dpkg-deb's default (-z6) for what each lab machine downloads,
    # for a little more build time; unpacking needs 65 MiB of memory instead of 9.
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zxz", "-z9", "--build", str(stage), str(target)],
                   check=True, capture_output=True, text=True)
    return target


def _install_desktop_files(stage: Path, resources: Path, version: str) -> None:
    share = stage / "usr" / "share"
    for folder, source, name in (("applications", f"{APP_ID}.desktop", f"{APP_ID}.desktop"),
                                 ("metainfo", f"{APP_ID}.metainfo.xml", f"{APP_ID}.metainfo.xml"),
                                 ("mime/packages", f"{APP_ID}.mime.xml", f"{APP_ID}.xml")):
        (share / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy2(resources / source, share / folder / name)
    icons = share / "icons" / "hicolor"
    _install_icons(icons, resources / "icons", "attn-desktop", "apps", APP_ID)
    _install_icons(icons, resources / "icons", "attn-lesson", "mimetypes", LESSON_ICON)
    doc = share / "doc" / PACKAGE
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(_copyright(), encoding="utf-8")
    # A package made here, not from a Debian source package: a "native" one, whose changelog is changelog.gz.
    changelog = (f"{PACKAGE} ({version}) unstable; urgency=medium\n\n  * Release {version}.\n\n"
                 f" -- {MAINTAINER}  {format_datetime(datetime(2026, 11, 29, tzinfo=timezone.utc))}\n")
    (doc / "changelog.gz").write_bytes(gzip.compress(changelog.encode("utf-8"), mtime=0))
    man = share / "man" / "man1"
    man.mkdir(parents=True)
    (man / f"{PACKAGE}.1.gz").write_bytes(gzip.compress(MAN_PAGE.format(version=version).encode("utf-8"), mtime=0))
    overrides = share / "lintian" / "overrides"
    overrides.mkdir(parents=True)
    (overrides / PACKAGE).write_text(LINTIAN_OVERRIDES, encoding="utf-8")


def _install_icons(icons: Path, sources: Path, source_name: str, context: str, name: str) -> None:
    """SOURCE_NAME's PNGs (one per size) and SVG into the hicolor theme's CONTEXT folders, as NAME."""
    for size in ICON_SIZES:
        folder = icons / f"{size}x{size}" / context
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy2(sources / f"{source_name}-{size}.png", folder / f"{name}.png")
    (icons / "scalable" / context).mkdir(parents=True, exist_ok=True)
    shutil.copy2(sources / f"{source_name}.svg", icons / "scalable" / context / f"{name}.svg")


def _copyright() -> str:
    return (
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
        f"Upstream-Name: {PACKAGE}\n\n"
        "Files: *\nCopyright: 2026 Attention Desktop developers\nLicense: MIT\n"
        " Permission is hereby granted, free of charge, to any person obtaining a copy of this software and\n"
        " associated documentation files, to deal in the Software without restriction, subject to the\n"
        " conditions of the MIT license. The bundle under /opt/attn-desktop also carries Python (PSF\n"
        " license), NumPy (BSD), pyqtgraph (MIT) and Qt for Python (LGPLv3), each under its own license.\n"
    )


def _control(version: str, depends: list[str], size_kb: int) -> str:
    return (
        f"Package: {PACKAGE}\nVersion: {version}\nArchitecture: {deb_architecture()}\n"
        f"Maintainer: {MAINTAINER}\nInstalled-Size: {size_kb}\n"
        f"Depends: {', '.join(depends)}\nSection: education\nPriority: optional\n"
        f"Homepage: {HOMEPAGE}\nDescription: {DESCRIPTION}\n"
    )


def system_packages(app_dir: Path) -> list[str]:
    """The packages holding the libraries the bundle's binaries load from the system: every library
    `ldd` resolves outside the bundle whose name the bundle does not carry itself (ldd on one library
    alone does not see the bundle's folder, which the running app does)."""
    elf_files = list(_elf_files(app_dir))
    carried = {path.name for path in elf_files}
    libraries = set()
    for path in elf_files:
        done = subprocess.run(["ldd", str(path)], capture_output=True, text=True, check=False)
        for line in done.stdout.splitlines():
            match = re.match(r"\s*(\S+)\s+=>\s+(/\S+)\s", line)
            if match and match.group(1) not in carried:
                libraries.add(match.group(2))
    return sorted({package for library in libraries if (package := _package_of(library))})


def _elf_files(folder: Path):
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with open(path, "rb") as file:
                if file.read(4) == b"\x7fELF":
                    yield path


def _package_of(library: str) -> str | None:
    """dpkg -S, trying the path and its other spelling (/lib and /usr/lib are one folder on merged systems)."""
    candidates = [library, str(Path(library).resolve())]
    candidates += [("/usr" + path) if not path.startswith("/usr/") else path[4:] for path in list(candidates)]
    for candidate in candidates:
        done = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True, check=False)
        if done.returncode == 0 and ":" in done.stdout:
            return done.stdout.split(":", 1)[0].split(",")[0].strip()
    return None


def _installed_size_kb(stage: Path) -> int:
    total = sum(path.stat().st_size for path in stage.rglob("*") if path.is_file() and not path.is_symlink())
    return (total + 1023) // 1024


def _md5sums(stage: Path) -> str:
    lines = []
    for path in sorted(stage.rglob("*")):
        if path.is_file() and not path.is_symlink() and "DEBIAN" not in path.relative_to(stage).parts:
            lines.append(f"{hashlib.md5(path.read_bytes()).hexdigest()}  {path.relative_to(stage).as_posix()}")
    return "\n".join(lines) + "\n"


def _normalise_modes(stage: Path) -> None:
    """Folders 755, files 644, programs 755 (never a shared library: it is loaded, not run), whatever the umask."""
    for path in stage.rglob("*"):
        if path.is_symlink():
            continue
        if path.is_dir():
            path.chmod(0o755)
        else:
            library = re.search(r"\.so(\.\d+)*$", path.name) is not None
            path.chmod(0o755 if path.stat().st_mode & 0o111 and not library else 0o644)
