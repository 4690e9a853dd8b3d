"""Before the window opens on Linux: can Qt's platform plugin load? If not, say which system
libraries are missing and how to install them. And is there a display to open it on?

Qt stops a process whose platform plugin cannot load with a message that names the wrong
package on a minimal Debian ("xcb-cursor0 or libxcb-cursor0 is needed" while libxcb-cursor0 is
installed and libxcb-icccm4 is what lacks). The dynamic loader knows better: `ldd` on the plugin
lists every library it needs and cannot find. This asks it before Qt starts, and turns the answer
into one message with the command that installs them.

With no display at all (DISPLAY unset, or naming an X server that is not running), Qt stops the
process the same way, naming that same package. display_problem() knocks on the display's socket
first, as Qt would, and says so in one line.

No Qt here (importing the PySide6 package only finds where its files are): it runs before Qt loads.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from attn_desktop.language import N_, tr

LDD_TIMEOUT_S = 10
# Every library Qt's X11 (xcb) and Wayland plugins and the Qt libraries under them may need from the system
# beyond a base install: its Debian/Ubuntu package and its Fedora package. (On Ubuntu 24.04 and Debian 13 a
# few carry a "t64" suffix, e.g. libglib2.0-0t64; apt-get accepts the old name for them.)
PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb-xinerama.so.0": ("libxcb-xinerama0", "libxcb"),
    "libxcb-xinput.so.0": ("libxcb-xinput0", "libxcb"),
    "libxcb-glx.so.0": ("libxcb-glx0", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libwayland-client.so.0": ("libwayland-client0", "libwayland-client"),
    "libwayland-cursor.so.0": ("libwayland-cursor0", "libwayland-cursor"),
    "libwayland-egl.so.1": ("libwayland-egl1", "libwayland-egl"),
}
DISPLAY_TIMEOUT_S = 2
# DISPLAY as X11 spells it: [protocol/][host]:display[.screen]
_X_DISPLAY = re.compile(r"^(?:(?P<protocol>[A-Za-z]+)/)?(?P<host>[^/:]*):(?P<number>\d+)(?:\.\d+)?$")
NO_DISPLAY_ADVICE = N_("try it from a desktop session (or ssh -X), or draw the window into a picture with "
                        "attn-desktop snapshot -o OUT.png --size 1280x800")  # shown with tr()
_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$")


@dataclass(frozen=True)
class PluginProblem:
    """A platform plugin that cannot load, and what it lacks."""

    plugin: str  # "xcb" or "wayland"
    missing: tuple[str, ...]  # sonames, in ldd's order

    def message(self) -> str:
        """Two lines: what is missing, and the commands that install it."""
        known = [PACKAGES[name] for name in self.missing if name in PACKAGES]
        debian = _unique(deb for deb, _ in known)
        fedora = _unique(rpm for _, rpm in known)
        lines = [tr("cannot open a window: Qt's {plugin} platform plugin needs {libraries}, which this system "
                    "lacks.").format(plugin=self.plugin, libraries=", ".join(self.missing))]
        if debian:
            # Translators: the commands stay as they are.
            lines.append(tr("Install with: sudo apt-get install {debian}   (Fedora: sudo dnf install {fedora})").format(
                debian=" ".join(debian), fedora=" ".join(fedora)))
        unknown = [name for name in self.missing if name not in PACKAGES]
        if unknown:
            lines.append(tr("Install the packages that provide {libraries}.").format(libraries=", ".join(unknown)))
        return "\n".join(lines)


def missing_from_ldd(output: str) -> list[str]:
    """The libraries `ldd` reports as "not found", in its order, each once."""
    return _unique(match.group(1) for line in output.splitlines() if (match := _NOT_FOUND.match(line)))


def _unique(items) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return list(seen)


def platform_plugins_dir() -> Path | None:
    """Where Qt looks for its platform plugins: $QT_QPA_PLATFORM_PLUGIN_PATH, else PySide6's own."""
    override = os.environ.get("QT_QPA_PLATFORM_PLUGIN_PATH")
    if override:
        return Path(override)
    try:
        import PySide6  # the package only: its __init__ loads no Qt library
    except ImportError:
        return None
    return Path(PySide6.__file__).resolve().parent / "Qt" / "plugins" / "platforms"


def plugins_qt_would_try() -> list[str]:
    """The platform plugins Qt will try on this Linux session, in its order; [] when it chose another
    (offscreen for the tests and the self-test) or has no display to try."""
    chosen = os.environ.get("QT_QPA_PLATFORM", "").split(":")[0].split(";")[0]
    if chosen and chosen not in ("xcb", "wayland"):
        return []
    plugins = []
    if os.environ.get("WAYLAND_DISPLAY") and chosen in ("", "wayland"):
        plugins.append("wayland")
    if os.environ.get("DISPLAY") and chosen in ("", "xcb"):
        plugins.append("xcb")
    return plugins


def check_platform_plugin() -> PluginProblem | None:
    """None when a plugin Qt will try can load (or there is nothing to check: not Linux, no ldd, no
    plugin file, no display); otherwise the first plugin's missing libraries."""
    if not sys.platform.startswith("linux"):
        return None
    folder = platform_plugins_dir()
    ldd = _loader_listing_command()
    if folder is None or ldd is None:
        return None
    problems = []
    for plugin in plugins_qt_would_try():
        path = folder / f"libq{plugin}.so"
        if not path.is_file():
            continue
        missing = _ask_the_loader(ldd, path)
        if missing is None or not missing:
            return None  # it loads (or the loader cannot tell): let Qt go on
        problems.append(PluginProblem(plugin, tuple(missing)))
    return problems[-1] if problems else None  # X11 last: what Qt falls back to, and what a machine lacks


def _loader_listing_command() -> list[str] | None:
    """The dynamic loader itself, found as this program's ELF interpreter, which lists a library's needs
    when LD_TRACE_LOADED_OBJECTS is set (what ldd does, without ldd's shell: a few ms instead of ~30 at
    every start); else ldd; None when neither is there."""
    loader = _elf_interpreter(sys.executable)
    if loader is not None and os.path.exists(loader):
        return [loader]
    ldd = shutil.which("ldd")
    return [ldd] if ldd else None


def _elf_interpreter(program: str) -> str | None:
    """The PT_INTERP path of a 64- or 32-bit little-endian ELF program, or None."""
    try:
        with open(program, "rb") as file:
            header = file.read(64)
            if header[:4] != b"\x7fELF" or header[5] != 1:
                return None
            wide = header[4] == 2
            phoff, phentsize, phnum = (struct.unpack_from("<Q", header, 0x20)[0], *struct.unpack_from("<HH", header, 0x36)) \
                if wide else (struct.unpack_from("<I", header, 0x1C)[0], *struct.unpack_from("<HH", header, 0x2A))
            file.seek(phoff)
            table = file.read(phentsize * phnum)
            for index in range(phnum):
                entry = table[index * phentsize:(index + 1) * phentsize]
                kind = struct.unpack_from("<I", entry, 0)[0]
                if kind == 3:  # PT_INTERP
                    offset, size = (struct.unpack_from("<Q", entry, 8)[0], struct.unpack_from("<Q", entry, 32)[0]) \
                        if wide else (struct.unpack_from("<I", entry, 4)[0], struct.unpack_from("<I", entry, 16)[0])
                    file.seek(offset)
                    return file.read(size).rstrip(b"\0").decode("utf-8", "replace")
    except (OSError, struct.error, IndexError):
        return None
    return None


def _ask_the_loader(ldd: list[str], path: Path) -> list[str] | None:
    try:
        # (Not "ld.so --list": it stops at the first missing library. close_fds=False lets Python spawn
        # the loader without forking itself, which is faster.)
        done = subprocess.run([*ldd, str(path)], capture_output=True, text=True, timeout=LDD_TIMEOUT_S, check=False,
                              env={**os.environ, "LD_TRACE_LOADED_OBJECTS": "1"}, close_fds=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return missing_from_ldd(done.stdout)


def display_problem() -> str | None:
    """One line saying there is no display for the window, or None: one answers, Qt was told to use
    another platform (offscreen for the tests, the self-test and the headless commands), or this is
    not Linux. A display this cannot read (an unusual DISPLAY) counts as there: Qt will say."""
    if not sys.platform.startswith("linux"):
        return None
    chosen = {part.split(":")[0] for part in os.environ.get("QT_QPA_PLATFORM", "").split(";") if part}
    if chosen - {"xcb", "wayland"}:
        return None
    wayland = os.environ.get("WAYLAND_DISPLAY", "") if not chosen or "wayland" in chosen else ""
    x11 = os.environ.get("DISPLAY", "") if not chosen or "xcb" in chosen else ""
    reasons = []
    if wayland:
        if _wayland_answers(wayland) is not False:
            return None
        reasons.append(tr("no Wayland compositor answers at WAYLAND_DISPLAY={display}").format(display=wayland))
    if x11:
        if _x_server_answers(x11) is not False:
            return None
        reasons.append(tr("no X server answers at DISPLAY={display}").format(display=x11))
    if not reasons:
        reasons.append(_nothing_set(chosen))
    # Translators: {reasons} says why ("DISPLAY is not set"), {advice} what to do instead.
    return tr("no display: {reasons}, so the window has no screen to open on; {advice}").format(
        reasons=tr(" and ").join(reasons), advice=tr(NO_DISPLAY_ADVICE))


def _nothing_set(chosen: set[str]) -> str:
    if chosen == {"xcb"}:
        return tr("DISPLAY is not set")
    if chosen == {"wayland"}:
        return tr("WAYLAND_DISPLAY is not set")
    return tr("neither DISPLAY nor WAYLAND_DISPLAY is set")


def _x_server_answers(display: str) -> bool | None:
    """Whether an X server accepts a connection at DISPLAY; None when DISPLAY reads as no address known here."""
    match = _X_DISPLAY.match(display)
    if match is None:
        return None
    number, host, protocol = int(match["number"]), match["host"], (match["protocol"] or "").lower()
    if protocol in ("", "unix", "local") and host in ("", "unix"):
        path = f"/tmp/.X11-unix/X{number}"
        return _unix_socket_answers("\0" + path) or _unix_socket_answers(path)  # Linux's abstract socket, then the file
    if protocol not in ("", "tcp", "inet", "inet6"):
        return None
    try:
        with socket.create_connection((host or "localhost", 6000 + number), timeout=DISPLAY_TIMEOUT_S):
            return True
    except OSError:
        return False


def _wayland_answers(name: str) -> bool | None:
    """Whether a compositor accepts a connection at WAYLAND_DISPLAY; None when its folder is not known."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if not os.path.isabs(name) and not runtime:
        return None
    return _unix_socket_answers(name if os.path.isabs(name) else os.path.join(runtime or "", name))


def _unix_socket_answers(address: str) -> bool:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(DISPLAY_TIMEOUT_S)
            connection.connect(address)
            return True
    except OSError:
        return False
